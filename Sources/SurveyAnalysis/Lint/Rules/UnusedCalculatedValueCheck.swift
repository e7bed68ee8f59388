import SurveyCore

/// `unused-calculated-value`: a calculated value no expression and no text refers to.
///
/// Calculated values are not part of the results; one that no condition, other calculated value or
/// piped text (`{name}` in a title, description or option text) uses has no effect.
final class UnusedCalculatedValueCheck: LintCheck {
    func prepare(_ context: LintContext) {
        let model = context.model
        guard !model.calculated.isEmpty else { return }
        var used = Set<Int>()
        for site in model.conditions { used.formUnion(site.expression.referencedSlots) }
        for validator in model.survey.analysisValidatorExpressions {
            used.formUnion(validator.expression.referencedSlots)
        }
        var piped = Set<String>()
        let definition = model.survey.definition
        var texts: [JSONValue] = [definition.title.jsonValue]
        if let description = definition.description { texts.append(description.jsonValue) }
        texts += definition.steps.map(\.jsonValue)
        // Completion messages, redirects and triggers read names too: their texts, conditions and expressions.
        for message in definition.completionMessages {
            texts.append(message.text.jsonValue)
            if let condition = message.condition { texts.append(.string(condition)) }
        }
        for redirect in definition.completionRedirects {
            texts.append(.string(redirect.url))
            if let condition = redirect.condition { texts.append(.string(condition)) }
        }
        for trigger in definition.triggers {
            texts.append(.string(trigger.condition))
            switch trigger.action {
            case .runExpression(let expression, _): texts.append(.string(expression))
            case .copyValue(let from, _): piped.insert(from)
            default: break
            }
        }
        for text in texts { Self.collectPipes(in: text, into: &piped) }
        for (index, value) in model.calculated.enumerated() where piped.contains(value.name) {
            used.insert(model.stepCount + index)
        }
        // A value used only by values nobody uses is unused too.
        var changed = true
        while changed {
            changed = false
            for (index, value) in model.calculated.enumerated() where used.contains(model.stepCount + index) {
                for slot in value.expression.referencedSlots where used.insert(slot).inserted { changed = true }
            }
        }
        var usedBy: [Int: String] = [:]
        for value in model.calculated {
            for slot in value.expression.referencedSlots where usedBy[slot] == nil { usedBy[slot] = value.name }
        }
        for (index, value) in model.calculated.enumerated() {
            let slot = model.stepCount + index
            // A comment box's text is an answer, reported with the results whether read or not.
            guard !used.contains(slot), !model.survey.isComment(value.name) else { continue }
            let only =
                usedBy[slot].map { " (only the calculated value '\($0)' refers to it, and nothing uses that)" } ?? ""
            let what = value.isVariable ? "variable" : "calculated value"
            context.report(
                .unusedCalculatedValue,
                "the \(what) '\(value.name)' is never used: no condition or text refers to {\(value.name)}\(only); use it or remove it",
                stepID: nil, path: value.path)
        }
    }

    /// The root names of every `{name}` in the strings of `value`.
    static func collectPipes(in value: JSONValue, into names: inout Set<String>) {
        switch value {
        case .string(let text):
            guard text.contains("{") else { return }
            for name in Survey.pipedReferences(in: text) {
                names.insert(name)
                if let root = name.split(separator: ".").first { names.insert(String(root)) }
            }
        case .array(let elements):
            for element in elements { collectPipes(in: element, into: &names) }
        case .object(let members):
            for (key, member) in members where !["visibleIf", "requiredIf", "if"].contains(key) {
                collectPipes(in: member, into: &names)
            }
        default:
            break
        }
    }
}

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
        for value in model.calculated { used.formUnion(value.expression.referencedSlots) }
        var piped = Set<String>()
        let definition = model.survey.definition
        var texts: [JSONValue] = [definition.title.jsonValue]
        if let description = definition.description { texts.append(description.jsonValue) }
        texts += definition.steps.map(\.jsonValue)
        for text in texts { Self.collectPipes(in: text, into: &piped) }
        for (index, value) in model.calculated.enumerated() {
            let slot = model.stepCount + index
            guard !used.contains(slot), !piped.contains(value.name) else { continue }
            context.report(
                .unusedCalculatedValue,
                "the calculated value '\(value.name)' is never used: no condition, calculated value or text refers to {\(value.name)}; use it or remove it",
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

import SurveyCore

/// `unknown-choice-value` and `type-mismatch`: comparisons of a question's answer with a literal it
/// can never equal, because the value is not one of its choices or because of the answer's type.
///
/// Decided per comparison from the question's answer domain, independently of the flow: a choice
/// answer is always one of the choice values (or, with Other, the respondent's own text, never the
/// value `other`); a yes/no answer is `true` or `false`; a number is a number in range; a
/// multiple-choice answer is a list. Every such finding is certain.
final class ComparisonCheck: LintCheck {
    /// Step slot → the choice values of the other questions sharing its value: a SurveyJS survey's
    /// second question of a name (`x-surveyjs.data.duplicates`, written by the importer) keeps its
    /// answer in the first one's value, so a comparison of the first may name a choice of either.
    private var sharedChoiceValues: [Int: [String]] = [:]

    func prepare(_ context: LintContext) {
        let model = context.model
        sharedChoiceValues = Self.sharedChoiceValues(context)
        for (index, site) in model.conditions.enumerated() {
            if checkReferences(in: site.expression, path: site.path, stepID: site.stepID, context) {
                context.explainedConditions.insert(index)
            }
            // A comparison that is one alternative of an `or` leaves the condition to the others: when
            // the whole condition can still hold, a value no choice has is a stale alternative (a warning).
            let alternatives = Self.orAlternatives(in: site.expression.rootNode, model)
            let softened =
                !alternatives.isEmpty
                && context.evaluator.canHold(context.flow.predicates.conditions[index], in: context.unconstrained)
            // Under a `not`, a comparison that never matches makes the condition always hold: a warning.
            let negated = Self.negatedComparisons(in: site.expression.rootNode, model)
            var seen = Set<String>()
            for comparison in ExpressionUsage.comparisons(in: site.expression.rootNode) {
                let key = ExpressionUsage.text(of: comparison.node, in: model)
                guard seen.insert(key).inserted else { continue }
                let soften = (softened && alternatives.contains(key)) || negated.contains(key)
                if check(comparison, path: site.path, stepID: site.stepID, soften: soften, context) {
                    context.explainedConditions.insert(index)
                }
            }
        }
        for value in model.calculated {
            _ = checkReferences(in: value.expression, path: value.path.appending("expression"), stepID: nil, context)
            for comparison in ExpressionUsage.comparisons(in: value.expression.rootNode) {
                _ = check(comparison, path: value.path.appending("expression"), stepID: nil, soften: false, context)
            }
        }
    }

    /// The texts of the comparisons reached from `root` through `and`/`or` only, below at least one `or`.
    private static func orAlternatives(in root: ExpressionNodeView, _ model: FlowModel) -> Set<String> {
        var result = Set<String>()
        var stack = [(root, false)]
        while let (node, belowOr) = stack.popLast() {
            guard case .binary(let op, let lhs, let rhs) = node.shape else { continue }
            if op == .and || op == .or {
                stack.append((lhs, belowOr || op == .or))
                stack.append((rhs, belowOr || op == .or))
            } else if belowOr, ExpressionUsage.literalComparison(node) != nil {
                result.insert(ExpressionUsage.text(of: node, in: model))
            }
        }
        return result
    }

    /// The texts of the comparisons below an odd number of `not`s (`!({q} = 'x')`), reached through
    /// `and`, `or` and `not` only.
    private static func negatedComparisons(in root: ExpressionNodeView, _ model: FlowModel) -> Set<String> {
        var result = Set<String>()
        var stack = [(root, false)]
        while let (node, isNegated) = stack.popLast() {
            switch node.shape {
            case .not(let operand): stack.append((operand, !isNegated))
            case .binary(let op, let lhs, let rhs) where op == .and || op == .or:
                stack.append((lhs, isNegated))
                stack.append((rhs, isNegated))
            default:
                if isNegated, ExpressionUsage.literalComparison(node) != nil {
                    result.insert(ExpressionUsage.text(of: node, in: model))
                }
            }
        }
        return result
    }

    private static func sharedChoiceValues(_ context: LintContext) -> [Int: [String]] {
        let model = context.model
        let duplicates =
            model.survey.definition.extensions["x-surveyjs"]?["data"]?["duplicates"]?.objectValue ?? [:]
        var result: [Int: [String]] = [:]
        for (id, owner) in duplicates.sorted(by: { $0.key < $1.key }) {
            guard let owner = owner.stringValue, let ownerSlot = context.stepIndexByID[owner],
                let slot = context.stepIndexByID[id], slot < context.domains.count,
                ownerSlot < context.domains.count, context.domains[slot].kind == context.domains[ownerSlot].kind
            else { continue }
            result[ownerSlot, default: []].append(contentsOf: context.domains[slot].choiceValues)
            result[slot, default: []].append(contentsOf: context.domains[ownerSlot].choiceValues)
        }
        return result
    }

    /// Reports a problem with one comparison; returns whether it was certain (an error).
    /// With `soften`, what would be an error is a warning (and does not explain the condition).
    private func check(
        _ comparison: LiteralComparison, path: JSONPath, stepID: String?, soften: Bool, _ context: LintContext
    ) -> Bool {
        let certain = checkComparison(comparison, path: path, stepID: stepID, soften: soften, context)
        return certain && !soften
    }

    private func checkComparison(
        _ comparison: LiteralComparison, path: JSONPath, stepID: String?, soften: Bool, _ context: LintContext
    ) -> Bool {
        let model = context.model
        guard comparison.slot < model.stepCount else { return false }
        let step = model.steps[comparison.slot]
        let domain = context.domains[comparison.slot]
        let written = "\"\(ExpressionUsage.text(of: comparison.node, in: model))\""
        let name = "{\(step.id)}"
        // `{q} = ''` and `{q} != ''` test for an answer, as `empty` does: not a comparison with a value.
        let elements = (comparison.literal.arrayValue ?? [comparison.literal]).filter { !$0.isEmptyAnswer }
        if comparison.literal.isEmptyAnswer || elements.isEmpty { return false }
        let op = comparison.op
        func error(_ rule: LintRule, _ message: String) -> Bool {
            context.report(rule, soften ? .warning : .error, message, stepID: stepID, path: path)
            return true
        }
        if let member = comparison.member {
            return checkMember(
                member, of: step, domain: domain, comparison, written: written, path: path, stepID: stepID,
                soften: soften, context)
        }
        switch domain.kind {
        case .none:
            if comparison.literal.isNull { return false }
            return error(
                .typeMismatch,
                "\(written) compares \(name), but '\(step.id)' is a \(step.question.typeID) step and never has an answer; "
                    + "compare a question instead")
        case .opaque:
            return false
        case .boolean:
            // A yes/no question storing values of its own (`trueValue`/`falseValue`) compares as they are.
            if case .boolean(let input) = step.question.input(in: .english),
                input.trueValue != nil || input.falseValue != nil
            {
                return false
            }
            if op.isOrdering || op == .contains || op == .notContains {
                return error(
                    .typeMismatch,
                    "\(written) cannot hold: '\(step.id)' is a yes/no question whose answer is true or false, which \(op.symbol) does not apply to; write \(name) = true or \(name) = false"
                )
            }
            for element in elements {
                switch element {
                case .bool: continue
                case .string(let text) where ["true", "false"].contains(text.lowercased()): continue
                // survey-core compares true with 1 and false with 0 as numbers: {b} = 1 holds for yes.
                case .number(let number) where number == 0 || number == 1: continue
                case .null: continue
                default:
                    let hint =
                        element.stringValue.map { ["yes", "y", "ja", "oui", "si", "sí"].contains($0.lowercased()) }
                            ?? false
                        ? "true"
                        : (element.stringValue.map { ["no", "n", "nein", "non"].contains($0.lowercased()) } ?? false
                            ? "false" : "true or false")
                    return error(
                        .typeMismatch,
                        "\(written) never holds as intended: '\(step.id)' is a yes/no question, its answer is true or false, never \(context.text(of: element)); write \(name) = \(hint)"
                    )
                }
            }
            return false
        case .number:
            if op == .contains || op == .notContains {
                return error(
                    .typeMismatch,
                    "\(written) cannot hold: '\(step.id)' has a number as its answer and \(op.symbol) applies to lists and text; use = or anyof"
                )
            }
            for element in elements where !element.isNull {
                guard let number = ExpressionValue.number(element) else {
                    return error(
                        .typeMismatch,
                        "\(written) compares the number answer of '\(step.id)' with \(context.text(of: element)), which is not a number, so it never holds; compare with a number such as \(name) = 3"
                    )
                }
                if op.isEqualityLike, domain.isEnumerated, !domain.values.contains(.number(number)) {
                    let possible = domain.values.dropFirst().compactMap(\.numberValue)
                    let range =
                        possible.isEmpty
                        ? "no value"
                        : "\(JSONValue.format(number: possible.min()!))–\(JSONValue.format(number: possible.max()!))"
                    return error(
                        .unknownChoiceValue,
                        "\(written) compares '\(step.id)' with \(JSONValue.format(number: number)), which it can never be (its answers are \(range)\(domain.values.count < 14 ? ": " + possible.map { JSONValue.format(number: $0) }.joined(separator: ", ") : ""))"
                    )
                }
            }
            return false
        case .text:
            return false
        case .date:
            if op.isEqualityLike {
                for element in elements {
                    guard case .string(let text) = element, DomainBuilder.day(text) == nil else { continue }
                    return error(
                        .typeMismatch,
                        "\(written) never holds: '\(step.id)' is a date question whose answers are written YYYY-MM-DD, and '\(text)' is not a date"
                    )
                }
            }
            return false
        case .composite, .file:
            // `contains 'field'` tests whether a field is filled in.
            if op == .contains || op == .notContains || comparison.literal.isNull { return false }
            return error(
                .typeMismatch,
                "\(written) never holds: the answer of '\(step.id)' is an object of fields, not a single value; compare one field, such as {\(step.id).\(domain.fieldNames.first ?? "field")}"
            )
        case .singleChoice, .multipleChoice, .ranking:
            return checkChoice(
                step: step, domain: domain, shared: sharedChoiceValues[comparison.slot] ?? [], comparison,
                written: written, elements: elements,
                report: { rule, severity, message in
                    context.report(rule, soften ? .warning : severity, message, stepID: stepID, path: path)
                }, context)
        }
    }

    private func checkChoice(
        step: Survey.AnalysisStep, domain: AnswerDomain, shared: [String], _ comparison: LiteralComparison,
        written: String, elements: [JSONValue], report: (LintRule, LintSeverity, String) -> Void,
        _ context: LintContext
    ) -> Bool {
        // A value another question sharing this one's value offers is a value it can have.
        let choiceValues = domain.choiceValues + shared.filter { !domain.choiceValues.contains($0) }
        func error(_ rule: LintRule, _ message: String) -> Bool {
            report(rule, .error, message)
            return true
        }
        func warning(_ rule: LintRule, _ message: String) -> Bool {
            report(rule, .warning, message)
            return false
        }
        let op = comparison.op
        let name = "{\(step.id)}"
        let isList = domain.kind != .singleChoice
        if isList {
            if op.isOrdering {
                return error(
                    .typeMismatch,
                    "\(written) never holds: the answer of '\(step.id)' is a list of choices, which cannot be ordered; use \(name) contains 'value' or count(\(name)) \(op.symbol) n"
                )
            }
            if op == .equal || op == .notEqual, comparison.literal.arrayValue == nil, !comparison.literal.isNull {
                let outcome = op == .equal ? "never holds" : "always holds"
                return error(
                    .typeMismatch,
                    "\(written) \(outcome): the answer of '\(step.id)' is a list of choices, never the single value \(context.text(of: comparison.literal)); write \(name) contains \(context.text(of: comparison.literal)) (or \(name) = [\(context.text(of: comparison.literal))] for exactly that choice)"
                )
            }
        } else if op == .contains || op == .notContains {
            // Substring semantics on a single value.
            let matching = choiceValues.filter { value in
                elements.allSatisfy { element in ExpressionValue.contains(.string(value), element) }
            }
            let exact =
                elements.count == 1 && choiceValues.contains { ExpressionValue.equals(.string($0), elements[0]) }
            if matching.isEmpty && !domain.hasOther {
                return error(
                    .typeMismatch,
                    "\(written) \(op == .contains ? "never holds" : "always holds"): '\(step.id)' has a single choice as its answer, and \(op.symbol) on a single value tests for text inside it; no choice contains \(elements.map(context.text(of:)).joined(separator: ", ")). Write \(name) \(op == .contains ? "=" : "<>") \(context.text(of: elements.first ?? .null))"
                )
            }
            if !(exact && matching.count == 1) {
                _ = warning(
                    .typeMismatch,
                    "\(written): '\(step.id)' has a single choice as its answer, and \(op.symbol) on a single value tests for text inside it (it matches \(matching.isEmpty ? "only Other texts" : matching.map { "'\($0)'" }.joined(separator: ", "))); write \(name) \(op == .contains ? "=" : "<>") \(context.text(of: elements.first ?? .null)) or anyof [...]"
                )
                return false
            }
        }
        if op.isOrdering { return false }
        // A value that is no choice makes the condition never hold only when nothing else in it can
        // match: negated (<>, notcontains, noneof) the condition then always holds, and beside a
        // known value (anyof) it is a stale entry. Those are warnings; the rest errors.
        let anyKnown = elements.contains { element in
            choiceValues.contains { ExpressionValue.equals(.string($0), element) }
        }
        let negated = op == .notEqual || op == .notContains || op == .noneOf
        let severity: LintSeverity = negated || (anyKnown && op != .allOf) ? .warning : .error
        var certain = false
        for element in elements where !element.isNull {
            if choiceValues.contains(where: { ExpressionValue.equals(.string($0), element) }) { continue }
            if case .bool = element {
                return error(
                    .typeMismatch,
                    "\(written) never holds: '\(step.id)' is a choice question, its answers are choice values, never \(context.text(of: element))"
                )
            }
            if choiceValues.contains(where: { ExpressionValue.equals(.string($0), element) }) { continue }
            let text = element.stringValue ?? element.displayText
            let suggestion = closestMatch(to: text, in: choiceValues)
            let hint = suggestion.map { " (did you mean '\($0)'?)" } ?? ""
            let list =
                choiceValues.prefix(12).map { "'\($0)'" }.joined(separator: ", ")
                + (choiceValues.count > 12 ? ", …" : "")
            if domain.hasOther {
                // An Other answer reads 'other' in expressions (its text is {q-Comment}), as in SurveyJS.
                if text.lowercased() == "other" { continue }
                if let match = choiceValues.first(where: { $0.lowercased() == text.lowercased() }) {
                    certain = certain || severity == .error
                    report(
                        .unknownChoiceValue, severity,
                        "\(written) never holds: '\(text)' is not a value of '\(step.id)'; a respondent who types it gets the choice '\(match)' (did you mean '\(match)'?)"
                    )
                    continue
                }
                certain = certain || severity == .error
                report(
                    .unknownChoiceValue, severity,
                    "\(written) compares '\(step.id)' with '\(text)', which is not one of its choices\(hint), so it never matches: an Other answer reads 'other', and the text typed is {\(step.id)-Comment}; choices: \(list)"
                )
                continue
            }
            certain = certain || severity == .error
            report(
                .unknownChoiceValue, severity,
                "\(written) compares '\(step.id)' with '\(text)', which is not one of its choices\(hint), so it never matches; choices: \(list)"
            )
        }
        return certain
    }

    /// `{q.field}` where `q` has no such field (or no fields at all): always empty.
    private func checkReferences(in expression: Expression, path: JSONPath, stepID: String?, _ context: LintContext)
        -> Bool
    {
        let model = context.model
        var seen = Set<String>()
        var certain = false
        ExpressionUsage.walk(expression.rootNode) { node in
            guard case .member(let base, let keys) = node.shape, case .variable(let slot) = base.shape,
                slot < model.stepCount, let member = keys.first
            else { return }
            let step = model.steps[slot]
            let domain = context.domains[slot]
            // `{q.length}` is always defined (0 without an answer); `{q-Comment}` is an Other text.
            if member == "length" || member == "-Comment" { return }
            guard seen.insert(step.id + "." + member).inserted else { return }
            let written = "{\(([step.id] + keys).joined(separator: "."))}"
            switch domain.kind {
            case .composite:
                guard !domain.fieldNames.contains(member) else { return }
                let hint = closestMatch(to: member, in: domain.fieldNames).map { " (did you mean '\($0)'?)" } ?? ""
                context.report(
                    .unknownChoiceValue, .error,
                    "\(written) is always empty: '\(step.id)' has no field '\(member)'\(hint); its fields are \(domain.fieldNames.joined(separator: ", "))",
                    stepID: stepID, path: path)
                certain = true
            case .multipleChoice, .ranking:
                if Int(member) != nil { return }
                fallthrough
            case .number, .boolean, .singleChoice, .text, .date:
                context.report(
                    .typeMismatch, .error,
                    "\(written) is always empty: the answer of '\(step.id)' is a single value without fields; write {\(step.id)}",
                    stepID: stepID, path: path)
                certain = true
            case .none, .file, .opaque:
                return
            }
        }
        return certain
    }

    /// `{form.field} = 'value'` with a value the field (a matrix row's columns) can never have.
    private func checkMember(
        _ member: String, of step: Survey.AnalysisStep, domain: AnswerDomain, _ comparison: LiteralComparison,
        written: String, path: JSONPath, stepID: String?, soften: Bool, _ context: LintContext
    ) -> Bool {
        guard domain.kind == .composite, let field = domain.fieldDomains[member], field.kind == .singleChoice,
            comparison.op.isEqualityLike || comparison.op == .contains
        else { return false }
        for element in comparison.literal.arrayValue ?? [comparison.literal] where !element.isEmptyAnswer {
            guard let text = element.stringValue,
                !field.choiceValues.contains(where: { ExpressionValue.equals(.string($0), element) })
            else { continue }
            let hint = closestMatch(to: text, in: field.choiceValues).map { " (did you mean '\($0)'?)" } ?? ""
            context.report(
                .unknownChoiceValue, field.hasOther || soften ? .warning : .error,
                "\(written) compares {\(step.id).\(member)} with '\(text)', which is not one of its values\(hint), so it never matches; values: \(field.choiceValues.joined(separator: ", "))",
                stepID: stepID, path: path)
            return !field.hasOther
        }
        return false
    }
}

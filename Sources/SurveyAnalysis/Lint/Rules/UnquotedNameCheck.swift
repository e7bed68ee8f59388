import SurveyCore

/// `unquoted-name`: an unquoted word in an expression that is the name of a step or a calculated
/// value.
///
/// As in SurveyJS, a word that calls no function is a text constant: `{q1} = q2` compares `{q1}` with
/// the text `'q2'`. When `q2` is a question of the survey, the author almost always meant its answer,
/// `{q2}`.
final class UnquotedNameCheck: LintCheck {
    func prepare(_ context: LintContext) {
        let model = context.model
        let steps = Set(model.steps.map(\.id))
        let values = Set(model.calculated.map(\.name))
        let functions = model.survey.functions
        func check(_ expression: Expression, member: String, stepID: String?, path: JSONPath) {
            // Only a source with a letter outside braces and quotes can have one: most conditions
            // (`{q1} = 'a'`) have none, and are not parsed again.
            guard Self.hasLetterOutsideReferencesAndTexts(expression.source) else { return }
            for (word, column) in Expression.textConstants(in: expression.source, functions: functions)
            where steps.contains(word) || values.contains(word) {
                let what = steps.contains(word) ? "the answer to step '\(word)'" : "the calculated value '\(word)'"
                context.report(
                    .unquotedName,
                    "\(member) \"\(expression.source)\" reads the word \(word) (column \(column)) as the text '\(word)', not as {\(word)}, \(what): write {\(word)} to read it, or '\(word)' in quotes to keep the text",
                    stepID: stepID, path: path)
            }
        }
        for site in model.conditions {
            check(site.expression, member: site.memberName, stepID: site.stepID, path: site.path)
        }
        for value in model.calculated where !value.isVariable {
            check(value.expression, member: "expression", stepID: nil, path: value.path.appending("expression"))
        }
    }

    static func hasLetterOutsideReferencesAndTexts(_ source: String) -> Bool {
        var closing: UInt8?
        var escaped = false
        for byte in source.utf8 {
            if let end = closing {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\"), end != UInt8(ascii: "}") {
                    escaped = true
                } else if byte == end {
                    closing = nil
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "{"): closing = UInt8(ascii: "}")
            case UInt8(ascii: "'"), UInt8(ascii: "\""): closing = byte
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), 0x80...: return true
            default: continue
            }
        }
        return false
    }
}

import SurveyCore

// Checks survey-core runs inside a question's parts, kept here on the question itself.

extension Converter {
    /// An `expression` validator of a multiple text's item (`checks`, its members after `type`):
    /// survey-core checks it when the page is checked, whatever the item holds (an empty item too),
    /// reading the survey's names (`{question.item}`) — what a question's own expression validator
    /// does here, so it becomes one of the question's. `nil` (with a note) without an expression.
    mutating func itemExpressionCheck(_ checks: inout Members) -> JSONValue? {
        guard let source = expression(checks.take("expression"), checks.path("expression")) else {
            note(
                .notConverted, checks.path, "an expression validator without an expression",
                "it checks nothing (as in SurveyJS); the validator is left out")
            _ = checks.take("notificationType")
            return nil
        }
        var validator: [String: JSONValue] = ["type": "expression", "expression": source]
        if let message = text(checks.take("text"), checks.path("text")) { validator["text"] = message }
        if let severity = checks.take("notificationType") { validator["notificationType"] = severity }
        return .object(validator)
    }
}

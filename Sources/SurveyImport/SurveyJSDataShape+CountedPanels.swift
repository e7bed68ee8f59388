import SurveyCore

// A dynamic panel's `panelCountExpression`: survey-core builds that many panels, and its data holds
// them, empty, once the panel is shown (`[{}, {}]` for a count of 2), where this engine keeps a
// repeat nobody filled in as no answer.

extension SurveyJSDataShape {
    /// The number of panels `count` (the repeat's count expression, in the converted survey's
    /// names) gives at the end of `session`: its answers, calculated values and host variables, as
    /// the repeat read them; 0 when it gives no number. At most the engine's limit of instances.
    static func panelCount(_ count: String, of session: SurveySession) -> Int {
        var values: [JSONValue] = []
        var slots: [String: Int] = [:]
        let resolve: (String) -> Int? = { name in
            if let slot = slots[name] { return slot }
            let value: JSONValue
            if let answer = session.answer(for: name) {
                value = answer
            } else if let calculated = session.calculatedValue(name) {
                value = calculated
            } else if let variable = session.variables[name] {
                value = variable
            } else if name.contains(".") || name.contains("[") {
                // A dotted name resolves by its longest known prefix (`{langs.length}`).
                return nil
            } else {
                value = .null
            }
            slots[name] = values.count
            values.append(value)
            return values.count - 1
        }
        guard let expression = try? Expression(count, functions: .standard, resolve: resolve) else { return 0 }
        let context = FunctionContext(today: session.today, variables: session.variables)
        guard let number = number(expression.evaluate(values, context: context)), number.isFinite, number >= 1
        else { return 0 }
        return Int(min(number.rounded(.down), 10_000))
    }
}

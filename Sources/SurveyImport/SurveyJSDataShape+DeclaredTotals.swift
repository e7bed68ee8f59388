import SurveyCore

// Column totals declared in this engine's own format: a `matrix-dropdown` column's or a `repeat`
// item's `total` / `totalExpression` (SurveyBuiltins reads and checks them). The data shape stores
// them as survey-core does, `<id>-total`, as it stores those the converter records for a SurveyJS
// survey.

extension SurveyJSDataShape {
    /// The totals `steps` declare, by step id, then by column: the kind (`sum`…), or the expression
    /// after ``totalExpressionMark`` (a `totalExpression` wins, as survey-core prefers it).
    static func declaredTotals(in steps: [StepDefinition]) -> [String: [String: String]] {
        var result: [String: [String: String]] = [:]
        func visit(_ step: StepDefinition) {
            if step.type == "matrix-dropdown" || step.type == "repeat" {
                var totals: [String: String] = [:]
                for member in step.options["columns"]?.arrayValue ?? step.options["items"]?.arrayValue ?? [] {
                    guard let name = member["name"]?.stringValue else { continue }
                    if let source = member["totalExpression"]?.stringValue {
                        totals[name] = String(totalExpressionMark) + source
                    } else if let kind = member["total"]?.stringValue {
                        totals[name] = kind
                    }
                }
                if !totals.isEmpty { result[step.id] = totals }
            }
            for child in step.steps { visit(child) }
        }
        for step in steps { visit(step) }
        return result
    }
}

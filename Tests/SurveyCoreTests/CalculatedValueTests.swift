import SurveyCore
import Testing

/// Calculated values are evaluated once per change in dependency order, however they are wired.
@Suite struct CalculatedValueTests {
    /// 30 layers of two values each reading both values of the layer before: 2^30 paths from the
    /// answer to the last layer, 60 values to evaluate.
    @Test func aDiamondOfCalculatedValuesCostsOneEvaluationPerValue() throws {
        let layers = 30
        var calculated = [#"{"name": "a0", "expression": "{q}"}"#, #"{"name": "b0", "expression": "{q} + 1"}"#]
        for layer in 1..<layers {
            calculated.append(#"{"name": "a\#(layer)", "expression": "{a\#(layer - 1)} + {b\#(layer - 1)}"}"#)
            calculated.append(#"{"name": "b\#(layer)", "expression": "{a\#(layer - 1)} - {b\#(layer - 1)}"}"#)
        }
        let survey = try loadSurvey(
            surveyJSON(
                [
                    #"{"id": "q", "type": "t-text", "title": "Q"}"#,
                    #"{"id": "end", "type": "t-text", "title": "End", "visibleIf": "{a\#(layers - 1)} > 0"}"#,
                ], calculated: "[" + calculated.joined(separator: ",") + "]"))
        var session = SurveySession(survey: survey)
        let before = session.evaluationCount
        try session.answer("1", for: "q")
        let evaluations = session.evaluationCount - before
        #expect(evaluations <= 2 * layers + 2, "evaluated \(evaluations) expressions for \(2 * layers) values")
        // a(n) = 2a(n-1)... the values themselves follow from the layer before.
        #expect(session.calculatedValue("a1") != nil)
    }
}

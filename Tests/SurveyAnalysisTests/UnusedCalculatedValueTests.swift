import SurveyAnalysis
import SurveyCore
import Testing

@Suite("unused-calculated-value")
struct UnusedCalculatedValueTests {
    @Test func valueNothingRefersTo() throws {
        let found = try findings(
            .unusedCalculatedValue,
            steps: #"{"id": "n", "type": "number"}"#,
            extra: #""calculatedValues": [{"name": "double", "expression": "{n} * 2"}]"#)
        #expect(found.count == 1, "\(listing(found))")
        #expect(found.first?.path?.description == "$.calculatedValues[0]")
        #expect(found.first?.severity == .warning)
    }

    @Test func valuesUsedByConditionsOtherValuesOrTextsAreFine() throws {
        let found = try findings(
            .unusedCalculatedValue,
            steps: """
                {"id": "n", "type": "number"},
                {"id": "big", "type": "text", "visibleIf": "{quadruple} > 10"},
                {"id": "show", "type": "content", "title": "You said {triple}", "options": {"body": "Total: {half}"}}
                """,
            extra: """
                "calculatedValues": [{"name": "double", "expression": "{n} * 2"}, {"name": "quadruple", "expression": "{double} * 2"},
                  {"name": "triple", "expression": "{n} * 3"}, {"name": "half", "expression": "{n} / 2"}]
                """)
        #expect(found.isEmpty, "\(listing(found))")
    }
}

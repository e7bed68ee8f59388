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

    @Test func valuesUsedByCompletionMessagesTriggersOrCommentsAreFine() throws {
        let found = try findings(
            .unusedCalculatedValue,
            steps: """
                {"id": "n", "type": "number", "showCommentArea": true},
                {"id": "m", "type": "number"}
                """,
            extra: """
                "calculatedValues": [{"name": "label", "expression": "displayValue('n')"}, {"name": "big", "expression": "{n} > 5"},
                  {"name": "twice", "expression": "{n} * 2"}, {"name": "sum", "expression": "{n} + 1"}],
                "completionMessages": [{"if": "{big}", "text": "You chose {label}"}, {"text": "Bye"}],
                "triggers": [{"type": "runexpression", "if": "{n} notempty", "run": "{twice}", "target": "m"},
                  {"type": "copyvalue", "if": "{n} > 1", "from": "sum", "target": "m"}]
                """)
        #expect(found.isEmpty, "\(listing(found))")
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

import Foundation
import SurveyBuiltins
import SurveyCore
import SurveyImport
import Testing

/// Column totals written in this engine's format (`total`, `totalExpression`): the result holds them
/// as survey-core's data does, `<id>-total` (issue 42).
@Suite struct DeclaredTotalTests {
    static let survey = #"""
        {"formatVersion": 1, "id": "totals", "title": "Totals", "steps": [
          {"id": "p", "type": "page", "steps": [
            {"id": "usage", "type": "matrix-dropdown", "options": {
              "rows": ["mail", "chat"],
              "columns": [{"name": "hours", "cellType": "number", "total": "sum"},
                          {"name": "tools", "cellType": "text", "total": "count"}]}},
            {"id": "lines", "type": "repeat", "options": {"items": [
              {"name": "qty", "type": "number", "total": "max"},
              {"name": "price", "type": "number", "totalExpression": "sumInArray({matrix}, 'price') + {row.qty}"}]}}
          ]}]}
        """#

    @Test func theResultHoldsEachDeclaredTotal() throws {
        var source = SurveySource(loader: SurveyLoader(registry: .builtins()))
        source.givesSurveyJSDataShape = true
        let survey = try source.load(Self.survey, file: "totals.json")
        var session = SurveySession(survey: survey)
        try session.answer(["mail": ["hours": 2, "tools": "web"], "chat": ["hours": 1.5]], for: "usage")
        try session.answer([["qty": 3, "price": 2], ["qty": 5, "price": 0.5]], for: "lines")
        guard case .completed(let result) = session.next() else {
            Issue.record("expected the survey to complete")
            return
        }
        #expect(result.answers["usage-total"] == ["hours": 3.5, "tools": 1])
        // The expression reads the rows as {matrix} and the totals before it as {row.x}.
        #expect(result.answers["lines-total"] == ["qty": 5, "price": 7.5])
        // The engine's own shape keeps answers only.
        source.givesSurveyJSDataShape = false
        var plain = SurveySession(survey: try source.load(Self.survey, file: "totals.json"))
        guard case .completed(let own) = plain.next() else {
            Issue.record("expected the survey to complete")
            return
        }
        #expect(own.answers["usage-total"] == nil)
    }

    @Test func anUnknownTotalOrABrokenExpressionIsALoadError() throws {
        let loader = SurveyLoader(registry: .builtins())
        let unknown = Self.survey.replacingOccurrences(of: #""total": "sum""#, with: #""total": "median""#)
        #expect(throws: SurveyLoadError.self) { try loader.load(text: unknown) }
        let broken = Self.survey.replacingOccurrences(of: "+ {row.qty}", with: "+")
        #expect(throws: SurveyLoadError.self) { try loader.load(text: broken) }
    }
}

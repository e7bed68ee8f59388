import SurveyBuiltins
import SurveyCore
import SurveyImport
import Testing

/// Expression questions in a dynamic panel and expression columns of a dynamic matrix: computed in
/// each entry and stored there, as survey-core stores them; a respondent's value for them is replaced.
@Suite struct ComputedItemTests {
    @Test func computedItemsAreStoredInEachEntry() throws {
        let (conversion, survey) = try convertAndLoad(
            #"""
            {"pages": [{"name": "p", "elements": [
              {"type": "paneldynamic", "name": "lines", "templateElements": [
                {"type": "text", "name": "price", "inputType": "number"},
                {"type": "text", "name": "units", "inputType": "number"},
                {"type": "expression", "name": "total", "expression": "{panel.price} * {panel.units}"}]},
              {"type": "expression", "name": "sum", "expression": "sumInArray({lines}, 'total')"},
              {"type": "matrixdynamic", "name": "rows", "columns": [
                {"name": "q", "cellType": "text", "inputType": "number"},
                {"name": "n", "cellType": "expression", "expression": "{rowIndex}"},
                {"name": "twice", "cellType": "expression", "expression": "{row.q} * 2"}]}]}]}
            """#)
        #expect(conversion.isWhole, "\(conversion.notes)")
        var session = SurveySession(survey: survey)
        try session.answer([["price": 3, "units": 4, "total": 99], ["price": 2, "units": 5]], for: "lines")
        try session.answer([["q": 5], ["q": 1]], for: "rows")
        #expect(
            session.answer(for: "lines") == [
                ["price": 3, "units": 4, "total": 12], ["price": 2, "units": 5, "total": 10],
            ])
        #expect(session.answer(for: "rows") == [["q": 5, "n": 1, "twice": 10], ["q": 1, "n": 2, "twice": 2]])
        #expect(session.answer(for: "sum") == 22)
        // Not asked: the input lists the respondent's items only.
        let input = try #require(session.currentStep?.questions.first { $0.id == "lines" }?.input)
        guard case .repeating(let group) = input else {
            Issue.record("expected a repeat input, got \(input)")
            return
        }
        #expect(group.fields.map(\.name) == ["price", "units"])
    }
}

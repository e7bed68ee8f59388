import SurveyCore
import Testing

@testable import SurveyImport

/// What survey-core 3.0.4 does with matrices' row and column conditions, start pages asked one
/// question per page, and dotted `setvalue` targets, as the converter keeps it.
@Suite struct MatrixConditionTests {
    @Test func aStartPageStaysWholeWhenEachQuestionHasAPage() throws {
        let (_, survey) = try convertAndLoad(
            #"""
            {"firstPageIsStartPage": true, "questionsOnPageMode": "questionPerPage", "pages": [
              {"name": "intro", "elements": [{"type": "html", "name": "rules", "html": "<p>Hi</p>"},
                {"type": "text", "name": "player"}]},
              {"name": "quiz", "elements": [{"type": "text", "name": "a"}, {"type": "text", "name": "b"}]}]}
            """#)
        #expect(survey.unitIDs == ["intro", "quiz", "quiz-2"])
    }

    @Test func hiddenRowsAreNotRequiredAndLeaveTheAnswerOnCompletion() throws {
        let (_, survey) = try convertAndLoad(
            #"""
            {"pages": [{"name": "p", "elements": [
              {"type": "checkbox", "name": "langs", "choices": ["swift", "rust"]},
              {"type": "matrix", "name": "level", "isAllRowRequired": true, "columns": ["low", "high"],
               "rowsVisibleIf": "{langs} contains {item}", "rows": ["swift", "rust"],
               "defaultValue": {"swift": "low", "rust": "low"}}]}]}
            """#)
        var session = SurveySession(survey: survey)
        try session.answer(["swift"], for: "langs")
        // The rust row is hidden: only swift must be answered, and rust's default is dropped at the end.
        try session.answer(["swift": "high", "rust": "low"], for: "level")
        guard case .completed(let result) = session.next() else {
            Issue.record("the survey did not complete")
            return
        }
        #expect(result.answers["level"] == ["swift": "high"])
        // Before completion the hidden row keeps its value, as survey-core's data does.
        #expect(session.answer(for: "level") == ["swift": "high", "rust": "low"])
    }

    @Test func aDottedSetValueTargetSetsNothing() throws {
        let (conversion, survey) = try convertAndLoad(
            #"""
            {"pages": [{"name": "p", "elements": [{"type": "text", "name": "q"}]}],
             "triggers": [{"type": "setvalue", "expression": "{q} = 1", "setToName": "q.part", "setValue": "x"},
               {"type": "setvalue", "expression": "{q} = 1", "setToName": "plain", "setValue": "y"}]}
            """#)
        #expect(survey.definition.triggers.count == 1)
        #expect(conversion.notes.contains { $0.what == "a setvalue trigger aimed at 'q.part'" })
    }
}

import SurveyBuiltins
import SurveyCore
import SurveyImport
import Testing

/// `panelCountExpression`: survey-core's data holds the panels it gives, empty, once the dynamic
/// panel is shown (checked against survey-core 3.0.4; issue 42).
@Suite struct CountedPanelTests {
    static let survey = #"""
        {"pages": [
          {"name": "p1", "elements": [
            {"type": "text", "name": "n", "inputType": "number"},
            {"type": "checkbox", "name": "langs", "choices": ["en", "fr", "de"]}]},
          {"name": "p2", "visibleIf": "{n} <> 9", "elements": [
            {"type": "paneldynamic", "name": "people", "panelCountExpression": "{n} + 0",
             "templateElements": [{"type": "text", "name": "name"}]},
            {"type": "paneldynamic", "name": "levels", "panelCountExpression": "{langs.length}",
             "templateElements": [{"type": "text", "name": "level"}]}]}]}
        """#

    static func completed(_ answers: [(String, JSONValue)]) throws -> [String: JSONValue] {
        let (_, survey) = try convertAndLoad(Self.survey)
        var shaped = survey
        shaped.resultShape = SurveyJSDataShape(survey)
        var session = SurveySession(survey: shaped)
        while true {
            for (id, value) in answers where session.currentStepIDs.contains(id) { try session.answer(value, for: id) }
            guard case .moved = session.next() else { break }
        }
        return session.completionResult().answers
    }

    @Test func aCountWithNoPanelAnsweredIsThatManyEmptyPanels() throws {
        let data = try Self.completed([("n", 2), ("langs", ["en", "de", "fr"])])
        #expect(data["people"] == [[:], [:]])
        #expect(data["levels"] == [[:], [:], [:]])
    }

    @Test func answeredPanelsNoCountAndAHiddenPanelStayAsTheyAre() throws {
        let answered = try Self.completed([("n", 1), ("people", [["name": "Ada"]])])
        #expect(answered["people"] == [["name": "Ada"]])
        // No language chosen: a count of 0 is no panel, as in survey-core.
        #expect(answered["levels"] == nil)
        // Page p2 not shown: no panels in the data.
        let hidden = try Self.completed([("n", 9), ("langs", ["en"])])
        #expect(hidden["people"] == nil && hidden["levels"] == nil)
    }
}

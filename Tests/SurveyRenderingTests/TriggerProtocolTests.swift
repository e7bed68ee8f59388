import SurveyBuiltins
import SurveyCore
import SurveyRendering
import Testing

/// Triggers through the JSON-event protocol: an answer a trigger sets on the current unit re-sends
/// the `step` (same `visit`); a skip trigger enters another unit (new `visit`).
struct TriggerProtocolTests {
    static let survey: Survey? = try? SurveyLoader(registry: .builtins()).load(
        text: """
            {"formatVersion": 1, "id": "t", "title": "T", "steps": [
              {"id": "p1", "type": "page", "steps": [{"id": "a", "type": "number"}, {"id": "b", "type": "text"}]},
              {"id": "p2", "type": "page", "steps": [{"id": "e", "type": "text"}]},
              {"id": "p3", "type": "page", "steps": [{"id": "g", "type": "text"}]}],
             "triggers": [
              {"type": "setvalue", "if": "{a} = 1", "target": "b", "value": "set"},
              {"type": "skip", "if": "{e} = 'skip'", "goto": "g"}]}
            """, source: "t.json")

    @Test func triggerEffectsReachTheClient() throws {
        let survey = try #require(Self.survey)
        let (outcome, events) = runJSON(
            survey,
            [
                #"{"command":"answer","stepId":"a","value":1}"#, #"{"command":"next"}"#,
                #"{"command":"answer","stepId":"e","value":"skip"}"#, #"{"command":"answer","stepId":"g","value":"x"}"#,
                #"{"command":"next"}"#,
            ])
        let steps = events.filter { $0["event"] == "step" }
        #expect(steps.map { $0["step"]?["unitId"] } == ["p1", "p1", "p2", "p3"])
        #expect(steps.map { $0["visit"] } == [0, 0, 1, 2])
        let resent = steps[1]["step"]?["questions"]?.arrayValue ?? []
        #expect(resent.map { $0["answer"] } == [1, "set"])
        #expect(outcome.result?.path == ["p1", "p2", "p3"])
        #expect(outcome.result?.answers == ["a": 1, "b": "set", "e": "skip", "g": "x"])
    }
}

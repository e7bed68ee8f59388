import SurveyCore
import Testing

/// `setValueIf`, `setValueExpression` and `resetValueIf`, run as survey-core runs them.
@Suite struct ValueRuleTests {
    static func load(_ steps: String) throws -> Survey {
        try loadSurvey(surveyJSON([#"{"id": "p1", "type": "page", "steps": [\#(steps)]}"#]))
    }

    @Test func setValueExpressionAloneFollowsWhatItReadsOverTheRespondentsAnswer() throws {
        var session = SurveySession(
            survey: try Self.load(
                #"{"id": "a", "type": "t-text"}, {"id": "b", "type": "t-text"}, {"id": "c", "type": "t-text"}, {"id": "total", "type": "t-text", "setValueExpression": "{a} + {b}"}"#
            ))
        #expect(session.answer(for: "total") == nil)
        try session.answer("x", for: "a")
        #expect(session.answer(for: "total") == "x")
        try session.answer("mine", for: "total")
        try session.answer("z", for: "c")
        #expect(session.answer(for: "total") == "mine")
        try session.answer("y", for: "b")
        #expect(session.answer(for: "total") == "xy")
    }

    @Test func setValueIfSetsTheExpressionsValueOrClears() throws {
        var session = SurveySession(
            survey: try Self.load(
                #"{"id": "mode", "type": "t-text"}, {"id": "a", "type": "t-text"}, {"id": "b", "type": "t-text", "setValueIf": "{mode} = 'on'", "setValueExpression": "{a} + '!'"}, {"id": "c", "type": "t-text", "setValueIf": "{mode} = 'on'"}"#
            ))
        try session.answer("typed", for: "c")
        try session.answer("x", for: "a")
        #expect(session.answer(for: "b") == nil)
        try session.answer("on", for: "mode")
        #expect(session.answer(for: "b") == "x!")
        #expect(session.answer(for: "c") == nil)
        // While the condition holds, a change of what the expression reads sets it again.
        try session.answer("y", for: "a")
        #expect(session.answer(for: "b") == "y!")
        try session.answer("off", for: "mode")
        try session.answer("z", for: "a")
        #expect(session.answer(for: "b") == "y!")
    }

    /// survey-core runs a rule whose expression reads nothing (or calls a function) after every
    /// change of any value.
    @Test func aConstantSetValueExpressionRunsAfterEveryChange() throws {
        var session = SurveySession(
            survey: try Self.load(
                #"{"id": "mode", "type": "t-text"}, {"id": "label", "type": "t-text", "setValueIf": "{mode} = 'on'", "setValueExpression": "'preset'"}, {"id": "other", "type": "t-text"}"#
            ))
        try session.answer("on", for: "mode")
        #expect(session.answer(for: "label") == "preset")
        try session.answer("mine", for: "label")
        #expect(session.answer(for: "label") == "mine")
        try session.answer("x", for: "other")
        #expect(session.answer(for: "label") == "preset")
    }

    @Test func resetValueIfGoesBackToTheDefaultOrClears() throws {
        var session = SurveySession(
            survey: try Self.load(
                #"{"id": "d", "type": "t-text", "defaultValue": "def", "resetValueIf": "{mode} = 'reset'"}, {"id": "e", "type": "t-text", "resetValueIf": "{mode} = 'reset'"}, {"id": "mode", "type": "t-text"}"#
            ))
        try session.answer("kept", for: "d")
        try session.answer("typed", for: "e")
        try session.answer("other", for: "mode")
        #expect(session.answer(for: "d") == "kept")
        try session.answer("reset", for: "mode")
        #expect(session.answer(for: "d") == "def")
        #expect(session.answer(for: "e") == nil)
    }

    @Test func rulesThatSetEachOtherStop() throws {
        var session = SurveySession(
            survey: try Self.load(
                #"{"id": "a", "type": "t-text", "setValueExpression": "{b} + 'a'"}, {"id": "b", "type": "t-text", "setValueExpression": "{a} + 'b'"}"#
            ))
        try session.answer("x", for: "a")
        #expect(session.answer(for: "b") != nil)
    }

    @Test func aStepThatTakesNoAnswerHasNoValueRules() {
        let errors = loadErrors(
            surveyJSON([
                #"{"id": "p1", "type": "page", "steps": [{"id": "a", "type": "t-text"}, {"id": "c", "type": "t-note", "setValueIf": "{a} = 1"}]}"#
            ]))
        #expect(errors.contains { $0.path?.description.hasSuffix("setValueIf") ?? false }, "\(errors)")
    }

    @Test func theMembersRoundTrip() throws {
        let survey = try Self.load(
            #"{"id": "a", "type": "t-text"}, {"id": "b", "type": "t-text", "setValueIf": "{a} = 1", "setValueExpression": "{a}", "resetValueIf": "{a} = 2"}"#
        )
        let step = survey.definition.steps[0].steps[1]
        #expect(step.setValueIf == "{a} = 1")
        #expect(step.setValueExpression == "{a}")
        #expect(step.resetValueIf == "{a} = 2")
        let encoded = step.jsonValue
        #expect(encoded["resetValueIf"] == "{a} = 2")
    }
}

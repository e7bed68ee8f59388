import SurveyCore
import Testing

/// A saved state is replayed through the session's own checks: nothing in it is taken on trust.
@Suite struct ResumeValidationTests {
    let survey: Survey

    init() throws {
        survey = try loadSurvey(
            surveyJSON([
                #"{"id": "name", "type": "t-text", "title": "Name", "required": true, "options": {"maxLength": 5}}"#,
                #"{"id": "pet", "type": "t-choice", "title": "Pet", "options": {"choices": ["cat", "dog"]}}"#,
                #"{"id": "end", "type": "t-text", "title": "End"}"#,
            ]))
    }

    func stateAfter(_ build: (inout SurveySession) throws -> Void) throws -> SessionState {
        var session = SurveySession(survey: survey, seed: 4, today: "2026-01-01")
        try build(&session)
        return session.state
    }

    @Test func anHonestStateResumesToTheSameSession() throws {
        let state = try stateAfter { session in
            try session.answer("Ada", for: "name")
            session.next()
            try session.answer("dog", for: "pet")
        }
        let resumed = try SurveySession(survey: survey, resuming: state)
        #expect(resumed.state == state)
        #expect(resumed.currentUnitID == "pet")
    }

    @Test func anInjectedInvalidAnswerIsRefused() throws {
        var state = try stateAfter { session in
            try session.answer("Ada", for: "name")
            session.next()
        }
        state.answers["name"] = "Much too long for five"
        #expect {
            try SurveySession(survey: survey, resuming: state)
        } throws: { error in
            "\(error)".contains("its answer for 'name'") && "\(error)".contains("does not follow from its actions")
        }
        state.answers["name"] = "Ada"
        state.answers["pet"] = "unicorn"
        #expect(throws: SessionError.self) { try SurveySession(survey: survey, resuming: state) }
    }

    @Test func anInjectedActionIsValidatedAgain() throws {
        var state = try stateAfter { session in
            try session.answer("Ada", for: "name")
            session.next()
        }
        state.actions.append(.answer(stepID: "pet", value: "unicorn"))
        state.answers["pet"] = "unicorn"
        #expect(throws: SessionError.self) { try SurveySession(survey: survey, resuming: state) }
    }

    @Test func aPathThatSkipsARequiredQuestionIsRefused() throws {
        var state = try stateAfter { _ in }
        state.path = ["name", "pet"]
        #expect {
            try SurveySession(survey: survey, resuming: state)
        } throws: { error in
            "\(error)".contains("does not follow from its actions")
        }
        // Skipping the question in the actions does not work either: Next is blocked on replay.
        state.actions = [.next]
        state.path = ["name"]
        let resumed = try SurveySession(survey: survey, resuming: state)
        #expect(resumed.currentUnitID == "name")
    }

    @Test func anotherVersionOrAFinishedSessionIsRefused() throws {
        var state = try stateAfter { session in try session.answer("Ada", for: "name") }
        state.surveyVersion = "99"
        #expect {
            try SurveySession(survey: survey, resuming: state)
        } throws: { error in
            "\(error)".contains("version '99'")
        }
        state.surveyVersion = survey.definition.version
        state.status = .completed
        #expect {
            try SurveySession(survey: survey, resuming: state)
        } throws: { error in
            "\(error)".contains("already completed")
        }
    }
}

/// An answered choice whose `visibleIf` stops holding is cleared at once (SurveyJS does the same),
/// so it reaches neither later conditions nor the result.
@Suite struct HiddenChoiceTests {
    let survey: Survey

    init() throws {
        survey = try loadSurvey(
            surveyJSON([
                #"{"id": "plan", "type": "t-choice", "title": "Plan", "options": {"choices": ["free", "pro"]}}"#,
                #"""
                {"id": "extra", "type": "t-choice", "title": "Extra", "options": {"choices": [
                  "none", {"value": "support", "visibleIf": "{plan} = 'pro'"}]}}
                """#,
                #"{"id": "why", "type": "t-text", "title": "Why support?", "visibleIf": "{extra} = 'support'"}"#,
            ]))
    }

    @Test func aChoiceThatBecomesHiddenIsCleared() throws {
        var session = SurveySession(survey: survey)
        try session.answer("pro", for: "plan")
        session.next()
        try session.answer("support", for: "extra")
        #expect(session.isVisible("why"))
        try session.back()
        try session.answer("free", for: "plan")
        #expect(session.answer(for: "extra") == nil, "the hidden choice was cleared")
        session.next()
        #expect(session.answer(for: "extra") == nil)
        #expect(!session.isVisible("why"), "no later condition sees the cleared choice")
        guard case .completed(let result) = session.next() else {
            Issue.record("expected completion")
            return
        }
        #expect(result.answers == ["plan": "free"])
        // The same run replayed from its actions gives the same state.
        let replayed = SurveySession.replay(survey: survey, seed: 0, today: session.today, actions: session.actions)
        #expect(replayed.state == session.state)
    }

    @Test func aChoiceThatStaysVisibleIsKept() throws {
        var session = SurveySession(survey: survey)
        try session.answer("pro", for: "plan")
        session.next()
        try session.answer("none", for: "extra")
        try session.back()
        try session.answer("free", for: "plan")
        #expect(session.answer(for: "extra") == "none")
    }
}

@Test func aStateWithAnImpossibleDateIsRefused() throws {
    let text =
        #"{"stateVersion":1,"surveyId":"s","seed":"0","locale":"en","today":"2026-02-30","path":["a"],"answers":{}}"#
    #expect {
        try SessionState(json: try JSONParser.parse(text))
    } throws: { error in
        "\(error)".contains("'today' must be a real date written YYYY-MM-DD, got '2026-02-30'")
    }
}

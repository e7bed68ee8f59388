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

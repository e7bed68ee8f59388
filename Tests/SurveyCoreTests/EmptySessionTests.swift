import SurveyCore
import Testing

/// A session with nothing visible at its start ends ``SessionStatus/empty``, as survey-core's
/// `empty` state: no completion, no answers taken, and a state that says so.
@Suite struct EmptySessionTests {
    /// One question shown only when the host says the plan is "pro".
    static func survey() throws -> Survey {
        var text = surveyJSON([
            #"{"id": "seats", "type": "t-text", "visibleIf": "{plan} = 'pro'"}"#,
            #"{"id": "why", "type": "t-text", "visibleIf": "{plan} = 'pro' and {seats} notempty"}"#,
        ])
        text.removeLast()
        return try loadSurvey(text + #", "variables": [{"name": "plan"}]}"#)
    }

    @Test func nothingVisibleAtTheStartEndsEmptyWithoutACompletion() throws {
        var session = SurveySession(survey: try Self.survey())
        #expect(session.status == .empty)
        #expect(session.currentUnitID == nil)
        #expect(session.currentStep == nil)
        guard case .blocked(let errors) = session.next(), errors.isEmpty else {
            Issue.record("Next on an empty session must do nothing")
            return
        }
        #expect(session.status == .empty)
        #expect(throws: SessionError.finished(.empty)) { try session.answer("3", for: "seats") }
    }

    @Test func theSameSurveyRunsWhenTheHostMakesAPageVisible() throws {
        let session = SurveySession(survey: try Self.survey(), variables: ["plan": "pro"])
        #expect(session.status == .inProgress)
        #expect(session.currentUnitID == "seats")
    }

    @Test func theStateSaysEmptyReadsBackAndCannotBeResumed() throws {
        let session = SurveySession(survey: try Self.survey())
        let state = session.state
        #expect(state.jsonValue["status"] == "empty")
        let again = try SessionState(json: state.jsonValue)
        #expect(again.status == .empty)
        #expect(throws: SessionError.self) { try SurveySession(survey: session.survey, resuming: again) }
    }

    @Test func aRestartedRespondentIsEmptyAgain() throws {
        var session = SurveySession(survey: try Self.survey())
        session.restart(seed: 7)
        #expect(session.status == .empty)
    }
}

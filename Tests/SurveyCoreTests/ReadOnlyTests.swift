import SurveyCore
import Testing

/// `readOnly` and `enableIf`: shown but not editable, and then never required (as in SurveyJS).
@Suite struct ReadOnlyTests {
    static let survey: Survey? = try? loadSurvey(
        surveyJSON([
            #"{"id": "p1", "type": "page", "steps": [{"id": "a", "type": "t-text"}, {"id": "r", "type": "t-text", "readOnly": true, "required": true, "defaultValue": "fixed"}, {"id": "e", "type": "t-text", "enableIf": "{a} = 'x'", "required": true}]}"#,
            #"{"id": "p2", "type": "page", "steps": [{"id": "z", "type": "t-text"}]}"#,
        ]))

    @Test func aReadOnlyQuestionRefusesAnswersAndIsNotRequired() throws {
        var session = SurveySession(survey: try #require(Self.survey))
        let questions = session.currentStep?.questions ?? []
        #expect(questions.map(\.isReadOnly) == [false, true, true])
        #expect(questions.map(\.isRequired) == [false, false, false])
        #expect(questions[1].answer == "fixed")
        #expect(throws: SessionError.self) { try session.answer("other", for: "r") }
        #expect(session.lastErrors.first?.error.code == "readOnly")
        #expect(session.answer(for: "r") == "fixed")
        // Neither blocks Next.
        guard case .moved(let unit) = session.next() else {
            Issue.record("blocked")
            return
        }
        #expect(unit == "p2")
    }

    @Test func enableIfMakesAQuestionEditableAndRequiredWhileItHolds() throws {
        var session = SurveySession(survey: try #require(Self.survey))
        #expect(throws: SessionError.self) { try session.answer("early", for: "e") }
        try session.answer("x", for: "a")
        #expect(session.currentStep?.questions[2].isReadOnly == false)
        #expect(session.currentStep?.questions[2].isRequired == true)
        guard case .blocked(let errors) = session.next() else {
            Issue.record("not blocked")
            return
        }
        #expect(errors.map(\.stepID) == ["e"])
        try session.answer("now", for: "e")
        #expect(session.answer(for: "e") == "now")
        // Disabled again: the answer stays, it can no longer be changed.
        try session.answer("y", for: "a")
        #expect(throws: SessionError.self) { try session.answer("later", for: "e") }
        #expect(session.answer(for: "e") == "now")
    }

    @Test func readOnlyAndEnableIfAreForQuestionsNotPages() {
        let text = surveyJSON([
            #"{"id": "p1", "type": "page", "readOnly": true, "steps": [{"id": "a", "type": "t-text"}]}"#
        ])
        #expect(loadErrors(text).contains { $0.message.contains("pages cannot have 'readOnly'") })
    }
}

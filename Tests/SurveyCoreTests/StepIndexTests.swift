import SurveyCore
import Testing

/// The index-keyed session API hot loops use agrees with the id-keyed one it sits under.
@Suite struct StepIndexTests {
    static let text = """
        {"formatVersion": 1, "id": "ix", "title": "Index", "steps": [
          {"id": "p1", "type": "page", "steps": [
            {"id": "age", "type": "t-choice", "options": {"choices": ["young", "old"]}},
            {"id": "why", "type": "t-text", "visibleIf": "{age} = 'old'"}
          ]},
          {"id": "end", "type": "t-text"}
        ]}
        """

    @Test func indicesNameTheSameStepsAsIds() throws {
        let survey = try loadSurvey(Self.text)
        for id in survey.stepIDs {
            let index = try #require(survey.stepIndex(of: id))
            #expect(survey.stepID(at: index) == id)
        }
        #expect(survey.stepIndex(of: "nope") == nil)
        #expect(survey.stepID(at: StepIndex(99)) == nil)
        #expect(survey.stepID(at: StepIndex(-1)) == nil)
    }

    @Test func answeringByIndexIsAnsweringById() throws {
        let survey = try loadSurvey(Self.text)
        let age = try #require(survey.stepIndex(of: "age"))
        let why = try #require(survey.stepIndex(of: "why"))
        var session = SurveySession(survey: survey, seed: 1, today: "2026-06-01")
        #expect(!session.isVisible(at: why) && !session.isVisible("why"))
        #expect(session.currentSteps.map { survey.stepID(at: $0) } == session.currentStepIDs.map(Optional.some))
        #expect(try session.answer(.string("old"), at: age) == .string("old"))
        #expect(session.answer(at: age) == .string("old") && session.answer(for: "age") == .string("old"))
        #expect(session.isVisible(at: why) && session.isVisible("why"))
        #expect(session.currentSteps == [age, why])
        #expect(session.currentStepIDs == ["age", "why"])
        // The same checks as by id: a non-choice is refused and the previous answer stays.
        #expect(throws: SessionError.self) { try session.answer(.string("middle"), at: age) }
        #expect(session.answer(at: age) == .string("old"))
        do {
            try session.answer(.number(1), at: StepIndex(99))
            Issue.record("an index the survey does not have was accepted")
        } catch {
            #expect(error == .unknownStep("#99"))
        }
        #expect(!session.isVisible(at: StepIndex(99)) && session.answer(at: StepIndex(-3)) == nil)
    }
}

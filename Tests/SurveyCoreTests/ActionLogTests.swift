import SurveyCore
import Testing

/// The action log: answers to a step under its id are kept by the step's index, answers under keys
/// of their own (comments, list entries) by the key, and ``SurveySession/actions``,
/// ``SurveySession/actionCount`` and ``SurveySession/action(at:)`` give back exactly what was done.
@Suite struct ActionLogTests {
    static let text = """
        {"formatVersion": 1, "id": "log", "title": "Log", "steps": [
          {"id": "p1", "type": "page", "steps": [
            {"id": "rating", "type": "t-text", "showCommentArea": true},
            {"id": "name", "type": "t-text"}
          ]},
          {"id": "p2", "type": "page", "steps": [{"id": "colour", "type": "t-choice",
            "options": {"choices": ["red", "blue"]}}]}
        ]}
        """

    @Test func theLogGivesBackEveryAcceptedActionInOrder() throws {
        let survey = try loadSurvey(Self.text)
        var session = SurveySession(survey: survey, seed: 3, today: "2024-01-01")
        guard let name = survey.stepIndex(of: "name") else {
            Issue.record("no step 'name'")
            return
        }
        try session.answer("4", for: "rating")
        try session.answer(" why not ", for: "rating-Comment")
        try session.answer("Ann", at: name)
        // Refused (not on this page): not logged.
        #expect(throws: SessionError.self) { try session.answer("red", for: "colour") }
        #expect(session.next() == .moved(to: "p2"))
        try session.back()
        #expect(session.next() == .moved(to: "p2"))
        try session.answer("blue", for: "colour")
        session.dismiss()
        // The Back and the Next that returned to where the Back left, no answer changed: neither is kept.
        let expected: [SessionAction] = [
            .answer(stepID: "rating", value: "4"), .answer(stepID: "rating-Comment", value: " why not "),
            .answer(stepID: "name", value: "Ann"), .next, .answer(stepID: "colour", value: "blue"), .dismiss,
        ]
        #expect(session.actions == expected)
        #expect(session.actionCount == expected.count)
        #expect((0..<session.actionCount).map(session.action(at:)) == expected)
        // The state holds the same log, and replaying it gives the same session.
        #expect(session.state.actions == expected)
        let replayed = SurveySession.replay(survey: survey, seed: 3, today: "2024-01-01", actions: expected)
        #expect(replayed.actions == expected)
        // A log written before pairs were dropped replays to the same session, without the pair.
        var older = expected
        older.insert(contentsOf: [.back, .next], at: 4)
        let fromOlder = SurveySession.replay(survey: survey, seed: 3, today: "2024-01-01", actions: older)
        #expect(fromOlder.actions == expected)
        #expect(fromOlder.state == replayed.state)
        #expect(replayed.comment(for: "rating") == "why not")
        // A restart starts an empty log.
        session.restart(seed: 4)
        #expect(session.actionCount == 0 && session.actions.isEmpty)
        try session.answer("2", for: "rating")
        #expect(session.actions == [.answer(stepID: "rating", value: "2")])
    }
}

import SurveyBuiltins
import SurveyCore
import SurveyRendering
import SurveyTestKit
import Testing

/// `showCommentArea`: a comment box beside a question, answered as `<id>-Comment` (SurveyJS's).
@Suite struct CommentAreaTests {
    static let text = """
        {"formatVersion": 1, "id": "c", "title": "Comments", "steps": [
          {"id": "p1", "type": "page", "steps": [
            {"id": "rating", "type": "rating", "showCommentArea": true, "commentText": {"en": "Why?", "fr": "Pourquoi ?"}},
            {"id": "more", "type": "text", "title": "You said: {rating-Comment}", "visibleIf": "{rating-Comment} notempty"}
          ]},
          {"id": "p2", "type": "page", "steps": [{"id": "plain", "type": "boolean", "showCommentArea": true}]}
        ]}
        """

    static func load(_ text: String = text) throws -> Survey {
        try SurveyLoader(registry: .builtins()).load(text: text, source: "c.json")
    }

    @Test func aCommentIsAnsweredReadByExpressionsAndReported() throws {
        let survey = try Self.load()
        #expect(survey.isComment("rating-Comment") && !survey.isComment("more-Comment"))
        var session = SurveySession(survey: survey, locale: "fr")
        let area = session.currentStep?.questions.first?.commentArea
        #expect(area == CommentArea(label: "Pourquoi ?", key: "rating-Comment"))
        #expect(session.currentStep?.questions.map(\.id) == ["rating"])
        try session.answer(4, for: "rating")
        #expect(try session.answer("  too slow  ", for: "rating-Comment") == "too slow")
        #expect(session.comment(for: "rating") == "too slow")
        #expect(session.currentStep?.questions.map(\.id) == ["rating", "more"])
        #expect(session.currentStep?.questions.last?.title == "You said: too slow")
        #expect(throws: SessionError.self) { try session.answer(3, for: "rating-Comment") }
        #expect(throws: SessionError.self) { try session.answer("x", for: "plain-Comment") }
        session.next()
        #expect(session.currentStep?.questions.first?.commentArea?.label == "Commentaire")
        guard case .completed(let result) = session.next() else {
            Issue.record("did not complete")
            return
        }
        #expect(result.answers == ["rating": 4, "rating-Comment": "too slow"])
    }

    @Test func aCommentIsReplayedFromTheActionLog() throws {
        let survey = try Self.load()
        var session = SurveySession(survey: survey)
        try session.answer(2, for: "rating")
        try session.answer("meh", for: "rating-Comment")
        let resumed = try SurveySession(survey: survey, resuming: session.state)
        #expect(resumed.comment(for: "rating") == "meh")
    }

    @Test func theProtocolAndTheTerminalShowTheBox() throws {
        let survey = try Self.load()
        let (_, events) = runJSON(
            survey, [#"{"command":"answer","stepId":"rating-Comment","value":"hm"}"#, "quit"])
        let step = try #require(events.last { $0.event == "step" }?["step"])
        #expect(
            step["questions"]?.arrayValue?.first?["commentArea"]
                == ["label": "Why?", "key": "rating-Comment", "text": "hm"])
        #expect(events.contains { $0.event == "answered" && $0["stepId"] == "rating-Comment" })
        let (_, output) = runText(survey, ["4", "slow", "", "y", ""])
        #expect(output.contains("Why?"), "\(output)")
        #expect(output.contains("You said: slow"))
    }

    @Test func surveyTestScriptsAnswerComments() throws {
        let survey = try Self.load()
        let run = HeadlessRun(
            survey: survey, script: .answers(["rating": 5, "rating-Comment": "great", "more": "ok", "plain": true]))
        #expect(run.failure == nil, "\(String(describing: run.failure))")
        guard case .completed(let result) = run.outcome else {
            Issue.record("did not complete: \(run.outcome)")
            return
        }
        #expect(result.answers["rating-Comment"] == "great")
    }

    @Test func misuseIsALoadError() {
        func message(_ step: String) -> String? {
            do {
                _ = try Self.load(
                    #"{"formatVersion": 1, "id": "c", "title": "C", "steps": [\#(step)]}"#)
                return nil
            } catch {
                return (error as? SurveyLoadError)?.errors.first?.message
            }
        }
        #expect(
            message(
                #"{"id": "q", "type": "single-choice", "showCommentArea": true, "options": {"choices": ["a"], "other": true}}"#
            )?
            .contains("has an Other choice, whose text is already {q-Comment}") == true)
        #expect(
            message(#"{"id": "q", "type": "content", "showCommentArea": true}"#)?.contains("takes no answer") == true)
        #expect(
            message(#"{"id": "p", "type": "page", "showCommentArea": true, "steps": [{"id": "q", "type": "text"}]}"#)?
                .contains("pages cannot have 'showCommentArea'") == true)
        #expect(
            message(#"{"id": "q", "type": "text", "visibleIf": "{q-Comment} = 1"}"#)?.contains("no showCommentArea")
                == true)
    }
}

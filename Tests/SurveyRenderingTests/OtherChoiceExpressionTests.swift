import SurveyBuiltins
import SurveyCore
import SurveyRendering
import Testing

/// "Other" as SurveyJS's expressions see it: an Other answer reads `'other'`, its text
/// `{q-Comment}`; the stored answer stays the text the respondent typed.
struct OtherChoiceExpressionTests {
    static let text = """
        {"formatVersion": 1, "id": "o", "title": "O", "steps": [
          {"id": "pet", "type": "single-choice", "options": {"choices": ["cat", "dog"], "other": true}},
          {"id": "tools", "type": "multiple-choice", "options": {"choices": ["a", "b"], "other": true}},
          {"id": "why", "type": "text", "title": "Why a {pet-Comment}?",
           "visibleIf": "{pet} = 'other' and {pet-Comment} notempty"},
          {"id": "more", "type": "text", "title": "You use {tools-Comment}", "visibleIf": "{tools} contains 'other'"}
        ]}
        """

    static func survey() throws -> Survey { try SurveyLoader(registry: .builtins()).load(text: text, source: "o.json") }

    @Test func anOtherAnswerReadsOtherAndItsTextIsTheComment() throws {
        var session = SurveySession(survey: try Self.survey())
        try session.answer("hamster", for: "pet")
        session.next()
        try session.answer(["a", "saw"], for: "tools")
        session.next()
        #expect(session.currentStep?.questions.first?.title == "Why a hamster?")
        try session.answer("cute", for: "why")
        session.next()
        #expect(session.currentStep?.questions.first?.title == "You use saw")
        try session.answer("x", for: "more")
        guard case .completed(let result) = session.next() else {
            Issue.record("not completed")
            return
        }
        // Stored as typed.
        #expect(result.answers["pet"] == "hamster")
        #expect(result.answers["tools"] == ["a", "saw"])
    }

    @Test func aChoiceIsNotOther() throws {
        var session = SurveySession(survey: try Self.survey())
        try session.answer("cat", for: "pet")
        session.next()
        try session.answer(["b"], for: "tools")
        guard case .completed(let result) = session.next() else {
            Issue.record("the Other questions were shown")
            return
        }
        #expect(result.path == ["pet", "tools"])
    }

    @Test func aSurveyJSStyleScriptFoldsTheCommentIntoTheAnswer() throws {
        let script = try AnswerScript(
            json: [
                "pet": "other", "pet-Comment": "hamster", "tools": ["a", "other"], "tools-Comment": "saw",
                "why": "cute", "more": "x",
            ])
        let run = HeadlessRun(survey: try Self.survey(), script: script)
        #expect(run.failure == nil, "\(String(describing: run.failure))")
        #expect(run.answers == ["pet": "hamster", "tools": ["a", "saw"], "why": "cute", "more": "x"])
    }

    @Test func aCommentOfAQuestionWithoutOtherIsALoadError() throws {
        let text = """
            {"formatVersion": 1, "id": "o", "title": "O", "steps": [
              {"id": "pet", "type": "single-choice", "options": {"choices": ["cat", "dog"]}},
              {"id": "why", "type": "text", "visibleIf": "{pet-Comment} notempty"}]}
            """
        #expect {
            try SurveyLoader(registry: .builtins()).load(text: text, source: "o.json")
        } throws: { error in
            "\(error)".contains(
                "{pet-Comment} is the text of an Other answer or a comment, but 'pet' has no Other choice and no showCommentArea"
            )
        }
    }
}

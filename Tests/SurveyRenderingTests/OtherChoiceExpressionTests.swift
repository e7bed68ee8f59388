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

/// A survey large enough to be configured in parallel chunks (each chunk finds its own questions with
/// an Other choice): `'other'` and `{q-Comment}` read alike in every chunk.
struct ChunkedOtherChoiceTests {
    static let stepCount = 6_000

    static func text() -> String {
        var steps: [String] = []
        for index in 0..<stepCount {
            if index % 1_000 == 0 {
                steps.append(
                    #"{"id": "pet\#(index)", "type": "single-choice", "options": {"choices": ["cat", "dog"], "other": true}}"#
                )
            } else if index % 1_000 == 1 {
                steps.append(
                    #"{"id": "why\#(index)", "type": "text", "visibleIf": "{pet\#(index - 1)} = 'other'"}"#)
            } else {
                steps.append(#"{"id": "q\#(index)", "type": "text"}"#)
            }
        }
        return #"{"formatVersion": 1, "id": "c", "title": "C", "steps": [\#(steps.joined(separator: ",\n"))]}"#
    }

    @Test func everyChunkReadsAnOtherAnswerAsOther() throws {
        let survey = try SurveyLoader(registry: .builtins()).load(text: Self.text(), source: "c.json")
        for index in stride(from: 0, to: Self.stepCount, by: 1_000) {
            #expect(survey.hasOtherChoice(step: "pet\(index)"))
            #expect(!survey.hasOtherChoice(step: "q\(index + 2)"))
        }
        // Every other chunk's question gets an Other answer: only its follow-up is shown.
        var session = SurveySession(survey: survey)
        var shown: [String] = []
        for _ in 0..<(2 * Self.stepCount) {
            guard let id = session.currentStep?.questions.first?.id else { break }
            if id.hasPrefix("pet") {
                let index = Int(id.dropFirst(3)) ?? 0
                try session.answer(index % 2_000 == 0 ? "hamster" : "cat", for: id)
            } else if id.hasPrefix("why") {
                shown.append(id)
            }
            if case .completed = session.next() { break }
        }
        #expect(shown == ["why1", "why2001", "why4001"])
    }
}

import SurveyBuiltins
import SurveyCore
import Testing

/// `choicesFromQuestion` (SurveyJS's carry-forward): a question offers another's choices, all of
/// them or those the respondent selected or left unselected there.
struct ChoicesFromQuestionTests {
    static func survey(mode: String?) throws -> Survey {
        let modeMember = mode.map { #", "choicesFromQuestionMode": "\#($0)""# } ?? ""
        return try SurveyLoader(registry: .builtins()).load(
            text: """
                {"formatVersion": 1, "id": "c", "title": "C", "steps": [
                  {"id": "tried", "type": "multiple-choice", "options": {"choices": ["a", "b", "c"]}},
                  {"id": "liked", "type": "multiple-choice", "choicesFromQuestion": "tried"\(modeMember)},
                  {"id": "best", "type": "single-choice", "choicesFromQuestion": "liked", "choicesFromQuestionMode": "selected"}
                ]}
                """, source: "c.json")
    }

    static func offered(_ session: SurveySession) -> [String] {
        session.currentStep?.questions.first?.input.choiceInput?.choices.map(\.value) ?? []
    }

    @Test(arguments: [
        (nil, ["a", "b", "c"]), ("all", ["a", "b", "c"]), ("selected", ["a", "c"]), ("unselected", ["b"]),
    ])
    func theModeDecidesWhichChoicesAreOffered(mode: String?, expected: [String]) throws {
        var session = SurveySession(survey: try Self.survey(mode: mode))
        try session.answer(["a", "c"], for: "tried")
        session.next()
        #expect(Self.offered(session) == expected)
        if mode == "selected" {
            #expect(throws: SessionError.self) { try session.answer(["b"], for: "liked") }
            // Carried forward again: only what was liked.
            try session.answer(["c"], for: "liked")
            session.next()
            #expect(Self.offered(session) == ["c"])
        }
    }

    /// The question's own None is not carried, so the mode does not hide it (as in survey-core).
    @Test func theQuestionsOwnNoneIsAlwaysOffered() throws {
        let survey = try SurveyLoader(registry: .builtins()).load(
            text: """
                {"formatVersion": 1, "id": "c", "title": "C", "steps": [
                  {"id": "tried", "type": "multiple-choice", "options": {"choices": ["a", "b"]}},
                  {"id": "liked", "type": "multiple-choice", "choicesFromQuestion": "tried",
                   "choicesFromQuestionMode": "selected", "options": {"none": true}}
                ]}
                """, source: "c.json")
        var session = SurveySession(survey: survey)
        try session.answer(["a"], for: "tried")
        session.next()
        #expect(Self.offered(session).count == 2 && Self.offered(session).first == "a")
        try session.answer(["none"], for: "liked")
    }

    /// `choicesVisibleIf` filters the carried choices (with the mode) and the question's listed ones,
    /// never its own None; an error in it names the member.
    @Test func choicesVisibleIfFiltersCarriedAndListedChoices() throws {
        let survey = try SurveyLoader(registry: .builtins()).load(
            text: """
                {"formatVersion": 1, "id": "c", "title": "C", "steps": [
                  {"id": "p1", "type": "page", "steps": [
                    {"id": "pets", "type": "multiple-choice", "options": {"choices": ["cat", "dog", "fish"]}},
                    {"id": "walk", "type": "single-choice", "choicesFromQuestion": "pets",
                     "choicesFromQuestionMode": "selected", "choicesVisibleIf": "{$item.value} <> 'fish'",
                     "options": {"none": true}},
                    {"id": "size", "type": "single-choice", "choicesVisibleIf": "{$item.text} notcontains 'X'",
                     "options": {"choices": [{"value": "s", "label": "Small"}, {"value": "xl", "label": "XL"}]}}]}
                ]}
                """, source: "c.json")
        var session = SurveySession(survey: survey)
        try session.answer(["dog", "fish"], for: "pets")
        let questions = session.currentStep?.questions ?? []
        #expect(questions[1].input.choiceInput?.choices.map(\.value) == ["dog", "none"])
        #expect(questions[2].input.choiceInput?.choices.map(\.value) == ["s"])
        #expect(throws: SessionError.self) { try session.answer("fish", for: "walk") }
        try session.answer("dog", for: "walk")
        // No longer offered once it is not selected: the answer is cleared.
        try session.answer(["cat"], for: "pets")
        #expect(session.answer(for: "walk") == nil)

        do {
            _ = try SurveyLoader(registry: .builtins()).load(
                text: """
                    {"formatVersion": 1, "id": "c", "title": "C", "steps": [
                      {"id": "pets", "type": "multiple-choice", "options": {"choices": ["cat"]}},
                      {"id": "walk", "type": "single-choice", "choicesFromQuestion": "pets", "choicesVisibleIf": "{nosuch} = 1"}
                    ]}
                    """, source: "c.json")
            Issue.record("an unknown name in choicesVisibleIf loads")
        } catch {
            #expect(error.description.contains("$.steps[1].choicesVisibleIf"))
        }
    }

    @Test func aSourceWithoutChoicesOrAnUnknownOneIsALoadError() {
        for (source, message) in [
            ("nosuch", "choicesFromQuestion 'nosuch' is not another step of this survey"),
            ("note", "'note' has no choices to carry forward"),
        ] {
            let text = """
                {"formatVersion": 1, "id": "c", "title": "C", "steps": [
                  {"id": "note", "type": "text"},
                  {"id": "liked", "type": "multiple-choice", "choicesFromQuestion": "\(source)"}]}
                """
            #expect {
                try SurveyLoader(registry: .builtins()).load(text: text, source: "c.json")
            } throws: { error in
                "\(error)".contains(message)
            }
        }
    }
}

/// A survey large enough to be configured in parallel chunks, with choices carried forward (the
/// configuration then waits for the ids instead of running beside the step-id table) and repeated
/// ids (found by that table): carried choices and duplicate-id errors come out as in a small one.
struct ChunkedChoicesFromQuestionTests {
    static func text(repeatedID: Bool) -> String {
        var steps: [String] = [#"{"id": "tried", "type": "multiple-choice", "options": {"choices": ["a", "b"]}}"#]
        for index in 1..<6_000 {
            steps.append(#"{"id": "q\#(index)", "type": "text"}"#)
        }
        steps.append(#"{"id": "liked", "type": "single-choice", "choicesFromQuestion": "tried"}"#)
        if repeatedID { steps.append(#"{"id": "q4500", "type": "text"}"#) }
        return #"{"formatVersion": 1, "id": "c", "title": "C", "steps": [\#(steps.joined(separator: ",\n"))]}"#
    }

    @Test func carriedChoicesReachTheLastChunk() throws {
        let survey = try SurveyLoader(registry: .builtins()).load(text: Self.text(repeatedID: false), source: "c.json")
        let liked = try #require(survey.question(forStep: "liked"))
        #expect(try liked.normalize("b") == "b")
        #expect(throws: AnswerError.self) { try liked.normalize("z") }
    }

    @Test func aRepeatedIDIsReportedWithCarriedChoices() {
        #expect {
            try SurveyLoader(registry: .builtins()).load(text: Self.text(repeatedID: true), source: "c.json")
        } throws: { error in
            "\(error)".contains("duplicate id 'q4500'")
        }
    }
}

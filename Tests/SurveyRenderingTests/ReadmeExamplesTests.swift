import SurveyBuiltins
import SurveyCore
import SurveyTestKit
import Testing

/// The Swift examples of docs/guide.md (the README's tour before), kept compiling and passing.
@Suite struct ReadmeExamplesTests {
    static let repositoryRoot: String = {
        var components = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        components.removeLast(3)  // Tests/SurveyRenderingTests/ReadmeExamplesTests.swift
        return components.joined(separator: "/")
    }()

    @Test func googleUsersSkipTheInstagramFollowUp() throws {
        let run = try SurveyRun(
            file: Self.repositoryRoot + "/Examples/onboarding.json",
            answers: ["discovery": "google", "goals": ["sleep"], "experience": "skip"])
        try run.expectPath(["welcome", "discovery", "about-you", "experience"])
        try run.expectAnswers(["discovery": "google", "goals": ["sleep"], "experience": "skip"])
        #expect(throws: SurveyRunError.self) { try run.expectPath(["welcome", "discovery"]) }
    }

    struct ColorType: QuestionType {
        var typeID: String { "color" }
        var summary: String { "A colour as #RRGGBB" }

        func makeOptions(from reader: inout OptionsReader) throws(SurveyError) -> LocalizedText? {
            try reader.optionalText("placeholder")
        }

        func input(for placeholder: LocalizedText?, in context: PresentationContext) -> InputPrimitive {
            .freeText(TextInput(placeholder: context.text(placeholder) ?? "#RRGGBB"))
        }

        func normalize(_ answer: JSONValue, options: LocalizedText?) throws(AnswerError) -> JSONValue {
            guard let text = answer.stringValue, text.count == 7, text.hasPrefix("#"),
                text.dropFirst().allSatisfy(\.isHexDigit)
            else { throw AnswerError(code: "invalidColor", message: "Enter a colour like #FF8800.") }
            return .string(text.uppercased())
        }
    }

    @Test func aCustomTypeIsAskedLikeABuiltIn() throws {
        var registry = QuestionTypeRegistry.builtins()
        try registry.register(ColorType())
        let json = """
            {"formatVersion": 1, "id": "c", "title": "Colours", "steps": [
              {"id": "favourite", "type": "color", "title": "Favourite colour?", "required": true,
               "options": {"placeholder": {"en": "#RRGGBB", "fr": "#RRVVBB"}}}]}
            """
        let survey = try SurveyLoader(registry: registry).load(text: json, source: "survey.json")
        var session = SurveySession(survey: survey, locale: "fr")
        guard case .freeText(let input) = session.currentStep?.questions.first?.input else {
            Issue.record("expected free text")
            return
        }
        #expect(input.placeholder == "#RRVVBB")
        #expect(throws: SessionError.self) { try session.answer("red", for: "favourite") }
        try session.answer("#ff8800", for: "favourite")
        guard case .completed(let result) = session.next() else {
            Issue.record("expected completion")
            return
        }
        #expect(result.answers == ["favourite": "#FF8800"])
        let run = try SurveyRun(text: json, answers: ["favourite": "#00ff00"], registry: registry)
        try run.expectAnswers(["favourite": "#00FF00"])
    }
}

import SurveyBuiltins
import SurveyCore
import Testing

struct ContentTypeTests {
    @Test func takesNoAnswer() throws {
        let question = try configure(ContentType(), ["body": "Welcome"])
        #expect(question.collectsAnswer == false)
        #expect(AnyQuestionType(ContentType()).collectsAnswer == false)
        #expect(question.input(in: english) == InputPrimitive.none)
        AnswerErrorCase("anything", "notAnswerable", [:]).check(question)
        AnswerErrorCase(nil, "notAnswerable", [:]).check(question)
    }

    @Test func decodesBodyAndMedia() throws {
        var reader = try OptionsReader(
            [
                "body": ["en": "Hi", "fr": "Salut"],
                "media": ["file": "intro.mp4", "kind": "video", "alt": "A short intro"],
            ], path: .root.appending("options"), stepID: "q")
        let options = try ContentType().makeOptions(from: &reader)
        try reader.finish()
        #expect(options.body == LocalizedText(translations: ["en": "Hi", "fr": "Salut"]))
        #expect(options.media?.reference == "intro.mp4")
        #expect(options.media?.isURL == false)
        #expect(options.media?.kind == "video")
        #expect(options.media?.alternativeText == "A short intro")
        _ = try configure(ContentType(), ["media": ["url": "https://example.com/a.png", "kind": "image"]])
        _ = try configure(ContentType())
    }

    @Test(arguments: [
        OptionErrorCase(["body": 1], .invalidValue, "$.options.body"),
        OptionErrorCase(["media": "a.png"], .invalidValue, "$.options.media"),
        OptionErrorCase(["media": ["kind": "image"]], .missingField, "$.options.media"),
        OptionErrorCase(
            ["media": ["url": "u", "file": "f", "kind": "image"]], .invalidOptions, "$.options.media.file"),
        OptionErrorCase(["media": ["url": "", "kind": "image"]], .invalidOptions, "$.options.media.url"),
        OptionErrorCase(["media": ["url": "a.gif"]], .missingField, "$.options.media"),
        OptionErrorCase(["media": ["url": "a.gif", "kind": "gif"]], .invalidValue, "$.options.media.kind"),
        OptionErrorCase(
            ["media": ["url": "a.gif", "kind": "image", "caption": "x"]], .unknownField, "$.options.media.caption"),
        OptionErrorCase(["text": "Hi"], .unknownField, "$.options.text"),
    ])
    func rejectsInvalidOptions(invalid: OptionErrorCase) {
        invalid.check(ContentType())
    }

    @Test func parseGivesNullWhichIsNotAnswerable() throws {
        let question = try configure(ContentType())
        let parsed = try question.parse(line: "", in: english)
        #expect(parsed == .null)
        #expect(question.isEmpty(parsed))
    }

    @Test func summaryIsEmpty() throws {
        let summary = try configure(ContentType()).summarize([nil, nil], in: english)
        #expect(summary.answered == 0)
        #expect(summary.buckets.isEmpty)
    }
}

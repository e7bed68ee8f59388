import SurveyBuiltins
import SurveyCore
import Testing

struct BooleanTypeTests {
    /// A piped yes/no answer reads as the question's labels in the respondent's language, as in
    /// SurveyJS ("Yes", not "true").
    @Test(arguments: [("en", true, "You said Yes"), ("en", false, "You said No"), ("fr", true, "You said Oui")])
    func pipedAnswersReadAsTheLabels(locale: String, answer: Bool, expected: String) throws {
        let survey = try SurveyLoader(registry: .builtins()).load(
            text: """
                {"formatVersion": 1, "id": "b", "title": "B", "locales": ["en", "fr"], "steps": [
                  {"id": "ok", "type": "boolean", "title": "OK?"},
                  {"id": "end", "type": "content", "title": "You said {ok}"}]}
                """, source: "b.json")
        var session = SurveySession(survey: survey, locale: locale)
        try session.answer(.bool(answer), for: "ok")
        session.next()
        #expect(session.currentStep?.questions.first?.title == expected)
    }

    @Test(arguments: [
        (JSONValue.bool(true), true), (false, false), ("yes", true), ("NO", false), (" True ", true), ("false", false),
    ])
    func normalizesToBooleans(answer: JSONValue, expected: Bool) throws {
        let question = try configure(BooleanType())
        #expect(try question.normalize(answer) == .bool(expected))
    }

    @Test(arguments: [JSONValue.string("maybe"), 1, nil, ["yes"]])
    func rejectsNonBooleans(answer: JSONValue) throws {
        AnswerErrorCase(answer, "notABoolean", [:]).check(try configure(BooleanType()))
    }

    @Test(arguments: [
        ("yes-no", "Yes", "No"), ("true-false", "True", "False"), ("happy-sad", "Happy", "Sad"),
        ("thumbs", "Thumbs up", "Thumbs down"),
    ])
    func stylesGiveLabelsAndPresentation(style: String, trueLabel: String, falseLabel: String) throws {
        let question = try configure(BooleanType(), ["style": .string(style)])
        #expect(
            question.input(in: english)
                == .boolean(BooleanInput(trueLabel: trueLabel, falseLabel: falseLabel, presentation: style)))
    }

    @Test func defaultsToYesNoAndLocalisesLabels() throws {
        let question = try configure(BooleanType())
        let german = PresentationContext(locale: "de", defaultLocale: "en")
        #expect(
            question.input(in: german)
                == .boolean(
                    BooleanInput(
                        trueLabel: german.strings[.yes], falseLabel: german.strings[.no], presentation: "yes-no")))
    }

    @Test func customLabelsOverrideTheStyle() throws {
        let question = try configure(BooleanType(), ["style": "thumbs", "trueLabel": "Love it", "falseLabel": "Meh"])
        #expect(
            question.input(in: english)
                == .boolean(BooleanInput(trueLabel: "Love it", falseLabel: "Meh", presentation: "thumbs")))
        #expect(try question.parse(line: "meh", in: english) == false)
    }

    @Test(arguments: [
        OptionErrorCase(["style": "stars"], .invalidValue, "$.options.style"),
        OptionErrorCase(["style": true], .invalidValue, "$.options.style"),
        OptionErrorCase(["trueLabel": 1], .invalidValue, "$.options.trueLabel"),
        OptionErrorCase(["styles": "thumbs"], .unknownField, "$.options.styles"),
    ])
    func rejectsInvalidOptions(invalid: OptionErrorCase) {
        invalid.check(BooleanType())
    }

    @Test func unknownStyleSuggestsTheClosest() {
        #expect(optionError(BooleanType(), ["style": "thumb"])?.message.contains("did you mean 'thumbs'") == true)
    }

    @Test(arguments: [("y", true), ("no", false), ("1", true), ("0", false)])
    func parseUnderstandsTypedAnswers(line: String, expected: Bool) throws {
        let question = try configure(BooleanType())
        #expect(try question.parse(line: line, in: english) == .bool(expected))
    }

    @Test func summaryCountsTrueAndFalse() throws {
        let question = try configure(BooleanType(), ["style": "happy-sad"])
        let summary = question.summarize([true, true, false, nil], in: english)
        #expect(summary.answered == 3)
        #expect(summary.buckets.map(\.label) == ["Happy", "Sad"])
        #expect(summary.buckets.map(\.count) == [2, 1])
    }

    @Test(arguments: [JSONValue.string("Yes"), false])
    func normalizeIsIdempotent(answer: JSONValue) throws {
        let question = try configure(BooleanType())
        let once = try question.normalize(answer)
        #expect(try question.normalize(once) == once)
    }

    /// SurveyJS's `valueTrue`/`valueFalse`: the answer stored for yes and no.
    @Test(arguments: [
        (JSONValue.bool(true), JSONValue.string("Y")), (false, 0), ("yes", "Y"), ("no", 0), ("Y", "Y"), (0, 0),
        ("0", 0),
    ])
    func storedValuesReplaceTheBooleans(answer: JSONValue, expected: JSONValue) throws {
        let question = try configure(BooleanType(), ["trueValue": "Y", "falseValue": 0])
        #expect(try question.normalize(answer) == expected)
        #expect(try question.normalize(expected) == expected)
    }

    @Test func oneStoredValueKeepsTheOtherBoolean() throws {
        let question = try configure(BooleanType(), ["trueValue": "ok"])
        #expect(try question.normalize(true) == "ok")
        #expect(try question.normalize(false) == false)
        #expect(throws: AnswerError.self) { try question.normalize("maybe") }
    }

    @Test func storedValuesMustDiffer() {
        #expect(optionError(BooleanType(), ["trueValue": "x", "falseValue": "x"]) != nil)
    }

    @Test func storedValuesAreCountedAndPipedAsTheirLabels() throws {
        let question = try configure(BooleanType(), ["trueValue": "Y", "falseValue": "N"])
        let summary = question.summarize(["Y", "N", "N", nil], in: english)
        #expect(summary.buckets.map(\.count) == [1, 2])
        let survey = try SurveyLoader(registry: .builtins()).load(
            text: """
                {"formatVersion": 1, "id": "b", "title": "B", "steps": [
                  {"id": "ok", "type": "boolean", "title": "OK?", "options": {"trueValue": "Y", "falseValue": "N"}},
                  {"id": "end", "type": "content", "title": "You said {ok}", "visibleIf": "{ok} = 'N'"}]}
                """, source: "b.json")
        var session = SurveySession(survey: survey)
        try session.answer(false, for: "ok")
        #expect(session.answer(for: "ok") == "N")
        session.next()
        #expect(session.currentStep?.questions.first?.title == "You said No")
    }
}

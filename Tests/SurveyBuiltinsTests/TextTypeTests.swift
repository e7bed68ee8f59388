import SurveyBuiltins
import SurveyCore
import Testing

struct TextTypeTests {
    @Test(arguments: [
        ("  hello  ", "hello"), ("a\nb", "a\nb"), ("\tnew line\n", "new line"), ("", ""),
    ])
    func normalizesByTrimming(answer: String, expected: String) throws {
        let question = try configure(TextType())
        #expect(try question.normalize(.string(answer)) == .string(expected))
    }

    @Test func inputDescribesOptions() throws {
        let question = try configure(
            TextType(),
            [
                "multiline": true, "minLength": 2, "maxLength": 10,
                "placeholder": ["en": "Your answer", "fr": "Réponse"],
            ])
        #expect(
            question.input(in: english)
                == .freeText(
                    TextInput(isMultiline: true, minimumLength: 2, maximumLength: 10, placeholder: "Your answer")))
        let french = PresentationContext(locale: "fr", defaultLocale: "en")
        guard case .freeText(let input) = question.input(in: french) else {
            Issue.record("expected free text")
            return
        }
        #expect(input.placeholder == "Réponse")
    }

    @Test(arguments: [
        AnswerErrorCase(" ab ", "tooShort", ["min": "3"]),
        AnswerErrorCase("abcdef", "tooLong", ["max": "5"]),
        AnswerErrorCase(12, "wrongShape", ["expected": "text", "got": "an integer"]),
        AnswerErrorCase([], "wrongShape", ["expected": "text", "got": "an array"]),
    ])
    func rejectsInvalidAnswers(invalid: AnswerErrorCase) throws {
        invalid.check(try configure(TextType(), ["minLength": 3, "maxLength": 5]))
    }

    @Test func keepNumbersKeepsAGivenNumberAndTypedTextStaysText() throws {
        let question = try configure(TextType(), ["keepNumbers": true, "maxLength": 2, "pattern": "[0-9]+"])
        #expect(try question.normalize(12345) == 12345)
        #expect(try question.normalize(" 7 ") == "7")
        // The pattern reads the number as written; the lengths are for typed text, as in survey-core.
        #expect(answerError(question, 0.5)?.code == "patternMismatch")
        #expect(answerError(question, "123")?.code == "tooLong")
        #expect(answerError(question, true)?.code == "wrongShape")
        // Not set (this format's default): a number is no text.
        #expect(answerError(try configure(TextType()), 7)?.code == "wrongShape")
    }

    @Test func keepNumbersSkipsTheInputTypeAndAPatternMaskButNotANumericOne() throws {
        let phone = try configure(TextType(), ["keepNumbers": true, "inputType": "tel"])
        #expect(try phone.normalize(5) == 5)
        #expect(answerError(phone, "5")?.code == "invalidPhone")
        let masked = try configure(TextType(), ["keepNumbers": true, "mask": ["type": "pattern", "pattern": "999"]])
        #expect(try masked.normalize(5) == 5)
        let numeric = try configure(
            TextType(), ["keepNumbers": true, "mask": ["type": "numeric", "precision": 1, "max": 10]])
        #expect(try numeric.normalize(2.25) == 2.2)
        #expect(answerError(numeric, 11)?.code == "aboveMaximum")
    }

    @Test func multipleTextKeepNumbersKeepsANumberGivenToATextItem() throws {
        let items: JSONValue = [
            ["name": "a"], ["name": "t", "inputType": "tel"], ["name": "e", "inputType": "email"],
        ]
        let kept = try configure(MultipleTextType(), ["items": items, "keepNumbers": true])
        #expect(try kept.normalize(["a": 1, "t": 5, "e": "x@example.com"]) == ["a": 1, "t": 5, "e": "x@example.com"])
        #expect(try kept.normalize(["a": " 1 "]) == ["a": "1"])
        #expect(answerError(kept, ["e": 5])?.code == "wrongShape")
        #expect(answerError(try configure(MultipleTextType(), ["items": items]), ["a": 1])?.code == "wrongShape")
    }

    @Test func lengthCountsCharactersNotBytes() throws {
        let question = try configure(TextType(), ["maxLength": 3])
        #expect(try question.normalize("日本語") == "日本語")
        #expect(try question.normalize("👍🏽👍🏽") == "👍🏽👍🏽")
    }

    @Test func patternMustMatchTheWholeAnswer() throws {
        let question = try configure(TextType(), ["pattern": "[0-9]{5}"])
        #expect(try question.normalize(" 12345 ") == "12345")
        #expect(answerError(question, "123456")?.code == "patternMismatch")
        #expect(answerError(question, "a12345")?.code == "patternMismatch")
        let alternatives = try configure(TextType(), ["pattern": "cat|dog"])
        #expect(try alternatives.normalize("dog") == "dog")
        #expect(answerError(alternatives, "catdog")?.code == "patternMismatch")
        let multiline = try configure(TextType(), ["multiline": true, "pattern": "[a-z]+"])
        #expect(answerError(multiline, "abc\ndef")?.code == "patternMismatch")
    }

    @Test(arguments: [
        OptionErrorCase(["minLength": -1], .invalidValue, "$.options.minLength"),
        OptionErrorCase(["minLength": 5, "maxLength": 2], .invalidOptions, "$.options.maxLength"),
        OptionErrorCase(["maxLength": "10"], .invalidValue, "$.options.maxLength"),
        OptionErrorCase(["pattern": "([a-z]"], .invalidOptions, "$.options.pattern"),
        OptionErrorCase(["multiline": "yes"], .invalidValue, "$.options.multiline"),
        OptionErrorCase(["placeholder": 3], .invalidValue, "$.options.placeholder"),
        OptionErrorCase(["multiLine": true], .unknownField, "$.options.multiLine"),
        OptionErrorCase(["minLength": 1.5], .invalidValue, "$.options.minLength"),
    ])
    func rejectsInvalidOptions(invalid: OptionErrorCase) {
        invalid.check(TextType())
    }

    @Test func unknownOptionSuggestsTheRightName() {
        let error = optionError(TextType(), ["multiLine": true])
        #expect(error?.message.contains("did you mean 'multiline'") == true)
    }

    @Test func parseKeepsTheLineAndNormalizeTrims() throws {
        let question = try configure(TextType())
        let parsed = try question.parse(line: "  typed  ", in: english)
        #expect(parsed == "  typed  ")
        #expect(try question.normalize(parsed) == "typed")
    }

    @Test func summaryCountsAnswered() throws {
        let question = try configure(TextType())
        let summary = question.summarize(["a", "", nil, "b"], in: english)
        #expect(summary.answered == 2)
        #expect(summary.buckets.isEmpty)
    }

    @Test(arguments: ["  x ", "abc", "multi\nline"])
    func normalizeIsIdempotent(answer: String) throws {
        let question = try configure(TextType(), ["pattern": "[a-z\\n ]+"])
        let once = try question.normalize(.string(answer))
        #expect(try question.normalize(once) == once)
    }
}

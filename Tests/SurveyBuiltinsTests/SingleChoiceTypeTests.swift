import SurveyBuiltins
import SurveyCore
import Testing

struct SingleChoiceTypeTests {
    static let options: JSONValue = [
        "choices": [
            "red", ["value": "grn", "label": ["en": "Green", "fr": "Vert"], "icon": "leaf", "visibleIf": "{a} = 1"],
        ],
        "other": true,
    ]

    @Test(arguments: [
        (JSONValue.string("red"), JSONValue.string("red")), (" red ", "red"), ("RED", "red"), ("Green", "grn"),
        ("vert", "grn"), ("Purple", "Purple"), ("  my own  ", "my own"),
    ])
    func normalizesToChoiceValuesOrOtherText(answer: JSONValue, expected: JSONValue) throws {
        let question = try configure(SingleChoiceType(), Self.options)
        #expect(try question.normalize(answer) == expected)
    }

    @Test func inputListsChoicesWithOtherLastInTheLocale() throws {
        let question = try configure(SingleChoiceType(), Self.options)
        let french = PresentationContext(locale: "fr", defaultLocale: "en")
        guard case .singleChoice(let input) = question.input(in: french) else {
            Issue.record("expected a single choice")
            return
        }
        #expect(
            input.choices == [
                Choice(value: "red", label: "red"),
                Choice(value: "grn", label: "Vert", iconName: "leaf", visibleIf: "{a} = 1"),
                Choice(value: "other", label: french.strings[.other], isOther: true),
            ])
        #expect(input.isShuffled == false)
    }

    @Test func otherLabelShuffleAndPresentation() throws {
        let question = try configure(
            SingleChoiceType(),
            ["choices": ["a", "b"], "other": "Something else", "shuffle": true, "presentation": "dropdown"])
        #expect(
            question.input(in: english)
                == .singleChoice(
                    ChoiceInput(
                        choices: [
                            Choice(value: "a", label: "a"), Choice(value: "b", label: "b"),
                            Choice(value: "other", label: "Something else", isOther: true),
                        ], isShuffled: true, presentation: "dropdown")))
    }

    @Test(arguments: [
        AnswerErrorCase("other", "otherTextRequired", [:]),
        AnswerErrorCase(" OTHER ", "otherTextRequired", [:]),
        AnswerErrorCase(true, "wrongShape", ["expected": "a choice", "got": "a Boolean"]),
        AnswerErrorCase(["red"], "wrongShape"),
        AnswerErrorCase("", "required"),
    ])
    func rejectsInvalidAnswersWithOther(invalid: AnswerErrorCase) throws {
        invalid.check(try configure(SingleChoiceType(), Self.options))
    }

    @Test func withoutOtherUnknownTextIsNotAChoice() throws {
        let question = try configure(SingleChoiceType(), ["choices": ["yes", "no"]])
        AnswerErrorCase("maybe", "notAChoice", ["value": "maybe"]).check(question)
        AnswerErrorCase("other", "notAChoice", ["value": "other"]).check(question)
    }

    @Test func numericChoiceValuesAcceptNumbers() throws {
        let question = try configure(SingleChoiceType(), ["choices": ["1", "2", "3"]])
        #expect(try question.normalize(2) == "2")
    }

    @Test(arguments: [
        OptionErrorCase([:], .missingField, "$.options"),
        OptionErrorCase(["choices": []], .invalidOptions, "$.options.choices"),
        OptionErrorCase(["choices": "red"], .invalidValue, "$.options.choices"),
        OptionErrorCase(["choices": ["a", "b", "a"]], .invalidOptions, "$.options.choices[2]"),
        OptionErrorCase(["choices": ["a", ["value": "a", "label": "A"]]], .invalidOptions, "$.options.choices[1]"),
        OptionErrorCase(["choices": ["a", true]], .invalidValue, "$.options.choices[1]"),
        OptionErrorCase(["choices": [["label": "A"]]], .missingField, "$.options.choices[0]"),
        OptionErrorCase(["choices": [["value": "a", "lable": "A"]]], .unknownField, "$.options.choices[0].lable"),
        OptionErrorCase(["choices": [""]], .invalidOptions, "$.options.choices[0]"),
        OptionErrorCase(["choices": ["other"], "other": true], .invalidOptions, "$.options.other"),
        OptionErrorCase(["choices": ["a"], "other": 1], .invalidValue, "$.options.other"),
        OptionErrorCase(["choices": ["a"], "shuffle": "yes"], .invalidValue, "$.options.shuffle"),
        OptionErrorCase(["choices": ["a"], "presentation": ""], .invalidOptions, "$.options.presentation"),
    ])
    func rejectsInvalidOptions(invalid: OptionErrorCase) {
        invalid.check(SingleChoiceType())
    }

    @Test func parseAcceptsNumbersValuesAndLabels() throws {
        let question = try configure(SingleChoiceType(), Self.options)
        #expect(try question.parse(line: "2", in: english) == "grn")
        #expect(try question.parse(line: "green", in: english) == "grn")
        #expect(try question.normalize(try question.parse(line: "a cat", in: english)) == "a cat")
        let closed = try configure(SingleChoiceType(), ["choices": ["a", "b"]])
        #expect(throws: AnswerError.self) { try closed.parse(line: "9", in: english) }
    }

    @Test func summaryCountsChoicesAndOtherTexts() throws {
        let question = try configure(SingleChoiceType(), Self.options)
        let summary = question.summarize(["red", "red", "grn", "Purple", "Teal", nil], in: english)
        #expect(summary.answered == 5)
        #expect(summary.buckets.map(\.value) == ["red", "grn", "other"])
        #expect(summary.buckets.map(\.count) == [2, 1, 2])
        #expect(summary.buckets.map(\.percentage) == [40, 20, 40])
    }

    @Test(arguments: ["red", "Green", "own text"])
    func normalizeIsIdempotent(answer: String) throws {
        let question = try configure(SingleChoiceType(), Self.options)
        let once = try question.normalize(.string(answer))
        #expect(try question.normalize(once) == once)
    }
}

/// `none` on a single choice: a "None of the above" choice with the value `none`, before Other.
struct SingleChoiceNoneTests {
    @Test func noneIsAChoiceBeforeOther() throws {
        let question = try configure(SingleChoiceType(), ["choices": ["a", "b"], "none": true, "other": true])
        #expect(question.input(in: english).choiceInput?.choices.map(\.value) == ["a", "b", "none", "other"])
        #expect(try question.normalize("none") == "none")
    }

    @Test func aChoiceNamedNoneConflicts() {
        OptionErrorCase(["choices": ["none", "b"], "none": true], .invalidOptions, "$.options.none").check(
            SingleChoiceType())
    }
}

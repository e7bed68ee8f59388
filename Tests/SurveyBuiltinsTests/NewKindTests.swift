import SurveyBuiltins
import SurveyCore
import Testing

/// `dropdown` and `tagbox`: single and multiple choice with a placeholder and a searchable list.
struct DropdownAndTagboxTests {
    static let options: JSONValue = [
        "choices": ["France", ["value": "de", "label": ["en": "Germany", "fr": "Allemagne"]], 3],
        "placeholder": ["en": "Choose", "fr": "Choisir"],
    ]

    @Test func dropdownAnswersAsASingleChoice() throws {
        let question = try configure(DropdownType(), Self.options)
        #expect(try question.normalize("france") == "France")
        #expect(try question.normalize("Allemagne") == "de")
        #expect(try question.normalize("3") == 3)
        #expect(answerError(question, "Spain")?.code == "notAChoice")
        #expect(answerError(question, ["France"])?.code == "wrongShape")
        guard case .singleChoice(let input) = question.input(in: PresentationContext(locale: "fr", defaultLocale: "en"))
        else {
            Issue.record("not a single choice")
            return
        }
        #expect(input.presentation == "dropdown" && input.placeholder == "Choisir")
        #expect(input.choices.map(\.label) == ["France", "Allemagne", "3"])
    }

    @Test func tagboxAnswersAsAMultipleChoice() throws {
        let question = try configure(TagboxType(), ["choices": ["a", "b", "c"], "maxSelections": 2])
        #expect(try question.normalize(["c", "a"]) == ["c", "a"])
        #expect(answerError(question, ["a", "b", "c"])?.code == "tooManySelections")
        #expect(answerError(question, "a")?.code == "wrongShape")
        #expect(question.input(in: english).choiceInput?.presentation == "tagbox")
        #expect(question.input(in: english).jsonValue["kind"] == "multiple-choice")
    }

    @Test func customChoicesAreKeptAsTyped() throws {
        let city = try configure(DropdownType(), ["choices": ["Paris", "Lyon"], "allowCustomChoices": true])
        #expect(try city.normalize("lyon") == "Lyon")
        #expect(try city.normalize(" Nantes ") == "Nantes")
        #expect(city.input(in: english).choiceInput?.allowsCustomChoices == true)
        #expect(city.input(in: english).jsonValue["allowCustomChoices"] == true)
        #expect(try city.parse(line: "Nantes", in: english) == "Nantes")
        let strict = try configure(DropdownType(), ["choices": ["Paris"]])
        #expect(answerError(strict, "Nantes")?.code == "notAChoice")
        #expect(strict.input(in: english).jsonValue["allowCustomChoices"] == nil)
        let tags = try configure(
            TagboxType(), ["choices": ["swift", "go"], "allowCustomChoices": true, "maxSelections": 3])
        #expect(try tags.normalize(["go", "zig"]) == ["go", "zig"])
        #expect(answerError(tags, ["go", "zig", "odin", "c"])?.code == "tooManySelections")
        #expect(try tags.parse(line: "2, zig", in: english) == ["go", "zig"])
        #expect(optionError(TagboxType(), ["choices": ["a"], "maxSelections": 3]) != nil)
    }

    @Test(arguments: [
        OptionErrorCase([:], .missingField, "$.options"),
        OptionErrorCase(["choices": ["a"], "placeholder": 3], .invalidValue, "$.options.placeholder"),
        OptionErrorCase(["choices": ["a", "a"]], .invalidOptions, "$.options.choices[1]"),
        OptionErrorCase(["choices": ["a"], "presentation": "list"], .unknownField, "$.options.presentation"),
    ])
    func dropdownRejectsInvalidOptions(invalid: OptionErrorCase) {
        invalid.check(DropdownType())
    }

    @Test(arguments: [
        OptionErrorCase(["choices": ["a"], "maxSelections": 0], .invalidValue, "$.options.maxSelections"),
        OptionErrorCase(["choices": ["a"], "placeholder": true], .invalidValue, "$.options.placeholder"),
    ])
    func tagboxRejectsInvalidOptions(invalid: OptionErrorCase) {
        invalid.check(TagboxType())
    }
}

/// `slider`: a number from min to max in steps (default 0–100).
struct SliderTypeTests {
    @Test func answersAreNumbersInRangeOnAStep() throws {
        let question = try configure(SliderType(), ["min": 0, "max": 50, "step": 5])
        #expect(try question.normalize(25) == 25)
        #expect(try question.normalize("10") == 10)
        #expect(answerError(question, 7)?.code == "notOnStep")
        #expect(answerError(question, 55)?.code == "aboveMaximum")
        #expect(answerError(question, "lots")?.code == "notANumber")
        guard case .number(let input) = try configure(SliderType()).input(in: english) else {
            Issue.record("not a number")
            return
        }
        #expect(input.minimum == 0 && input.maximum == 100 && input.presentation == "slider")
        let summary = question.summarize([10, 20, 30, .null], in: english)
        #expect(summary.answered == 3 && summary.mean == 20)
    }

    @Test(arguments: [
        OptionErrorCase(["min": 10, "max": 5], .invalidOptions, "$.options.max"),
        OptionErrorCase(["step": 0], .invalidOptions, "$.options.step"),
        OptionErrorCase(["max": 10, "step": 3], .invalidOptions, "$.options.step"),
        OptionErrorCase(["preset": "nps"], .unknownField, "$.options.preset"),
    ])
    func rejectsInvalidOptions(invalid: OptionErrorCase) {
        invalid.check(SliderType())
    }
}

/// `expression`: a read-only value computed from other answers.
struct ExpressionTypeTests {
    static let text = """
        {"formatVersion": 1, "id": "x", "title": "X", "steps": [
          {"id": "p", "type": "page", "steps": [
            {"id": "price", "type": "number"},
            {"id": "quantity", "type": "number"},
            {"id": "total", "type": "expression", "title": "Total",
             "options": {"expression": "{price} * {quantity}", "maximumFractionDigits": 2, "displayStyle": "currency", "currency": "eur"}},
            {"id": "big", "type": "text", "visibleIf": "{total} > 100"}
          ]}
        ]}
        """

    @Test func itsValueFollowsTheExpressionAndIsStored() throws {
        let survey = try SurveyLoader(registry: .builtins()).load(text: Self.text)
        var session = SurveySession(survey: survey)
        try session.answer(19.999, for: "price")
        try session.answer(10, for: "quantity")
        #expect(session.answer(for: "total") == 199.99)
        #expect(session.currentStep?.questions.map(\.id) == ["price", "quantity", "total", "big"])
        let total = session.currentStep?.questions.first { $0.id == "total" }
        #expect(total?.isReadOnly == true && total?.isRequired == false)
        #expect(total?.input.jsonValue["presentation"] == "expression/currency/EUR")
        #expect(throws: SessionError.self) { try session.answer(5, for: "total") }
        try session.answer(1, for: "quantity")
        #expect(session.answer(for: "total") == 20)
        guard case .completed(let result) = session.next() else {
            Issue.record("did not complete")
            return
        }
        #expect(result.answers["total"] == 20)
    }

    @Test(arguments: [
        OptionErrorCase([:], .missingField, "$.options"),
        OptionErrorCase(["expression": " "], .invalidOptions, "$.options.expression"),
        OptionErrorCase(["expression": "1", "displayStyle": "money"], .invalidOptions, "$.options.displayStyle"),
        OptionErrorCase(["expression": "1", "currency": "EURO"], .invalidOptions, "$.options.currency"),
        OptionErrorCase(
            ["expression": "1", "maximumFractionDigits": 30], .invalidValue, "$.options.maximumFractionDigits"),
    ])
    func rejectsInvalidOptions(invalid: OptionErrorCase) {
        invalid.check(ExpressionType())
    }

    @Test func aBadExpressionOrADefaultIsALoadError() {
        func errors(_ options: String, extra: String = "") -> [SurveyError] {
            let text = """
                {"formatVersion": 1, "id": "x", "title": "X", "steps": [
                  {"id": "t", "type": "expression", \(extra)"options": \(options)}]}
                """
            do {
                _ = try SurveyLoader(registry: .builtins()).load(text: text)
                return []
            } catch {
                return error.errors
            }
        }
        let unknown = errors(#"{"expression": "{nope} + 1"}"#)
        #expect(unknown.first?.path?.description == "$.steps[0].options.expression", "\(unknown)")
        #expect(unknown.first?.message.contains("nope") == true)
        #expect(
            errors(#"{"expression": "1"}"#, extra: #""defaultValue": 2, "#).first?.message.contains("computed") == true)
    }
}

/// `multiple-text`: named boxes answered together, each with its own kind and checks.
struct MultipleTextTypeTests {
    static let options: JSONValue = [
        "items": [
            ["name": "first", "title": ["en": "First name", "fr": "Prénom"], "required": true, "maxLength": 10],
            ["name": "age", "inputType": "number", "min": 0, "max": 130],
            ["name": "mail", "inputType": "email"],
            ["name": "phone", "inputType": "tel"],
        ]
    ]

    @Test func normalizesEachItem() throws {
        let question = try configure(MultipleTextType(), Self.options)
        #expect(
            try question.normalize(["first": " Ada ", "age": "36", "mail": "ada@EXAMPLE.org", "phone": ""])
                == ["first": "Ada", "age": 36, "mail": "ada@example.org"])
        #expect(try question.normalize(["first": "Bo", "age": 7]) == ["first": "Bo", "age": 7])
    }

    static let invalidAnswers: [(answer: JSONValue, code: String, field: String)] = [
        (["first": "Ada", "nick": "A"], "wrongShape", "nick"),
        (["age": 3], "missingField", "first"),
        (["first": "Alexandrina Victoria"], "tooLong", "first"),
        (["first": "Ada", "age": "old"], "notANumber", "age"),
        (["first": "Ada", "age": 200], "aboveMaximum", "age"),
        (["first": "Ada", "mail": "nope"], "invalidEmail", "mail"),
        (["first": "Ada", "phone": "12"], "invalidPhone", "phone"),
        (["first": 5], "wrongShape", "first"),
    ]

    @Test func rejectsAnswersThatAreNotObjects() throws {
        #expect(answerError(try configure(MultipleTextType(), Self.options), "Ada")?.code == "wrongShape")
    }

    @Test(arguments: invalidAnswers)
    func rejectsInvalidAnswers(answer: JSONValue, code: String, field: String) throws {
        let question = try configure(MultipleTextType(), Self.options)
        let error = answerError(question, answer)
        #expect(error?.code == code)
        #expect(error?.field == field)
    }

    @Test func isAskedAsAComposite() throws {
        let question = try configure(MultipleTextType(), Self.options)
        guard case .composite(let input) = question.input(in: PresentationContext(locale: "fr", defaultLocale: "en"))
        else {
            Issue.record("not a composite")
            return
        }
        #expect(input.presentation == "multiple-text")
        #expect(input.fields.map(\.name) == ["first", "age", "mail", "phone"])
        #expect(input.fields.map(\.label) == ["Prénom", "age", "mail", "phone"])
        #expect(input.fields.map(\.isRequired) == [true, false, false, false])
        #expect(try question.normalize([:]) == .null)
    }

    @Test(arguments: [
        OptionErrorCase([:], .missingField, "$.options"),
        OptionErrorCase(["items": []], .invalidOptions, "$.options.items"),
        OptionErrorCase(["items": [["name": "a"], ["name": "a"]]], .invalidOptions, "$.options.items[1]"),
        OptionErrorCase(
            ["items": [["name": "a", "inputType": "colour"]]], .invalidOptions, "$.options.items[0].inputType"),
        OptionErrorCase(["items": [["name": "a", "min": 1]]], .invalidOptions, "$.options.items[0].min"),
        OptionErrorCase(
            ["items": [["name": "a", "minLength": 5, "maxLength": 2]]], .invalidOptions, "$.options.items[0].maxLength"),
        OptionErrorCase(["items": [["name": "a", "size": 2]]], .unknownField, "$.options.items[0].size"),
        OptionErrorCase(["items": [["title": "A"]]], .missingField, "$.options.items[0]"),
        OptionErrorCase(["items": [["name": "a", "pattern": "(["]]], .invalidOptions, "$.options.items[0].pattern"),
        OptionErrorCase(
            ["items": [["name": "a", "inputType": "number", "pattern": "1"]]], .invalidOptions,
            "$.options.items[0].pattern"),
    ])
    func rejectsInvalidOptions(invalid: OptionErrorCase) {
        invalid.check(MultipleTextType())
    }

    /// An item's `pattern` (SurveyJS's item `regex` validator): the text must contain a match.
    @Test func anItemsPatternChecksItsText() throws {
        let question = try configure(
            MultipleTextType(),
            [
                "items": [
                    ["name": "card", "pattern": "^[0-9]{4}$"],
                    ["name": "code", "pattern": "^ab", "patternIgnoresCase": true],
                ]
            ])
        #expect(try question.normalize(["card": "1234", "code": "ABc"]) == ["card": "1234", "code": "ABc"])
        let error = answerError(question, ["card": "12a4"])
        #expect(error?.code == "patternMismatch" && error?.field == "card")
        #expect(answerError(question, ["code": "xab"])?.code == "patternMismatch")
        guard case .composite(let input) = question.input(in: .english),
            case .freeText(let text) = input.fields[0].input
        else {
            Issue.record("not a composite of texts")
            return
        }
        #expect(text.pattern == "^[0-9]{4}$")
    }
}

/// `image-choice`: pictures to choose from, one or several.
struct ImageChoiceTypeTests {
    static let choices: JSONValue = [
        ["value": "a", "image": "https://example.com/a.png", "label": "Round"], ["value": 2, "image": "images/b.png"],
    ]

    @Test func oneOrSeveralPictures() throws {
        let single = try configure(ImageChoiceType(), ["choices": Self.choices])
        #expect(try single.normalize("round") == "a")
        #expect(try single.normalize("2") == 2)
        #expect(answerError(single, ["a"])?.code == "wrongShape")
        #expect(answerError(single, "c")?.code == "notAChoice")
        guard case .singleChoice(let input) = single.input(in: english) else {
            Issue.record("not a single choice")
            return
        }
        #expect(input.presentation == "images")
        #expect(input.choices.map(\.imageReference) == ["https://example.com/a.png", "images/b.png"])
        #expect(input.choices.first?.jsonValue["image"] == "https://example.com/a.png")
        let multiple = try configure(
            ImageChoiceType(), ["choices": Self.choices, "multiple": true, "maxSelections": 1])
        #expect(try multiple.normalize(["a"]) == ["a"])
        #expect(answerError(multiple, ["a", 2])?.code == "tooManySelections")
        #expect(multiple.input(in: english).jsonValue["kind"] == "multiple-choice")
    }

    @Test(arguments: [
        OptionErrorCase([:], .missingField, "$.options"),
        OptionErrorCase(["choices": ["a"]], .invalidValue, "$.options.choices[0]"),
        OptionErrorCase(["choices": [["value": "a"]]], .missingField, "$.options.choices[0].image"),
        OptionErrorCase(["choices": [["value": "a", "image": " "]]], .invalidOptions, "$.options.choices[0].image"),
        OptionErrorCase(
            ["choices": [["value": "a", "image": "x", "size": 1]]], .unknownField, "$.options.choices[0].size"),
        OptionErrorCase(
            ["choices": [["value": "a", "image": "x"]], "maxSelections": 1], .invalidOptions, "$.options.maxSelections"),
        OptionErrorCase(
            ["choices": [["value": "a", "image": "x"], ["value": "a", "image": "y"]]], .invalidOptions,
            "$.options.choices[1]"),
    ])
    func rejectsInvalidOptions(invalid: OptionErrorCase) {
        invalid.check(ImageChoiceType())
    }
}

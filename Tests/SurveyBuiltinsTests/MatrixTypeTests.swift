import SurveyBuiltins
import SurveyCore
import Testing

struct MatrixTypeTests {
    static let options: JSONValue = [
        "rows": [["value": "price", "label": "Price"], "speed"],
        "columns": [["value": "low", "label": ["en": "Not important", "fr": "Pas important"]], "neutral", "high"],
    ]

    static let normalForms: [(JSONValue, JSONValue)] = [
        (["price": "low", "speed": "high"], ["price": "low", "speed": "high"]),
        (["price": "Not important"], ["price": "low"]),
        (["price": " HIGH ", "speed": nil], ["price": "high"]),
        ([:], [:]),
    ]

    @Test(arguments: normalForms)
    func normalizesColumnValues(answer: JSONValue, expected: JSONValue) throws {
        #expect(try configure(MatrixType(), Self.options).normalize(answer) == expected)
    }

    @Test(arguments: [
        AnswerErrorCase(["price": "medium"], "notAChoice", ["value": "medium"], field: "price"),
        AnswerErrorCase(["colour": "low"], "notAChoice", ["value": "colour"], field: "colour"),
        AnswerErrorCase(["speed": 3], "notAChoice", ["value": "3"], field: "speed"),
        AnswerErrorCase(["speed": ["low"]], "wrongShape", field: "speed"),
        AnswerErrorCase("low", "wrongShape"),
    ])
    func rejectsInvalidAnswers(invalid: AnswerErrorCase) throws {
        invalid.check(try configure(MatrixType(), Self.options))
    }

    /// `multiple` (SurveyJS's matrix with `cellType: "checkbox"`): each row takes a list of columns.
    @Test func aMultipleMatrixTakesAListOfColumnsPerRow() throws {
        var options = Self.options.objectValue ?? [:]
        options["multiple"] = true
        let question = try configure(MatrixType(), .object(options))
        #expect(
            try question.normalize(["price": ["low", "High", "low"], "speed": "neutral"])
                == ["price": ["low", "high"], "speed": ["neutral"]])
        #expect(try question.normalize(["price": []]) == [:])
        #expect(throws: AnswerError.self) { try question.normalize(["price": ["low", "fast"]]) }
        guard case .composite(let input) = question.input(in: .english),
            case .multipleChoice = input.fields.first?.input
        else {
            Issue.record("expected a composite of multiple-choice rows")
            return
        }
    }

    @Test func allRowsRequiredReportsTheMissingRow() throws {
        var options = try #require(Self.options.objectValue)
        options["allRowsRequired"] = true
        let question = try configure(MatrixType(), .object(options))
        AnswerErrorCase(["speed": "low"], "missingRow", ["row": "Price"], field: "price").check(question)
        AnswerErrorCase(["price": "low", "speed": ""], "missingRow", ["row": "speed"], field: "speed").check(question)
    }

    @Test func inputIsACompositeOfSingleChoiceRows() throws {
        let question = try configure(MatrixType(), Self.options)
        let scale = InputPrimitive.singleChoice(
            ChoiceInput(choices: [
                Choice(value: "low", label: "Pas important"), Choice(value: "neutral", label: "neutral"),
                Choice(value: "high", label: "high"),
            ]))
        #expect(
            question.input(in: PresentationContext(locale: "fr", defaultLocale: "en"))
                == .composite(
                    CompositeInput(
                        fields: [
                            CompositeField(name: "price", label: "Price", input: scale),
                            CompositeField(name: "speed", label: "speed", input: scale),
                        ], presentation: "matrix")))
    }

    @Test(arguments: [
        OptionErrorCase(["columns": ["a"]], .missingField, "$.options"),
        OptionErrorCase(["rows": ["a"]], .missingField, "$.options"),
        OptionErrorCase(["rows": ["a", "a"], "columns": ["x"]], .invalidOptions, "$.options.rows[1]"),
        OptionErrorCase(["rows": ["a"], "columns": ["x", ["value": "x"]]], .invalidOptions, "$.options.columns[1]"),
        OptionErrorCase(
            ["rows": [["value": "a", "icon": "x"]], "columns": ["x"]], .unknownField, "$.options.rows[0].icon"),
        OptionErrorCase(
            ["rows": ["a"], "columns": ["x"], "allRowsRequired": "yes"], .invalidValue, "$.options.allRowsRequired"),
    ])
    func rejectsInvalidOptions(invalid: OptionErrorCase) {
        invalid.check(MatrixType())
    }

    @Test func noRowsAskNothingAndLoad() throws {
        // SurveyJS allows it; `survey lint` reports it (nothing-to-answer).
        let question = try configure(MatrixType(), ["rows": [], "columns": ["a"]])
        #expect(question.isEmpty(try question.normalize(.object([:]))))
        #expect(throws: AnswerError.self) { try question.normalize(["x": "a"]) }
    }

    @Test func parseReadsAJSONObject() throws {
        let question = try configure(MatrixType(), Self.options)
        let parsed = try question.parse(line: #"{"price": "low"}"#, in: english)
        #expect(try question.normalize(parsed) == ["price": "low"])
        #expect(throws: AnswerError.self) { try question.parse(line: "price=low", in: english) }
    }

    @Test func summaryCountsEachRowAndColumn() throws {
        let question = try configure(MatrixType(), Self.options)
        let summary = question.summarize(
            [["price": "low", "speed": "high"], ["price": "low"], ["price": "high"], [:]], in: english)
        #expect(summary.answered == 3)
        #expect(summary.buckets.count == 6)
        #expect(summary.buckets[0].value == "price=low" && summary.buckets[0].label == "Not important")
        #expect(summary.buckets[0].group == "price" && summary.buckets[0].groupLabel == "Price")
        #expect(summary.buckets.map(\.count) == [2, 0, 1, 0, 0, 1])
        #expect(abs(summary.buckets[0].percentage - 200.0 / 3.0) < 1e-9)
        #expect(summary.buckets[5].percentage == 100)
    }

    @Test func normalizeIsIdempotent() throws {
        let question = try configure(MatrixType(), Self.options)
        let once = try question.normalize(["price": "not important", "speed": "Neutral"])
        #expect(once == ["price": "low", "speed": "neutral"])
        #expect(try question.normalize(once) == once)
    }
}

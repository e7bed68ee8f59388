import SurveyBuiltins
import SurveyCore
import Testing

struct NumberTypeTests {
    static let normalForms: [(JSONValue, JSONValue)] = [(42, 42), (-3.5, -3.5), (" 2.5 ", 2.5), ("1e3", 1000)]

    @Test(arguments: normalForms)
    func acceptsNumbersAndNumericStrings(answer: JSONValue, expected: JSONValue) throws {
        #expect(try configure(NumberType()).normalize(answer) == expected)
    }

    @Test(arguments: [
        AnswerErrorCase("abc", "notANumber", [:]),
        AnswerErrorCase("", "notANumber", [:]),
        AnswerErrorCase("nan", "notANumber", [:]),
        AnswerErrorCase(["1"], "notANumber", [:]),
        AnswerErrorCase(2.5, "notAnInteger", [:]),
        AnswerErrorCase(-1, "belowMinimum", ["min": "0"]),
        AnswerErrorCase(101, "aboveMaximum", ["max": "100"]),
        AnswerErrorCase(7, "notOnStep", ["step": "5"]),
    ])
    func rejectsInvalidAnswers(invalid: AnswerErrorCase) throws {
        invalid.check(try configure(NumberType(), ["min": 0, "max": 100, "integer": true, "step": 5]))
    }

    @Test(arguments: ["0x10", "0X1P4", "inf", "-Infinity", "nan", "1_000", "1e", "--2", "+", "1.2.3", "1 000", "٣"])
    func numericStringsMustBeDecimal(answer: String) throws {
        AnswerErrorCase(.string(answer), "notANumber", [:]).check(try configure(NumberType()))
    }

    @Test(arguments: [("+5", 5.0), (".5", 0.5), ("5.", 5), ("-.5e1", -5), (" 1E+2 ", 100)])
    func decimalStringsBecomeNumbers(answer: String, expected: Double) throws {
        #expect(try configure(NumberType()).normalize(.string(answer)) == .number(expected))
    }

    @Test func stepCountsFromTheMinimum() throws {
        let question = try configure(NumberType(), ["min": 1, "step": 2])
        #expect(try question.normalize(7) == 7)
        AnswerErrorCase(6, "notOnStep", ["step": "2"]).check(question)
        let fromZero = try configure(NumberType(), ["step": 0.25])
        #expect(try fromZero.normalize(-0.75) == -0.75)
    }

    @Test func inputCarriesBoundsAndUnit() throws {
        let question = try configure(
            NumberType(), ["min": 0, "max": 130, "integer": true, "unit": ["en": "years", "de": "Jahre"]])
        #expect(
            question.input(in: PresentationContext(locale: "de", defaultLocale: "en"))
                == .number(NumberInput(minimum: 0, maximum: 130, isInteger: true, unit: "Jahre")))
    }

    @Test(arguments: [
        OptionErrorCase(["min": 10, "max": 1], .invalidOptions, "$.options.max"),
        OptionErrorCase(["step": 0], .invalidOptions, "$.options.step"),
        OptionErrorCase(["integer": 1], .invalidValue, "$.options.integer"),
        OptionErrorCase(["unit": []], .invalidValue, "$.options.unit"),
        OptionErrorCase(["maximum": 3], .unknownField, "$.options.maximum"),
    ])
    func rejectsInvalidOptions(invalid: OptionErrorCase) {
        invalid.check(NumberType())
    }

    @Test func parseReadsNumbers() throws {
        let question = try configure(NumberType())
        #expect(try question.parse(line: "-12.5", in: english) == -12.5)
        #expect(throws: AnswerError.self) { try question.parse(line: "twelve", in: english) }
    }

    @Test func summaryGivesStatistics() throws {
        let summary = try configure(NumberType()).summarize([1, 2, 2, 10, nil], in: english)
        #expect(summary.answered == 4)
        #expect(summary.buckets.map(\.value) == ["1", "2", "10"])
        #expect(summary.mean == 3.75 && summary.median == 2 && summary.minimum == 1 && summary.maximum == 10)
    }

    @Test(arguments: [JSONValue.string(" 3 "), 0.1])
    func normalizeIsIdempotent(answer: JSONValue) throws {
        let question = try configure(NumberType())
        let once = try question.normalize(answer)
        #expect(try question.normalize(once) == once)
    }

    /// SurveyJS's `minValueExpression` / `maxValueExpression`: bounds from the survey's names.
    @Test func boundsFromExpressions() throws {
        let question = try configure(NumberType(), ["min": 0, "minExpression": "{lo}", "maxExpression": "{hi} * 2"])
        #expect(question.expressions == ["min": "{lo}", "max": "{hi} * 2"])
        #expect(question.checksAgainOnNext)
        var context = PresentationContext.english
        context.expressionValues = ["min": 5, "max": 12]
        // Checked on Next (the final check), as survey-core checks them; the answer alone, against `min`.
        #expect(try question.normalize(4, in: context) == 4)
        context.isFinalCheck = true
        #expect(try question.normalize(5, in: context) == 5)
        #expect(try question.normalize(12, in: context) == 12)
        #expect(throws: AnswerError.self) { try question.normalize(4, in: context) }
        #expect(throws: AnswerError.self) { try question.normalize(13, in: context) }
        if case .number(let input) = question.input(in: context) {
            #expect(input.minimum == 5 && input.maximum == 12)
        } else {
            Issue.record("not a number input")
        }
        // An expression with no value leaves the fixed bound (none for max).
        context.expressionValues = ["min": nil, "max": nil]
        #expect(throws: AnswerError.self) { try question.normalize(-1, in: context) }
        #expect(try question.normalize(1000, in: context) == 1000)
    }
}

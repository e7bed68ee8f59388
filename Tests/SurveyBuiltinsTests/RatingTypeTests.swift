import SurveyBuiltins
import SurveyCore
import Testing

struct RatingTypeTests {
    static let normalForms: [(JSONValue, JSONValue)] = [(1, 1), (5, 5), ("3", 3), (" 4 ", 4), (2.0, 2)]

    @Test(arguments: normalForms)
    func acceptsWholeStars(answer: JSONValue, expected: JSONValue) throws {
        #expect(try configure(RatingType()).normalize(answer) == expected)
    }

    @Test(arguments: [
        AnswerErrorCase(0, "belowMinimum", ["min": "1"]),
        AnswerErrorCase(6, "aboveMaximum", ["max": "5"]),
        AnswerErrorCase(2.5, "notAnInteger", [:]),
        AnswerErrorCase("three", "notANumber", [:]),
        AnswerErrorCase(true, "notANumber", [:]),
    ])
    func rejectsInvalidAnswers(invalid: AnswerErrorCase) throws {
        invalid.check(try configure(RatingType()))
    }

    @Test func starsSetsTheMaximum() throws {
        let question = try configure(RatingType(), ["stars": 10])
        #expect(try question.normalize(10) == 10)
        AnswerErrorCase(11, "aboveMaximum", ["max": "10"]).check(question)
        #expect(
            question.input(in: english)
                == .number(NumberInput(minimum: 1, maximum: 10, step: 1, isInteger: true, presentation: "stars")))
    }

    @Test(arguments: [
        OptionErrorCase(["stars": 1], .invalidValue, "$.options.stars"),
        OptionErrorCase(["stars": 11], .invalidValue, "$.options.stars"),
        OptionErrorCase(["stars": 4.5], .invalidValue, "$.options.stars"),
        OptionErrorCase(["star": 4], .unknownField, "$.options.star"),
    ])
    func rejectsInvalidOptions(invalid: OptionErrorCase) {
        invalid.check(RatingType())
    }

    @Test func parseReadsANumber() throws {
        let question = try configure(RatingType())
        #expect(try question.normalize(try question.parse(line: " 4", in: english)) == 4)
        #expect(throws: AnswerError.self) { try question.parse(line: "four", in: english) }
    }

    @Test func summaryHasEveryStarCount() throws {
        let summary = try configure(RatingType(), ["stars": 3]).summarize([1, 3, 3, nil], in: english)
        #expect(summary.answered == 3)
        #expect(summary.buckets.map(\.value) == ["1", "2", "3"])
        #expect(summary.buckets.map(\.count) == [1, 0, 2])
        #expect(summary.mean == 7.0 / 3.0)
        #expect(summary.median == 3)
        #expect(summary.minimum == 1 && summary.maximum == 3)
    }

    @Test(arguments: [JSONValue.string("2"), 5])
    func normalizeIsIdempotent(answer: JSONValue) throws {
        let question = try configure(RatingType())
        let once = try question.normalize(answer)
        #expect(try question.normalize(once) == once)
    }
}

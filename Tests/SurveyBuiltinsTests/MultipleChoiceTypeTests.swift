import SurveyBuiltins
import SurveyCore
import Testing

struct MultipleChoiceTypeTests {
    static let options: JSONValue = ["choices": ["red", "green", "blue"], "other": true]

    static let normalForms: [(JSONValue, JSONValue)] = [
        (["blue", "red"], ["blue", "red"]),
        (["teal", "green"], ["teal", "green"]),
        (["other", "  teal "], ["teal"]),
        (["Green"], ["green"]),
        ([], .null),
    ]

    /// The respondent's order is kept and an empty selection is no answer, as in SurveyJS.
    @Test(arguments: normalForms)
    func normalizesInTheRespondentsOrder(answer: JSONValue, expected: JSONValue) throws {
        let question = try configure(MultipleChoiceType(), Self.options)
        #expect(try question.normalize(answer) == expected)
    }

    @Test(arguments: [
        AnswerErrorCase(["red", "red"], "duplicateSelection", ["value": "red"]),
        AnswerErrorCase(["red", "RED"], "duplicateSelection", ["value": "red"]),
        AnswerErrorCase(["teal", "pink"], "notAChoice", ["value": "pink"]),
        AnswerErrorCase(["teal", "teal"], "duplicateSelection", ["value": "teal"]),
        AnswerErrorCase(["red", "other"], "otherTextRequired", [:]),
        AnswerErrorCase("red", "wrongShape", ["expected": "a list of choices", "got": "a string"]),
        AnswerErrorCase([["red"]], "wrongShape"),
    ])
    func rejectsInvalidAnswers(invalid: AnswerErrorCase) throws {
        invalid.check(try configure(MultipleChoiceType(), Self.options))
    }

    @Test func enforcesSelectionCounts() throws {
        let question = try configure(
            MultipleChoiceType(), ["choices": ["a", "b", "c", "d"], "minSelections": 2, "maxSelections": 3])
        AnswerErrorCase(["a"], "tooFewSelections", ["min": "2"]).check(question)
        AnswerErrorCase(["a", "b", "c", "d"], "tooManySelections", ["max": "3"]).check(question)
        #expect(try question.normalize(["c", "a"]) == ["c", "a"])
        #expect(
            question.input(in: english).choiceInput?.minimumSelections == 2
                && question.input(in: english).choiceInput?.maximumSelections == 3)
    }

    @Test func withoutOtherUnknownValuesAreRejected() throws {
        let question = try configure(MultipleChoiceType(), ["choices": ["a", "b"]])
        AnswerErrorCase(["a", "z"], "notAChoice", ["value": "z"]).check(question)
    }

    @Test(arguments: [
        OptionErrorCase(
            ["choices": ["a", "b"], "minSelections": 2, "maxSelections": 1], .invalidOptions, "$.options.maxSelections"),
        OptionErrorCase(["choices": ["a", "b"], "maxSelections": 3], .invalidOptions, "$.options.maxSelections"),
        OptionErrorCase(["choices": ["a", "b"], "minSelections": 3], .invalidOptions, "$.options.minSelections"),
        OptionErrorCase(["choices": ["a", "b"], "maxSelections": 0], .invalidValue, "$.options.maxSelections"),
        OptionErrorCase(["choices": ["a", "b"], "minSelections": -1], .invalidValue, "$.options.minSelections"),
        OptionErrorCase(["choices": ["a", "a"]], .invalidOptions, "$.options.choices[1]"),
        OptionErrorCase(["choices": ["a"], "maxSelection": 1], .unknownField, "$.options.maxSelection"),
    ])
    func rejectsInvalidOptions(invalid: OptionErrorCase) {
        invalid.check(MultipleChoiceType())
    }

    @Test func otherCountsTowardsTheMaximumNumberOfChoices() throws {
        let question = try configure(MultipleChoiceType(), ["choices": ["a", "b"], "other": true, "maxSelections": 3])
        #expect(try question.normalize(["b", "mine", "a"]) == ["b", "mine", "a"])
    }

    @Test func parseSplitsOnCommas() throws {
        let question = try configure(MultipleChoiceType(), Self.options)
        let parsed = try question.parse(line: "3, 1", in: english)
        #expect(parsed == ["blue", "red"])
        #expect(try question.normalize(parsed) == ["blue", "red"])
        #expect(try question.parse(line: "", in: english) == [])
    }

    @Test func summaryCountsEachSelection() throws {
        let question = try configure(MultipleChoiceType(), Self.options)
        let summary = question.summarize([["red", "blue"], ["red"], ["teal"], []], in: english)
        #expect(summary.answered == 3)
        #expect(summary.buckets.map(\.value) == ["red", "green", "blue", "other"])
        #expect(summary.buckets.map(\.count) == [2, 0, 1, 1])
    }

    @Test(arguments: [JSONValue.array(["blue", "teal", "red"]), ["other", "x"], ["red"]])
    func normalizeIsIdempotent(answer: JSONValue) throws {
        let question = try configure(MultipleChoiceType(), Self.options)
        let once = try question.normalize(answer)
        #expect(try question.normalize(once) == once)
    }
}

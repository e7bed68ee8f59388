import SurveyBuiltins
import SurveyCore
import Testing

struct NPSTypeTests {
    static let normalForms: [(JSONValue, JSONValue)] = [(0, 0), (10, 10), ("7", 7)]

    @Test(arguments: normalForms)
    func acceptsZeroToTen(answer: JSONValue, expected: JSONValue) throws {
        #expect(try configure(NPSType()).normalize(answer) == expected)
    }

    @Test(arguments: [
        AnswerErrorCase(-1, "belowMinimum", ["min": "0"]),
        AnswerErrorCase(11, "aboveMaximum", ["max": "10"]),
        AnswerErrorCase(7.5, "notOnStep", ["step": "1"]),
        AnswerErrorCase("nine", "notANumber", [:]),
    ])
    func rejectsInvalidAnswers(invalid: AnswerErrorCase) throws {
        invalid.check(try configure(NPSType()))
    }

    @Test func inputIsTheNPSPreset() throws {
        #expect(
            try configure(NPSType()).input(in: english) == configure(ScaleType(), ["preset": "nps"]).input(in: english))
        let japanese = PresentationContext(locale: "ja", defaultLocale: "en")
        guard case .number(let input) = try configure(NPSType()).input(in: japanese) else {
            Issue.record("expected a number input")
            return
        }
        #expect(input.presentation == "nps")
        #expect(input.minimumLabel == "まったく勧めない")
    }

    @Test(arguments: [
        OptionErrorCase(["min": 1], .unknownField, "$.options.min"),
        OptionErrorCase(["preset": "nps"], .unknownField, "$.options.preset"),
        OptionErrorCase(["maxLabel": 10], .invalidValue, "$.options.maxLabel"),
    ])
    func rejectsInvalidOptions(invalid: OptionErrorCase) {
        invalid.check(NPSType())
    }

    @Test func summaryAddsGroupsAndTheScoreAfterTheValueBuckets() throws {
        // 3 promoters (9, 10, 10), 1 passive (8), 2 detractors (0, 6): NPS = 50% - 33.3% = 16.7.
        let answers: [JSONValue] = [9, 10, 10, 8, 0, 6, nil]
        let summary = try configure(NPSType()).summarize(answers, in: english)
        #expect(summary.answered == 6)
        #expect(
            summary.buckets.map(\.value) == (0...10).map(String.init) + [
                "promoters", "passives", "detractors", "nps-score",
            ])
        let byValue = Dictionary(uniqueKeysWithValues: summary.buckets.map { ($0.value, $0) })
        #expect(byValue["10"]?.count == 2)
        #expect(byValue["promoters"]?.count == 3 && byValue["promoters"]?.percentage == 50)
        #expect(byValue["passives"]?.count == 1)
        #expect(byValue["detractors"]?.count == 2)
        #expect(byValue["nps-score"]?.count == 6)
        #expect(summary.buckets.map(\.group) == Array(repeating: nil, count: 11) + ["nps", "nps", "nps", "score"])
        let score = try #require(byValue["nps-score"]?.percentage)
        #expect(abs(score - 50.0 / 3.0) < 1e-9)
        #expect(summary.mean == 43.0 / 6.0)
    }

    @Test func scoreRangesFromMinusToPlusHundred() {
        #expect(NPSType.score(of: [10, 9]) == 100)
        #expect(NPSType.score(of: [0, 6]) == -100)
        #expect(NPSType.score(of: [7, 8]) == 0)
        #expect(NPSType.score(of: []) == nil)
    }

    @Test func parseReadsTheScore() throws {
        let question = try configure(NPSType())
        #expect(try question.normalize(try question.parse(line: "9", in: english)) == 9)
    }

    @Test(arguments: [JSONValue.string("10"), 3])
    func normalizeIsIdempotent(answer: JSONValue) throws {
        let question = try configure(NPSType())
        let once = try question.normalize(answer)
        #expect(try question.normalize(once) == once)
    }
}

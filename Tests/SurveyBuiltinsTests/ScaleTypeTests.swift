import SurveyBuiltins
import SurveyCore
import Testing

struct ScaleTypeTests {
    static let normalForms: [(JSONValue, JSONValue)] = [(1, 1), (5, 5), ("3", 3)]

    @Test(arguments: normalForms)
    func defaultScaleIsOneToFive(answer: JSONValue, expected: JSONValue) throws {
        #expect(try configure(ScaleType()).normalize(answer) == expected)
    }

    @Test func fractionalStepsAllowForRounding() throws {
        let question = try configure(ScaleType(), ["min": 0, "max": 1, "step": 0.1])
        #expect(try question.normalize(0.3) == 0.3)
        #expect(try question.normalize(0.7) == 0.7)
        AnswerErrorCase(0.25, "notOnStep", ["step": "0.1"]).check(question)
    }

    @Test(arguments: [
        AnswerErrorCase(-2, "belowMinimum", ["min": "0"]),
        AnswerErrorCase(12, "aboveMaximum", ["max": "10"]),
        AnswerErrorCase(3, "notOnStep", ["step": "2"]),
        AnswerErrorCase("x", "notANumber", [:]),
    ])
    func rejectsInvalidAnswers(invalid: AnswerErrorCase) throws {
        invalid.check(try configure(ScaleType(), ["min": 0, "max": 10, "step": 2]))
    }

    @Test func inputCarriesLabelsAndPresentation() throws {
        let question = try configure(
            ScaleType(), ["min": 1, "max": 7, "minLabel": "Hard", "maxLabel": ["en": "Easy", "fr": "Facile"]])
        #expect(
            question.input(in: PresentationContext(locale: "fr", defaultLocale: "en"))
                == .number(
                    NumberInput(
                        minimum: 1, maximum: 7, step: 1, isInteger: true, minimumLabel: "Hard", maximumLabel: "Facile",
                        presentation: "scale")))
    }

    @Test func npsPresetIsZeroToTenWithLabels() throws {
        let question = try configure(ScaleType(), ["preset": "nps"])
        #expect(
            question.input(in: english)
                == .number(
                    NumberInput(
                        minimum: 0, maximum: 10, step: 1, isInteger: true, minimumLabel: "Not at all likely",
                        maximumLabel: "Extremely likely", presentation: "nps")))
        let custom = try configure(ScaleType(), ["preset": "nps", "minLabel": "Never"])
        guard case .number(let input) = custom.input(in: english) else {
            Issue.record("expected a number input")
            return
        }
        #expect(input.minimumLabel == "Never" && input.maximumLabel == "Extremely likely")
        #expect(try custom.normalize(0) == 0)
    }

    @Test(arguments: [
        OptionErrorCase(["min": 5, "max": 5], .invalidOptions, "$.options.max"),
        OptionErrorCase(["min": 6], .invalidOptions, "$.options.max"),
        OptionErrorCase(["step": 0], .invalidOptions, "$.options.step"),
        OptionErrorCase(["step": -1], .invalidOptions, "$.options.step"),
        OptionErrorCase(["min": 0, "max": 10, "step": 3], .invalidOptions, "$.options.step"),
        OptionErrorCase(["preset": "npss"], .invalidValue, "$.options.preset"),
        OptionErrorCase(["preset": "nps", "max": 5], .invalidOptions, "$.options.max"),
        OptionErrorCase(["min": "1"], .invalidValue, "$.options.min"),
        OptionErrorCase(["minLabel": ["en": 1]], .invalidValue, "$.options.minLabel.en"),
    ])
    func rejectsInvalidOptions(invalid: OptionErrorCase) {
        invalid.check(ScaleType())
    }

    @Test func unknownPresetSuggestsNPS() {
        #expect(optionError(ScaleType(), ["preset": "npss"])?.message.contains("did you mean 'nps'") == true)
    }

    @Test func parseReadsDecimals() throws {
        let question = try configure(ScaleType(), ["min": 0, "max": 1, "step": 0.5])
        #expect(try question.normalize(try question.parse(line: "0.5", in: english)) == 0.5)
    }

    @Test func summaryHasEveryValueOfTheScale() throws {
        let summary = try configure(ScaleType(), ["min": 0, "max": 2, "step": 0.5]).summarize(
            [0, 0.5, 2, 2], in: english)
        #expect(summary.buckets.map(\.value) == ["0", "0.5", "1", "1.5", "2"])
        #expect(summary.buckets.map(\.count) == [1, 1, 0, 0, 2])
        #expect(summary.mean == 1.125)
    }

    @Test func summaryOfAHugeScaleListsOnlyAnsweredValues() throws {
        let summary = try configure(ScaleType(), ["min": 0, "max": 1000]).summarize([3, 900], in: english)
        #expect(summary.buckets.map(\.value) == ["3", "900"])
    }

    @Test func summaryOfAnEnormousScaleDoesNotTrap() throws {
        // (max - min) / step is far beyond Int: it used to trap converting the step count.
        let summary = try configure(ScaleType(), ["min": 0, "max": 1e300, "step": 1]).summarize(
            [3, 1e300], in: english)
        #expect(summary.buckets.map(\.value).count == 2)
    }

    @Test func npsPresetSummaryAddsTheScore() throws {
        let summary = try configure(ScaleType(), ["preset": "nps"]).summarize([10, 0], in: english)
        #expect(summary.buckets.last?.value == "nps-score")
        #expect(summary.buckets.last?.percentage == 0)
    }

    @Test(arguments: [JSONValue.string("4"), 2])
    func normalizeIsIdempotent(answer: JSONValue) throws {
        let question = try configure(ScaleType())
        let once = try question.normalize(answer)
        #expect(try question.normalize(once) == once)
    }
}

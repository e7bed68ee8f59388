import SurveyCore

/// A rating of 1 to N stars.
///
/// | Option | Type | Default | Meaning |
/// |---|---|---|---|
/// | `stars` | integer 2…10 | `5` | How many stars. |
///
/// **Answer:** an integer from 1 to `stars` (a numeric string is accepted and normalised to a
/// number). Errors: `notANumber`, `notAnInteger`, `belowMinimum` (`min`), `aboveMaximum` (`max`).
/// The summary has one bucket per star count (zeros included) and the mean, median, minimum and maximum.
///
/// ```json
/// { "id": "stars", "type": "rating", "title": "Rate the app", "options": { "stars": 5 } }
/// ```
public struct RatingType: SummarizesTallies {
    /// The decoded options of a rating question.
    public struct Options: Sendable {
        var stars: Int
    }

    /// Creates the type (its configuration comes from each question's options).
    public init() {}

    public var typeID: String { "rating" }
    public var summary: String { "A rating of 1 to N stars (N from 2 to 10, default 5)" }

    public func makeOptions(from reader: inout OptionsReader) throws(SurveyError) -> Options {
        Options(stars: try reader.int("stars", default: 5, in: 2...10))
    }

    public func input(for options: Options, in context: PresentationContext) -> InputPrimitive {
        .number(
            NumberInput(minimum: 1, maximum: Double(options.stars), step: 1, isInteger: true, presentation: "stars"))
    }

    public func normalize(_ answer: JSONValue, options: Options) throws(AnswerError) -> JSONValue {
        let value = try NumberRules.number(from: answer)
        try NumberRules.check(value, isInteger: true, minimum: 1, maximum: Double(options.stars))
        return .number(value)
    }

    public func summarize(_ tally: AnswerTally, options: Options, in context: PresentationContext) -> AnswerSummary {
        Summaries.numbers(tally, buckets: (1...options.stars).map(Double.init))
    }
}

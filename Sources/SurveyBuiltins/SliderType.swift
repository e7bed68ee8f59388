import SurveyCore

/// A number picked on a slider between `min` and `max` (SurveyJS's `slider`).
///
/// | Option | Type | Default | Meaning |
/// |---|---|---|---|
/// | `min` | number | `0` | Lowest value; less than `max`. |
/// | `max` | number | `100` | Highest value; `max - min` must be a multiple of `step`. |
/// | `step` | number > 0 | `1` | Distance between values, counted from `min`. |
/// | `minLabel`, `maxLabel` | text | none | Labels at the ends. |
///
/// **Answer:** a number in range and on a step (a numeric string is accepted and normalised), as
/// `scale`. Errors: `notANumber`, `belowMinimum` (`min`), `aboveMaximum` (`max`), `notOnStep` (`step`).
/// Presentation hint `"slider"`; the terminal asks for the number. The summary has the mean, median,
/// minimum and maximum, and a bucket per value when there are at most 101.
///
/// ```json
/// { "id": "budget", "type": "slider", "title": "Your budget (€)", "options": { "min": 0, "max": 500, "step": 10 } }
/// ```
public struct SliderType: SummarizesTallies {
    /// Creates the type (its configuration comes from each question's options).
    public init() {}

    public var typeID: String { "slider" }
    public var summary: String { "A number on a slider from min to max (default 0–100) in steps" }

    public func makeOptions(from reader: inout OptionsReader) throws(SurveyError) -> ScaleType.Options {
        try ScaleType.readLabels(from: &reader, into: ScaleType.readRange(from: &reader, minimum: 0, maximum: 100))
    }

    public func input(for options: ScaleType.Options, in context: PresentationContext) -> InputPrimitive {
        .number(ScaleType.numberInput(options, presentation: "slider", in: context))
    }

    public func normalize(_ answer: JSONValue, options: ScaleType.Options) throws(AnswerError) -> JSONValue {
        try ScaleType().normalize(answer, options: options)
    }

    public func summarize(_ tally: AnswerTally, options: ScaleType.Options, in context: PresentationContext)
        -> AnswerSummary
    {
        ScaleType().summarize(tally, options: options, in: context)
    }
}

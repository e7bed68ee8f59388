import SurveyCore

/// A number on a scale from `min` to `max` in steps, with labels at the ends; `"preset": "nps"`
/// makes it a Net Promoter Score question (0–10).
///
/// | Option | Type | Default | Meaning |
/// |---|---|---|---|
/// | `min` | number | `1` | Lowest value; less than `max`. |
/// | `max` | number | `5` | Highest value; `max - min` must be a multiple of `step`. |
/// | `step` | number > 0 | `1` | Distance between values, counted from `min`. |
/// | `minLabel` | text | none (NPS: "Not at all likely") | Label at the low end. |
/// | `maxLabel` | text | none (NPS: "Extremely likely") | Label at the high end. |
/// | `preset` | `"nps"` | none | 0 to 10 in steps of 1 with NPS labels; cannot be combined with `min`, `max`, `step`. |
///
/// **Answer:** a number in range and on a step (a numeric string is accepted and normalised).
/// Errors: `notANumber`, `belowMinimum` (`min`), `aboveMaximum` (`max`), `notOnStep` (`step`).
/// Presentation hint `"scale"`, or `"nps"` for the preset. The summary has a bucket for every value
/// of the scale (when there are at most 101); with the NPS preset it adds the NPS buckets described
/// in ``NPSType``.
///
/// ```json
/// { "id": "ease", "type": "scale", "title": "How easy was it?",
///   "options": { "min": 1, "max": 7, "minLabel": "Very hard", "maxLabel": "Very easy" } }
/// ```
public struct ScaleType: SummarizesTallies {
    /// The decoded options of a scale question.
    public struct Options: Sendable {
        var minimum: Double
        var maximum: Double
        var step: Double
        var minimumLabel: ChoiceLabel?
        var maximumLabel: ChoiceLabel?
        var isNPS: Bool

        /// Every value of the scale, or `nil` when there are too many to list.
        var values: [Double]? {
            // Compared as a Double first: a huge range would not fit an Int.
            let steps = ((maximum - minimum) / step).rounded()
            guard steps <= 100 else { return nil }
            return (0...Int(steps)).map { minimum + Double($0) * step }
        }

        var isInteger: Bool { minimum.rounded() == minimum && step.rounded() == step }

        static let nps = Options(
            minimum: 0, maximum: 10, step: 1, minimumLabel: .builtin(.notAtAllLikely),
            maximumLabel: .builtin(.extremelyLikely), isNPS: true)
    }

    /// Creates the type (its configuration comes from each question's options).
    public init() {}

    public var typeID: String { "scale" }
    public var summary: String { "A number from min to max in steps, with end labels; preset \"nps\" for 0–10" }

    public func makeOptions(from reader: inout OptionsReader) throws(SurveyError) -> Options {
        if let preset = try reader.optionalString("preset") {
            guard preset == "nps" else {
                throw reader.error("preset", Suggestion.unknown("preset", preset, validValues: ["nps"]))
            }
            for key in ["min", "max", "step"] where reader.contains(key) {
                throw reader.error(
                    key, "'\(key)' cannot be combined with 'preset': 'nps' (0 to 10 in steps of 1)",
                    kind: .invalidOptions)
            }
            return try Self.readLabels(from: &reader, into: .nps)
        }
        return try Self.readLabels(from: &reader, into: Self.readRange(from: &reader, minimum: 1, maximum: 5))
    }

    /// Reads `min`, `max` and `step` (with these defaults, step 1): `min < max`, `step > 0`, and
    /// `max - min` a multiple of `step`.
    static func readRange(from reader: inout OptionsReader, minimum low: Double, maximum high: Double)
        throws(SurveyError) -> Options
    {
        let minimum = try reader.double("min", default: low)
        let maximum = try reader.double("max", default: high)
        let step = try reader.double("step", default: 1)
        guard step > 0 else { throw reader.error("step", "'step' must be greater than 0", kind: .invalidOptions) }
        guard minimum < maximum else {
            throw reader.error(
                "max",
                "'max' (\(JSONValue.format(number: maximum))) must be greater than 'min' (\(JSONValue.format(number: minimum)))",
                kind: .invalidOptions)
        }
        guard NumberRules.isMultiple(maximum - minimum, of: step) else {
            throw reader.error(
                "step",
                "'max' - 'min' (\(JSONValue.format(number: maximum - minimum))) must be a multiple of 'step' (\(JSONValue.format(number: step)))",
                kind: .invalidOptions)
        }
        return Options(minimum: minimum, maximum: maximum, step: step, isNPS: false)
    }

    static func readLabels(from reader: inout OptionsReader, into options: Options) throws(SurveyError) -> Options {
        var options = options
        if let label = try reader.optionalText("minLabel") { options.minimumLabel = .authored(label) }
        if let label = try reader.optionalText("maxLabel") { options.maximumLabel = .authored(label) }
        return options
    }

    public func input(for options: Options, in context: PresentationContext) -> InputPrimitive {
        .number(Self.numberInput(options, presentation: options.isNPS ? "nps" : "scale", in: context))
    }

    static func numberInput(_ options: Options, presentation: String, in context: PresentationContext) -> NumberInput {
        NumberInput(
            minimum: options.minimum, maximum: options.maximum, step: options.step, isInteger: options.isInteger,
            minimumLabel: options.minimumLabel?.resolved(in: context),
            maximumLabel: options.maximumLabel?.resolved(in: context), presentation: presentation)
    }

    public func normalize(_ answer: JSONValue, options: Options) throws(AnswerError) -> JSONValue {
        let value = try NumberRules.number(from: answer)
        try NumberRules.check(
            value, minimum: options.minimum, maximum: options.maximum, step: options.step, stepOrigin: options.minimum)
        return .number(value)
    }

    public func summarize(_ tally: AnswerTally, options: Options, in context: PresentationContext) -> AnswerSummary {
        if options.isNPS { return NPSType.summarizeScores(tally) }
        guard let values = options.values else {
            return input(for: options, in: context).summarize(tally)
        }
        return Summaries.numbers(tally, buckets: values)
    }
}

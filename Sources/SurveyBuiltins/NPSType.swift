import SurveyCore

/// Net Promoter Score: "How likely are you to recommend us?" on 0–10 (the `scale` type's `"nps"` preset
/// as its own type id).
///
/// | Option | Type | Default | Meaning |
/// |---|---|---|---|
/// | `minLabel` | text | "Not at all likely" (localised) | Label at 0. |
/// | `maxLabel` | text | "Extremely likely" (localised) | Label at 10. |
///
/// **Answer:** an integer from 0 to 10 (a numeric string is accepted and normalised). Errors:
/// `notANumber`, `belowMinimum` (`min`), `aboveMaximum` (`max`), `notOnStep` (`step`).
///
/// **Summary:** `mean`, `median`, `minimum` and `maximum` are those of the 0–10 answers. The buckets
/// are, in order: `"0"` … `"10"`; then `"promoters"` (9–10), `"passives"` (7–8) and `"detractors"` (0–6),
/// each with its count and share of answers; then `"nps-score"`, whose `count` is the number of
/// answers and whose `percentage` is the score itself, % promoters − % detractors (−100…100).
///
/// ```json
/// { "id": "recommend", "type": "nps", "title": "How likely are you to recommend us to a friend?" }
/// ```
public struct NPSType: SummarizesTallies {
    /// The decoded options of an NPS question.
    public typealias Options = ScaleType.Options

    /// Creates the type (its configuration comes from each question's options).
    public init() {}

    public var typeID: String { "nps" }
    public var summary: String {
        "Net Promoter Score, 0–10; the report adds promoters, passives, detractors and the score"
    }

    public func makeOptions(from reader: inout OptionsReader) throws(SurveyError) -> Options {
        try ScaleType.readLabels(from: &reader, into: .nps)
    }

    public func input(for options: Options, in context: PresentationContext) -> InputPrimitive {
        ScaleType().input(for: options, in: context)
    }

    public func normalize(_ answer: JSONValue, options: Options) throws(AnswerError) -> JSONValue {
        try ScaleType().normalize(answer, options: options)
    }

    public func summarize(_ tally: AnswerTally, options: Options, in context: PresentationContext) -> AnswerSummary {
        Self.summarizeScores(tally)
    }

    /// The Net Promoter Score of 0–10 answers, % promoters (9–10) − % detractors (0–6), or `nil`
    /// when there are no numeric answers.
    public static func score(of answers: [JSONValue]) -> Double? {
        score(of: AnswerTally(answers).numbers())
    }

    static func score(of scores: WeightedNumbers) -> Double? {
        guard scores.count > 0 else { return nil }
        let promoters = scores.counts.reduce(0) { $0 + ($1.key >= 9 ? $1.value : 0) }
        let detractors = scores.counts.reduce(0) { $0 + ($1.key <= 6 ? $1.value : 0) }
        return Summaries.percentage(promoters, of: scores.count) - Summaries.percentage(detractors, of: scores.count)
    }

    static func summarizeScores(_ tally: AnswerTally) -> AnswerSummary {
        var summary = Summaries.numbers(tally, buckets: (0...10).map(Double.init))
        let scores = tally.numbers()
        let groups: [(value: String, label: String, range: ClosedRange<Double>)] = [
            ("promoters", "Promoters (9–10)", 9...10), ("passives", "Passives (7–8)", 7...8.99),
            ("detractors", "Detractors (0–6)", 0...6.99),
        ]
        for group in groups {
            let count = scores.counts.reduce(0) { $0 + (group.range.contains($1.key) ? $1.value : 0) }
            summary.buckets.append(
                .init(
                    value: group.value, label: group.label, count: count,
                    percentage: Summaries.percentage(count, of: summary.answered), group: "nps"))
        }
        summary.buckets.append(
            .init(
                value: "nps-score", label: "Net Promoter Score", count: scores.count,
                percentage: score(of: scores) ?? 0, group: "score"))
        return summary
    }
}

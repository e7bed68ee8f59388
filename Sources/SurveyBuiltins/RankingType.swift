import SurveyCore

/// An ordering of all items, most preferred first.
///
/// | Option | Type | Default | Meaning |
/// |---|---|---|---|
/// | `items` | array, required, at least 2 | — | Each a string or `{ "value", "label"?, "icon"?, "visibleIf"? }`; values unique. `choices` is accepted instead (SurveyJS's name; what `choicesFromQuestion` fills in). |
/// | `shuffle` | Boolean | `false` | Offer the items in a seeded random starting order. |
/// | `presentation` | string | none | A presentation hint. |
///
/// **Answer:** an array holding every item value exactly once, first = rank 1. Labels are accepted and
/// normalised to values. Errors: `wrongShape`, `notAChoice` (`value`), `duplicateSelection` (`value`),
/// `incompleteRanking` (`count`, the number of items).
///
/// **Summary:** one bucket per item in authored order; `count` and `percentage` are how many
/// rankings (and what share) put the item first. The mean rank of each item is available from
/// ``meanRanks(of:)``.
///
/// ```json
/// { "id": "priorities", "type": "ranking", "title": "Order by importance",
///   "options": { "items": ["Price", "Quality", "Speed"], "shuffle": true } }
/// ```
public struct RankingType: SummarizesTallies {
    /// The decoded options of a ranking question.
    public struct Options: Sendable {
        var items: ChoiceSet
    }

    /// Creates the type (its configuration comes from each question's options).
    public init() {}

    public var typeID: String { "ranking" }
    public var summary: String { "An ordering of all items, most preferred first" }
    /// `{ranking} = ['a', 'b']` holds only in that order, as in survey-core.
    public var comparesAnswersInOrder: Bool { true }

    public func makeOptions(from reader: inout OptionsReader) throws(SurveyError) -> Options {
        // `choices` is SurveyJS's name, and what `choicesFromQuestion` carries forward.
        let key = reader.contains("choices") ? "choices" : "items"
        if key == "choices", reader.contains("items") {
            throw reader.error("choices", "give the items as 'items' or 'choices', not both", kind: .invalidOptions)
        }
        let items = try ChoiceList.read(key, from: &reader, minimumCount: 2, allowsNumbers: true)
        guard let items else {
            throw reader.error(
                nil, "missing required member 'items' (an array of at least 2 items)", kind: .missingField)
        }
        return Options(
            items: ChoiceSet(
                choices: items, isShuffled: try reader.bool("shuffle", default: false),
                presentation: try ChoiceSet.readPresentation(from: &reader)))
    }

    public func input(for options: Options, in context: PresentationContext) -> InputPrimitive {
        let count = options.items.choices.count { !context.hiddenChoices.contains($0.value) }
        return .multipleChoice(
            options.items.input(in: context, minimumSelections: count, maximumSelections: count, isOrdered: true))
    }

    public func normalize(_ answer: JSONValue, options: Options) throws(AnswerError) -> JSONValue {
        try normalize(answer, options: options, in: .english)
    }

    /// Every item offered (not in ``PresentationContext/hiddenChoices``) must be ranked.
    public func normalize(_ answer: JSONValue, options: Options, in context: PresentationContext) throws(AnswerError)
        -> JSONValue
    {
        guard case .array(let elements) = answer else {
            throw AnswerError.wrongShape(expected: "a list of all items in order", got: answer)
        }
        var seen: Set<String> = []
        var ranking: [JSONValue] = []
        for element in elements {
            guard case .choice(let value) = try options.items.select(element) else { continue }
            guard seen.insert(value).inserted else { throw ChoiceSet.duplicateSelection(value) }
            ranking.append(options.items.stored(.choice(value)))
        }
        let count = options.items.choices.count { !context.hiddenChoices.contains($0.value) }
        guard ranking.count == count else {
            throw AnswerError(
                code: "incompleteRanking", message: "Rank all \(count) items.", arguments: ["count": String(count)])
        }
        return .array(ranking)
    }

    public func summarize(_ tally: AnswerTally, options: Options, in context: PresentationContext) -> AnswerSummary {
        let firsts = tally.counts { answer in
            guard let ranking = answer.arrayValue, let first = ranking.first?.choiceKey else { return [String]() }
            return [first]
        }
        let rankings = tally.entries.reduce(0) { $0 + (($1.answer.arrayValue?.isEmpty ?? true) ? 0 : $1.count) }
        let positions = Self.meanRanks(of: tally)
        return AnswerSummary(
            answered: rankings,
            buckets: options.items.choices.map { item in
                let first = firsts[item.value] ?? 0
                return .init(
                    value: item.value, label: item.label.resolved(in: context), count: first,
                    percentage: Summaries.percentage(first, of: rankings),
                    mean: positions[item.value])
            })
    }

    /// The mean rank (1 = first) of each value over the (normalised) rankings that include it, keyed by
    /// item value; items never ranked are left out.
    public static func meanRanks(of answers: [JSONValue]) -> [String: Double] {
        meanRanks(of: AnswerTally(answers))
    }

    /// ``meanRanks(of:)-([JSONValue])`` over a tally of the rankings.
    public static func meanRanks(of tally: AnswerTally) -> [String: Double] {
        var totals: [String: (sum: Int, count: Int)] = [:]
        for entry in tally.entries {
            for (index, value) in (entry.answer.arrayValue ?? []).enumerated() {
                guard let value = value.choiceKey else { continue }
                let total = totals[value] ?? (0, 0)
                totals[value] = (total.sum + (index + 1) * entry.count, total.count + entry.count)
            }
        }
        return totals.mapValues { Double($0.sum) / Double($0.count) }
    }
}

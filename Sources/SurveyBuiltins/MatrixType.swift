import SurveyCore

/// Several rows answered on one shared scale of columns (an inline choice group), such as the
/// importance of several features.
///
/// | Option | Type | Default | Meaning |
/// |---|---|---|---|
/// | `rows` | array, required | — | Each a string or `{ "value", "label"?, "visibleIf"? }`; values unique. Empty: nothing to answer (SurveyJS allows it; `survey lint` reports it). |
/// | `columns` | array, required, non-empty | — | The shared scale, same form as `rows`. |
/// | `allRowsRequired` | Boolean | `false` | Every row must be answered. |
/// | `multiple` | Boolean | `false` | Each row takes several columns (SurveyJS's matrix with `cellType: "checkbox"`). |
///
/// **Answer:** an object mapping row values to column values (with `multiple`, to lists of column
/// values, in the order given, each once). A column label (in any locale) is accepted and
/// normalised to its value; `null` members and empty lists count as unanswered and are dropped.
/// Errors (with `field` set to the row): `wrongShape`, `notAChoice` (`value`; also for a member that is
/// not a row), `missingRow` (`row`, the row's label) when `allRowsRequired`.
///
/// As an input it is a `composite` with presentation `"matrix"`: one single-choice field per row
/// over the columns. The summary has a bucket per row and column, value `"<row>=<column>"`, label
/// `"<row label>: <column label>"`, whose percentage is the share of the responses answering that row.
///
/// A row or column with a `visibleIf` (over the survey's names, as a question's) is offered only
/// while it holds, and a hidden row is never required; an answer a hidden row or column holds stays
/// while the respondent goes on, and is dropped when the survey completes (as SurveyJS's matrix
/// clears them then), unless the survey keeps hidden answers (`clearInvisibleValues: "none"`).
///
/// ```json
/// { "id": "importance", "type": "matrix", "title": "How important is…",
///   "options": { "rows": [{ "value": "price", "label": "Price" }, "Speed"],
///                "columns": ["Not important", "Neutral", "Important"], "allRowsRequired": true } }
/// ```
public struct MatrixType: SummarizesTallies {
    /// The decoded options of a matrix question.
    public struct Options: Sendable {
        var rows: [ChoiceDefinition]
        var columns: ChoiceSet
        var isEveryRowRequired: Bool
        var conditions = MatrixConditions()
        var isMultiple = false
    }

    /// Creates the type (its configuration comes from each question's options).
    public init() {}

    public var typeID: String { "matrix" }
    public var summary: String { "Several rows answered on one shared scale of columns" }

    public func makeOptions(from reader: inout OptionsReader) throws(SurveyError) -> Options {
        var rows = try ChoiceList.readRequired(
            "rows", from: &reader, form: .conditional, minimumCount: 0, allowsNumbers: true)
        var columns = try ChoiceList.readRequired("columns", from: &reader, form: .conditional, allowsNumbers: true)
        let conditions = MatrixConditions(
            rows: MatrixConditions.take(&rows), columns: MatrixConditions.take(&columns))
        return Options(
            rows: rows, columns: ChoiceSet(choices: columns),
            isEveryRowRequired: try reader.bool("allRowsRequired", default: false), conditions: conditions,
            isMultiple: try reader.bool("multiple", default: false))
    }

    public func expressions(for options: Options) -> [String: String] { options.conditions.expressions }

    public func checksAgainOnNext(for options: Options) -> Bool { !options.conditions.isEmpty }

    /// Keeps the rows and columns that show when the survey completes.
    public func completedAnswer(_ answer: JSONValue, options: Options, in context: PresentationContext) -> JSONValue {
        guard !options.conditions.isEmpty, case .object(let members) = answer else { return answer }
        var kept: [String: JSONValue] = [:]
        for (row, value) in members where options.conditions.showsRow(row, in: context) {
            if case .array(let list) = value {
                let shown = list.filter { $0.choiceKey.map { options.conditions.showsColumn($0, in: context) } ?? true }
                if !shown.isEmpty { kept[row] = .array(shown) }
            } else if value.choiceKey.map({ options.conditions.showsColumn($0, in: context) }) ?? true {
                kept[row] = value
            }
        }
        return kept.isEmpty ? .null : .object(kept)
    }

    public func input(for options: Options, in context: PresentationContext) -> InputPrimitive {
        var columns = options.columns
        if !options.conditions.columns.isEmpty {
            columns = ChoiceSet(
                choices: columns.choices.filter { options.conditions.showsColumn($0.value, in: context) })
        }
        let scale =
            options.isMultiple
            ? InputPrimitive.multipleChoice(columns.input(in: context))
            : InputPrimitive.singleChoice(columns.input(in: context))
        return .composite(
            CompositeInput(
                fields: options.rows.filter { options.conditions.showsRow($0.value, in: context) }.map {
                    CompositeField(
                        name: $0.value, label: $0.label.resolved(in: context), isRequired: options.isEveryRowRequired,
                        input: scale)
                },
                presentation: "matrix"))
    }

    public func normalize(_ answer: JSONValue, options: Options) throws(AnswerError) -> JSONValue {
        try normalize(answer, options: options, in: .english)
    }

    public func normalize(_ answer: JSONValue, options: Options, in context: PresentationContext) throws(AnswerError)
        -> JSONValue
    {
        guard case .object(let members) = answer else {
            throw AnswerError.wrongShape(expected: "an object mapping rows to columns", got: answer)
        }
        let rowValues = Set(options.rows.map(\.value))
        for key in members.keys.sorted() where !rowValues.contains(key) {
            throw ChoiceSet.notAChoice(key, field: key)
        }
        var result: [String: JSONValue] = [:]
        for row in options.rows {
            guard let value = members[row.value], !value.isEmptyAnswer else {
                if options.isEveryRowRequired, options.conditions.showsRow(row.value, in: context) {
                    let label = row.label.english
                    throw AnswerError(
                        code: "missingRow", message: "Answer the row '\(label)'.", arguments: ["row": label],
                        field: row.value)
                }
                continue
            }
            guard options.isMultiple else {
                result[row.value] = try options.columns.normalized(value, field: row.value)
                continue
            }
            var chosen: [JSONValue] = []
            for element in value.arrayValue ?? [value] {
                let normal = try options.columns.normalized(element, field: row.value)
                if !chosen.contains(normal) { chosen.append(normal) }
            }
            result[row.value] = .array(chosen)
        }
        return .object(result)
    }

    public func summarize(_ tally: AnswerTally, options: Options, in context: PresentationContext) -> AnswerSummary {
        var buckets: [AnswerSummary.Bucket] = []
        for row in options.rows {
            // Each answer holding the row counts once for it (`nil`) and once per column it holds there:
            // a column's share is of the answers to the row (with `multiple`, not of its selections).
            let counts = tally.counts { (answer: JSONValue) -> [String?] in
                guard let value = answer[row.value] else { return [] }
                let columns = value.arrayValue?.compactMap(\.choiceKey) ?? value.choiceKey.map { [$0] } ?? []
                return columns.isEmpty ? [] : [nil] + columns
            }
            let answeredRow = counts[nil] ?? 0
            let rowLabel = row.label.resolved(in: context)
            for column in options.columns.choices {
                let count = counts[column.value] ?? 0
                buckets.append(
                    .init(
                        value: "\(row.value)=\(column.value)", label: column.label.resolved(in: context),
                        count: count, percentage: Summaries.percentage(count, of: answeredRow), group: row.value,
                        groupLabel: rowLabel))
            }
        }
        return AnswerSummary(answered: tally.answered, buckets: buckets)
    }
}

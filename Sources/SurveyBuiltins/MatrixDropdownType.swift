import SurveyCore

/// Rows × columns where each column is a question of its own kind (SurveyJS's `matrixdropdown`):
/// for each product, a drop-down of how often, a number of how many, a yes/no.
///
/// | Option | Type | Default | Meaning |
/// |---|---|---|---|
/// | `rows` | array, required | — | Each a string or `{ "value", "label"?, "visibleIf"? }`; values unique. Empty: nothing to answer (SurveyJS allows it; `survey lint` reports it). |
/// | `columns` | array, required, non-empty | — | Each `{ "name", "title"?, "cellType"?, "required"?, "visibleIf"?, "options"?, "total"?, "totalExpression"? }`; names unique. |
/// | `choices` | array | none | The choices of choice columns that have none of their own. |
/// | `allRowsRequired` | Boolean | `false` | Every row must have at least one cell answered. |
///
/// Column members: `name` (the key in each row's answer), `title` (text; default the name),
/// `cellType` (`"dropdown"` default, `"single-choice"`, `"multiple-choice"`, `"tagbox"`, `"text"`,
/// `"number"`, `"boolean"`, `"rating"`, `"date"`, or a kind a loaded plugin adds), `required` (every row
/// must answer this column), `visibleIf` (evaluated in each row, reading that row's cells as
/// `{row.<column>}` and the survey's names: where it does not hold, the cell is not offered and not
/// required, and keeps what it holds), `options`, read exactly as that kind's own options
/// (`{"min": 0}` for a number column; `choices` defaults to the question's), and `total` (`sum`,
/// `count`, `avg`, `min`, `max`) or `totalExpression` (reading the rows as `{matrix}`): SurveyJS's
/// column totals, which the SurveyJS data shape stores as `<id>-total` (docs/import.md, "Data shape").
///
/// A row's `visibleIf` (over the survey's names) shows the row only while it holds: a hidden row is
/// not offered or required, and what it holds is dropped when the survey completes (as SurveyJS's
/// matrix does), unless the survey keeps hidden answers (`clearInvisibleValues: "none"`).
///
/// **Answer:** an object from row value to an object from column name to that cell's answer, each
/// checked and normalised by its column's kind; empty cells and rows are left out, and an answer with
/// no cell filled is no answer. Errors carry `field` `"<row>.<column>"` and the cell kind's own code,
/// or `wrongShape` (not an object, an unknown row or column), `missingField` (`field` the column's
/// title) for an empty required cell, `missingRow` (`row`) with `allRowsRequired`.
///
/// As an input it is a `composite` with presentation `"matrix-dropdown"`: a field per row whose input
/// is a `composite` of the columns. The summary has a bucket per row and column, value
/// `"<row>.<column>"`, counting the rows that answered that cell.
///
/// ```json
/// { "id": "usage", "type": "matrix-dropdown", "title": "How do you use…",
///   "options": { "rows": ["Email", "Chat"], "choices": ["daily", "weekly", "never"],
///                "columns": [ { "name": "often", "title": "How often" },
///                             { "name": "hours", "cellType": "number", "options": { "min": 0, "max": 24 } } ] } }
/// ```
public struct MatrixDropdownType: SummarizesTallies {
    /// One column: a configured question of its kind.
    struct Column: Sendable {
        var name: String
        var title: LocalizedText?
        var isRequired: Bool
        var question: ConfiguredQuestion
        /// Where the cell shows, evaluated in each row (slot 0 the row, then ``Options/outerNames``).
        var visibleIf: SurveyCore.Expression? = nil
    }

    /// The decoded options of a matrix-dropdown question.
    public struct Options: Sendable {
        var rows: [ChoiceDefinition]
        var columns: [Column]
        var isEveryRowRequired: Bool
        /// The rows' conditions.
        var conditions = MatrixConditions()
        /// The survey names the columns' conditions read, in slot order from 1.
        var outerNames: [String] = []
    }

    /// Creates the type (its configuration comes from each question's options).
    public init() {}

    public var typeID: String { "matrix-dropdown" }
    public var summary: String {
        "Rows × columns where each column has its own kind (drop-down, number, text, yes/no…)"
    }

    public func makeOptions(from reader: inout OptionsReader) throws(SurveyError) -> Options {
        var rows = try ChoiceList.readRequired(
            "rows", from: &reader, form: .conditional, minimumCount: 0, allowsNumbers: true)
        let rowConditions = MatrixConditions.take(&rows)
        let names = CellConditionNames()
        let sharedChoices = reader.value("choices")
        let stepID = reader.stepID
        let columns = try NamedOptions.read("columns", what: "column", from: &reader, allowsEmpty: true) {
            (column: inout OptionsReader, name: String) throws(SurveyError) -> Column in
            let (cellType, kind) = try PartKinds.read("cellType", default: "dropdown", from: &column)
            var options = column.value("options") ?? .object([:])
            if PartKinds.choiceKinds.contains(cellType), case .object(var members) = options,
                members["choices"] == nil
            {
                guard let sharedChoices else {
                    throw column.error(
                        nil, "a \(cellType) column needs 'choices' in its options or in the question's",
                        kind: .missingField)
                }
                members["choices"] = sharedChoices
                options = .object(members)
            }
            let question = try kind.configure(
                options: options, path: column.path.appending("options"), stepID: stepID, registry: column.registry,
                functions: column.functions)
            try ColumnTotals.check(&column)
            let visibleIf = try column.optionalString("visibleIf").map { source throws(SurveyError) in
                try names.compile(source, member: "visibleIf", in: column)
            }
            let result = Column(
                name: name, title: try column.optionalText("title"),
                isRequired: try column.bool("required", default: false), question: question, visibleIf: visibleIf)
            return result
        }.map(\.element)
        return Options(
            rows: rows, columns: columns, isEveryRowRequired: try reader.bool("allRowsRequired", default: false),
            conditions: MatrixConditions(rows: rowConditions), outerNames: names.outer)
    }

    public func input(for options: Options, in context: PresentationContext) -> InputPrimitive {
        let fields = options.columns.map { column in
            CompositeField(
                name: column.name, label: column.title.map { context.text($0) } ?? column.name,
                isRequired: column.isRequired, input: column.question.input(in: context))
        }
        let cellConditions = options.columns.contains { $0.visibleIf != nil }
        let functions = cellConditions ? context.conditionFunctions : nil
        return .composite(
            CompositeInput(
                fields: options.rows.filter { options.conditions.showsRow($0.value, in: context) }.map { row in
                    var shown = fields
                    if let functions {
                        let hidden = hiddenColumns(
                            context.answer?[row.value]?.objectValue ?? [:], options: options, in: context,
                            functions: functions)
                        shown.removeAll { hidden.contains($0.name) }
                    }
                    return CompositeField(
                        name: row.value, label: row.label.resolved(in: context),
                        isRequired: options.isEveryRowRequired || shown.contains(where: \.isRequired),
                        input: .composite(CompositeInput(fields: shown, presentation: "matrix-dropdown-row")))
                },
                presentation: "matrix-dropdown"))
    }

    public func normalize(_ answer: JSONValue, options: Options) throws(AnswerError) -> JSONValue {
        try normalize(answer, options: options, in: .english)
    }

    public func normalize(_ answer: JSONValue, options: Options, in context: PresentationContext) throws(AnswerError)
        -> JSONValue
    {
        let form = try FormAnswer(
            answer, allowed: options.rows.map(\.value), describedAs: "an object with a member per row")
        var result: [String: JSONValue] = [:]
        for row in options.rows {
            var cells: [String: JSONValue] = [:]
            if let value = form.members[row.value] {
                let rowForm: FormAnswer
                do {
                    rowForm = try FormAnswer(
                        value, allowed: options.columns.map(\.name), describedAs: "an object with a member per column")
                } catch {
                    var located = error
                    located.field = error.field.map { "\(row.value).\($0)" } ?? row.value
                    throw located
                }
                for column in options.columns {
                    guard let cell = rowForm.members[column.name], !column.question.isEmpty(cell) else { continue }
                    do {
                        let normal = try column.question.normalize(cell, in: context)
                        if !column.question.isEmpty(normal) { cells[column.name] = normal }
                    } catch {
                        var located = error
                        located.field = "\(row.value).\(column.name)"
                        throw located
                    }
                }
            }
            if !cells.isEmpty { result[row.value] = .object(cells) }
        }
        if result.isEmpty { return .null }
        let cellConditions = options.columns.contains { $0.visibleIf != nil }
        let functions = cellConditions ? context.conditionFunctions : nil
        for row in options.rows where options.conditions.showsRow(row.value, in: context) {
            let cells = result[row.value]?.objectValue ?? [:]
            let hidden =
                functions.map { hiddenColumns(cells, options: options, in: context, functions: $0) } ?? []
            if cells.isEmpty, options.isEveryRowRequired {
                let label = row.label.resolved(in: context)
                throw AnswerError(
                    code: "missingRow", message: "Answer the row '\(label)'.", arguments: ["row": label],
                    field: row.value)
            }
            for column in options.columns
            where column.isRequired && cells[column.name] == nil && !hidden.contains(column.name) {
                let label = column.title.map { context.text($0) } ?? column.name
                throw AnswerError(
                    code: "missingField", message: "Fill in '\(label)'.", arguments: ["field": label],
                    field: "\(row.value).\(column.name)")
            }
        }
        return .object(result)
    }

    public func summarize(_ tally: AnswerTally, options: Options, in context: PresentationContext) -> AnswerSummary {
        let answers = tally.answers
        let answered = answers.filter { !$0.isEmptyAnswer }
        var buckets: [AnswerSummary.Bucket] = []
        for row in options.rows {
            for column in options.columns {
                let count = answered.filter { $0[row.value]?[column.name] != nil }.count
                buckets.append(
                    .init(
                        value: "\(row.value).\(column.name)",
                        label: column.title.map { context.text($0) } ?? column.name,
                        count: count, percentage: Summaries.percentage(count, of: answered.count), group: row.value,
                        groupLabel: row.label.resolved(in: context)))
            }
        }
        return AnswerSummary(answered: answered.count, buckets: buckets)
    }
}

import SurveyCore

/// The `visibleIf` conditions of a matrix's rows and columns (SurveyJS's `rows[].visibleIf`,
/// `columns[].visibleIf`): each is one of the type's own expressions, `row:<value>` or
/// `column:<value>`, evaluated over the survey's names whenever the question is asked or checked.
/// A hidden row or column is not offered and not required; its value stays (survey-core's data
/// keeps it while the respondent goes on) until the survey completes, when it is dropped.
struct MatrixConditions: Sendable {
    /// The condition of each row that has one, by row value.
    var rows: [String: String] = [:]
    /// The condition of each column that has one, by column value (or name).
    var columns: [String: String] = [:]

    var isEmpty: Bool { rows.isEmpty && columns.isEmpty }

    /// Takes the conditions out of `choices` (rows or columns read with the `.conditional` form),
    /// leaving plain choices.
    static func take(_ choices: inout [ChoiceDefinition]) -> [String: String] {
        var conditions: [String: String] = [:]
        for index in choices.indices {
            guard let condition = choices[index].visibleIf else { continue }
            conditions[choices[index].value] = condition
            choices[index].visibleIf = nil
        }
        return conditions
    }

    /// The expressions for ``QuestionType/expressions(for:)``.
    var expressions: [String: String] {
        var result: [String: String] = [:]
        for (value, condition) in rows { result["row:" + value] = condition }
        for (value, condition) in columns { result["column:" + value] = condition }
        return result
    }

    /// Whether row `value` shows now (a row without a condition, or one not evaluated yet, does).
    func showsRow(_ value: String, in context: PresentationContext) -> Bool {
        guard rows[value] != nil, !context.showsEveryPart, let result = context.expressionValues["row:" + value] else {
            return true
        }
        return ExpressionValue.isTruthy(result)
    }

    /// Whether column `value` shows now.
    func showsColumn(_ value: String, in context: PresentationContext) -> Bool {
        guard columns[value] != nil, !context.showsEveryPart, let result = context.expressionValues["column:" + value]
        else { return true }
        return ExpressionValue.isTruthy(result)
    }
}

/// The survey names a matrix-dropdown's column conditions read, collected while they compile: each
/// is given to the condition from slot 1 on (slot 0 is the row's cells, `{row.<column>}`).
final class CellConditionNames: @unchecked Sendable {
    var outer: [String] = []

    /// Compiles a column's condition; an error names `member` of `reader`.
    func compile(_ source: String, member: String, in reader: OptionsReader) throws(SurveyError)
        -> SurveyCore.Expression
    {
        let functions = reader.functions ?? .standard
        do throws(ExpressionCompileError) {
            return try SurveyCore.Expression(source, functions: functions) { reference in
                if reference.lowercased() == "row" { return 0 }
                if reference.lowercased().hasPrefix("row.") { return nil }  // a member of {row}
                if let index = self.outer.firstIndex(of: reference) { return 1 + index }
                self.outer.append(reference)
                return self.outer.count
            }
        } catch {
            throw reader.error(member, "invalid \(member) \"\(source)\" at \(error.description)", kind: .invalidValue)
        }
    }
}

extension MatrixDropdownType {
    public func expressions(for options: Options) -> [String: String] {
        var result = options.conditions.expressions
        for name in options.outerNames { result["name:" + name] = "{\(name)}" }
        return result
    }

    public func checksAgainOnNext(for options: Options) -> Bool {
        !options.conditions.isEmpty || options.columns.contains { $0.visibleIf != nil }
    }

    /// Keeps the rows that show when the survey completes (a hidden cell keeps its value, as in
    /// survey-core's data).
    public func completedAnswer(_ answer: JSONValue, options: Options, in context: PresentationContext) -> JSONValue {
        guard !options.conditions.rows.isEmpty, case .object(let members) = answer else { return answer }
        let kept = members.filter { row, _ in options.conditions.showsRow(row, in: context) }
        return kept.isEmpty ? .null : .object(kept)
    }

    /// The columns whose cells a row holding `cells` hides now.
    func hiddenColumns(
        _ cells: [String: JSONValue], options: Options, in context: PresentationContext, functions: FunctionContext
    ) -> Set<String> {
        if context.showsEveryPart { return [] }
        var slots: [JSONValue] = [.object(cells)]
        for name in options.outerNames { slots.append(context.expressionValues["name:" + name] ?? .null) }
        var hidden = Set<String>()
        for column in options.columns {
            if let condition = column.visibleIf, !condition.isTrue(slots, context: functions) {
                hidden.insert(column.name)
            }
        }
        return hidden
    }
}

import SurveyCore

/// A column's total (SurveyJS's `totalType` / `totalExpression`), on a `matrix-dropdown` column or a
/// `repeat` item: `"total"` (`sum`, `count`, `avg`, `min` or `max` of the column over the rows) or
/// `"totalExpression"` (an expression that reads the rows as `{matrix}` and the totals before it as
/// `{row.x}`). The engine's own answers do not hold them; the SurveyJS data shape
/// (SurveyImport's `SurveyJSDataShape`, which `survey run` and `survey test` give such a survey)
/// stores them as survey-core does, `<id>-total`: `{"amount": 15}`.
enum ColumnTotals {
    /// The kinds of `total`.
    static let kinds = ["sum", "count", "avg", "min", "max"]

    /// Checks `total` and `totalExpression` of a column or item (read, so they are known members).
    static func check(_ reader: inout OptionsReader) throws(SurveyError) {
        if let kind = try reader.optionalString("total"), !kinds.contains(kind) {
            throw reader.error(
                "total", "'total' must be one of \(kinds.joined(separator: ", ")), got '\(kind)'", kind: .invalidValue)
        }
        guard let source = try reader.optionalString("totalExpression") else { return }
        do throws(ExpressionCompileError) {
            // Names are read from the rows and the data when the total is computed.
            _ = try SurveyCore.Expression(source, functions: reader.functions ?? .standard) { _ in 0 }
        } catch {
            guard error.kind == .syntax else { return }
            throw reader.error(
                "totalExpression", "invalid totalExpression \"\(source)\" at \(error.description)",
                kind: .invalidValue)
        }
    }
}

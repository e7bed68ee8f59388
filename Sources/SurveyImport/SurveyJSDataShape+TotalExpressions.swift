import SurveyCore

// A column's `totalExpression`: survey-core computes the matrix's total row with it (its
// `totalType` is one such expression too, `sumInArray({matrix}, 'col')`), and stores the result in
// `<name>-total` with the other columns' totals.

extension SurveyJSDataShape {
    /// The mark that makes a column's recorded total an expression (`=sumInArray({matrix}, 'a')`)
    /// rather than a `totalType` (`sum`).
    static let totalExpressionMark: Character = "="

    /// The totals of one matrix: each column's `totalType` first, then each `totalExpression` in the
    /// columns' name order, reading `{matrix}` (the matrix's rows), `{row.column}` (the totals so far)
    /// and the survey's other values as survey-core's data holds them. An expression that does not
    /// compile gives no total, as survey-core's total cell then holds none.
    static func totals(
        _ columns: [String: String], of id: String, in data: [String: JSONValue], today: String
    ) -> [String: JSONValue] {
        var sums: [String: JSONValue] = [:]
        for (column, type) in columns where type.first != totalExpressionMark {
            sums[column] = total(type, of: column, in: data[id])
        }
        let lowercased = Dictionary(
            data.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        for column in columns.keys.sorted() {
            guard let source = columns[column], source.first == totalExpressionMark else { continue }
            var values: [JSONValue] = []
            var slots: [String: Int] = [:]
            let row = sums
            let resolve: (String) -> Int? = { name in
                let key = name.lowercased()
                if let slot = slots[key] { return slot }
                let value: JSONValue
                switch key {
                case "matrix": value = data[id] ?? .null
                case "row": value = .object(row)
                default:
                    // A dotted name resolves by its longest known prefix; a plain one the data lacks is empty.
                    if let known = data[name] ?? lowercased[key] {
                        value = known
                    } else if name.contains(".") || name.contains("[") {
                        return nil
                    } else {
                        value = .null
                    }
                }
                slots[key] = values.count
                values.append(value)
                return values.count - 1
            }
            guard let expression = try? Expression(String(source.dropFirst()), functions: .standard, resolve: resolve)
            else { continue }
            let result = expression.evaluate(values, context: FunctionContext(today: today))
            // (JSONValue takes `nil` as its null: removed explicitly, as survey-core keeps no total then.)
            if result.isNull { sums.removeValue(forKey: column) } else { sums[column] = result }
        }
        return sums
    }
}

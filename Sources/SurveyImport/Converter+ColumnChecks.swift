import Foundation
import SurveyCore

// The `expression` validators of a `matrixdropdown`'s columns: survey-core runs each on every cell of
// the column in the rows it shows, on Next, reading the cell's row as `{row.x}`, whether the cell is
// answered or not (as an expression validator of a question runs on no answer). Here they are the
// matrix's own validators, one per row and validator, with `{row.x}` read as `{matrix.row.x}`.

extension Converter {
    /// `matrixdropdown`: ``matrixDropdown(_:)``, with its columns' expression validators taken out
    /// first and given back as the matrix's validators, one per row (guarded by the row's
    /// `visibleIf`). A column with a `visibleIf` keeps them (noted as not converted).
    mutating func matrixDropdownWithColumnChecks(_ members: inout Members, id: String) -> ConvertedKind {
        let rows = (members.members["rows"]?.arrayValue ?? []).compactMap { row -> (String, String?)? in
            guard let value = (row["value"] ?? row).choiceKey else { return nil }
            return (value, row["visibleIf"]?.stringValue)
        }
        var checks: [(validator: JSONValue, column: String)] = []
        if var columns = members.members["columns"]?.arrayValue {
            for index in columns.indices {
                guard var column = columns[index].objectMembers, column["visibleIf"] == nil,
                    let name = column["name"]?.stringValue,
                    let list = column["validators"]?.arrayValue
                else { continue }
                let isExpression: (JSONValue) -> Bool = { validator in
                    let type = validator["type"]?.stringValue?.lowercased() ?? ""
                    return type == "expression" || type == "expressionvalidator"
                }
                let taken = list.filter(isExpression)
                guard !taken.isEmpty else { continue }
                let path = members.path("columns").appending(index).appending("validators")
                for validator in validators(.array(taken), path: path) {
                    checks.append((validator, name.trimmingCharacters(in: .whitespaces)))
                }
                let kept = list.filter { !isExpression($0) }
                if kept.isEmpty {
                    column.removeValue(forKey: "validators")
                } else {
                    column["validators"] = .array(kept)
                }
                columns[index] = .object(column)
            }
            if !checks.isEmpty {
                var dictionary = members.members
                dictionary["columns"] = .array(columns)
                var rewritten = Members(dictionary, path: members.path)
                rewritten.markUsed(Array(members.used))
                members = rewritten
            }
        }
        var kind = matrixDropdown(&members)
        for (validator, _) in checks {
            guard let expression = validator["expression"]?.stringValue else { continue }
            for (row, visibleIf) in rows where !row.contains(".") && !row.contains("[") && !row.contains("}") {
                var check = validator.objectMembers ?? [:]
                var condition = Self.rowAsCell(expression, matrix: id, row: row)
                if let visibleIf, visibleIf.contains(where: { !$0.isWhitespace }) {
                    condition = "!(\(visibleIf)) or (\(condition))"
                }
                check["expression"] = .string(condition)
                kind.validators.append(.object(check))
            }
        }
        return kind
    }

    /// `expression` with survey-core's `{row.x}` (any letter case) read as `{matrix.row.x}`: the
    /// cell `x` of row `row` of the dropdown matrix `matrix`.
    static func rowAsCell(_ expression: String, matrix: String, row: String) -> String {
        rewritingExpressionReferences(in: expression) { reference in
            let trimmed = reference.trimmingCharacters(in: .whitespaces)
            guard trimmed.count > 4, trimmed.prefix(4).lowercased() == "row." else { return String(reference) }
            return "\(matrix).\(row).\(trimmed.dropFirst(4))"
        }
    }
}

import Foundation
import SurveyCore
import Testing

/// Every row of the examples table in docs/expressions.md: the expression, evaluated in the engine
/// on the data the page gives, has the result of the *engine* column (or does not load, for
/// *error*). The *SurveyJS* column is checked against survey-core by `Tests/Differential/expressions.js`.
@Suite struct ExpressionDocumentationTests {
    static let document: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return (try? String(contentsOf: url.appendingPathComponent("docs/expressions.md"), encoding: .utf8)) ?? ""
    }()

    struct Row: Sendable, CustomTestStringConvertible {
        var expression: String
        /// `nil` for *error*.
        var engine: JSONValue?
        var testDescription: String { expression }
    }

    /// The rows between the examples markers: `| `expression` | `result` | … |`.
    static let rows: [Row] = {
        guard let start = document.range(of: "<!-- examples:begin -->"),
            let end = document.range(of: "<!-- examples:end -->")
        else { return [] }
        var rows: [Row] = []
        for line in document[start.upperBound..<end.lowerBound].split(separator: "\n") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard cells.count >= 4, cells[1].hasPrefix("`"), cells[1].hasSuffix("`") else { continue }
            let expression = String(cells[1].dropFirst().dropLast())
            let engine: JSONValue?
            if cells[2] == "*error*" {
                engine = nil
            } else {
                engine = try? JSONParser.parse(String(cells[2].dropFirst().dropLast()))
                if engine == nil { continue }
            }
            rows.append(Row(expression: expression, engine: engine))
        }
        return rows
    }()

    static let names = [
        "s", "n", "arr", "t", "e", "b", "str5", "d1", "d2", "rows", "missing",
    ]
    static let values: [JSONValue] = [
        "Yes", 5, ["a", "B"], "hello", "", true, "5", "2024-01-31", "2024-03-01",
        [["p": 1], ["p": 2.5], ["p": "3"], ["q": "b"]], .null,
    ]

    @Test func theTableHasItsRows() {
        #expect(Self.rows.count >= 60)
    }

    @Test(arguments: rows)
    func row(_ row: Row) {
        let slots = Dictionary(uniqueKeysWithValues: Self.names.enumerated().map { ($1, $0) })
        do {
            let expression = try Expression(row.expression, functions: .standard) { slots[$0] }
            let result = expression.evaluate(Self.values, context: FunctionContext(today: "2026-12-01"))
            #expect(row.engine == result, "\(row.expression) gave \(result)")
        } catch {
            #expect(row.engine == nil, "\(row.expression) does not load: \(error)")
        }
    }
}

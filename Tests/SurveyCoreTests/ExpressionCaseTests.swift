import Foundation
import SurveyCore
import Testing

/// Every case of Tests/Differential/expression-cases.json: the expression, evaluated in the engine on
/// the case's data, gives survey-core 3.0.4's result (`expected`, or `error`: it does not load), unless
/// the case says our engine deliberately differs (`engine` or `engineError`, with the section of
/// docs/expressions.md that says why in `documented`). `Tests/Differential/expressions.js` checks
/// `expected` against survey-core itself. A case marked `pending` is a difference not resolved yet:
/// it must still differ (when it agrees, remove the mark).
///
/// Names are read as in a SurveyJS survey: a name the data does not have is an empty answer.
@Suite struct ExpressionCaseTests {
    static let file: JSONValue = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<2 { url.deleteLastPathComponent() }
        let path = url.appendingPathComponent("Differential/expression-cases.json")
        guard let text = try? String(contentsOf: path, encoding: .utf8) else { return .null }
        return (try? JSONParser.parse(text)) ?? .null
    }()

    struct Case: Sendable, CustomTestStringConvertible {
        var expression: String
        var data: [String: JSONValue]
        /// What the engine gives; `nil` when the expression does not load.
        var result: JSONValue?
        var documented: String?
        var isPending: Bool
        var testDescription: String { expression }
    }

    static let cases: [Case] = {
        guard let members = file.objectValue, let list = members["cases"]?.arrayValue else { return [] }
        let shared = members["data"]?.objectValue ?? [:]
        return list.compactMap { entry -> Case? in
            guard let item = entry.objectValue, let expression = item["expression"]?.stringValue else { return nil }
            let documented = item["documented"]?.stringValue
            let result: JSONValue?
            if documented != nil {
                // (`JSONValue` is itself nil-literal-expressible: `.none` is the load error.)
                result = item["engineError"] == .bool(true) ? .none : .some(item["engine"] ?? .null)
            } else {
                result = item["error"] == .bool(true) ? .none : .some(item["expected"] ?? .null)
            }
            return Case(
                expression: expression, data: item["data"]?.objectValue ?? shared, result: result,
                documented: documented, isPending: item["pending"] != nil)
        }
    }()

    static var today: String { file.objectValue?["today"]?.stringValue ?? "2026-12-01" }

    @Test func theFileHasItsCases() {
        #expect(Self.cases.count >= 500)
    }

    /// A documented difference names a section of docs/expressions.md that exists.
    @Test func everyDifferenceIsDocumented() {
        let document = ExpressionDocumentationTests.document
        for item in Self.cases {
            guard let documented = item.documented else { continue }
            let anchor = documented.split(separator: "#").last.map(String.init) ?? ""
            let headings = document.split(separator: "\n").filter { $0.hasPrefix("#") }.map { line in
                line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces).lowercased()
                    .replacingOccurrences(of: " ", with: "-").filter { $0.isLetter || $0.isNumber || $0 == "-" }
            }
            #expect(
                documented.hasPrefix("docs/expressions.md#") && headings.contains(anchor),
                "\(item.expression): \(documented) is no section of docs/expressions.md")
        }
    }

    @Test(arguments: cases)
    func evaluate(_ item: Case) {
        var names: [String] = []
        var values: [JSONValue] = []
        let resolve: (String) -> Int? = { name in
            if let index = names.firstIndex(of: name) { return index }
            if let value = item.data[name] {
                names.append(name)
                values.append(value)
            } else if name.contains(".") || name.contains("[") {
                return nil  // the parser then looks for the name before the dot or bracket
            } else {
                names.append(name)
                values.append(.null)
            }
            return names.count - 1
        }
        let result: JSONValue?
        do {
            let expression = try Expression(item.expression, functions: .standard, resolve: resolve)
            result = .some(expression.evaluate(values, context: FunctionContext(today: Self.today)))
        } catch {
            result = .none
        }
        let expected = item.result.map { "\($0)" } ?? "a load error"
        let actual = result.map { "\($0)" } ?? "a load error"
        if item.isPending {
            #expect(item.result != result, "\(item.expression) now agrees with survey-core: remove its pending mark")
        } else {
            #expect(item.result == result, "\(item.expression) gave \(actual), expected \(expected)")
        }
    }
}

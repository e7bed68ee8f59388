import Foundation
import SurveyBuiltins
import SurveyCore
import Testing

/// Every row of the examples table in docs/validators.md: a question `q` of the row's type with the
/// row's validators, answered as the row says, then Next; it passes or reports exactly the codes and
/// English messages of the row, in order.
@Suite struct ValidatorDocumentationTests {
    static let document: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return (try? String(contentsOf: url.appendingPathComponent("docs/validators.md"), encoding: .utf8)) ?? ""
    }()

    struct Row: Sendable, CustomTestStringConvertible {
        var type: String
        var validators: String
        /// `nil` for "none".
        var answer: JSONValue?
        /// `(code, message)` per error; empty for "passes".
        var errors: [(String, String)]
        var testDescription: String { "\(type) \(validators) \(answer.map { "\($0)" } ?? "none")" }
    }

    static func code(_ cell: Substring) -> String {
        String(cell.trimmingCharacters(in: .whitespaces).dropFirst().dropLast())
    }

    /// The rows between the examples markers: `| `type` | `[validators]` | `answer` | outcome |`.
    static let rows: [Row] = {
        guard let start = document.range(of: "<!-- examples:begin -->"),
            let end = document.range(of: "<!-- examples:end -->")
        else { return [] }
        var rows: [Row] = []
        for line in document[start.upperBound..<end.lowerBound].split(separator: "\n") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard cells.count == 6, cells[1].hasPrefix("`") else { continue }
            let answer = cells[3] == "none" ? nil : try? JSONParser.parse(code(Substring(cells[3])))
            if cells[3] != "none", answer == nil { continue }
            var errors: [(String, String)] = []
            if cells[4] != "passes" {
                // "`code`: message; `code`: message"
                for part in cells[4].components(separatedBy: "; `") {
                    let pieces = part.components(separatedBy: "`: ")
                    guard pieces.count == 2 else { continue }
                    errors.append((pieces[0].replacingOccurrences(of: "`", with: ""), pieces[1]))
                }
            }
            rows.append(
                Row(
                    type: code(Substring(cells[1])), validators: code(Substring(cells[2])), answer: answer,
                    errors: errors))
        }
        return rows
    }()

    /// The page's first example: an age checked by a range and by an expression over another answer.
    @Test func theFirstExampleWorksAsDescribed() throws {
        let parts = Self.document.components(separatedBy: "```json\n")
        let example = try #require(parts.dropFirst().first?.components(separatedBy: "```").first)
        let survey = try SurveyLoader(registry: .builtins()).load(
            text: surveyJSON([#"{"id": "partner-age", "type": "number"}"#, example]))
        func outcome(_ partner: JSONValue, _ age: JSONValue, locale: String = "en") throws -> NextOutcome {
            var session = SurveySession(survey: survey, locale: locale)
            try session.answer(partner, for: "partner-age")
            session.next()
            try session.answer(age, for: "age")
            return session.next()
        }
        #expect(
            try outcome(50, 16, locale: "fr")
                == .blocked([
                    StepError(
                        stepID: "age",
                        error: AnswerError(
                            code: "outOfRange", message: "Il faut être majeur pour participer.",
                            arguments: ["min": "18", "max": "120"],
                            isLocalized: true),
                        message: "Il faut être majeur pour participer.", validator: "numeric"),
                    StepError(
                        stepID: "age",
                        error: AnswerError(
                            code: "expressionFailed", message: "Please check both ages.",
                            arguments: ["expression": "{age} >= {partner-age} - 30"], isLocalized: true),
                        message: "Please check both ages.", validator: "expression"),
                ]))
        guard case .completed = try outcome(40, 35) else { Issue.record("a valid age was refused"); return }
    }

    @Test func theTableHasItsRows() {
        #expect(Self.rows.count >= 20)
        #expect(Self.rows.contains { $0.errors.isEmpty } && Self.rows.contains { $0.errors.count > 1 })
    }

    @Test(arguments: rows)
    func row(_ row: Row) throws {
        let options = row.type == "multiple-choice" ? #", "options": {"choices": ["a", "b", "c"]}"# : ""
        let survey = try SurveyLoader(registry: .builtins()).load(
            text: surveyJSON([
                #"{"id": "p1", "type": "page", "steps": [{"id": "q", "type": "\#(row.type)"\#(options), "validators": \#(row.validators)}]}"#,
                #"{"id": "end", "type": "text"}"#,
            ]))
        var session = SurveySession(survey: survey, locale: "en")
        if let answer = row.answer { try session.answer(answer, for: "q") }
        let outcome = session.next()
        switch outcome {
        case .blocked(let errors):
            #expect(errors.map(\.error.code) == row.errors.map(\.0))
            #expect(errors.map(\.message) == row.errors.map(\.1))
        default:
            #expect(row.errors.isEmpty, "Next moved on")
        }
    }
}

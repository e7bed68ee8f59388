import Foundation
import SurveyCore

// survey-core scores a quiz: each question with a `correctAnswer` is a quiz question, and texts
// and expressions read `{correctAnswers}`, `{incorrectAnswers}` and `{questionCount}`. Here they
// are calculated values the conversion adds (not in the result data, as in survey-core).

extension Converter {
    /// Adds `correctAnswers`, `incorrectAnswers` and `questionCount` for the quiz questions met,
    /// unless the survey defines such a name itself.
    mutating func addQuizScores(to survey: inout [String: JSONValue]) {
        guard !quizAnswers.isEmpty else { return }
        var calculated = survey["calculatedValues"]?.arrayValue ?? []
        let taken = Set(calculated.compactMap { $0["name"]?.stringValue?.lowercased() })
            .union(valueNames.map { $0.lowercased() })
        let correct = quizAnswers.map { "iif({\($0.id)} = \($0.literal), 1, 0)" }.joined(separator: " + ")
        // The incorrect ones read the correct ones' value, when the survey does not name its own so.
        let scores: [(String, String)] = [
            ("correctAnswers", correct),
            ("questionCount", "\(quizAnswers.count)"),
            (
                "incorrectAnswers",
                "\(quizAnswers.count) - " + (taken.contains("correctanswers") ? "(\(correct))" : "{correctAnswers}")
            ),
        ]
        for (name, expression) in scores where !taken.contains(name.lowercased()) {
            calculated.append(["name": .string(name), "expression": .string(expression)])
        }
        survey["calculatedValues"] = .array(calculated)
    }

    /// `value` as an expression constant: a text, a number, a Boolean, or a list of those; `nil`
    /// for anything else (objects: a matrix's correct answer).
    static func expressionLiteral(_ value: JSONValue) -> String? {
        switch value {
        case .string(let text):
            return "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'")
                + "'"
        case .number(let number): return JSONValue.format(number: number)
        case .bool(let flag): return flag ? "true" : "false"
        case .array(let elements):
            let parts = elements.map(expressionLiteral)
            guard parts.allSatisfy({ $0 != nil }) else { return nil }
            return "[" + parts.compactMap { $0 }.joined(separator: ", ") + "]"
        default: return nil
        }
    }
}

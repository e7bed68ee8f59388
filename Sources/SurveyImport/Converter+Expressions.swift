import SurveyCore

// Expression properties of a SurveyJS survey, as the converter keeps them.

extension Converter {
    /// An expression property's text, or `nil` when there is none to keep: not a string, blank, or —
    /// with ``leavesOutUnparsableExpressions`` — not an expression at all (a syntax error).
    /// survey-core logs "Invalid expression" for the last and runs the survey as if the property were
    /// absent (a `visibleIf` shows, a trigger never fires, a calculated value stays empty), so it is
    /// then left out here too, with a note and an entry in ``unparsableExpressions`` (`survey lint`
    /// reports each as an `invalid-expression` error). Otherwise it is kept, and the load refuses it
    /// with its position.
    mutating func expression(_ value: JSONValue?, _ path: JSONPath) -> JSONValue? {
        guard let value else { return nil }
        guard case .string(let text) = value else {
            note(.notConverted, path, "\(value.kindDescription) as an expression", "expected a string")
            return nil
        }
        if text.allSatisfy(\.isWhitespace) { return nil }
        if leavesOutUnparsableExpressions, let error = Self.syntaxError(in: text) {
            var key = "expression"
            if case .key(let last)? = path.components.last { key = last }
            note(
                .notConverted, path, "\(key) \"\(text)\"",
                "it cannot be parsed (\(error)); survey-core ignores it as well, so it has no effect")
            unparsableExpressions.append((text: text, message: error, path: path))
            return nil
        }
        return value
    }

    /// The syntax error of a SurveyJS expression, or `nil` when it parses (names and functions are
    /// not checked here: unknown ones are host values and host functions).
    static func syntaxError(in text: String) -> String? {
        // survey-core's grammar spells an unquoted word with ASCII letters, digits and `_` only: a
        // character beyond ASCII outside quotes and braces (`{q} == 예`) fails to parse there, even
        // where this engine's parser would read a word.
        var quote: Character?
        var inBraces = false
        for (offset, character) in text.enumerated() {
            if let open = quote {
                if character == open { quote = nil }
            } else if inBraces {
                if character == "}" { inBraces = false }
            } else if character == "'" || character == "\"" {
                quote = character
            } else if character == "{" {
                inBraces = true
            } else if !character.isASCII {
                return "column \(offset + 1): unexpected character '\(character)' "
                    + "(survey-core reads only ASCII outside quotes and braces)"
            }
        }
        do {
            _ = try Expression(text, functions: .standard, resolve: { _ in 0 })
            return nil
        } catch {
            return error.kind == .syntax ? error.description : nil
        }
    }
}

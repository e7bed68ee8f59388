// References in an expression whose names hold quotes: survey-core reads `{a'b"c}` as the value
// named `a'b"c` (its grammar takes any character but a brace between `{` and `}`), and a `{` inside a
// quoted text as a character of that text.

extension Converter {
    /// `expression` with each `{reference}` (what is between the braces) replaced by what
    /// `transform` gives for it, read as the engine's lexer and survey-core's grammar read it: a
    /// quoted text (`'…'`, `"…"`, with `\` escapes) outside braces is text, braces and all; inside
    /// braces every character up to the first `}` is the name, quotes included. A `{` without its
    /// `}`, or a quote without its end, leaves the rest as it is.
    static func rewritingExpressionReferences(in expression: String, _ transform: (Substring) -> String) -> String {
        var result = ""
        var index = expression.startIndex
        while index < expression.endIndex {
            let character = expression[index]
            switch character {
            case "'", "\"":
                var end = expression.index(after: index)
                while end < expression.endIndex, expression[end] != character {
                    if expression[end] == "\\" {
                        end = expression.index(after: end)
                        if end == expression.endIndex { break }
                    }
                    end = expression.index(after: end)
                }
                guard end < expression.endIndex else { return result + expression[index...] }
                end = expression.index(after: end)
                result += expression[index..<end]
                index = end
            case "{":
                let inner = expression[expression.index(after: index)...]
                guard let close = inner.firstIndex(of: "}") else { return result + expression[index...] }
                result += "{" + transform(inner[..<close]) + "}"
                index = expression.index(after: close)
            default:
                result.append(character)
                index = expression.index(after: index)
            }
        }
        return result
    }

    /// Whether a reference's root (its name before `.` or `[`) is a name survey-core reads, for an
    /// expression: not an object constant (`{"key": 1}`, braces around a JSON object's inside), nor
    /// one holding a brace. A name with quotes inside it (`{a'b"c}`) is one.
    static func isExpressionName(_ root: String) -> Bool {
        guard let first = root.first else { return false }
        return first != "'" && first != "\"" && !root.contains("{")
    }

    /// The same for a piped text (a title), where quotes are the text's own: a name there holds
    /// neither a brace nor a quote.
    static func isTextName(_ root: String) -> Bool {
        !root.contains("{") && !root.contains("'") && !root.contains("\"")
    }
}

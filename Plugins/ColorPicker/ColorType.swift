import SurveyCore

/// A colour, answered as `#RRGGBB`: free entry, or one of a palette.
///
/// Options: `{"palette": ["#FF0000", "#00FF00"]}` (optional). Answers `#abc`, `#AABBCC` and `AABBCC`
/// are accepted and stored as upper-case `#RRGGBB`.
struct ColorType: QuestionType {
    var typeID: String { "color" }
    var summary: String { "A colour as #RRGGBB, typed or picked from a palette" }

    func makeOptions(from reader: inout OptionsReader) throws(SurveyError) -> [String] {
        let palette = try reader.optionalStringArray("palette") ?? []
        for (index, entry) in palette.enumerated() where Self.canonical(entry) == nil {
            throw SurveyError(
                .invalidValue, "palette entry '\(entry)' is not a colour like #FF8800",
                path: reader.path.appending("palette").appending(index), stepID: reader.stepID)
        }
        return palette.compactMap(Self.canonical)
    }

    func input(for palette: [String], in context: PresentationContext) -> InputPrimitive {
        if palette.isEmpty {
            return .freeText(
                TextInput(minimumLength: 4, maximumLength: 7, placeholder: "#RRGGBB", presentation: "color"))
        }
        return .singleChoice(
            ChoiceInput(
                choices: palette.map { Choice(value: $0, label: $0, iconName: "swatch") }, presentation: "color"))
    }

    func normalize(_ answer: JSONValue, options palette: [String]) throws(AnswerError) -> JSONValue {
        guard let text = answer.stringValue else { throw AnswerError.wrongShape(expected: "a colour", got: answer) }
        guard let color = Self.canonical(text) else {
            throw AnswerError(
                code: "invalidColor", message: "Enter a colour like #FF8800.", arguments: ["value": text])
        }
        guard palette.isEmpty || palette.contains(color) else {
            throw AnswerError(
                code: "notAChoice", message: "'\(color)' is not one of the colours.", arguments: ["value": color])
        }
        return .string(color)
    }

    /// Counts each colour (the default would only count answers for free text).
    func summarize(_ answers: [JSONValue], options palette: [String], in context: PresentationContext) -> AnswerSummary
    {
        let colors = answers.compactMap { $0.stringValue.flatMap(Self.canonical) }
        var counts: [String: Int] = [:]
        for color in colors { counts[color, default: 0] += 1 }
        let order = palette.isEmpty ? counts.keys.sorted() : palette
        return AnswerSummary(
            answered: colors.count,
            buckets: order.map { color in
                let count = counts[color] ?? 0
                return .init(
                    value: color, label: color, count: count,
                    percentage: colors.isEmpty ? 0 : Double(count) * 100 / Double(colors.count))
            })
    }

    /// `#RRGGBB` in upper case, or `nil` when `text` is not a colour.
    static func canonical(_ text: String) -> String? {
        var digits = text.trimmingPrefix("#").uppercased()
        if digits.count == 3 { digits = digits.map { "\($0)\($0)" }.joined() }
        guard digits.count == 6, digits.allSatisfy(\.isHexDigit) else { return nil }
        return "#" + digits
    }
}

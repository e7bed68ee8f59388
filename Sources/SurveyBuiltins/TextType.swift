import Foundation
import SurveyCore

/// Free text, on one line or several ("fill in the blank").
///
/// | Option | Type | Default | Meaning |
/// |---|---|---|---|
/// | `multiline` | Boolean | `false` | Ask for several lines. |
/// | `minLength` | integer ≥ 0 | none | Fewest characters (after trimming). |
/// | `maxLength` | integer ≥ 0 | none | Most characters; at least `minLength`. |
/// | `pattern` | string | none | A regular expression (`NSRegularExpression` syntax) the whole answer must match. |
/// | `placeholder` | text | none | Hint shown in an empty field. |
///
/// **Answer:** a string, normalised by trimming surrounding whitespace. Lengths count characters
/// (grapheme clusters). Errors: `wrongShape`, `tooShort` (`min`), `tooLong` (`max`), `patternMismatch`.
///
/// ```json
/// { "id": "zip", "type": "text", "title": "Postcode",
///   "options": { "maxLength": 10, "pattern": "[0-9]{5}", "placeholder": "12345" } }
/// ```
public struct TextType: QuestionType {
    /// The decoded options of a text question.
    public struct Options: Sendable {
        var isMultiline = false
        var minimumLength: Int?
        var maximumLength: Int?
        var pattern: NSRegularExpression?
        var placeholder: LocalizedText?
    }

    /// Creates the type (its configuration comes from each question's options).
    public init() {}

    public var typeID: String { "text" }
    public var summary: String { "Free text, single or multi-line, with length limits and an optional pattern" }

    public func makeOptions(from reader: inout OptionsReader) throws(SurveyError) -> Options {
        var options = Options()
        options.isMultiline = try reader.bool("multiline", default: false)
        options.minimumLength = try reader.optionalInt("minLength", in: 0...Int.max)
        options.maximumLength = try reader.optionalInt("maxLength", in: 0...Int.max)
        if let minimum = options.minimumLength, let maximum = options.maximumLength, minimum > maximum {
            throw reader.error(
                "maxLength", "'maxLength' (\(maximum)) must not be less than 'minLength' (\(minimum))",
                kind: .invalidOptions)
        }
        if let pattern = try reader.optionalString("pattern") {
            do {
                options.pattern = try NSRegularExpression(pattern: "\\A(?:\(pattern))\\z")
            } catch {
                throw reader.error(
                    "pattern", "'pattern' is not a valid regular expression: \(pattern)", kind: .invalidOptions)
            }
        }
        options.placeholder = try reader.optionalText("placeholder")
        return options
    }

    public func input(for options: Options, in context: PresentationContext) -> InputPrimitive {
        .freeText(
            TextInput(
                isMultiline: options.isMultiline, minimumLength: options.minimumLength,
                maximumLength: options.maximumLength, placeholder: context.text(options.placeholder)))
    }

    public func normalize(_ answer: JSONValue, options: Options) throws(AnswerError) -> JSONValue {
        guard case .string(let raw) = answer else { throw AnswerError.wrongShape(expected: "text", got: answer) }
        let text = raw.trimmed
        if let minimum = options.minimumLength, text.count < minimum {
            throw AnswerError(
                code: "tooShort", message: "Enter at least \(minimum) characters.", arguments: ["min": String(minimum)])
        }
        if let maximum = options.maximumLength, text.count > maximum {
            throw FormAnswer.tooLong(maximum: maximum)
        }
        if let pattern = options.pattern,
            pattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) == nil
        {
            throw AnswerError(code: "patternMismatch", message: "The answer is not in the expected format.")
        }
        return .string(text)
    }
}

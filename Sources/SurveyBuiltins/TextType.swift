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
/// | `placeholder` | text | none | Hint shown in an empty field (default: a mask's pattern). |
/// | `inputType` | string | `"text"` | What the text must be (SurveyJS's `inputType`): `email`, `tel`, `url`, `color`, `password`, `time`, `month`, `week`, `datetime-local`. |
/// | `mask` | object | none | An input mask (SurveyJS's `maskType` and `maskSettings`), below. |
/// | `min`, `max` | string | none | For `inputType` `time`, `month`, `week` and `datetime-local`: the earliest and latest value, written in that format. |
/// | `checkFormat` | Boolean | `true` | Check and normalise the text for its `inputType`; `false`: the input type is only a hint for front ends, as in survey-core, which checks `email` only (`survey import surveyjs` sets it for `tel` and `url`). |
/// | `keepNumbers` | Boolean | `false` | Keep a JSON number given as the answer as a number (SurveyJS's text questions; set by `survey import surveyjs`). |
///
/// **Answer:** a string, normalised by trimming surrounding whitespace. Lengths count characters
/// (grapheme clusters). With `keepNumbers`, a JSON number given as the answer (by a default, a rule,
/// a trigger, the host or an answer script) is kept as that number, as survey-core keeps it in a text
/// question; what a respondent types is text either way (`"7"`). The lengths and the `inputType` check
/// typed text only; `pattern` is matched against the number as written (`7`, `0.5`), and a `numeric`
/// or `currency` mask checks it as it checks a typed number. Errors: `wrongShape`, `tooShort` (`min`), `tooLong` (`max`), `patternMismatch`,
/// `belowMinimum` (`min`) and `aboveMaximum` (`max`) of a time, month, week or date and time.
///
/// `inputType` checks and normalises the text: `email` (lower-cased domain; `invalidEmail`), `tel`
/// (7–15 digits; `invalidPhone`), `url` (`http`/`https`), `color` (`#rrggbb`, lower-case; `#abc`
/// expands), `time` (`HH:MM`), `month` (`YYYY-MM`), `week` (`YYYY-Www`), `datetime-local`
/// (`YYYY-MM-DDTHH:MM`); `password` only asks front ends to hide what is typed. These errors are
/// `invalidFormat` with an `example` ("Enter a value like 14:30."). `number`, `date` and `range`
/// are kinds of their own (`"type": "number"`, `"date"`, `"slider"`): naming them is a load error
/// that says so. Front ends get the input type as the presentation hint (`tel` as `"phone"`).
///
/// `mask` (`type` and its settings): `{"type": "pattern", "pattern": "+1 (999) 999-9999"}` — `9` a
/// digit, `a` a letter, `#` either, the rest literal (`\` escapes one); the text may be typed with
/// or without the literals and is kept as survey-core keeps it, with the literals that are ASCII
/// letters or digits (and escaped ones) only (`"15551234567"`), unless `"saveMaskedValue": true`.
/// `{"type": "numeric", "decimalSeparator"?: ".", "thousandsSeparator"?: ",", "precision"?: 2,
/// "allowNegativeValues"?: true, "min"?, "max"?}` — a number typed with those separators, kept as a
/// JSON number truncated to `precision` decimals. `"currency"` is `numeric` with `prefix` and
/// `suffix` ("$", " €") that may be typed. `{"type": "datetime", "pattern": "mm/dd/yyyy"}` — a date
/// (`dd`, `mm`, `yyyy` or `yy`; `yy` above 68 is 19yy), a month (`mm/yyyy`), a year (`yyyy`), a time
/// (`HH:MM`) or a date and a time, kept in ISO 8601 (`2026-12-01`, `2026-12`, `2026`, `14:30`,
/// `2026-12-01T14:30`), which may be typed as well; the date must exist. A text that does not fit is `invalidFormat` (with the
/// pattern as `example`), or `notANumber`, `belowMinimum`, `aboveMaximum`.
///
/// ```json
/// { "id": "zip", "type": "text", "title": "Postcode",
///   "options": { "maxLength": 10, "pattern": "[0-9]{5}", "placeholder": "12345" } }
/// ```
public struct TextType: SummarizedByInput {
    /// The decoded options of a text question.
    public struct Options: Sendable {
        var isMultiline = false
        var minimumLength: Int?
        var maximumLength: Int?
        var pattern: NSRegularExpression?
        var placeholder: LocalizedText?
        var inputType = TextInputType.text
        var mask: TextMask?
        /// The earliest and latest `time`, `month`, `week` or `datetime-local` value (normalised).
        var minimum: String?
        var maximum: String?
        /// A JSON number given as the answer stays a number (SurveyJS's text questions).
        var keepsNumbers = false
        /// Whether the text is checked and normalised for `inputType` (`checkFormat`).
        var checksFormat = true
    }

    /// Creates the type (its configuration comes from each question's options).
    public init() {}

    public var typeID: String { "text" }
    public var summary: String { "Free text, single or multi-line, with length limits and an optional pattern" }

    public func makeOptions(from reader: inout OptionsReader) throws(SurveyError) -> Options {
        var options = Options()
        options.isMultiline = try reader.bool("multiline", default: false)
        options.keepsNumbers = try reader.bool("keepNumbers", default: false)
        options.checksFormat = try reader.bool("checkFormat", default: true)
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
        if let name = try reader.optionalString("inputType") {
            if let kind = TextInputType.ownKinds[name] {
                throw reader.error(
                    "inputType", "inputType '\(name)' is a kind of its own: use \"type\": \"\(kind)\"",
                    kind: .invalidOptions)
            }
            guard let inputType = TextInputType(rawValue: name) else {
                throw reader.error(
                    "inputType",
                    Suggestion.unknown("inputType", name, validValues: TextInputType.allCases.map(\.rawValue)),
                    kind: .invalidOptions)
            }
            options.inputType = inputType
        }
        for key in ["min", "max"] {
            guard let text = try reader.optionalString(key) else { continue }
            guard TextInputType.ordered.contains(options.inputType),
                let bound = try? options.inputType.normalize(text.trimmed)
            else {
                throw reader.error(
                    key,
                    "'\(key)' is a \(TextInputType.ordered.map(\.rawValue).joined(separator: ", ")) value of the question's inputType, got '\(text)'",
                    kind: .invalidOptions)
            }
            if key == "min" { options.minimum = bound } else { options.maximum = bound }
        }
        if let minimum = options.minimum, let maximum = options.maximum, maximum < minimum {
            throw reader.error(
                "max", "'max' (\(maximum)) must not be before 'min' (\(minimum))", kind: .invalidOptions)
        }
        if let json = reader.value("mask") {
            var maskReader = try OptionsReader(json, path: reader.path.appending("mask"), stepID: reader.stepID)
            options.mask = try TextMask.read(from: &maskReader)
            try maskReader.finish()
            if options.inputType != .text {
                throw reader.error("mask", "'mask' is for \"inputType\": \"text\" questions", kind: .invalidOptions)
            }
        }
        return options
    }

    public func input(for options: Options, in context: PresentationContext) -> InputPrimitive {
        .freeText(
            TextInput(
                isMultiline: options.isMultiline, minimumLength: options.minimumLength,
                maximumLength: options.maximumLength,
                placeholder: context.text(options.placeholder) ?? options.mask?.placeholder,
                presentation: options.mask?.presentation ?? options.inputType.presentation))
    }

    public func normalize(_ answer: JSONValue, options: Options) throws(AnswerError) -> JSONValue {
        var answer = answer
        if options.keepsNumbers, case .number(let number) = answer, !(options.mask?.takesNumbers ?? false) {
            try Self.match(JSONValue.format(number: number), options.pattern)
            return answer
        }
        if let mask = options.mask {
            answer = try mask.normalize(answer)
            guard case .string = answer else { return answer }
        }
        guard case .string(let raw) = answer else { throw AnswerError.wrongShape(expected: "text", got: answer) }
        let text = options.checksFormat ? try options.inputType.normalize(raw.trimmed) : raw.trimmed
        // Fixed-width normalised forms: string order is time order.
        if let minimum = options.minimum, text < minimum {
            throw AnswerError(
                code: "belowMinimum", message: "Enter \(minimum) or later.", arguments: ["min": minimum])
        }
        if let maximum = options.maximum, text > maximum {
            throw AnswerError(
                code: "aboveMaximum", message: "Enter \(maximum) or earlier.", arguments: ["max": maximum])
        }
        if let minimum = options.minimumLength, text.count < minimum {
            throw AnswerError(
                code: "tooShort", message: "Enter at least \(minimum) characters.", arguments: ["min": String(minimum)])
        }
        if let maximum = options.maximumLength, text.count > maximum {
            throw FormAnswer.tooLong(maximum: maximum)
        }
        try Self.match(text, options.pattern)
        return .string(text)
    }

    /// Throws `patternMismatch` when `text` does not match the whole of `pattern`.
    static func match(_ text: String, _ pattern: NSRegularExpression?) throws(AnswerError) {
        if let pattern, pattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) == nil {
            throw AnswerError(code: "patternMismatch", message: "The answer is not in the expected format.")
        }
    }
}

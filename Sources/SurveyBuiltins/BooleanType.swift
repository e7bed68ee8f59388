import SurveyCore

/// Yes or no, in one of several styles (the answer is the same; the style is a presentation hint).
///
/// | Option | Type | Default | Meaning |
/// |---|---|---|---|
/// | `style` | `"yes-no"`, `"true-false"`, `"happy-sad"`, `"thumbs"` | `"yes-no"` | How the two answers are shown. |
/// | `trueLabel` | text | from the style (Yes, True, Happy, Thumbs up) | Label of the `true` answer. |
/// | `falseLabel` | text | from the style (No, False, Sad, Thumbs down) | Label of the `false` answer. |
/// | `trueValue` | any JSON | `true` | The answer stored for yes (SurveyJS's `valueTrue`). |
/// | `falseValue` | any JSON | `false` | The answer stored for no (SurveyJS's `valueFalse`). |
///
/// **Answer:** a JSON Boolean, or `trueValue`/`falseValue` when given. The strings `"yes"`, `"no"`,
/// `"true"`, `"false"` (any case) and the Booleans are accepted and normalised to the stored values;
/// so is each stored value itself. Expressions read the stored value (`{agree} = 'yes'`). Errors:
/// `notABoolean`.
///
/// ```json
/// { "id": "liked", "type": "boolean", "title": "Did you like it?", "options": { "style": "thumbs" } }
/// { "id": "agree", "type": "boolean", "options": { "trueValue": "yes", "falseValue": "no" } }
/// ```
public struct BooleanType: SummarizedByInput {
    /// The decoded options of a boolean question.
    public struct Options: Sendable {
        var style: String
        var trueLabel: LocalizedText?
        var falseLabel: LocalizedText?
        var trueValue: JSONValue?
        var falseValue: JSONValue?
    }

    /// The styles, with the built-in labels of their true and false answers.
    static let styles: [(name: String, trueKey: UIStringKey, falseKey: UIStringKey)] = [
        ("yes-no", .yes, .no), ("true-false", .true, .false), ("happy-sad", .happy, .sad),
        ("thumbs", .thumbsUp, .thumbsDown),
    ]

    /// Creates the type (its configuration comes from each question's options).
    public init() {}

    public var typeID: String { "boolean" }
    public var summary: String { "Yes or no, shown as yes/no, true/false, happy/sad or thumbs up/down" }

    public func makeOptions(from reader: inout OptionsReader) throws(SurveyError) -> Options {
        var options = Options(
            style: try reader.string("style", default: "yes-no", oneOf: Self.styles.map(\.name)),
            trueLabel: try reader.optionalText("trueLabel"), falseLabel: try reader.optionalText("falseLabel"))
        for key in ["trueValue", "falseValue"] {
            guard let value = reader.value(key) else { continue }
            if key == "trueValue" { options.trueValue = value } else { options.falseValue = value }
        }
        if let trueValue = options.trueValue, trueValue == (options.falseValue ?? .bool(false)) {
            throw reader.error("trueValue", "'trueValue' and 'falseValue' must differ")
        }
        return options
    }

    public func input(for options: Options, in context: PresentationContext) -> InputPrimitive {
        let style = Self.styles.first { $0.name == options.style } ?? Self.styles[0]
        return .boolean(
            BooleanInput(
                trueLabel: context.text(options.trueLabel) ?? context.strings[style.trueKey],
                falseLabel: context.text(options.falseLabel) ?? context.strings[style.falseKey],
                presentation: options.style, trueValue: options.trueValue, falseValue: options.falseValue))
    }

    public func normalize(_ answer: JSONValue, options: Options) throws(AnswerError) -> JSONValue {
        if options.trueValue != nil || options.falseValue != nil {
            if let value = options.trueValue, Self.matches(answer, value) { return value }
            if let value = options.falseValue, Self.matches(answer, value) { return value }
        }
        switch answer {
        case .bool(let flag):
            return flag ? options.trueValue ?? answer : options.falseValue ?? answer
        case .string(let text):
            switch text.trimmed.lowercased() {
            case "yes", "true": return options.trueValue ?? .bool(true)
            case "no", "false": return options.falseValue ?? .bool(false)
            default: break
            }
        default:
            break
        }
        throw AnswerError(code: "notABoolean", message: "Answer yes or no.")
    }

    /// Whether `answer` is the stored value `value` (a text and a number of the same value match,
    /// `"1"` for `1`, as an answer map written by hand gives them).
    private static func matches(_ answer: JSONValue, _ value: JSONValue) -> Bool {
        if answer == value { return true }
        switch (answer, value) {
        case (.string(let text), .number(let number)), (.number(let number), .string(let text)):
            return Double(text.trimmed) == number
        case (.string(let text), .string(let stored)):
            return text.trimmed == stored
        default:
            return false
        }
    }
}

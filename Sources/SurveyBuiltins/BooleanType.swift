import SurveyCore

/// Yes or no, in one of several styles (the answer is the same; the style is a presentation hint).
///
/// | Option | Type | Default | Meaning |
/// |---|---|---|---|
/// | `style` | `"yes-no"`, `"true-false"`, `"happy-sad"`, `"thumbs"` | `"yes-no"` | How the two answers are shown. |
/// | `trueLabel` | text | from the style (Yes, True, Happy, Thumbs up) | Label of the `true` answer. |
/// | `falseLabel` | text | from the style (No, False, Sad, Thumbs down) | Label of the `false` answer. |
///
/// **Answer:** a JSON Boolean. The strings `"yes"`, `"no"`, `"true"`, `"false"` (any case) are
/// accepted and normalised to Booleans. Errors: `notABoolean`.
///
/// ```json
/// { "id": "liked", "type": "boolean", "title": "Did you like it?", "options": { "style": "thumbs" } }
/// ```
public struct BooleanType: SummarizedByInput {
    /// The decoded options of a boolean question.
    public struct Options: Sendable {
        var style: String
        var trueLabel: LocalizedText?
        var falseLabel: LocalizedText?
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
        Options(
            style: try reader.string("style", default: "yes-no", oneOf: Self.styles.map(\.name)),
            trueLabel: try reader.optionalText("trueLabel"), falseLabel: try reader.optionalText("falseLabel"))
    }

    public func input(for options: Options, in context: PresentationContext) -> InputPrimitive {
        let style = Self.styles.first { $0.name == options.style } ?? Self.styles[0]
        return .boolean(
            BooleanInput(
                trueLabel: context.text(options.trueLabel) ?? context.strings[style.trueKey],
                falseLabel: context.text(options.falseLabel) ?? context.strings[style.falseKey],
                presentation: options.style))
    }

    public func normalize(_ answer: JSONValue, options: Options) throws(AnswerError) -> JSONValue {
        switch answer {
        case .bool:
            return answer
        case .string(let text):
            switch text.trimmed.lowercased() {
            case "yes", "true": return .bool(true)
            case "no", "false": return .bool(false)
            default: break
            }
        default:
            break
        }
        throw AnswerError(code: "notABoolean", message: "Answer yes or no.")
    }
}

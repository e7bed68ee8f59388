import SurveyCore

/// One of a list of choices, shown as a drop-down list (SurveyJS's `dropdown`).
///
/// | Option | Type | Default | Meaning |
/// |---|---|---|---|
/// | `choices` | array, required, non-empty | — | As for `single-choice` (strings, numbers or objects). |
/// | `other`, `none`, `shuffle` | | | As for `single-choice`. |
/// | `placeholder` | text | none | Shown in the closed list before a choice is made. |
/// | `allowCustomChoices` | Boolean | `false` | The respondent may answer a value of their own (SurveyJS's `allowCustomChoices`): a text that matches no choice is the answer. |
///
/// **Answer:** as `single-choice`: the chosen value (a number for a numeric choice), a label in any
/// locale, or an Other text. Presentation hint `"dropdown"`, with the `placeholder` in
/// ``ChoiceInput/placeholder``. In the terminal a long list can be searched: `/text` lists the
/// choices whose label contains the text. The summary counts each choice.
///
/// ```json
/// { "id": "country", "type": "dropdown", "title": "Country",
///   "options": { "choices": ["France", "Germany", "Italy"], "placeholder": "Choose a country" } }
/// ```
public struct DropdownType: SummarizedByInput {
    /// The decoded options of a dropdown question.
    public struct Options: Sendable {
        var choices: SingleChoiceType.Options
        var placeholder: LocalizedText?
    }

    /// Creates the type (its configuration comes from each question's options).
    public init() {}

    public var typeID: String { "dropdown" }
    public var summary: String { "One of a list of choices shown as a searchable drop-down list" }

    public func makeOptions(from reader: inout OptionsReader) throws(SurveyError) -> Options {
        let placeholder = try reader.optionalText("placeholder")
        if reader.contains("presentation") {
            throw reader.error(
                "presentation", "a dropdown is always presented as a drop-down list; leave out 'presentation'",
                kind: .unknownField)
        }
        let custom = try reader.bool("allowCustomChoices", default: false)
        var choices = try SingleChoiceType().makeOptions(from: &reader)
        choices.choices.presentation = "dropdown"
        choices.choices.allowsCustomChoices = custom
        return Options(choices: choices, placeholder: placeholder)
    }

    public func input(for options: Options, in context: PresentationContext) -> InputPrimitive {
        var input = options.choices.choices.input(in: context)
        input.placeholder = options.placeholder.map { context.text($0) }
        return .singleChoice(input)
    }

    public func normalize(_ answer: JSONValue, options: Options) throws(AnswerError) -> JSONValue {
        try SingleChoiceType().normalize(answer, options: options.choices)
    }
}

/// Any number of a list of choices, picked from a searchable list of tags (SurveyJS's `tagbox`).
///
/// | Option | Type | Default | Meaning |
/// |---|---|---|---|
/// | `choices`, `other`, `none`, `selectAll`, `shuffle`, `minSelections`, `maxSelections` | | | As for `multiple-choice`. |
/// | `placeholder` | text | none | Shown in the empty box. |
/// | `allowCustomChoices` | Boolean | `false` | The respondent may add tags of their own: each text that matches no choice is kept as typed. |
///
/// **Answer:** as `multiple-choice`: a list of unique choice values in the respondent's order.
/// Presentation hint `"tagbox"`; in the terminal `/text` lists the choices whose label contains the
/// text. The summary counts each choice.
///
/// ```json
/// { "id": "skills", "type": "tagbox", "title": "Skills",
///   "options": { "choices": ["Swift", "Kotlin", "Rust", "Go"], "maxSelections": 3 } }
/// ```
public struct TagboxType: SummarizedByInput {
    /// The decoded options of a tagbox question.
    public struct Options: Sendable {
        var choices: MultipleChoiceType.Options
        var placeholder: LocalizedText?
    }

    /// Creates the type (its configuration comes from each question's options).
    public init() {}

    public var typeID: String { "tagbox" }
    public var summary: String { "Any number of a list of choices, picked from a searchable list of tags" }

    public func makeOptions(from reader: inout OptionsReader) throws(SurveyError) -> Options {
        let placeholder = try reader.optionalText("placeholder")
        if reader.contains("presentation") {
            throw reader.error(
                "presentation", "a tagbox is always presented as a tag box; leave out 'presentation'",
                kind: .unknownField)
        }
        let custom = try reader.bool("allowCustomChoices", default: false)
        var choices = try MultipleChoiceType().makeOptions(from: &reader, allowsCustomChoices: custom)
        choices.choices.presentation = "tagbox"
        return Options(choices: choices, placeholder: placeholder)
    }

    public func input(for options: Options, in context: PresentationContext) -> InputPrimitive {
        guard case .multipleChoice(var input) = MultipleChoiceType().input(for: options.choices, in: context) else {
            return .none
        }
        input.placeholder = options.placeholder.map { context.text($0) }
        return .multipleChoice(input)
    }

    public func normalize(_ answer: JSONValue, options: Options) throws(AnswerError) -> JSONValue {
        try MultipleChoiceType().normalize(answer, options: options.choices)
    }

    public func normalize(_ answer: JSONValue, options: Options, in context: PresentationContext) throws(AnswerError)
        -> JSONValue
    {
        try MultipleChoiceType().normalize(answer, options: options.choices, in: context)
    }
}

import SurveyCore

/// Exactly one of a list of choices, optionally with an "Other, please specify" choice.
///
/// | Option | Type | Default | Meaning |
/// |---|---|---|---|
/// | `choices` | array, required, non-empty | — | Each a string (value and label), a number, or `{ "value", "label"?, "icon"?, "visibleIf"? }` (`value` a string or a number); values unique (`2` and `"2"` are the same value). |
/// | `other` | Boolean or text | `false` | Add an Other choice (value `"other"`) with the built-in or the given label. |
/// | `none` | Boolean or text | `false` | Add a "None of the above" choice (value `"none"`, as SurveyJS's `showNoneItem`), before Other. |
/// | `shuffle` | Boolean | `false` | Offer the choices in a seeded random order. |
/// | `presentation` | string | none | A hint such as `"list"`, `"dropdown"`, `"icons"`. |
///
/// **Answer:** the chosen value: a string, or a number for a choice whose value the author wrote as a
/// number (as SurveyJS stores it; `"2"` is accepted for it too). A label (in any locale) or a value in another case is
/// accepted and normalised to the value. With `other`, any other non-empty text is the respondent's
/// Other text and is stored as typed (trimmed); the bare value `"other"` is rejected with
/// `otherTextRequired`. Errors: `wrongShape`, `notAChoice` (`value`), `otherTextRequired`, and
/// `required` for an empty answer.
///
/// ```json
/// { "id": "plan", "type": "single-choice", "title": "Which plan?",
///   "options": { "choices": ["Free", { "value": "pro", "label": "Pro", "icon": "star" }], "other": true } }
/// ```
public struct SingleChoiceType: SummarizedByInput {
    /// The decoded options of a single-choice question.
    public struct Options: Sendable {
        var choices: ChoiceSet
    }

    /// Creates the type (its configuration comes from each question's options).
    public init() {}

    public var typeID: String { "single-choice" }
    public var summary: String { "One of a list of choices, with optional Other text, icons and shuffling" }

    public func makeOptions(from reader: inout OptionsReader) throws(SurveyError) -> Options {
        var choices = try ChoiceSet.read(from: &reader)
        try choices.addNone(from: &reader)
        return Options(choices: choices)
    }

    public func input(for options: Options, in context: PresentationContext) -> InputPrimitive {
        .singleChoice(options.choices.input(in: context))
    }

    public func normalize(_ answer: JSONValue, options: Options) throws(AnswerError) -> JSONValue {
        if answer.isEmptyAnswer { throw AnswerError.required }
        return try options.choices.normalized(answer)
    }
}

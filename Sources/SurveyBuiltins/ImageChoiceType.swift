import SurveyCore

/// One or several pictures to choose from (SurveyJS's `imagepicker`).
///
/// | Option | Type | Default | Meaning |
/// |---|---|---|---|
/// | `choices` | array, required, non-empty | — | Each `{ "value", "image", "label"?, "visibleIf"? }`: `value` a string or a number, `image` a URL or a file path (never the bytes); values unique. |
/// | `multiple` | Boolean | `false` | Several pictures may be chosen (SurveyJS's `multiSelect`). |
/// | `minSelections`, `maxSelections` | integer | none | With `multiple`: fewest and most selections. |
/// | `shuffle` | Boolean | `false` | Offer the pictures in a seeded random order. |
///
/// **Answer:** as `single-choice` (one value), or with `multiple` as `multiple-choice` (a list in the
/// respondent's order). Errors as theirs. The input is a single or multiple choice with presentation
/// `"images"`, each choice carrying its ``Choice/imageReference``; the terminal prints the reference
/// next to the label. The summary counts each choice.
///
/// ```json
/// { "id": "logo", "type": "image-choice", "title": "Which logo do you prefer?",
///   "options": { "choices": [ { "value": "a", "image": "https://example.com/logo-a.png", "label": "Round" },
///                             { "value": "b", "image": "images/logo-b.png", "label": "Square" } ] } }
/// ```
public struct ImageChoiceType: SummarizedByInput {
    /// The decoded options of an image-choice question.
    public struct Options: Sendable {
        var choices: MultipleChoiceType.Options
        var isMultiple: Bool
    }

    /// Creates the type (its configuration comes from each question's options).
    public init() {}

    public var typeID: String { "image-choice" }
    public var summary: String { "One or several pictures to choose from, each a reference to an image" }

    public func makeOptions(from reader: inout OptionsReader) throws(SurveyError) -> Options {
        let isMultiple = try reader.bool("multiple", default: false)
        guard
            let choices = try ChoiceList.read(
                "choices", from: &reader, allowsNumbers: true,
                element: { (json, path, stepID) throws(SurveyError) -> ChoiceDefinition in
                    guard case .object(var members) = json else {
                        throw SurveyError(
                            .invalidValue,
                            "an image choice must be an object with 'value' and 'image', got \(json.kindDescription)",
                            path: path, stepID: stepID)
                    }
                    guard case .string(let image)? = members.removeValue(forKey: "image") else {
                        throw SurveyError(
                            json["image"] == nil ? .missingField : .invalidValue,
                            "an image choice needs 'image', a URL or a file path", path: path.appending("image"),
                            stepID: stepID)
                    }
                    guard !image.trimmed.isEmpty else {
                        throw SurveyError(
                            .invalidOptions, "'image' must not be empty", path: path.appending("image"), stepID: stepID)
                    }
                    var choice = try ChoiceList.element(
                        .object(members), path: path, stepID: stepID, form: .full, allowsNumbers: true)
                    choice.imageReference = image
                    return choice
                })
        else {
            throw reader.error(nil, "missing required member 'choices' (an array of choices)", kind: .missingField)
        }
        let minimum = try reader.optionalInt("minSelections", in: 0...choices.count)
        let maximum = try reader.optionalInt("maxSelections", in: 1...choices.count)
        if !isMultiple, let key = minimum != nil ? "minSelections" : (maximum != nil ? "maxSelections" : nil) {
            throw reader.error(key, "'\(key)' needs \"multiple\": true", kind: .invalidOptions)
        }
        if let minimum, let maximum, minimum > maximum {
            throw reader.error(
                "maxSelections", "'maxSelections' must not be less than 'minSelections'", kind: .invalidOptions)
        }
        let set = ChoiceSet(
            choices: choices, isShuffled: try reader.bool("shuffle", default: false), presentation: "images")
        return Options(
            choices: MultipleChoiceType.Options(
                choices: set, minimumSelections: minimum, maximumSelections: maximum, selectAll: nil),
            isMultiple: isMultiple)
    }

    public func input(for options: Options, in context: PresentationContext) -> InputPrimitive {
        guard options.isMultiple else { return .singleChoice(options.choices.choices.input(in: context)) }
        return MultipleChoiceType().input(for: options.choices, in: context)
    }

    public func normalize(_ answer: JSONValue, options: Options) throws(AnswerError) -> JSONValue {
        try normalize(answer, options: options, in: .english)
    }

    public func normalize(_ answer: JSONValue, options: Options, in context: PresentationContext) throws(AnswerError)
        -> JSONValue
    {
        guard options.isMultiple else {
            return try SingleChoiceType().normalize(
                answer, options: SingleChoiceType.Options(choices: options.choices.choices))
        }
        return try MultipleChoiceType().normalize(answer, options: options.choices, in: context)
    }
}

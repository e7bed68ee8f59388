import SurveyCore

/// Any number of a list of choices ("select all that apply").
///
/// | Option | Type | Default | Meaning |
/// |---|---|---|---|
/// | `choices` | array, required, non-empty | — | As for `single-choice`. |
/// | `other` | Boolean or text | `false` | Add an Other choice (value `"other"`). |
/// | `none` | Boolean or text | `false` | Add an exclusive "None of the above" choice (value `"none"`), answered only on its own. |
/// | `selectAll` | Boolean or text | `false` | Offer a "Select all" item, which selects every regular choice offered. |
/// | `shuffle` | Boolean | `false` | Offer the choices in a seeded random order. |
/// | `presentation` | string | none | A presentation hint. |
/// | `minSelections` | integer ≥ 0 | none | Fewest selections. |
/// | `maxSelections` | integer ≥ 1 | none | Most selections; `minSelections ≤ maxSelections ≤` number of choices (Other counts). |
///
/// **Answer:** an array of unique values: choice values (numbers for numeric choices, as in
/// `single-choice`), and at most one Other text. Kept
/// in the respondent's order; a bare `"other"` next to an Other text is dropped; `["none"]` alone
/// satisfies `minSelections` (as in SurveyJS). Errors: `wrongShape`, `notAChoice` (`value`; also for a
/// second Other text), `duplicateSelection` (`value`), `otherTextRequired`, `exclusiveChoice` (`label`,
/// `value`: None picked with anything else), `tooFewSelections` (`min`), `tooManySelections` (`max`).
///
/// ```json
/// { "id": "colors", "type": "multiple-choice", "title": "Favourite colours",
///   "options": { "choices": ["red", "green", "blue"], "other": "Another colour", "maxSelections": 2 } }
/// ```
public struct MultipleChoiceType: SummarizedByInput {
    /// The decoded options of a multiple-choice question.
    public struct Options: Sendable {
        var choices: ChoiceSet
        var minimumSelections: Int?
        var maximumSelections: Int?
        /// The label of the "Select all" item, when there is one.
        var selectAll: ChoiceLabel?
    }

    /// Creates the type (its configuration comes from each question's options).
    public init() {}

    public var typeID: String { "multiple-choice" }
    public var summary: String { "Any number of a list of choices, with min/max selections and optional Other text" }

    public func makeOptions(from reader: inout OptionsReader) throws(SurveyError) -> Options {
        try makeOptions(from: &reader, allowsCustomChoices: false)
    }

    /// Reads the options; with custom choices (a tag box's), selection limits may exceed the choices.
    func makeOptions(from reader: inout OptionsReader, allowsCustomChoices: Bool) throws(SurveyError) -> Options {
        var choices = try ChoiceSet.read(from: &reader)
        choices.allowsCustomChoices = allowsCustomChoices
        try choices.addNone(from: &reader)
        let selectAll = try ChoiceSet.readLabel("selectAll", builtin: .selectAll, from: &reader)
        // "None of the above" is never picked with another choice, so it adds nothing to what can be selected.
        let count = choices.choices.filter { !$0.isExclusive }.count
        let minimum = try reader.optionalInt("minSelections", in: 0...Int.max)
        let maximum = try reader.optionalInt("maxSelections", in: 1...Int.max)
        if let minimum, let maximum, minimum > maximum {
            throw reader.error(
                "maxSelections", "'maxSelections' (\(maximum)) must not be less than 'minSelections' (\(minimum))",
                kind: .invalidOptions)
        }
        if let maximum, maximum > count, !allowsCustomChoices {
            throw reader.error(
                "maxSelections", "'maxSelections' (\(maximum)) is more than the \(count) choices", kind: .invalidOptions
            )
        }
        if let minimum, minimum > count, !allowsCustomChoices {
            throw reader.error(
                "minSelections", "'minSelections' (\(minimum)) is more than the \(count) choices", kind: .invalidOptions
            )
        }
        let regular = choices.choices.filter { !$0.isOther && !$0.isExclusive }.count
        if selectAll != nil, let maximum, maximum < regular {
            throw reader.error(
                "selectAll",
                "'selectAll' selects all \(regular) choices, more than 'maxSelections' (\(maximum)) allows; leave out one of them",
                kind: .invalidOptions)
        }
        return Options(
            choices: choices, minimumSelections: minimum, maximumSelections: maximum, selectAll: selectAll)
    }

    public func input(for options: Options, in context: PresentationContext) -> InputPrimitive {
        var input = options.choices.input(
            in: context, minimumSelections: options.minimumSelections, maximumSelections: options.maximumSelections)
        input.selectAllLabel = options.selectAll?.resolved(in: context)
        return .multipleChoice(input)
    }

    public func normalize(_ answer: JSONValue, options: Options) throws(AnswerError) -> JSONValue {
        try normalize(answer, options: options, in: .english)
    }

    public func normalize(_ answer: JSONValue, options: Options, in context: PresentationContext) throws(AnswerError)
        -> JSONValue
    {
        guard case .array(let elements) = answer else {
            throw AnswerError.wrongShape(expected: "a list of choices", got: answer)
        }
        // No selection is no answer (SurveyJS drops `[]` from its data too); "required" then applies.
        if elements.isEmpty { return .null }
        if isKeptAsGiven(elements, options: options) { return answer }
        var picked: Set<String> = []
        // The respondent's order, as SurveyJS keeps it.
        var values: [JSONValue] = []
        var otherText: String?
        var sawBareOther = false
        for element in elements {
            let selection: Selection
            do {
                selection = try options.choices.select(element)
            } catch  where error.code == "otherTextRequired" {
                sawBareOther = true
                continue
            }
            switch selection {
            case .choice(let value):
                guard picked.insert(value).inserted else { throw ChoiceSet.duplicateSelection(value) }
                values.append(options.choices.stored(selection))
            case .other(let text) where options.choices.other == nil:
                // A custom choice (allowCustomChoices): any number, each once.
                guard picked.insert(text).inserted else { throw ChoiceSet.duplicateSelection(text) }
                values.append(.string(text))
            case .other(let text):
                if let otherText {
                    if otherText == text { throw ChoiceSet.duplicateSelection(text) }
                    throw ChoiceSet.notAChoice(text)
                }
                otherText = text
                values.append(.string(text))
            }
        }
        if sawBareOther, otherText == nil { throw ChoiceSet.otherTextRequired() }
        let count = picked.count + (otherText == nil ? 0 : 1)
        var isExclusiveAlone = false
        if let exclusive = options.choices.choices.first(where: \.isExclusive), picked.contains(exclusive.value) {
            guard count == 1 else {
                let label = exclusive.label.resolved(in: context)
                throw AnswerError(
                    code: "exclusiveChoice", message: "'\(label)' cannot be combined with other choices.",
                    arguments: ["label": label, "value": exclusive.value])
            }
            isExclusiveAlone = true
        }
        if let minimum = options.minimumSelections, count < minimum, !isExclusiveAlone {
            throw AnswerError(
                code: "tooFewSelections", message: "Select at least \(minimum).", arguments: ["min": String(minimum)])
        }
        if let maximum = options.maximumSelections, count > maximum {
            throw AnswerError(
                code: "tooManySelections", message: "Select at most \(maximum).", arguments: ["max": String(maximum)])
        }
        return .array(values)
    }

    /// The common case without matching or a set: a few selections, each exactly the value of a
    /// regular choice, none twice, within the limits: the answer is stored as given. `false` leaves
    /// the decision (and every error) to the general path.
    func isKeptAsGiven(_ elements: [JSONValue], options: Options) -> Bool {
        guard elements.count <= 16 else { return false }
        var picked: (UInt64, UInt64) = (0, 0)
        let choices = options.choices
        for element in elements {
            guard let index = choices.storedRegularIndex(of: element), index < 128 else { return false }
            let bit = UInt64(1) << UInt64(index & 63)
            if index < 64 {
                guard picked.0 & bit == 0 else { return false }
                picked.0 |= bit
            } else {
                guard picked.1 & bit == 0 else { return false }
                picked.1 |= bit
            }
        }
        if let minimum = options.minimumSelections, elements.count < minimum { return false }
        if let maximum = options.maximumSelections, elements.count > maximum { return false }
        return true
    }
}

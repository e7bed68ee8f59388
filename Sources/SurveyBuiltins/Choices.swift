import Foundation
import SurveyCore

/// The label of an authored or built-in choice, before it is resolved for a locale.
enum ChoiceLabel: Sendable, Hashable {
    /// Text from the survey file.
    case authored(LocalizedText)
    /// A built-in UI string, such as "Other".
    case uiString(UIStringKey)
    /// A label shipped with the built-in types (discovery presets).
    case builtin(BuiltinText)

    func resolved(in context: PresentationContext) -> String {
        switch self {
        case .authored(let text): return context.text(text)
        case .uiString(let key): return context.strings[key]
        case .builtin(let text): return text.resolved(in: context)
        }
    }

    /// Every spelling of the label, for matching typed answers against labels.
    var spellings: [String] {
        switch self {
        case .authored(let text): return Array(text.translations.values)
        case .uiString: return []
        case .builtin(let text): return Array(text.translations.values)
        }
    }

    /// The label in English (or the survey's neutral text), for answer errors and reports.
    var english: String {
        switch self {
        case .authored(let text): return text.resolved(locale: "en", defaultLocale: "en")
        case .uiString(let key): return UIStrings(locale: "en")[key]
        case .builtin(let text): return text.english
        }
    }
}

/// One choice as authored, before its label is resolved for a locale.
struct ChoiceDefinition: Sendable, Hashable {
    var value: String
    var label: ChoiceLabel
    var iconName: String? = nil
    var isOther: Bool = false
    var visibleIf: String? = nil
    /// "None of the above": answered only on its own.
    var isExclusive: Bool = false
    /// The author wrote the value as a number: answers store it as one.
    var isNumeric: Bool = false
    /// A picture of the choice (image-choice questions).
    var imageReference: String? = nil

    func choice(in context: PresentationContext) -> Choice {
        var choice = Choice(
            value: value, label: label.resolved(in: context), iconName: iconName, isOther: isOther,
            visibleIf: visibleIf, isExclusive: isExclusive)
        choice.isNumeric = isNumeric
        choice.imageReference = imageReference
        return choice
    }
}

/// Reading lists of choices (`choices`, `items`, `rows`, `columns`, `categories`, `sources`) from options.
enum ChoiceList {
    /// Which members an object element may have.
    enum Form: Sendable {
        /// `value`, `label`, `icon`, `visibleIf`.
        case full
        /// `value`, `label` only.
        case plain
        /// `value`, `label`, `visibleIf` (matrix rows and columns).
        case conditional
    }

    /// Reads one element: a string (value and label) or an object; with `allowsNumbers`, a number
    /// (or an object whose `value` is one) is a numeric choice.
    static func element(
        _ json: JSONValue, path: JSONPath, stepID: String?, form: Form, allowsNumbers: Bool = false
    ) throws(SurveyError) -> ChoiceDefinition {
        switch json {
        case .string(let text):
            guard !text.isEmpty else {
                throw SurveyError(.invalidOptions, "a choice value must not be empty", path: path, stepID: stepID)
            }
            return ChoiceDefinition(value: text, label: .authored(LocalizedText(text)))
        case .number(let number) where allowsNumbers:
            // A numeric value, as SurveyJS allows (`"choices": [1, 2, 3]`): answers store the number.
            let text = JSONValue.format(number: number)
            return ChoiceDefinition(value: text, label: .authored(LocalizedText(text)), isNumeric: true)
        case .object:
            var reader = try OptionsReader(json, path: path, stepID: stepID)
            // `"value": 2` is a numeric choice, as above.
            let number = allowsNumbers ? reader.members["value"]?.numberValue : nil
            let isNumeric = number != nil
            let value: String
            if let number {
                _ = reader.value("value")
                value = JSONValue.format(number: number)
            } else {
                value = try reader.string("value")
            }
            guard !value.isEmpty else {
                throw reader.error("value", "'value' must not be empty", kind: .invalidOptions)
            }
            let label = try reader.optionalText("label") ?? LocalizedText(value)
            var choice = ChoiceDefinition(value: value, label: .authored(label), isNumeric: isNumeric)
            if case .full = form { choice.iconName = try reader.optionalString("icon") }
            if form != .plain { choice.visibleIf = try reader.optionalString("visibleIf") }
            try reader.finish()
            return choice
        default:
            let expected =
                switch form {
                case .full: "'value', 'label', 'icon', 'visibleIf'"
                case .plain: "'value' and 'label'"
                case .conditional: "'value', 'label' and 'visibleIf'"
                }
            throw SurveyError(
                .invalidValue,
                "a choice must be a string, a number or an object with \(expected), got \(json.kindDescription)",
                path: path, stepID: stepID)
        }
    }

    /// Reads the array `key`; `nil` when absent. Rejects duplicate values (naming the later
    /// element's path) and lists shorter than `minimumCount`.
    static func read(
        _ key: String, from reader: inout OptionsReader, form: Form = .full, minimumCount: Int = 1,
        allowsNumbers: Bool = false,
        element readElement: ((JSONValue, JSONPath, String?) throws(SurveyError) -> ChoiceDefinition)? = nil
    ) throws(SurveyError) -> [ChoiceDefinition]? {
        let stepID = reader.stepID
        guard
            let choices = try reader.optionalArray(
                key,
                { (json, path) throws(SurveyError) -> ChoiceDefinition in
                    if let readElement { return try readElement(json, path, stepID) }
                    return try element(json, path: path, stepID: stepID, form: form, allowsNumbers: allowsNumbers)
                })
        else { return nil }
        try checkUnique(choices, key: key, in: reader)
        guard choices.count >= minimumCount else {
            throw reader.error(
                key, "'\(key)' must have at least \(minimumCount) element\(minimumCount == 1 ? "" : "s")",
                kind: .invalidOptions)
        }
        return choices
    }

    /// Reads the required array `key`.
    static func readRequired(
        _ key: String, from reader: inout OptionsReader, form: Form = .full, minimumCount: Int = 1,
        allowsNumbers: Bool = false
    ) throws(SurveyError) -> [ChoiceDefinition] {
        if reader.value("choicesByUrl") != nil {
            throw reader.error(
                "choicesByUrl",
                "'choicesByUrl' is fetched before the survey loads: load it with the survey command, or through SurveyDelivery's ChoicesByURL.resolve",
                kind: .invalidOptions)
        }
        guard
            let choices = try read(
                key, from: &reader, form: form, minimumCount: minimumCount, allowsNumbers: allowsNumbers)
        else {
            throw reader.error(nil, "missing required member '\(key)' (an array of choices)", kind: .missingField)
        }
        return choices
    }

    /// Throws for the first value used twice.
    static func checkUnique(_ choices: [ChoiceDefinition], key: String, in reader: OptionsReader) throws(SurveyError) {
        var firstIndex: [String: Int] = [:]
        for (index, choice) in choices.enumerated() {
            if let first = firstIndex[choice.value] {
                throw SurveyError(
                    .invalidOptions, "duplicate value '\(choice.value)' (already used by \(key)[\(first)])",
                    path: reader.path.appending(key).appending(index), stepID: reader.stepID)
            }
            firstIndex[choice.value] = index
        }
    }
}

/// A picked choice, or the respondent's own "Other" text.
enum Selection: Sendable, Hashable {
    case choice(String)
    case other(String)
}

/// The choices of a question with the options every choice type shares (`other`, `shuffle`,
/// `presentation`), and the matching of answers against them.
struct ChoiceSet: Sendable, Hashable {
    /// The choices in display order; an Other choice, when there is one, is among them.
    var choices: [ChoiceDefinition] {
        didSet { firstBytes = Self.firstBytes(of: choices) }
    }
    var isShuffled: Bool
    var presentation: String?
    /// Whether an answer may be a value of the respondent's own (`allowCustomChoices`).
    var allowsCustomChoices: Bool
    /// The first UTF-8 byte of each choice's value (0 for an empty value): ``exactIndex(of:)``
    /// compares a text only with the choices that start like it.
    private(set) var firstBytes: [UInt8]

    init(
        choices: [ChoiceDefinition], isShuffled: Bool = false, presentation: String? = nil,
        allowsCustomChoices: Bool = false
    ) {
        self.choices = choices
        self.isShuffled = isShuffled
        self.presentation = presentation
        self.allowsCustomChoices = allowsCustomChoices
        firstBytes = Self.firstBytes(of: choices)
    }

    private static func firstBytes(of choices: [ChoiceDefinition]) -> [UInt8] {
        choices.map { $0.value.firstUTF8Byte ?? 0 }
    }

    /// The value of the choice added by the `other` option.
    static let otherValue = "other"

    /// Reads `choices` (required), `other`, `shuffle` and `presentation`.
    static func read(from reader: inout OptionsReader) throws(SurveyError) -> ChoiceSet {
        var choices = try ChoiceList.readRequired("choices", from: &reader, allowsNumbers: true)
        if let other = try readOther(from: &reader) {
            if choices.contains(where: { $0.value == otherValue }) {
                throw reader.error(
                    "other", "a choice already uses the value '\(otherValue)'; rename it or leave out 'other'",
                    kind: .invalidOptions)
            }
            choices.append(other)
        }
        return ChoiceSet(
            choices: choices, isShuffled: try reader.bool("shuffle", default: false),
            presentation: try readPresentation(from: &reader))
    }

    /// Reads `other`: `true` (the built-in "Other" label), `false`, or a label text.
    static func readOther(from reader: inout OptionsReader) throws(SurveyError) -> ChoiceDefinition? {
        guard let value = reader.value("other") else { return nil }
        switch value {
        case .bool(false):
            return nil
        case .bool(true):
            return ChoiceDefinition(value: otherValue, label: .uiString(.other), isOther: true)
        default:
            guard let label = try reader.optionalText("other") else { return nil }
            return ChoiceDefinition(value: otherValue, label: .authored(label), isOther: true)
        }
    }

    /// The value of the choice added by the `none` option (SurveyJS's `showNoneItem` stores `"none"` too).
    static let noneValue = "none"

    /// Reads `none` (`true` for the built-in "None of the above" label, `false`, or a label text) and
    /// adds that exclusive choice after the authored ones, before Other.
    mutating func addNone(from reader: inout OptionsReader) throws(SurveyError) {
        guard let label = try Self.readLabel("none", builtin: .noneOfTheAbove, from: &reader) else { return }
        if choices.contains(where: { $0.value == Self.noneValue }) {
            throw reader.error(
                "none", "a choice already uses the value '\(Self.noneValue)'; rename it or leave out 'none'",
                kind: .invalidOptions)
        }
        let none = ChoiceDefinition(value: Self.noneValue, label: label, isExclusive: true)
        if let other = choices.firstIndex(where: \.isOther) {
            choices.insert(none, at: other)
        } else {
            choices.append(none)
        }
    }

    /// Reads an option that is `true` (a built-in UI string as label), `false`/absent (`nil`) or a label text.
    static func readLabel(_ key: String, builtin: UIStringKey, from reader: inout OptionsReader) throws(SurveyError)
        -> ChoiceLabel?
    {
        guard let value = reader.value(key) else { return nil }
        switch value {
        case .bool(false): return nil
        case .bool(true): return .uiString(builtin)
        default: return try reader.optionalText(key).map { .authored($0) }
        }
    }

    /// Reads the optional `presentation` hint, a non-empty string.
    static func readPresentation(from reader: inout OptionsReader) throws(SurveyError) -> String? {
        guard let presentation = try reader.optionalString("presentation") else { return nil }
        guard !presentation.isEmpty else {
            throw reader.error("presentation", "'presentation' must not be empty", kind: .invalidOptions)
        }
        return presentation
    }

    var other: ChoiceDefinition? { choices.first(where: \.isOther) }

    /// Whether one of the choices is the Other choice.
    var hasOther: Bool {
        for index in choices.indices where choices[index].isOther { return true }
        return false
    }

    /// What an answer stores for `selection`: the number of a numeric choice, else the text.
    func stored(_ selection: Selection) -> JSONValue {
        guard case .choice(let value) = selection, let index = exactIndex(of: value), choices[index].isNumeric,
            let number = Double(value)
        else { return selection.jsonValue }
        return .number(number)
    }

    /// The position of the choice whose value is exactly `text` (an index walk: `first(where:)` would
    /// copy each choice, retaining its strings). Only the choices whose first byte is `text`'s are
    /// compared with it: telling two different texts apart is the costly case of `==`.
    func exactIndex(of text: String) -> Int? {
        let first = text.firstUTF8Byte ?? 0
        for index in firstBytes.indices where firstBytes[index] == first && choices[index].value == text {
            return index
        }
        return nil
    }

    /// The position of the regular choice (not Other, not exclusive, not numeric) whose value `answer`
    /// already is, exactly as it would be stored: such an answer needs no matching and is kept as given.
    func storedRegularIndex(of answer: JSONValue) -> Int? {
        guard case .string(let text) = answer, let index = exactIndex(of: text) else { return nil }
        let choice = choices[index]
        return choice.isOther || choice.isExclusive || choice.isNumeric ? nil : index
    }

    /// What an answer of one choice stores: ``select(_:field:)`` then ``stored(_:)``, with the common
    /// case — the exact value of a regular choice — returned as given.
    func normalized(_ answer: JSONValue, field: String? = nil) throws(AnswerError) -> JSONValue {
        if storedRegularIndex(of: answer) != nil { return answer }
        return stored(try select(answer, field: field))
    }

    /// The renderer-neutral description, with labels in `context`'s locale.
    func input(
        in context: PresentationContext, minimumSelections: Int? = nil, maximumSelections: Int? = nil,
        isOrdered: Bool = false
    ) -> ChoiceInput {
        var input = ChoiceInput(
            choices: choices.map { $0.choice(in: context) }, minimumSelections: minimumSelections,
            maximumSelections: maximumSelections, isShuffled: isShuffled, isOrdered: isOrdered,
            presentation: presentation)
        input.allowsCustomChoices = allowsCustomChoices
        return input
    }

    /// Matches one answered value: a choice value (exact, then ignoring case), then a label in any
    /// locale, then — when there is an Other choice — the respondent's own text.
    /// - Throws: `notAChoice`, `otherTextRequired` or `wrongShape`, about `field` when given.
    func select(_ answer: JSONValue, field: String? = nil) throws(AnswerError) -> Selection {
        let text: String
        switch answer {
        // A value given exactly is that choice, even with spaces around it (SurveyJS keeps `"alpha "`).
        case .string(let string): text = exactIndex(of: string) != nil ? string : string.trimmed
        case .number(let number): text = JSONValue.format(number: number)
        // A Boolean names the choice whose value is "true" or "false" (SurveyJS lists Boolean values).
        case .bool(let flag) where exactIndex(of: flag ? "true" : "false") != nil: text = flag ? "true" : "false"
        default:
            var error = AnswerError.wrongShape(expected: "a choice", got: answer)
            error.field = field
            throw error
        }
        if let exact = exactIndex(of: text) {
            if choices[exact].isOther { throw Self.otherTextRequired(field: field) }
            return .choice(choices[exact].value)
        }
        let lowered = text.lowercased()
        let match =
            choices.indices.first { choices[$0].value.lowercased() == lowered }
            ?? choices.indices.first { choices[$0].label.spellings.contains { $0.lowercased() == lowered } }
        if let match {
            if choices[match].isOther { throw Self.otherTextRequired(field: field) }
            return .choice(choices[match].value)
        }
        if hasOther || allowsCustomChoices, !text.isEmpty { return .other(text) }
        throw Self.notAChoice(text, field: field)
    }

    static func notAChoice(_ value: String, field: String? = nil) -> AnswerError {
        AnswerError(
            code: "notAChoice", message: "'\(value)' is not one of the choices.", arguments: ["value": value],
            field: field)
    }

    static func otherTextRequired(field: String? = nil) -> AnswerError {
        AnswerError(code: "otherTextRequired", message: "Please describe your 'Other' answer.", field: field)
    }

    static func duplicateSelection(_ value: String, field: String? = nil) -> AnswerError {
        AnswerError(
            code: "duplicateSelection", message: "'\(value)' is selected more than once.",
            arguments: ["value": value], field: field)
    }
}

extension Selection {
    var jsonValue: JSONValue {
        switch self {
        case .choice(let value), .other(let value): return .string(value)
        }
    }
}

import Foundation
import SurveyCore

/// Several named text or number boxes answered together (SurveyJS's `multipletext`), each with its
/// own kind and checks.
///
/// | Option | Type | Default | Meaning |
/// |---|---|---|---|
/// | `items` | array, required, non-empty | — | Each `{ "name", "title"?, "inputType"?, "required"?, "minLength"?, "maxLength"?, "min"?, "max"?, "placeholder"?, "pattern"?, "patternIgnoresCase"? }`; names unique. |
/// | `keepNumbers` | Boolean | `false` | Keep a JSON number given to a `text` or `tel` item as a number, as the `text` kind's `keepNumbers` does (set by `survey import surveyjs`). |
///
/// Item members: `name` (the key in the answer), `title` (text; default the name), `inputType`
/// (`"text"` default, `"number"`, `"email"`, `"tel"`), `required` (Boolean), `minLength` /
/// `maxLength` (texts), `min` / `max` (numbers), `placeholder` (text), `pattern` (a regular
/// expression a text item's answer must contain a match of, as SurveyJS's `regex` validator tests
/// it; anchor it with `^…$` for the whole text) with `patternIgnoresCase` (Boolean).
///
/// **Answer:** an object from item name to its value: trimmed text, or a number for a `number` item
/// (a numeric text is accepted), or with `keepNumbers` a number given to a `text` or `tel` item as it
/// is; empty items are left out, and an answer with no item filled is no answer. Errors (with `field`, the item's name): `wrongShape` (not an object, or an unknown item),
/// `missingField`, `tooShort`, `tooLong`, `notANumber`, `belowMinimum`, `aboveMaximum`,
/// `invalidEmail`, `invalidPhone`, `patternMismatch` (`regex`). As an input it is a `composite` with
/// presentation `"multiple-text"` (a text field's `pattern` in its input).
///
/// ```json
/// { "id": "size", "type": "multiple-text", "title": "Your measurements",
///   "options": { "items": [ { "name": "height", "title": "Height (cm)", "inputType": "number", "min": 50, "max": 250 },
///                           { "name": "email", "inputType": "email", "required": true } ] } }
/// ```
public struct MultipleTextType: SummarizedByInput {
    /// One item of a multiple-text question.
    struct Item: Sendable {
        var name: String
        var title: LocalizedText?
        var kind: String
        var isRequired: Bool
        var minimumLength: Int?
        var maximumLength: Int?
        var minimum: Double?
        var maximum: Double?
        var placeholder: LocalizedText?
        /// A regular expression a text item must contain a match of (SurveyJS's item `regex` validator).
        var pattern: String?
        var patternIgnoresCase = false
        var compiledPattern: NSRegularExpression?
    }

    /// The decoded options of a multiple-text question.
    public struct Options: Sendable {
        var items: [Item]
        /// A JSON number given to a `text` or `tel` item stays a number (SurveyJS's items).
        var keepsNumbers = false
    }

    static let kinds = ["text", "number", "email", "tel"]

    /// Creates the type (its configuration comes from each question's options).
    public init() {}

    public var typeID: String { "multiple-text" }
    public var summary: String { "Several named text or number boxes answered together, each with its own checks" }

    public func makeOptions(from reader: inout OptionsReader) throws(SurveyError) -> Options {
        let items = try NamedOptions.read("items", what: "item", from: &reader) {
            (item: inout OptionsReader, name: String) throws(SurveyError) -> Item in
            let kind = try item.string("inputType", default: "text")
            guard Self.kinds.contains(kind) else {
                throw item.error(
                    "inputType", Suggestion.unknown("inputType", kind, validValues: Self.kinds),
                    kind: .invalidOptions)
            }
            var result = Item(
                name: name, title: try item.optionalText("title"), kind: kind,
                isRequired: try item.bool("required", default: false),
                minimumLength: try item.optionalInt("minLength", in: 0...1_000_000),
                maximumLength: try item.optionalInt("maxLength", in: 1...1_000_000),
                minimum: try item.optionalDouble("min"), maximum: try item.optionalDouble("max"),
                placeholder: try item.optionalText("placeholder"))
            if let pattern = try item.optionalString("pattern") {
                result.pattern = pattern
                result.patternIgnoresCase = try item.bool("patternIgnoresCase", default: false)
                guard kind != "number",
                    let compiled = try? NSRegularExpression(
                        pattern: pattern, options: result.patternIgnoresCase ? [.caseInsensitive] : [])
                else {
                    throw item.error(
                        "pattern",
                        kind == "number"
                            ? "'pattern' is for text items, not \"inputType\": \"number\""
                            : "'pattern' is not a valid regular expression: \(pattern)",
                        kind: .invalidOptions)
                }
                result.compiledPattern = compiled
            }
            if let low = result.minimumLength, let high = result.maximumLength, low > high {
                throw item.error(
                    "maxLength", "'maxLength' must not be less than 'minLength'", kind: .invalidOptions)
            }
            if let low = result.minimum, let high = result.maximum, low > high {
                throw item.error("max", "'max' must not be less than 'min'", kind: .invalidOptions)
            }
            if kind != "number", result.minimum != nil || result.maximum != nil {
                throw item.error(
                    result.minimum != nil ? "min" : "max",
                    "'min' and 'max' are for \"inputType\": \"number\" items",
                    kind: .invalidOptions)
            }
            return result
        }.map(\.element)
        return Options(items: items, keepsNumbers: try reader.bool("keepNumbers", default: false))
    }

    public func input(for options: Options, in context: PresentationContext) -> InputPrimitive {
        .composite(
            CompositeInput(
                fields: options.items.map { item in
                    let input: InputPrimitive
                    switch item.kind {
                    case "number": input = .number(NumberInput(minimum: item.minimum, maximum: item.maximum))
                    case "email", "tel":
                        input = .freeText(
                            TextInput(
                                placeholder: item.placeholder.map { context.text($0) },
                                presentation: item.kind == "email" ? "email" : "phone", pattern: item.pattern,
                                patternIgnoresCase: item.patternIgnoresCase))
                    default:
                        input = .freeText(
                            TextInput(
                                minimumLength: item.minimumLength, maximumLength: item.maximumLength,
                                placeholder: item.placeholder.map { context.text($0) }, pattern: item.pattern,
                                patternIgnoresCase: item.patternIgnoresCase))
                    }
                    return CompositeField(
                        name: item.name, label: item.title.map { context.text($0) } ?? item.name,
                        isRequired: item.isRequired, input: input)
                },
                presentation: "multiple-text"))
    }

    public func normalize(_ answer: JSONValue, options: Options) throws(AnswerError) -> JSONValue {
        let form = try FormAnswer(
            answer, allowed: options.items.map(\.name), describedAs: "an object with the question's items")
        // Nothing filled in is no answer (the question's own `required` then applies).
        if form.members.values.allSatisfy(\.isEmptyAnswer) { return .null }
        var result: [String: JSONValue] = [:]
        for item in options.items {
            let label = item.title.map { $0.resolved(locale: "en", defaultLocale: "en") } ?? item.name
            if item.kind == "number" {
                guard let value = form.members[item.name], !value.isEmptyAnswer else {
                    if item.isRequired { throw FormAnswer.missingField(item.name, label: label) }
                    continue
                }
                let number = try NumberRules.number(from: value, field: item.name)
                try NumberRules.check(number, minimum: item.minimum, maximum: item.maximum, field: item.name)
                result[item.name] = .number(number)
                continue
            }
            if options.keepsNumbers, item.kind != "email", case .number? = form.members[item.name] {
                // A number given (not typed) is kept, unchecked, as survey-core keeps it in a text box.
                result[item.name] = form.members[item.name]
                continue
            }
            guard let text = try form.text(item.name) else {
                if item.isRequired { throw FormAnswer.missingField(item.name, label: label) }
                continue
            }
            if let pattern = item.compiledPattern,
                pattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) == nil
            {
                throw AnswerError(
                    code: "patternMismatch", message: "The answer is not in the expected format.",
                    arguments: ["regex": item.pattern ?? ""], field: item.name)
            }
            switch item.kind {
            case "email": result[item.name] = .string(try ContactRules.email(text, field: item.name))
            case "tel": result[item.name] = .string(try ContactRules.phone(text, field: item.name))
            default:
                if let minimum = item.minimumLength, text.count < minimum {
                    throw AnswerError(
                        code: "tooShort", message: "Enter at least \(minimum) characters.",
                        arguments: ["min": String(minimum)], field: item.name)
                }
                if let maximum = item.maximumLength, text.count > maximum {
                    throw FormAnswer.tooLong(maximum: maximum, field: item.name)
                }
                result[item.name] = .string(text)
            }
        }
        return result.isEmpty ? .null : .object(result)
    }
}

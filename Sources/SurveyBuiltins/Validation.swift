import Foundation
import SurveyCore

/// Checks shared by the number-like types (number, rating, scale, NPS) and form fields.
enum NumberRules {
    /// The answer as a finite number: a JSON number or a string holding one in decimal notation
    /// (`" 42 "`, `"-2.5"`, `"1e3"`; not `"0x10"`, `"inf"` or `"nan"`).
    /// - Throws: `notANumber`.
    static func number(from answer: JSONValue, field: String? = nil) throws(AnswerError) -> Double {
        let number: Double?
        switch answer {
        case .number(let value): number = value
        case .string(let text): number = JSONValue.decimalNumber(text.trimmed)
        default: number = nil
        }
        guard let number, number.isFinite else {
            throw AnswerError(code: "notANumber", message: "Enter a number.", field: field)
        }
        return number
    }

    /// Checks `value` against integer-ness, bounds and a step counted from `stepOrigin`.
    /// - Throws: `notAnInteger`, `belowMinimum`, `aboveMaximum` or `notOnStep`.
    static func check(
        _ value: Double, isInteger: Bool = false, minimum: Double? = nil, maximum: Double? = nil, step: Double? = nil,
        stepOrigin: Double = 0, field: String? = nil
    ) throws(AnswerError) {
        if isInteger, value.rounded() != value {
            throw AnswerError(code: "notAnInteger", message: "Enter a whole number.", field: field)
        }
        if let minimum, value < minimum {
            let text = JSONValue.format(number: minimum)
            throw AnswerError(
                code: "belowMinimum", message: "Enter a value of at least \(text).", arguments: ["min": text],
                field: field)
        }
        if let maximum, value > maximum {
            let text = JSONValue.format(number: maximum)
            throw AnswerError(
                code: "aboveMaximum", message: "Enter a value of at most \(text).", arguments: ["max": text],
                field: field)
        }
        if let step, !isMultiple(value - stepOrigin, of: step) {
            let text = JSONValue.format(number: step)
            throw AnswerError(
                code: "notOnStep", message: "Enter a value in steps of \(text).", arguments: ["step": text],
                field: field)
        }
    }

    /// Whether `distance` is a whole number of `step`s, allowing for binary rounding (0.3 in steps of 0.1).
    static func isMultiple(_ distance: Double, of step: Double) -> Bool {
        let count = distance / step
        return abs(count - count.rounded()) <= 1e-9 * max(1, abs(count))
    }
}

/// Checks shared by the contact and feedback forms.
enum ContactRules {
    /// The address with a lower-cased domain, or `nil` when it is not `local@domain.tld`.
    static func normalizedEmail(_ text: String) -> String? {
        guard !text.contains(where: \.isWhitespace) else { return nil }
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, let local = parts.first, let domain = parts.last else { return nil }
        guard !local.isEmpty, local.count <= 64, !local.hasPrefix("."), !local.hasSuffix("."), !local.contains("..")
        else { return nil }
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2 else { return nil }
        for label in labels {
            guard !label.isEmpty, !label.hasPrefix("-"), !label.hasSuffix("-"),
                label.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" })
            else { return nil }
        }
        guard let topLevel = labels.last, topLevel.count >= 2, topLevel.allSatisfy(\.isLetter) else { return nil }
        return "\(local)@\(domain.lowercased())"
    }

    /// Whether `text` is a phone number: an optional leading `+`, then digits with spaces, dashes,
    /// dots and parentheses; 7 to 15 digits.
    static func isValidPhone(_ text: String) -> Bool {
        let body = text.hasPrefix("+") ? text.dropFirst() : Substring(text)
        var digits = 0
        for character in body {
            if character.isASCII, character.isNumber {
                digits += 1
            } else if !" -.()".contains(character) {
                return false
            }
        }
        return (7...15).contains(digits)
    }

    /// The normalised email in `field`.
    /// - Throws: `invalidEmail`.
    static func email(_ text: String, field: String) throws(AnswerError) -> String {
        guard let email = normalizedEmail(text) else {
            throw AnswerError(code: "invalidEmail", message: "Enter a valid email address.", field: field)
        }
        return email
    }

    /// The phone number in `field`, as typed.
    /// - Throws: `invalidPhone`.
    static func phone(_ text: String, field: String) throws(AnswerError) -> String {
        guard isValidPhone(text) else {
            throw AnswerError(code: "invalidPhone", message: "Enter a valid phone number.", field: field)
        }
        return text
    }
}

/// Reading composite (object) answers field by field.
struct FormAnswer {
    /// The answer's members, without `null` ones.
    let members: [String: JSONValue]

    /// - Throws: `wrongShape` when the answer is not an object or has a member not in `allowed`
    ///   (the error's `field` names the member).
    init(_ answer: JSONValue, allowed: [String], describedAs description: String) throws(AnswerError) {
        guard case .object(let members) = answer else {
            throw AnswerError.wrongShape(expected: description, got: answer)
        }
        for key in members.keys.sorted() where !allowed.contains(key) {
            let expected = "one of the fields " + allowed.joined(separator: ", ")
            throw AnswerError(
                code: "wrongShape", message: "Expected \(expected), got '\(key)'.",
                arguments: ["expected": expected, "got": "'\(key)'"], field: key)
        }
        self.members = members.filter { !$0.value.isNull }
    }

    /// The trimmed text of `field`, or `nil` when absent or blank.
    /// - Throws: `wrongShape` when the member is not a string.
    func text(_ field: String) throws(AnswerError) -> String? {
        guard let value = members[field] else { return nil }
        guard case .string(let text) = value else {
            var error = AnswerError.wrongShape(expected: "text", got: value)
            error.field = field
            throw error
        }
        let trimmed = text.trimmed
        return trimmed.isEmpty ? nil : trimmed
    }

    static func missingField(_ field: String, label: String) -> AnswerError {
        AnswerError(code: "missingField", message: "Fill in '\(label)'.", arguments: ["field": label], field: field)
    }

    static func tooLong(maximum: Int, field: String? = nil) -> AnswerError {
        AnswerError(
            code: "tooLong", message: "Enter at most \(maximum) characters.", arguments: ["max": String(maximum)],
            field: field)
    }
}

/// "Did you mean" hints for option values, by edit distance.
enum Suggestion {
    /// The candidate closest to `word`, when it is close enough to be a likely typo (the engine's
    /// own rule, which gives no suggestion for words longer than 64 Unicode scalars).
    static func closest(to word: String, in candidates: [String]) -> String? {
        closestMatch(to: word, in: candidates)
    }

    /// A message for an unknown `value`, with a suggestion or the list of valid values.
    static func unknown(_ what: String, _ value: String, validValues: [String]) -> String {
        if let suggestion = closest(to: value, in: validValues) {
            return "unknown \(what) '\(value)' (did you mean '\(suggestion)'?)"
        }
        return "unknown \(what) '\(value)'; expected one of: \(validValues.joined(separator: ", "))"
    }
}

/// Summaries shared by the number-like types.
enum Summaries {
    /// Share of `total`, 0…100.
    static func percentage(_ count: Int, of total: Int) -> Double {
        total == 0 ? 0 : Double(count) * 100 / Double(total)
    }

    /// Counts per value for every value in `values` (zeros included), plus mean, median, minimum
    /// and maximum of all numeric answers.
    static func numbers(_ answers: AnswerTally, buckets values: [Double]) -> AnswerSummary {
        let answered = answers.answered
        let numbers = answers.numbers()
        let buckets = values.map { value in
            let text = JSONValue.format(number: value)
            let count = numbers.counts[value] ?? 0
            return AnswerSummary.Bucket(
                value: text, label: text, count: count, percentage: percentage(count, of: answered))
        }
        return AnswerSummary(
            answered: answered, buckets: buckets, mean: numbers.mean, median: numbers.median,
            minimum: numbers.minimum, maximum: numbers.maximum)
    }
}

extension String {
    /// The string without surrounding whitespace and newlines.
    var trimmed: String {
        // Fast path: most answers have no surrounding space, and Foundation's trimming is slow.
        // The end bytes are read in place (native strings, small ones too): `utf8.last` goes through
        // the generic collection path, several times slower than the whole check.
        let ends =
            utf8.withContiguousStorageIfAvailable { $0.isEmpty ? nil : ($0[0], $0[$0.count - 1]) }
            ?? utf8.first.flatMap { first in utf8.last.map { (first, $0) } }
        if let (first, last) = ends, first > 32, first < 128, last > 32, last < 128 { return self }
        return trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// The built-in kinds a question made of other questions may use for its parts (a matrix-dropdown's
/// columns, a repeat's items), configured through the same public API a survey's questions are.
enum PartKinds {
    static let all: [String: AnyQuestionType] = [
        "dropdown": AnyQuestionType(DropdownType()), "single-choice": AnyQuestionType(SingleChoiceType()),
        "multiple-choice": AnyQuestionType(MultipleChoiceType()), "tagbox": AnyQuestionType(TagboxType()),
        "text": AnyQuestionType(TextType()), "number": AnyQuestionType(NumberType()),
        "boolean": AnyQuestionType(BooleanType()), "rating": AnyQuestionType(RatingType()),
        "date": AnyQuestionType(DateType()),
    ]
    /// The kinds a repeat's item may have: ``all``, and groups of their own — a repeat (a dynamic
    /// panel or matrix inside a dynamic panel), a matrix, a matrix of questions and a form; scales,
    /// sliders, picture choices, rankings and files.
    static let repeatItems: [String: AnyQuestionType] = all.merging([
        "repeat": AnyQuestionType(RepeatType()), "matrix": AnyQuestionType(MatrixType()),
        "matrix-dropdown": AnyQuestionType(MatrixDropdownType()),
        "multiple-text": AnyQuestionType(MultipleTextType()),
        // Scales, pictures and files (SurveyJS's rating with its own range, image picker, ranking and
        // file questions in a dynamic panel).
        "scale": AnyQuestionType(ScaleType()), "nps": AnyQuestionType(NPSType()),
        "slider": AnyQuestionType(SliderType()),
        "image-choice": AnyQuestionType(ImageChoiceType()), "ranking": AnyQuestionType(RankingType()),
        "file": AnyQuestionType(FileType()),
    ]) { own, _ in own }
    /// The kinds among ``all`` that take `choices`.
    static let choiceKinds: Set<String> = ["dropdown", "single-choice", "multiple-choice", "tagbox"]

    /// The kind named by member `key` (`fallback` when absent).
    /// - Throws: `invalidOptions` naming the valid kinds (and the closest one).
    static func read(
        _ key: String, default fallback: String, from reader: inout OptionsReader,
        among kinds: [String: AnyQuestionType] = all
    ) throws(SurveyError) -> (name: String, kind: AnyQuestionType) {
        let name = try reader.string(key, default: fallback)
        if let kind = kinds[name] { return (name, kind) }
        // A plugin's kind goes wherever these built-in kinds go (docs/plugin-abi.md).
        let pluginKinds = (reader.registry?.types ?? []).filter { $0.origin != "built-in" }
        if let kind = pluginKinds.first(where: { $0.typeID == name }) { return (name, kind) }
        throw reader.error(
            key, Suggestion.unknown(key, name, validValues: (kinds.keys + pluginKinds.map(\.typeID)).sorted()),
            kind: .invalidOptions)
    }
}

/// Arrays of named objects in options (a multiple-text's items, a matrix-dropdown's columns).
enum NamedOptions {
    /// Reads the required array `key` (non-empty unless `allowsEmpty`), each element by `read` (given a reader for it and
    /// its non-empty `name`), and checks that the names are unique; `what` names an element in errors
    /// ("item", "column").
    static func read<Element>(
        _ key: String, what: String, from reader: inout OptionsReader, allowsEmpty: Bool = false,
        _ read: (inout OptionsReader, String) throws(SurveyError) -> Element
    ) throws(SurveyError) -> [(name: String, element: Element)] {
        let stepID = reader.stepID
        let (registry, functions) = (reader.registry, reader.functions)
        guard
            let elements = try reader.optionalArray(
                key,
                { (json, path) throws(SurveyError) -> (name: String, element: Element) in
                    var element = try OptionsReader(
                        json, path: path, stepID: stepID, registry: registry, functions: functions)
                    let name = try element.string("name")
                    guard !name.isEmpty else {
                        throw element.error("name", "'name' must not be empty", kind: .invalidOptions)
                    }
                    let result = try read(&element, name)
                    try element.finish()
                    return (name, result)
                })
        else {
            throw reader.error(nil, "missing required member '\(key)' (an array of \(what)s)", kind: .missingField)
        }
        guard !elements.isEmpty || allowsEmpty else {
            throw reader.error(key, "'\(key)' must have at least 1 element", kind: .invalidOptions)
        }
        var seen: [String: Int] = [:]
        for (index, element) in elements.enumerated() {
            if let first = seen[element.name] {
                throw SurveyError(
                    .invalidOptions, "duplicate \(what) name '\(element.name)' (already used by \(key)[\(first)])",
                    path: reader.path.appending(key).appending(index), stepID: stepID)
            }
            seen[element.name] = index
        }
        return elements
    }
}

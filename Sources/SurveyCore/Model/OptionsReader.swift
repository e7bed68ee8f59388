/// Reads members of a JSON object with errors that name the JSON path and say what was expected.
///
/// Question types use it to decode their options; the loader uses it for the survey format.
/// Call ``finish(alsoAllowed:)`` at the end to reject members that were never read (usually typos), with a
/// "did you mean" suggestion.
///
/// ```swift
/// var reader = try OptionsReader(options, path: path)
/// let stars = try reader.int("stars", default: 5, in: 2...10)
/// try reader.finish()
/// ```
public struct OptionsReader: Sendable {
    /// The members of the object being read.
    public let members: [String: JSONValue]
    /// The path of the object being read.
    public let path: JSONPath
    /// The step the object belongs to, for error messages.
    public let stepID: String?
    /// The kinds of the survey being loaded, when the object is (part of) a question's options:
    /// where a kind made of other questions (a repeat's items, a matrix-dropdown's columns) finds the
    /// kinds plugins add. `nil` elsewhere. Readers for nested objects carry it on.
    public var registry: QuestionTypeRegistry?
    /// The survey's expression functions (the standard ones and those plugins add), for expressions
    /// inside options (a repeat item's `visibleIf`); `nil` outside a survey being loaded. Carried on
    /// like ``registry``.
    public var functions: ExpressionFunctionRegistry?
    /// Names read so far (a short list: an array beats a set here).
    private var consumed: [String] = []

    /// Starts reading `value`, which must be an object (or `null`, read as an empty object).
    /// - Parameters:
    ///   - value: the JSON to read.
    ///   - path: where `value` is in its file, for error messages.
    ///   - stepID: the step `value` belongs to, for error messages.
    ///   - registry: the survey's kinds, for options that name kinds (``registry``).
    ///   - functions: the survey's expression functions, for expressions in options (``functions``).
    public init(
        _ value: JSONValue, path: JSONPath, stepID: String? = nil, registry: QuestionTypeRegistry? = nil,
        functions: ExpressionFunctionRegistry? = nil
    ) throws(SurveyError) {
        switch value {
        case .object(let members): self.members = members
        case .null: self.members = [:]
        default:
            throw SurveyError(
                .invalidValue, "expected an object, got \(value.kindDescription)", path: path, stepID: stepID)
        }
        self.path = path
        self.stepID = stepID
        self.registry = registry
        self.functions = functions
    }

    /// Whether the object has a member named `key` (marks it as read).
    public mutating func contains(_ key: String) -> Bool {
        markRead(key)
        return members[key] != nil
    }

    /// The raw value of `key`, or `nil` when absent or `null`.
    public mutating func value(_ key: String) -> JSONValue? {
        markRead(key)
        guard let value = members[key], !value.isNull else { return nil }
        return value
    }

    private mutating func markRead(_ key: String) {
        guard !members.isEmpty else { return }
        if consumed.isEmpty { consumed.reserveCapacity(8) }
        consumed.append(key)
    }

    /// An error about member `key`, with this reader's path and step.
    public func error(_ key: String?, _ message: String, kind: SurveyError.Kind = .invalidValue) -> SurveyError {
        SurveyError(kind, message, path: key.map { path.appending($0) } ?? path, stepID: stepID)
    }

    private func mismatch(_ key: String, expected: String, got value: JSONValue) -> SurveyError {
        error(key, "'\(key)' must be \(expected), got \(value.kindDescription)")
    }

    /// A required string.
    public mutating func string(_ key: String) throws(SurveyError) -> String {
        guard let value = try optionalString(key) else {
            throw error(nil, "missing required member '\(key)' (a string)", kind: .missingField)
        }
        return value
    }

    /// An optional string.
    public mutating func optionalString(_ key: String) throws(SurveyError) -> String? {
        guard let value = value(key) else { return nil }
        guard case .string(let text) = value else { throw mismatch(key, expected: "a string", got: value) }
        return text
    }

    /// A string with a default.
    public mutating func string(_ key: String, default fallback: String) throws(SurveyError) -> String {
        try optionalString(key) ?? fallback
    }

    /// A string that must be one of `allowed`.
    public mutating func string(_ key: String, default fallback: String, oneOf allowed: [String]) throws(SurveyError)
        -> String
    {
        let text = try string(key, default: fallback)
        guard allowed.contains(text) else {
            var message = "'\(key)' must be one of \(allowed.map { "'\($0)'" }.joined(separator: ", ")), got '\(text)'"
            if let suggestion = closestMatch(to: text, in: allowed) { message += " (did you mean '\(suggestion)'?)" }
            throw error(key, message)
        }
        return text
    }

    /// An optional Boolean.
    public mutating func optionalBool(_ key: String) throws(SurveyError) -> Bool? {
        guard let value = value(key) else { return nil }
        guard case .bool(let flag) = value else { throw mismatch(key, expected: "true or false", got: value) }
        return flag
    }

    /// A Boolean with a default.
    public mutating func bool(_ key: String, default fallback: Bool) throws(SurveyError) -> Bool {
        try optionalBool(key) ?? fallback
    }

    /// An optional number, checked against `range` when given.
    public mutating func optionalDouble(_ key: String, in range: ClosedRange<Double>? = nil) throws(SurveyError)
        -> Double?
    {
        guard let value = value(key) else { return nil }
        guard case .number(let number) = value else { throw mismatch(key, expected: "a number", got: value) }
        if let range, !range.contains(number) {
            throw error(
                key,
                "'\(key)' must be between \(JSONValue.format(number: range.lowerBound)) and \(JSONValue.format(number: range.upperBound)), got \(JSONValue.format(number: number))"
            )
        }
        return number
    }

    /// A number with a default.
    public mutating func double(_ key: String, default fallback: Double, in range: ClosedRange<Double>? = nil)
        throws(SurveyError) -> Double
    {
        try optionalDouble(key, in: range) ?? fallback
    }

    /// An optional integer, checked against `range` when given.
    public mutating func optionalInt(_ key: String, in range: ClosedRange<Int>? = nil) throws(SurveyError) -> Int? {
        guard let value = value(key) else { return nil }
        guard let number = value.intValue else { throw mismatch(key, expected: "an integer", got: value) }
        if let range, !range.contains(number) {
            throw error(key, "'\(key)' must be between \(range.lowerBound) and \(range.upperBound), got \(number)")
        }
        return number
    }

    /// An integer with a default.
    public mutating func int(_ key: String, default fallback: Int, in range: ClosedRange<Int>? = nil)
        throws(SurveyError) -> Int
    {
        try optionalInt(key, in: range) ?? fallback
    }

    /// Optional user-facing text: a string or an object of translations.
    public mutating func optionalText(_ key: String) throws(SurveyError) -> LocalizedText? {
        guard let value = value(key) else { return nil }
        do {
            return try LocalizedText(json: value, path: path.appending(key))
        } catch {
            var located = error
            located.stepID = stepID
            throw located
        }
    }

    /// An optional array of strings.
    public mutating func optionalStringArray(_ key: String) throws(SurveyError) -> [String]? {
        guard let value = value(key) else { return nil }
        guard case .array(let elements) = value else {
            throw mismatch(key, expected: "an array of strings", got: value)
        }
        var strings: [String] = []
        for (index, element) in elements.enumerated() {
            guard case .string(let text) = element else {
                throw SurveyError(
                    .invalidValue, "'\(key)' must contain only strings, got \(element.kindDescription)",
                    path: path.appending(key).appending(index), stepID: stepID)
            }
            strings.append(text)
        }
        return strings
    }

    /// An optional array, each element read by `read` with its own path.
    public mutating func optionalArray<Element>(
        _ key: String, _ read: (JSONValue, JSONPath) throws(SurveyError) -> Element
    ) throws(SurveyError) -> [Element]? {
        guard let value = value(key) else { return nil }
        guard case .array(let elements) = value else { throw mismatch(key, expected: "an array", got: value) }
        var result: [Element] = []
        result.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            result.append(try read(element, path.appending(key).appending(index)))
        }
        return result
    }

    /// A reader for the nested object `key` (an empty object when absent).
    public mutating func object(_ key: String) throws(SurveyError) -> OptionsReader {
        let value = value(key) ?? .null
        return try OptionsReader(
            value, path: path.appending(key), stepID: stepID, registry: registry, functions: functions)
    }

    /// Throws for the first member that was never read, suggesting the closest known name.
    ///
    /// - Parameter alsoAllowed: names that are valid but deliberately not read here.
    public func finish(alsoAllowed: [String] = []) throws(SurveyError) {
        guard members.count > 0 else { return }
        for key in members.keys.sorted() where !consumed.contains(key) && !alsoAllowed.contains(key) {
            var message = "unknown member '\(key)'"
            let known = Set(consumed).union(alsoAllowed)
            if let suggestion = closestMatch(to: key, in: known.sorted()) {
                message += " (did you mean '\(suggestion)'?)"
            } else if !known.isEmpty {
                message += "; expected one of: \(known.sorted().joined(separator: ", "))"
            }
            throw error(key, message, kind: .unknownField)
        }
    }
}

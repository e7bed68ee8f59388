/// A check a question's answer must pass before the respondent can move on, as SurveyJS's validators
/// (survey-core 3.0.4) have it: `expression`, `email`, `regex`, `numeric`, `text` and `answercount`.
///
/// Validators run when the respondent presses Next (or completes the survey) on the unit the
/// question is shown on, for every visible question of that unit. An empty answer skips every kind
/// but `expression`. A failing validator blocks Next with ``text`` (in the respondent's locale) or a
/// built-in message.
///
/// ```json
/// "validators": [
///   {"type": "numeric", "minValue": 18, "maxValue": 120, "text": {"en": "Adults only", "fr": "Adultes seulement"}},
///   {"type": "expression", "expression": "{age} >= {partner-age} - 30"}
/// ]
/// ```
public struct ValidatorDefinition: Sendable, Hashable {
    /// What a validator checks.
    public enum Kind: Sendable, Hashable {
        /// The answer passes when the expression holds (it may read any answer or calculated value).
        /// It runs even when the question has no answer.
        case expression(String)
        /// The answer is an email address (SurveyJS's pattern).
        case email
        /// The pattern matches somewhere in the answer (not necessarily all of it), as JavaScript's
        /// `new RegExp(regex).test(answer)`.
        case regex(String, isCaseInsensitive: Bool)
        /// The answer is a number (or a text that reads as one) within the bounds.
        case numeric(minimum: Double?, maximum: Double?)
        /// The answer's length in characters is within the bounds; with `allowsDigits` false it may
        /// contain no digit 0–9.
        case text(minimumLength: Int?, maximumLength: Int?, allowsDigits: Bool)
        /// The number of selected choices is within the bounds.
        case answerCount(minimum: Int?, maximum: Int?)
    }

    /// The names of the kinds in the format (`"type"`), in documentation order.
    public static let typeNames = ["expression", "email", "regex", "numeric", "text", "answercount"]

    public var kind: Kind
    /// The message shown when the check fails, per locale; `nil` for the built-in message.
    public var text: LocalizedText?
    /// How a failure is reported (SurveyJS's `notificationType`): an ``Severity/error`` blocks Next;
    /// a ``Severity/warning`` or an ``Severity/info`` note is shown with the question but never blocks.
    public var notificationType: Severity = .error

    public init(_ kind: Kind, text: LocalizedText? = nil, notificationType: Severity = .error) {
        self.kind = kind
        self.text = text
        self.notificationType = notificationType
    }

    /// The kind's name in the format: `expression`, `email`, `regex`, `numeric`, `text`, `answercount`.
    public var typeName: String {
        switch kind {
        case .expression: return "expression"
        case .email: return "email"
        case .regex: return "regex"
        case .numeric: return "numeric"
        case .text: return "text"
        case .answerCount: return "answercount"
        }
    }
}

// MARK: - JSON

extension ValidatorDefinition {
    /// The validator as JSON, omitting members at their defaults.
    public var jsonValue: JSONValue {
        var members: [String: JSONValue] = ["type": .string(typeName)]
        func put(_ key: String, _ value: Double?) { if let value { members[key] = .number(value) } }
        func put(_ key: String, _ value: Int?) { if let value { members[key] = .number(Double(value)) } }
        switch kind {
        case .expression(let expression):
            members["expression"] = .string(expression)
        case .email:
            break
        case .regex(let regex, let isCaseInsensitive):
            members["regex"] = .string(regex)
            if isCaseInsensitive { members["caseInsensitive"] = .bool(true) }
        case .numeric(let minimum, let maximum):
            put("minValue", minimum)
            put("maxValue", maximum)
        case .text(let minimum, let maximum, let allowsDigits):
            put("minLength", minimum)
            put("maxLength", maximum)
            if !allowsDigits { members["allowDigits"] = .bool(false) }
        case .answerCount(let minimum, let maximum):
            put("minCount", minimum)
            put("maxCount", maximum)
        }
        if let text { members["text"] = text.jsonValue }
        if notificationType != .error { members["notificationType"] = .string(notificationType.rawValue) }
        return .object(members)
    }

    /// Reads one element of a step's `validators`.
    /// - Throws: ``SurveyError`` naming the member's JSON path: an unknown `type` (with a "did you
    ///   mean"), a missing or mistyped member, a member another kind takes, bounds the wrong way round.
    public init(json: JSONValue, path: JSONPath, stepID: String? = nil) throws(SurveyError) {
        guard case .object = json else {
            throw SurveyError(
                .invalidValue, "a validator must be an object with a \"type\", got \(json.kindDescription)",
                path: path, stepID: stepID)
        }
        var reader = try OptionsReader(json, path: path, stepID: stepID)
        let type = try reader.string("type")
        text = try reader.optionalText("text")
        if let name = try reader.optionalString("notificationType") {
            guard let severity = Severity(rawValue: name) else {
                throw reader.error(
                    "notificationType", "'notificationType' must be \"error\", \"warning\" or \"info\", got '\(name)'")
            }
            notificationType = severity
        }
        func bounds<Bound: Comparable>(
            _ low: String, _ high: String, read: (inout OptionsReader, String) throws(SurveyError) -> Bound?
        ) throws(SurveyError) -> (Bound?, Bound?) {
            let minimum = try read(&reader, low)
            let maximum = try read(&reader, high)
            if let minimum, let maximum, minimum > maximum {
                throw reader.error(high, "'\(high)' must not be less than '\(low)'", kind: .invalidValue)
            }
            return (minimum, maximum)
        }
        // SurveyJS writes 0 for "no limit" on lengths and counts; so does this format.
        func count(_ reader: inout OptionsReader, _ key: String) throws(SurveyError) -> Int? {
            let value = try reader.optionalInt(key, in: 0...Int.max)
            return value == 0 ? nil : value
        }
        switch type {
        case "expression":
            kind = .expression(try reader.string("expression"))
        case "email":
            kind = .email
        case "regex":
            let regex = try reader.string("regex")
            if regex.isEmpty { throw reader.error("regex", "'regex' must not be empty") }
            kind = .regex(regex, isCaseInsensitive: try reader.bool("caseInsensitive", default: false))
        case "numeric":
            let (minimum, maximum) = try bounds("minValue", "maxValue") { (reader, key) throws(SurveyError) in
                try reader.optionalDouble(key)
            }
            kind = .numeric(minimum: minimum, maximum: maximum)
        case "text":
            let (minimum, maximum) = try bounds("minLength", "maxLength", read: count)
            kind = .text(
                minimumLength: minimum, maximumLength: maximum,
                allowsDigits: try reader.bool("allowDigits", default: true))
        case "answercount":
            let (minimum, maximum) = try bounds("minCount", "maxCount", read: count)
            kind = .answerCount(minimum: minimum, maximum: maximum)
        default:
            var message = "unknown validator type '\(type)'"
            let stripped = type.lowercased().hasSuffix("validator") ? String(type.dropLast(9)) : type
            if let suggestion = closestMatch(to: stripped, in: Self.typeNames) {
                message += " (did you mean '\(suggestion)'?)"
            }
            message += "; validator types: " + Self.typeNames.joined(separator: ", ")
            throw reader.error("type", message, kind: .invalidValue)
        }
        try reader.finish()
    }

    /// Reads a step's `validators` array, collecting a problem per bad element.
    static func decodeList(_ value: JSONValue, path: JSONPath, errors: inout [SurveyError]) -> [ValidatorDefinition] {
        guard case .array(let elements) = value else {
            errors.append(
                SurveyError(.invalidValue, "'validators' must be an array, got \(value.kindDescription)", path: path))
            return []
        }
        var validators: [ValidatorDefinition] = []
        for (offset, element) in elements.enumerated() {
            do {
                validators.append(try ValidatorDefinition(json: element, path: path.appending(offset)))
            } catch {
                errors.append(error)
            }
        }
        return validators
    }
}

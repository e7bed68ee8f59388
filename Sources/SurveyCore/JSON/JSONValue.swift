/// A JSON value: the shape of survey definitions, options and answers.
///
/// Answers are JSON-shaped so that every front end (terminal, JSON-event, a plugin written in C)
/// can exchange them without knowing the question type that produced them.
///
/// ```swift
/// let answer: JSONValue = ["name": "Ada", "email": "ada@example.com"]
/// answer["email"]?.stringValue  // "ada@example.com"
/// ```
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])
}

extension JSONValue {
    /// The string, when this is a string.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The text a choice value is known by: a string as it is, a number as JSON writes it (`2` →
    /// `"2"`, as in ``Choice/value``); `nil` for anything else.
    public var choiceKey: String? {
        switch self {
        case .string(let value): return value
        case .number(let value): return JSONValue.format(number: value)
        default: return nil
        }
    }

    /// The number, when this is a number.
    public var numberValue: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    /// The number, when this is a number with no fractional part that fits an `Int`.
    public var intValue: Int? {
        guard case .number(let value) = self, value.rounded() == value, abs(value) < 9.0e15 else { return nil }
        return Int(value)
    }

    /// The Boolean, when this is a Boolean.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The elements, when this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The members, when this is an object.
    public var objectValue: [String: JSONValue]? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// Whether this is `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The member named `key`, when this is an object that has it.
    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    /// A short name of the value's kind, as used in error messages ("a string", "an array").
    public var kindDescription: String {
        switch self {
        case .null: return "null"
        case .bool: return "a Boolean"
        case .number(let value): return value.rounded() == value ? "an integer" : "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// The value as a person reads it: strings without quotes, arrays joined with ", ".
    ///
    /// Used for piping (`{q1}` inside a title) and for the terminal.
    public var displayText: String {
        switch self {
        case .null: return ""
        case .bool(let value): return value ? "true" : "false"
        case .number(let value): return JSONValue.format(number: value)
        case .string(let value): return value
        case .array(let values): return values.map(\.displayText).joined(separator: ", ")
        case .object(let members):
            return members.keys.sorted().compactMap { key in
                guard let value = members[key], !value.isNull else { return nil }
                return "\(key): \(value.displayText)"
            }.joined(separator: ", ")
        }
    }

    /// The number written in `text` in decimal notation — an optional sign, digits with an optional
    /// fraction (`42`, `-2.5`, `.5`, `3.`) and an optional exponent (`1e3`) — or `nil`.
    ///
    /// Unlike `Double(_:)`, which also reads hexadecimal (`0x10`), `inf` and `nan`, only what a
    /// person means as a decimal number is accepted. The result may still be infinite (`1e999`).
    package static func decimalNumber(_ text: some StringProtocol) -> Double? {
        var digits = 0
        var isValid = true
        var phase = 0  // 0 sign, 1 integer part, 2 fraction, 3 exponent sign, 4 exponent
        var exponentDigits = 0
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "+"), UInt8(ascii: "-"):
                if phase == 0 {
                    phase = 1
                } else if phase == 3 {
                    phase = 4
                } else {
                    isValid = false
                }
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                if phase <= 2 {
                    phase = max(phase, 1)
                    digits += 1
                } else {
                    phase = 4
                    exponentDigits += 1
                }
            case UInt8(ascii: "."):
                if phase <= 1 { phase = 2 } else { isValid = false }
            case UInt8(ascii: "e"), UInt8(ascii: "E"):
                if phase >= 1, phase <= 2, digits > 0 { phase = 3 } else { isValid = false }
            default:
                isValid = false
            }
            if !isValid { return nil }
        }
        guard digits > 0, phase < 3 || exponentDigits > 0 else { return nil }
        return Double(String(text))
    }

    /// Formats a number the way JSON output does: integers without a decimal point.
    public static func format(number value: Double) -> String {
        if value.rounded() == value, abs(value) < 1e15 {
            return String(Int64(value))
        }
        if value.isNaN || value.isInfinite { return "null" }
        return "\(value)"
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(nilLiteral: ()) { self = .null }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        var members: [String: JSONValue] = [:]
        for (key, value) in elements { members[key] = value }
        self = .object(members)
    }
}

extension JSONValue: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}

extension JSONValue: CustomStringConvertible {
    /// Compact JSON text with sorted keys.
    public var description: String { JSONWriter.string(from: self, pretty: false) }
}

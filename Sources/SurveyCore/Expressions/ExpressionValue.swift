/// The value semantics of expressions, modelled on SurveyJS: loose number/string equality,
/// order-insensitive array equality, empty values compare unequal to everything but emptiness.
package enum ExpressionValue {
    /// The number a value stands for: numbers, numeric strings, Booleans are not numbers.
    @inline(__always)
    package static func number(_ value: JSONValue) -> Double? {
        switch value {
        case .number(let number): return number
        case .string(let text):
            guard !text.isEmpty, let first = text.utf8.first,
                first == UInt8(ascii: "-") || first == UInt8(ascii: ".") || (first >= 48 && first <= 57)
            else { return nil }
            return Double(text)
        default: return nil
        }
    }

    /// Whether a value counts as true in a condition.
    @inline(__always)
    package static func isTruthy(_ value: JSONValue) -> Bool {
        switch value {
        case .bool(let flag): return flag
        case .number(let number): return number != 0 && !number.isNaN
        case .string(let text): return !text.isEmpty && text.lowercased() != "false"
        case .array(let elements): return !elements.isEmpty
        case .object(let members): return !members.isEmpty
        case .null: return false
        }
    }

    /// Loose equality.
    package static func equals(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.string(let a), .string(let b)): return a == b
        case (.number(let a), .number(let b)): return a == b
        case (.bool(let a), .bool(let b)): return a == b
        case (.null, _), (_, .null): return lhs.isEmptyAnswer && rhs.isEmptyAnswer
        case (.bool(let a), .string(let b)), (.string(let b), .bool(let a)):
            return b.lowercased() == (a ? "true" : "false")
        case (.array(let a), .array(let b)):
            guard a.count == b.count else { return false }
            return a.allSatisfy { element in b.contains { equals(element, $0) } }
                && b.allSatisfy { element in a.contains { equals(element, $0) } }
        case (.object(let a), .object(let b)):
            guard a.count == b.count else { return false }
            return a.allSatisfy { key, value in b[key].map { equals(value, $0) } ?? false }
        default:
            if let a = number(lhs), let b = number(rhs) { return a == b }
            return false
        }
    }

    /// Ordering for `<`, `<=`, `>`, `>=`: numbers numerically, otherwise strings lexically; `nil` when
    /// either side is empty or the kinds cannot be compared.
    package static func compare(_ lhs: JSONValue, _ rhs: JSONValue) -> Int? {
        if lhs.isEmptyAnswer || rhs.isEmptyAnswer { return nil }
        if let a = number(lhs), let b = number(rhs) { return a < b ? -1 : (a > b ? 1 : 0) }
        if case .string(let a) = lhs, case .string(let b) = rhs { return a < b ? -1 : (a > b ? 1 : 0) }
        return nil
    }

    /// `contains`: an array holding an element (or every element of an array), or a substring.
    package static func contains(_ container: JSONValue, _ item: JSONValue) -> Bool {
        switch container {
        case .array(let elements):
            if case .array(let items) = item {
                return items.allSatisfy { wanted in elements.contains { equals($0, wanted) } }
            }
            return elements.contains { equals($0, item) }
        case .string(let text):
            let needle = item.displayText
            return needle.isEmpty ? false : text.contains(needle)
        case .object(let members):
            if let key = item.stringValue { return members[key].map { !$0.isEmptyAnswer } ?? false }
            return false
        default:
            return false
        }
    }

    /// `anyof`: the value (or any element of it) is in the list.
    package static func anyOf(_ value: JSONValue, _ list: JSONValue) -> Bool {
        let options = list.arrayValue ?? [list]
        let values = value.arrayValue ?? (value.isEmptyAnswer ? [] : [value])
        return values.contains { element in options.contains { equals(element, $0) } }
    }

    /// `allof`: the value contains every element of the list.
    package static func allOf(_ value: JSONValue, _ list: JSONValue) -> Bool {
        let options = list.arrayValue ?? [list]
        let values = value.arrayValue ?? (value.isEmptyAnswer ? [] : [value])
        return !values.isEmpty && options.allSatisfy { wanted in values.contains { equals($0, wanted) } }
    }

    /// Arithmetic `+`: numbers add; otherwise text concatenates.
    package static func add(_ lhs: JSONValue, _ rhs: JSONValue) -> JSONValue {
        if let a = number(lhs) ?? (lhs.isNull ? 0 : nil), let b = number(rhs) ?? (rhs.isNull ? 0 : nil) {
            return .number(a + b)
        }
        if case .array(let a) = lhs, case .array(let b) = rhs { return .array(a + b) }
        return .string(lhs.displayText + rhs.displayText)
    }

    /// `-`, `*`, `/`, `%` on numbers (empty counts as 0); `null` when a side is not a number or on division by zero.
    package static func arithmetic(_ op: BinaryOperator, _ lhs: JSONValue, _ rhs: JSONValue) -> JSONValue {
        guard let a = number(lhs) ?? (lhs.isNull ? 0 : nil), let b = number(rhs) ?? (rhs.isNull ? 0 : nil) else {
            return .null
        }
        switch op {
        case .subtract: return .number(a - b)
        case .multiply: return .number(a * b)
        case .divide: return b == 0 ? .null : .number(a / b)
        case .remainder: return b == 0 ? .null : .number(a.truncatingRemainder(dividingBy: b))
        default: return .null
        }
    }
}

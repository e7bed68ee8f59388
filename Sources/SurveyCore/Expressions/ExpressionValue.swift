/// The value semantics of expressions, modelled on SurveyJS (docs/expressions.md): loose
/// number/string equality, strings equal ignoring letter case and surrounding spaces,
/// order-insensitive array equality, empty values compare unequal to everything but emptiness,
/// `+ - *` corrected for binary floating-point noise (`0.1 + 0.2` is `0.3`).
///
/// The comparisons are pure: they read their arguments and write nothing the caller can see (the
/// only memory they write is their own temporaries, such as a lower-cased copy of a text). They say
/// so with `@_effects(readonly)`, the standard library's own marking for its string comparisons:
/// without it the optimizer must assume a call may write the value a caller passes from memory (a
/// condition's constant, a value in the session's array) and copies the value first, retain and
/// release included, which cost more than most comparisons (53.3k → 51.1k instructions a
/// 50-question respondent, `Benchmarks/README.md`). Keep them pure: a function marked so that writes
/// or releases what it was given is undefined behaviour.
package enum ExpressionValue {
    /// The number a value stands for: numbers, numeric strings, Booleans are not numbers.
    @inline(__always)
    package static func number(_ value: JSONValue) -> Double? {
        switch value {
        case .number(let number): return number
        case .string(let text):
            guard let first = text.firstUTF8Byte else { return nil }
            if first == UInt8(ascii: "-") || first == UInt8(ascii: ".") || (first >= 48 && first <= 57) {
                return parsedNumber(text)
            }
            // SurveyJS reads a number with spaces at either end (`' 5 ' = 5`).
            guard isSpace(first) else { return nil }
            let trimmed = text.trimmingWhitespace()
            guard let head = trimmed.firstUTF8Byte,
                head == UInt8(ascii: "-") || head == UInt8(ascii: ".") || (head >= 48 && head <= 57)
            else { return nil }
            return parsedNumber(trimmed)
        default: return nil
        }
    }

    /// The number `text` (which starts like one) writes, also with one comma for the decimal point
    /// (`'2,5'`, and `'100,000'`, which survey-core too reads as 100), as survey-core's
    /// `Helpers.getNumber` reads it; `nil` otherwise. Not inlined: ``number(_:)``, inlined into every
    /// comparison, keeps one call here, as it had to `Double.init` (a larger inlined body made the
    /// 1M-question walk slower).
    @inline(never)
    static func parsedNumber(_ text: String) -> Double? {
        if let number = Double(text) { return number }
        guard let comma = text.firstIndex(of: ","), !text[text.index(after: comma)...].contains(",") else { return nil }
        var replaced = text
        replaced.replaceSubrange(comma...comma, with: ".")
        return Double(replaced)
    }

    /// Whether `text` writes a number with a leading zero (`"00"`, `"032"`, not `"0"`, `"0.5"` or
    /// `"0x1F"`): survey-core reads a value so written as its text, not as the number (a code keeps
    /// its zeros), so `+` joins it and `<` compares it with another text as texts.
    static func isZeroPrefixed(_ text: String) -> Bool {
        var bytes = text.utf8.makeIterator()
        guard bytes.next() == UInt8(ascii: "0"), let second = bytes.next(),
            second != UInt8(ascii: "."), second != UInt8(ascii: ","), second != UInt8(ascii: "x")
        else { return false }
        return parsedNumber(text) != nil
    }

    /// ``isZeroPrefixed(_:)`` of a text value.
    static func isZeroPrefixed(_ value: JSONValue) -> Bool {
        if case .string(let text) = value { return isZeroPrefixed(text) }
        return false
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
    @_effects(readonly)
    package static func equals(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.string(let a), .string(let b)): return equalTexts(a, b)
        case (.number(let a), .number(let b)): return a == b
        case (.bool(let a), .bool(let b)): return a == b
        case (.null, .array), (.array, .null): return false
        case (.null, .string(let text)), (.string(let text), .null):
            // SurveyJS reads the text 'undefined' as no value.
            return text.isBlank || text == "undefined"
        case (.null, _), (_, .null): return lhs.isEmptyAnswer && rhs.isEmptyAnswer
        case (.bool(let a), .number(let b)), (.number(let b), .bool(let a)): return (a ? 1 : 0) == b
        case (.bool(let a), .string(let b)), (.string(let b), .bool(let a)):
            return equalIgnoringCase(b, a ? "true" : "false")
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

    /// ``equals(_:_:)``, with two lists equal only when their elements are equal in the same order
    /// (a ranking's answer: ``QuestionType/comparesAnswersInOrder``).
    package static func equalsInOrder(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
        guard case .array(let a) = lhs, case .array(let b) = rhs else { return equals(lhs, rhs) }
        return a.count == b.count && zip(a, b).allSatisfy { equals($0, $1) }
    }

    /// ``equals(_:_:)`` of two texts.
    @inline(__always)
    static func equalTexts(_ a: String, _ b: String) -> Bool {
        !firstLettersDiffer(a, b) && (a == b || equalIgnoringCase(a, b))
    }

    /// Whether two strings are equal ignoring letter case (simple lower-casing: `'É' = 'é'`, but
    /// `'ß' <> 'SS'`) and spaces at either end, as SurveyJS compares them. ASCII without allocating.
    @_effects(readonly)
    package static func equalIgnoringCase(_ a: String, _ b: String) -> Bool {
        // Read in place (no copy of either string to make it contiguous: native strings are).
        let ascii: Bool?? = a.utf8.withContiguousStorageIfAvailable { x in
            b.utf8.withContiguousStorageIfAvailable { y in asciiEqualIgnoringCase(x, y) } ?? nil
        }
        if let ascii = ascii ?? nil { return ascii }
        return a.trimmingWhitespace().lowercased() == b.trimmingWhitespace().lowercased()
    }

    /// Whether both strings start with an ASCII letter or digit, and not the same one ignoring case:
    /// then no trimming, lower-casing or canonical equivalence can make them equal (what most
    /// comparisons of a choice with another choice find, without reading further).
    @inline(__always)
    static func firstLettersDiffer(_ a: String, _ b: String) -> Bool {
        guard let x = asciiKey(a), let y = asciiKey(b) else { return false }
        return x != y
    }

    /// The first byte of `text`, lower-cased, when it is an ASCII letter or digit (see
    /// ``firstLettersDiffer(_:_:)``).
    @inline(__always)
    static func asciiKey(_ text: String) -> UInt8? {
        guard let first = text.firstUTF8Byte, isAlphanumericASCII(first) else { return nil }
        return lowerASCII(first)
    }

    /// Whether one of `elements` equals `item`. A text is looked for by its first letter first: the
    /// texts that start with another ASCII letter or digit are passed over without comparing them.
    @_effects(readonly)
    static func containsElement(_ elements: [JSONValue], equalTo item: JSONValue) -> Bool {
        if case .string(let wanted) = item { return containsElement(elements, equalToText: wanted) }
        for element in elements where equals(element, item) { return true }
        return false
    }

    /// ``containsElement(_:equalTo:)`` of a text.
    @_effects(readonly)
    static func containsElement(_ elements: [JSONValue], equalToText wanted: String) -> Bool {
        guard let key = asciiKey(wanted) else {
            let item = JSONValue.string(wanted)
            for element in elements where equals(element, item) { return true }
            return false
        }
        for element in elements {
            guard case .string(let text) = element else {
                if equals(element, .string(wanted)) { return true }
                continue
            }
            // Two texts: ``equals(_:_:)`` once their first letters agree, without reading them again.
            if let first = asciiKey(text), first != key { continue }
            if text == wanted || equalIgnoringCase(text, wanted) { return true }
        }
        return false
    }

    @inline(__always) static func isAlphanumericASCII(_ byte: UInt8) -> Bool {
        (byte >= 48 && byte <= 57) || (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122)
    }

    /// ``equalIgnoringCase(_:_:)`` on UTF-8 bytes when both are ASCII; `nil` when either is not.
    static func asciiEqualIgnoringCase(_ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>) -> Bool? {
        var (i, j) = (0, x.count)
        while i < j, isSpace(x[i]) { i += 1 }
        while j > i, isSpace(x[j - 1]) { j -= 1 }
        var (k, l) = (0, y.count)
        while k < l, isSpace(y[k]) { k += 1 }
        while l > k, isSpace(y[l - 1]) { l -= 1 }
        guard j - i == l - k else {
            // Different lengths: different, unless non-ASCII letters change length when lower-cased.
            return x[i..<j].allSatisfy { $0 < 0x80 } && y[k..<l].allSatisfy { $0 < 0x80 } ? false : nil
        }
        while i < j {
            let (p, q) = (x[i], y[k])
            if p >= 0x80 || q >= 0x80 { return nil }
            if p != q, lowerASCII(p) != lowerASCII(q) { return false }
            i += 1
            k += 1
        }
        return true
    }

    @inline(__always) static func isSpace(_ byte: UInt8) -> Bool {
        byte == 32 || byte == 9 || byte == 10 || byte == 13
    }

    @inline(__always) static func lowerASCII(_ byte: UInt8) -> UInt8 {
        byte >= 65 && byte <= 90 ? byte + 32 : byte
    }

    /// Ordering for `<`, `<=`, `>`, `>=`: numbers numerically, otherwise strings lexically; `nil` when
    /// either side is empty or the kinds cannot be compared.
    @_effects(readonly)
    package static func compare(_ lhs: JSONValue, _ rhs: JSONValue) -> Int? {
        if lhs.isEmptyAnswer || rhs.isEmptyAnswer {
            // Two empty values are equal, so `<=` and `>=` hold for them (and `<`, `>` do not).
            return lhs.isEmptyAnswer && rhs.isEmptyAnswer ? 0 : nil
        }
        if case .bool(let a) = lhs, case .bool(let b) = rhs { return a == b ? 0 : (a ? 1 : -1) }
        if case .string(let a) = lhs, case .string(let b) = rhs, isZeroPrefixed(a) || isZeroPrefixed(b) {
            return a < b ? -1 : (a > b ? 1 : 0)
        }
        if let a = number(lhs), let b = number(rhs) { return a < b ? -1 : (a > b ? 1 : 0) }
        if case .string(let a) = lhs, case .string(let b) = rhs { return a < b ? -1 : (a > b ? 1 : 0) }
        // A Boolean against a number orders as 1 or 0 (`1 < 2 < 3`).
        if let a = arithmeticNumber(lhs), let b = arithmeticNumber(rhs) { return a < b ? -1 : (a > b ? 1 : 0) }
        return nil
    }

    /// `contains`: an array holding an element (or every element of an array), or a substring.
    @_effects(readonly)
    package static func contains(_ container: JSONValue, _ item: JSONValue) -> Bool {
        switch container {
        case .array(let elements):
            if case .array(let items) = item {
                return items.allSatisfy { containsElement(elements, equalTo: $0) }
            }
            return containsElement(elements, equalTo: item)
        case .string(let text):
            return containsText(text, item.displayText)
        case .number(0), .bool(false):
            // SurveyJS: 0 and false hold nothing.
            return false
        case .number, .bool:
            // SurveyJS: `{n} contains 5` looks for the text in the number's text.
            return containsText(container.displayText, item.displayText)
        case .object:
            return false
        default:
            return false
        }
    }

    /// A substring, ignoring letter case; an empty needle is never contained. ASCII (without CR) is
    /// searched byte by byte without allocating; other text is lower-cased first.
    @_effects(readonly)
    static func containsText(_ text: String, _ needle: String) -> Bool {
        guard !needle.isEmpty else { return false }
        var haystack = text
        var wanted = needle
        let ascii: Bool? = haystack.withUTF8 { x in
            wanted.withUTF8 { y -> Bool? in
                // CR is left to the general path: "\r\n" is one Character there, so "\r" is not in it.
                guard x.allSatisfy({ $0 < 0x80 && $0 != 13 }), y.allSatisfy({ $0 < 0x80 && $0 != 13 }) else {
                    return nil
                }
                guard y.count <= x.count else { return false }
                var start = 0
                while start + y.count <= x.count {
                    var offset = 0
                    while offset < y.count, lowerASCII(x[start + offset]) == lowerASCII(y[offset]) { offset += 1 }
                    if offset == y.count { return true }
                    start += 1
                }
                return false
            }
        }
        if let ascii { return ascii }
        return text.contains(needle) || text.lowercased().contains(needle.lowercased())
    }

    /// Whether `element` equals `list` or, when `list` is an array, one of its elements.
    @_effects(readonly)
    static func isIn(_ element: JSONValue, _ list: JSONValue) -> Bool {
        guard case .array(let options) = list else { return equals(element, list) }
        return containsElement(options, equalTo: element)
    }

    /// `anyof`: the value (or any element of it) is in the list.
    @_effects(readonly)
    package static func anyOf(_ value: JSONValue, _ list: JSONValue) -> Bool {
        // SurveyJS: an empty list holds any answer (and no answer).
        if list.isEmptyAnswer { return true }
        guard case .array(let values) = value else { return !value.isEmptyAnswer && isIn(value, list) }
        for element in values where isIn(element, list) { return true }
        return false
    }

    /// `allof`: the value contains every element of the list.
    @_effects(readonly)
    package static func allOf(_ value: JSONValue, _ list: JSONValue) -> Bool {
        guard case .array(let values) = value else {
            // One value holds all of a list only when the list is that value (or holds only it).
            guard !value.isEmptyAnswer else { return false }
            if case .array(let options) = list { return options.allSatisfy { equals(value, $0) } }
            return equals(value, list)
        }
        guard !values.isEmpty else { return false }
        if case .array(let options) = list {
            return options.allSatisfy { wanted in values.contains { equals($0, wanted) } }
        }
        return values.contains { equals($0, list) }
    }

    /// What an empty operand of arithmetic stands for, as in SurveyJS: 0 beside a number, `""` beside
    /// a text (or when it is one), `[]` beside a list, else 0.
    static func arithmeticOperand(_ value: JSONValue, beside other: JSONValue) -> JSONValue {
        switch value {
        case .null, .string(""), .array([]): break
        case .object(let members) where members.isEmpty: break
        default: return value
        }
        switch (value, other) {
        case (_, .number): return .number(0)
        case (.string, _): return value
        case (_, .string): return .string("")
        case (_, .array): return .array([])
        default: return .number(0)
        }
    }

    /// `a + b` of two numbers, rounded to the decimals the operands have.
    static func sum(_ a: Double, _ b: Double) -> Double {
        corrected(a + b, digits: max(fractionDigits(a), fractionDigits(b)))
    }

    /// Arithmetic `+`: numbers add; a list and a number add the list's numbers to it; two lists join;
    /// otherwise texts join (a list as its elements joined with `, `). Empty operands count as in
    /// ``arithmeticOperand(_:beside:)``; `true` and `false` add as 1 and 0 to a number.
    package static func add(_ lhs: JSONValue, _ rhs: JSONValue) -> JSONValue {
        if case .number(let a) = lhs, case .number(let b) = rhs { return .number(sum(a, b)) }
        let lhs = arithmeticOperand(lhs, beside: rhs)
        let rhs = arithmeticOperand(rhs, beside: lhs)
        if isZeroPrefixed(lhs) || isZeroPrefixed(rhs) { return .string(lhs.displayText + rhs.displayText) }
        if let a = number(lhs), let b = number(rhs) { return .number(sum(a, b)) }
        switch (lhs, rhs) {
        case (.array(let a), .array(let b)): return .array(a + b)
        case (.array(let list), .number(let value)), (.number(let value), .array(let list)):
            var total = 0.0
            for case .number(let element) in list { total = sum(total, element) }
            return .number(sum(total, value))
        case (.bool, .number), (.number, .bool), (.bool, .bool):
            return .number((arithmeticNumber(lhs) ?? 0) + (arithmeticNumber(rhs) ?? 0))
        default:
            return .string(lhs.displayText + rhs.displayText)
        }
    }

    /// The number an operand of `- * / % ^` stands for: a number, a numeric text, `true`/`false` as 1/0.
    static func arithmeticNumber(_ value: JSONValue) -> Double? {
        if case .bool(let flag) = value { return flag ? 1 : 0 }
        return number(value)
    }

    /// `-`, `*`, `/`, `%` on numbers (empty counts as 0); `null` when a side is not a number or on division by zero.
    package static func arithmetic(_ op: BinaryOperator, _ lhs: JSONValue, _ rhs: JSONValue) -> JSONValue {
        guard let a = arithmeticNumber(lhs) ?? (lhs.isEmptyAnswer ? 0 : nil),
            let b = arithmeticNumber(rhs) ?? (rhs.isEmptyAnswer ? 0 : nil)
        else {
            return .null
        }
        switch op {
        case .subtract: return .number(corrected(a - b, digits: max(fractionDigits(a), fractionDigits(b))))
        case .multiply: return .number(corrected(a * b, digits: fractionDigits(a) + fractionDigits(b)))
        case .divide: return b == 0 ? .null : .number(a / b)
        case .remainder: return b == 0 ? .null : .number(a.truncatingRemainder(dividingBy: b))
        case .power:
            let result = StandardFunctions.power(a, b)
            return result.isFinite ? .number(result) : .null
        default: return .null
        }
    }

    /// `value` written as briefly as it round-trips, split into mantissa and decimal exponent
    /// (`1.5e-07` → `("1.5", -7)`, `0.25` → `("0.25", 0)`).
    static func decimalParts(_ value: Double) -> (mantissa: Substring, exponent: Int) {
        let text = "\(value)"
        guard let marker = text.firstIndex(where: { $0 == "e" || $0 == "E" }) else { return (Substring(text), 0) }
        return (text[..<marker], Int(text[text.index(after: marker)...]) ?? 0)
    }

    /// How many digits `value` has after the decimal point, written as briefly as it round-trips
    /// (`0.1` → 1, `1.5e-7` → 8, whole numbers → 0).
    package static func fractionDigits(_ value: Double) -> Int {
        guard value.isFinite, value != value.rounded(.towardZero) else { return 0 }
        let (mantissa, exponent) = decimalParts(value)
        let fraction = mantissa.firstIndex(of: ".").map { mantissa.distance(from: $0, to: mantissa.endIndex) - 1 } ?? 0
        return max(0, fraction - exponent)
    }

    /// `result` rounded to `digits` decimals, the most its operands had: removes the noise binary
    /// floating point adds (`0.1 + 0.2` → `0.3`, `1.1 * 3` → `3.3`), as SurveyJS does for `+ - *`.
    package static func corrected(_ result: Double, digits: Int) -> Double {
        guard digits > 0, digits <= 15, result.isFinite else { return result }
        let scale = powersOfTen[digits]
        let scaled = result * scale
        guard abs(scaled) < 9_007_199_254_740_992 else { return result }
        return scaled.rounded(.toNearestOrAwayFromZero) / scale
    }

    static let powersOfTen: [Double] = (0...15).map { digits in
        var value = 1.0
        for _ in 0..<digits { value *= 10 }
        return value
    }

    /// `round(value, digits)` on the decimal number as written, half away from zero: `round(1.005, 2)`
    /// is `1.01` (the binary value is 1.00499…, which rounds the other way); negative digits round to
    /// tens, hundreds…; `rule: .towardZero` truncates (`trunc`).
    package static func roundDecimal(
        _ value: Double, digits: Int, rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero
    ) -> Double {
        guard value.isFinite else { return value }
        guard digits != 0 else { return value.rounded(rule) }
        let (mantissa, exponent) = decimalParts(value)
        guard let shifted = Double("\(mantissa)e\(exponent + digits)"), shifted.isFinite,
            abs(shifted) < 9_007_199_254_740_992
        else { return value }
        return Double("\(shifted.rounded(rule))e\(-digits)") ?? value
    }
}

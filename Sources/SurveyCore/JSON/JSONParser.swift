/// A position in a text document: 1-based line and column (columns count characters).
public struct SourcePosition: Sendable, Hashable, CustomStringConvertible {
    /// 1-based line number.
    public var line: Int
    /// 1-based column number, counted in characters.
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public var description: String { "\(line):\(column)" }

    /// The start of a message about a place in a file: `FILE:LINE:COL: `, leaving out what is
    /// unknown (`FILE: `, `LINE:COL: ` or nothing).
    public static func messagePrefix(file: String?, position: SourcePosition?) -> String {
        var prefix = ""
        if let file { prefix += file + ":" }
        if let position { prefix += "\(position.line):\(position.column):" }
        return prefix.isEmpty ? "" : prefix + " "
    }

    /// The line and column of a UTF-8 byte offset in `bytes`.
    public static func of(offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> SourcePosition {
        var line = 1
        var column = 1
        var index = 0
        let end = min(offset, bytes.count)
        while index < end {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
            index += 1
        }
        return SourcePosition(line: line, column: column)
    }

    /// The line and column of each of `offsets`, reading `bytes` once (not once per offset).
    static func of(offsets: [Int], in bytes: UnsafeBufferPointer<UInt8>) -> [SourcePosition] {
        var result = [SourcePosition](repeating: SourcePosition(line: 1, column: 1), count: offsets.count)
        let sorted = offsets.indices.sorted { offsets[$0] < offsets[$1] }
        var line = 1
        var column = 1
        var index = 0
        for position in sorted {
            let end = min(offsets[position], bytes.count)
            while index < end {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\n") {
                    line += 1
                    column = 1
                } else if byte & 0xC0 != 0x80 {
                    column += 1
                }
                index += 1
            }
            result[position] = SourcePosition(line: line, column: column)
        }
        return result
    }
}

/// A syntax error in JSON text.
public struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, e.g. "expected ',' or '}' after an object member".
    public var message: String
    /// Where it is.
    public var position: SourcePosition

    public var description: String { "\(position): \(message)" }
}

/// A fast, strict JSON parser (RFC 8259) producing ``JSONValue``.
///
/// Reports the line and column of the first syntax error, rejects duplicate object keys, and can
/// find the source position of any ``JSONPath`` (see ``SourceLocator``).
public enum JSONParser {
    /// Parses a complete JSON document.
    /// - Throws: ``JSONSyntaxError`` with the line and column of the problem.
    public static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        var copy = text
        let result: Result<JSONValue, JSONSyntaxError> = copy.withUTF8 { buffer in
            do throws(JSONSyntaxError) { return .success(try parse(bytes: buffer)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// Parses a complete JSON document from UTF-8 bytes.
    public static func parse(bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
        let result: Result<JSONValue, JSONSyntaxError> = bytes.withUnsafeBufferPointer { buffer in
            do throws(JSONSyntaxError) { return .success(try parse(bytes: buffer)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// Parses a complete JSON document from UTF-8 bytes.
    public static func parse(bytes: UnsafeBufferPointer<UInt8>) throws(JSONSyntaxError) -> JSONValue {
        var parser = Parser(bytes: bytes)
        do {
            let value = try parser.parseDocument()
            return value
        } catch {
            throw JSONSyntaxError(message: error.message, position: .of(offset: error.offset, in: bytes))
        }
    }
}

/// Finds where a ``JSONPath`` is in the JSON text it came from, for error messages.
public enum SourceLocator {
    /// The position of the value at `path` in `bytes`, or of its closest existing ancestor.
    public static func position(of path: JSONPath, in bytes: UnsafeBufferPointer<UInt8>) -> SourcePosition? {
        positions(of: [path], in: bytes)[0]
    }

    /// The positions of many paths (each found as for a single path), reading `bytes`
    /// once for all of them: a file with thousands of errors is located in linear time.
    public static func positions(of paths: [JSONPath], in bytes: UnsafeBufferPointer<UInt8>) -> [SourcePosition?] {
        guard !paths.isEmpty else { return [] }
        let targets = PathTargets(paths)
        var parser = Parser(bytes: bytes, targets: targets)
        // Locating reads past a repeated key (a SurveyJS file may have one).
        parser.keepsLastKey = true
        _ = try? parser.parseDocument()
        let offsets = paths.map { targets.offset(of: $0) }
        let found = offsets.compactMap { $0 }
        var positions = SourcePosition.of(offsets: found, in: bytes).makeIterator()
        return offsets.map { $0 == nil ? nil : positions.next() }
    }

    /// The position of the value at `path` in `text`.
    public static func position(of path: JSONPath, in text: String) -> SourcePosition? {
        var copy = text
        return copy.withUTF8 { position(of: path, in: $0) }
    }
}

/// The paths ``SourceLocator`` looks for, as a trie, and where the parser found each of their
/// prefixes.
final class PathTargets {
    /// The children of each node, by path component; node 0 is the document root.
    private var children: [[JSONPath.Component: Int]] = [[:]]
    /// The offset of the first value found at each node's path.
    private var offsets: [Int?] = [nil]
    /// The node of the value being parsed, or -1 when its path is not a prefix of any target.
    private var current = 0
    private var enclosing: [Int] = []

    init(_ paths: [JSONPath]) {
        for path in paths {
            var node = 0
            for component in path.components {
                if let child = children[node][component] {
                    node = child
                } else {
                    children.append([:])
                    offsets.append(nil)
                    children[node][component] = children.count - 1
                    node = children.count - 1
                }
            }
        }
    }

    /// The parser moves into a member or element of the current value.
    func enter(_ component: JSONPath.Component) {
        enclosing.append(current)
        current = current < 0 ? -1 : children[current][component] ?? -1
    }

    /// The parser leaves the member or element it entered last.
    func leave() {
        current = enclosing.removeLast()
    }

    /// A value starts at `offset`.
    func noteValueStart(at offset: Int) {
        if current >= 0, offsets[current] == nil { offsets[current] = offset }
    }

    /// Where the value at `path` starts, or else its closest ancestor that was found.
    func offset(of path: JSONPath) -> Int? {
        var node = 0
        var best = offsets[0]
        for component in path.components {
            guard let child = children[node][component], let offset = offsets[child] else { break }
            node = child
            best = offset
        }
        return best
    }
}

struct RawSyntaxError: Error {
    var message: String
    var offset: Int
}

struct Parser {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    var depth = 0
    let members = ParseStack<(key: String, value: JSONValue, offset: Int)>()
    let elements = ParseStack<JSONValue>()
    /// Path tracking, used only by SourceLocator.
    let targets: PathTargets?
    /// Values parsed once and shared by later copies of the same text (``parseSharedValue()``).
    var pool = ValuePool()
    /// A key repeated in an object keeps its last value (as JavaScript's `JSON.parse`) instead of
    /// being an error; each repeat is recorded in ``repeatedKeys``.
    var keepsLastKey = false
    /// The keys repeated in an object, with the offset of each later occurrence (``keepsLastKey``).
    var repeatedKeys: [(key: String, offset: Int)] = []

    init(bytes: UnsafeBufferPointer<UInt8>, targets: PathTargets? = nil) {
        self.bytes = bytes
        self.targets = targets
    }

    mutating func parseDocument() throws(RawSyntaxError) -> JSONValue {
        // Skip a UTF-8 byte order mark.
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
        skipWhitespace()
        guard index < bytes.count else { throw RawSyntaxError(message: "the document is empty", offset: index) }
        let value = try parseValue()
        skipWhitespace()
        if index < bytes.count {
            throw RawSyntaxError(
                message: "unexpected \(describe(bytes[index])) after the end of the document", offset: index)
        }
        return value
    }

    @inline(__always)
    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    func describe(_ byte: UInt8) -> String {
        if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x" + String(byte, radix: 16, uppercase: true)
    }

    mutating func parseValue() throws(RawSyntaxError) -> JSONValue {
        if let targets { targets.noteValueStart(at: index) }
        guard index < bytes.count else {
            throw RawSyntaxError(message: "unexpected end of input, expected a value", offset: index)
        }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default:
            throw RawSyntaxError(message: "unexpected \(describe(bytes[index])), expected a value", offset: index)
        }
    }

    mutating func expectLiteral(_ literal: StaticString) throws(RawSyntaxError) {
        let start = index
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else {
            throw RawSyntaxError(message: "invalid literal, expected '\(literal)'", offset: start)
        }
        let pointer = literal.utf8Start
        for offset in 0..<count where bytes[index + offset] != pointer[offset] {
            throw RawSyntaxError(message: "invalid literal, expected '\(literal)'", offset: start)
        }
        index += count
    }

    mutating func parseObject() throws(RawSyntaxError) -> JSONValue {
        // Members are gathered on a stack, then the dictionary is built once at its final size
        // (growing a dictionary member by member rehashes several times).
        let firstMember = members.count
        try parseMembers { (parser, key, keyOffset) throws(RawSyntaxError) in
            parser.targets?.enter(.key(key))
            let value = try parser.parseValue()
            parser.targets?.leave()
            parser.members.push((key, value, keyOffset))
        }
        var object: [String: JSONValue] = Dictionary(minimumCapacity: members.count - firstMember)
        try members.popEach(from: firstMember) { (member) throws(RawSyntaxError) in
            if object.updateValue(member.value, forKey: member.key) != nil {
                guard keepsLastKey else {
                    throw RawSyntaxError(message: "duplicate member name \"\(member.key)\"", offset: member.offset)
                }
                repeatedKeys.append((member.key, member.offset))
            }
        }
        return .object(object)
    }

    mutating func parseArray() throws(RawSyntaxError) -> JSONValue {
        let firstElement = elements.count
        _ = try parseArrayElements { (parser, index) throws(RawSyntaxError) in
            parser.targets?.enter(.index(index))
            let value = try parser.parseValue()
            parser.elements.push(value)
            parser.targets?.leave()
        }
        return .array(elements.popArray(from: firstElement))
    }

    /// Reads an object's `"key": value` pairs (at `{`) up to the closing brace; `body` must consume
    /// each value. Shared by the tree parser and the streaming survey decoder.
    mutating func parseMembers(
        _ body: (inout Parser, String, Int) throws(RawSyntaxError) -> Void
    ) throws(RawSyntaxError) {
        try parseMembers(key: { (parser) throws(RawSyntaxError) in try parser.parseString() }, named: { $0 }, body)
    }

    /// Reads an object's members like ``parseMembers(_:)``, with each key read by `readKey` (at its
    /// opening quote; it must consume the whole string) and named by `name` in error messages.
    @inline(__always)
    mutating func parseMembers<Key>(
        key readKey: (inout Parser) throws(RawSyntaxError) -> Key, named name: (Key) -> String,
        _ body: (inout Parser, Key, Int) throws(RawSyntaxError) -> Void
    ) throws(RawSyntaxError) {
        let start = index
        index += 1  // '{'
        depth += 1
        defer { depth -= 1 }
        if depth > 512 { throw RawSyntaxError(message: "nesting deeper than 512 levels", offset: start) }
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return
        }
        while true {
            skipWhitespace()
            guard index < bytes.count else {
                throw RawSyntaxError(message: "unexpected end of input inside an object", offset: index)
            }
            guard bytes[index] == UInt8(ascii: "\"") else {
                throw RawSyntaxError(
                    message: "expected a member name in double quotes, found \(describe(bytes[index]))", offset: index)
            }
            let keyOffset = index
            let key = try readKey(&self)
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw RawSyntaxError(message: "expected ':' after member name \"\(name(key))\"", offset: index)
            }
            index += 1
            skipWhitespace()
            try body(&self, key, keyOffset)
            skipWhitespace()
            guard index < bytes.count else {
                throw RawSyntaxError(message: "unexpected end of input, expected ',' or '}'", offset: index)
            }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return
            }
            throw RawSyntaxError(
                message: "expected ',' or '}' after an object member, found \(describe(bytes[index]))", offset: index)
        }
    }

    /// Reads the elements of an array (at `[`), calling `body` with each element's index; `body`
    /// must consume the element. Returns the number of elements.
    mutating func parseArrayElements(
        _ body: (inout Parser, Int) throws(RawSyntaxError) -> Void
    ) throws(RawSyntaxError) -> Int {
        skipWhitespace()
        let start = index
        index += 1  // '['
        depth += 1
        defer { depth -= 1 }
        if depth > 512 { throw RawSyntaxError(message: "nesting deeper than 512 levels", offset: start) }
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return 0
        }
        var count = 0
        while true {
            skipWhitespace()
            try body(&self, count)
            count += 1
            skipWhitespace()
            guard index < bytes.count else {
                throw RawSyntaxError(message: "unexpected end of input, expected ',' or ']'", offset: index)
            }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if bytes[index] == UInt8(ascii: "]") {
                index += 1
                return count
            }
            throw RawSyntaxError(
                message: "expected ',' or ']' after an array element, found \(describe(bytes[index]))", offset: index)
        }
    }

    mutating func parseString() throws(RawSyntaxError) -> String {
        let start = index
        index += 1
        let contentStart = index
        // Fast path: no escapes.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: bytes[contentStart..<index])
                index += 1
                return String(decoding: slice, as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 {
                throw RawSyntaxError(message: "control character in a string (escape it as \\u00XX)", offset: index)
            }
            index += 1
        }
        var scalars: [UInt8] = Array(UnsafeBufferPointer(rebasing: bytes[contentStart..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return String(decoding: scalars, as: UTF8.self)
            }
            if byte < 0x20 {
                throw RawSyntaxError(message: "control character in a string (escape it as \\u00XX)", offset: index)
            }
            if byte != UInt8(ascii: "\\") {
                scalars.append(byte)
                index += 1
                continue
            }
            index += 1
            guard index < bytes.count else { break }
            let escape = bytes[index]
            index += 1
            switch escape {
            case UInt8(ascii: "\""): scalars.append(0x22)
            case UInt8(ascii: "\\"): scalars.append(0x5C)
            case UInt8(ascii: "/"): scalars.append(0x2F)
            case UInt8(ascii: "b"): scalars.append(0x08)
            case UInt8(ascii: "f"): scalars.append(0x0C)
            case UInt8(ascii: "n"): scalars.append(0x0A)
            case UInt8(ascii: "r"): scalars.append(0x0D)
            case UInt8(ascii: "t"): scalars.append(0x09)
            case UInt8(ascii: "u"):
                var code = try parseHex4()
                if (0xD800..<0xDC00).contains(code) {
                    guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                        bytes[index + 1] == UInt8(ascii: "u")
                    else { throw RawSyntaxError(message: "unpaired UTF-16 surrogate in \\u escape", offset: index) }
                    index += 2
                    let low = try parseHex4()
                    guard (0xDC00..<0xE000).contains(low) else {
                        throw RawSyntaxError(message: "invalid UTF-16 surrogate pair in \\u escape", offset: index)
                    }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00..<0xE000).contains(code) {
                    throw RawSyntaxError(message: "unpaired UTF-16 surrogate in \\u escape", offset: index)
                }
                guard let scalar = Unicode.Scalar(code) else {
                    throw RawSyntaxError(message: "invalid \\u escape", offset: index)
                }
                scalars.append(contentsOf: Array(String(Character(scalar)).utf8))
            default:
                throw RawSyntaxError(
                    message: "invalid escape '\\\(Character(Unicode.Scalar(escape)))'", offset: index - 2)
            }
        }
        throw RawSyntaxError(message: "unterminated string", offset: start)
    }

    mutating func parseHex4() throws(RawSyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw RawSyntaxError(message: "incomplete \\u escape", offset: index) }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw RawSyntaxError(message: "invalid hex digit in \\u escape", offset: index)
            }
            value = value * 16 + digit
            index += 1
        }
        return value
    }

    mutating func parseNumber() throws(RawSyntaxError) -> Double {
        let start = index
        var isNegative = false
        if bytes[index] == UInt8(ascii: "-") {
            isNegative = true
            index += 1
        }
        guard index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) else {
            throw RawSyntaxError(message: "invalid number: expected a digit", offset: index)
        }
        var integer: UInt64 = 0
        var digits = 0
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            digits = 1
            if index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
                throw RawSyntaxError(message: "invalid number: leading zeros are not allowed", offset: start)
            }
        } else {
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
                if digits < 18 { integer = integer * 10 + UInt64(bytes[index] - UInt8(ascii: "0")) }
                digits += 1
                index += 1
            }
        }
        var isSimple = digits <= 15
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isSimple = false
            index += 1
            guard index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) else {
                throw RawSyntaxError(message: "invalid number: expected a digit after '.'", offset: index)
            }
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isSimple = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) else {
                throw RawSyntaxError(message: "invalid number: expected a digit in the exponent", offset: index)
            }
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        }
        if isSimple {
            let value = Double(integer)
            return isNegative ? -value : value
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw RawSyntaxError(message: "number out of range", offset: start)
        }
        return value
    }
}

/// Writes ``JSONValue`` as deterministic JSON text: object keys sorted, integers without a decimal
/// point, so that a load/save round trip is byte-stable.
public enum JSONWriter {
    /// JSON text for `value`; `pretty` indents with two spaces and ends without a newline.
    public static func string(from value: JSONValue, pretty: Bool = false) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(256)
        write(value, into: &output, pretty: pretty, indent: 0)
        return String(decoding: output, as: UTF8.self)
    }

    /// JSON text for `value` like ``string(from:pretty:)``, except that in every object the keys
    /// listed in `keyOrder` come first, in that order (the others follow, sorted): for files people
    /// read, where `"id"` and `"type"` belong at the top.
    public static func string(from value: JSONValue, pretty: Bool, keyOrder: [String]) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(256)
        var rank: [String: Int] = [:]
        for (index, key) in keyOrder.enumerated() where rank[key] == nil { rank[key] = index }
        write(value, into: &output, pretty: pretty, indent: 0, rank: rank)
        return String(decoding: output, as: UTF8.self)
    }

    /// Writes into bytes (one `String` made at the end): appending to a `String` piece by piece
    /// costs a capacity and encoding check per piece.
    package static func write(
        _ value: JSONValue, into output: inout [UInt8], pretty: Bool = false, indent: Int = 0, rank: [String: Int] = [:]
    ) {
        switch value {
        case .null: append("null", to: &output)
        case .bool(let flag): append(flag ? "true" : "false", to: &output)
        case .number(let number): append(JSONValue.format(number: number), to: &output)
        case .string(let text): writeString(text, into: &output)
        case .array(let elements):
            if elements.isEmpty {
                append("[]", to: &output)
                return
            }
            output.append(UInt8(ascii: "["))
            for (offset, element) in elements.enumerated() {
                if offset > 0 { output.append(UInt8(ascii: ",")) }
                if pretty { newline(into: &output, indent: indent + 1) }
                write(element, into: &output, pretty: pretty, indent: indent + 1, rank: rank)
            }
            if pretty { newline(into: &output, indent: indent) }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            if members.isEmpty {
                append("{}", to: &output)
                return
            }
            output.append(UInt8(ascii: "{"))
            // Sorted as pairs: no second lookup of each key.
            let sorted =
                rank.isEmpty
                ? members.sorted { $0.key < $1.key }
                : members.sorted { (rank[$0.key] ?? Int.max, $0.key) < (rank[$1.key] ?? Int.max, $1.key) }
            for (offset, member) in sorted.enumerated() {
                if offset > 0 { output.append(UInt8(ascii: ",")) }
                if pretty { newline(into: &output, indent: indent + 1) }
                writeString(member.key, into: &output)
                append(pretty ? ": " : ":", to: &output)
                write(member.value, into: &output, pretty: pretty, indent: indent + 1, rank: rank)
            }
            if pretty { newline(into: &output, indent: indent) }
            output.append(UInt8(ascii: "}"))
        }
    }

    @inline(__always)
    static func append(_ text: StaticString, to output: inout [UInt8]) {
        text.withUTF8Buffer { output.append(contentsOf: $0) }
    }

    @inline(__always)
    static func append(_ text: String, to output: inout [UInt8]) {
        var text = text
        text.withUTF8 { output.append(contentsOf: $0) }
    }

    static func newline(into output: inout [UInt8], indent: Int) {
        output.append(UInt8(ascii: "\n"))
        output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * indent))
    }

    package static func writeString(_ text: String, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return }
            var start = 0
            var index = -1
            // A plain loop over the pointer: the enumerated sequence costs a generic call per byte in
            // a debug build (a 50 MB answer took 10 s to write).
            while true {
                index += 1
                guard index < bytes.count else { break }
                let byte = base[index]
                guard byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0xE2 || byte == 0xC2 else { continue }
                if byte == 0xE2 || byte == 0xC2 {
                    // U+2028, U+2029 and U+0085 are line ends to JavaScript before ES2019 and to
                    // Python's `splitlines()`: written as escapes, a JSON line stays one line to
                    // every reader. Other characters starting with these bytes are written as they are.
                    let length = byte == 0xE2 ? 3 : 2
                    guard index + length <= bytes.count else { continue }
                    let escape: StaticString
                    switch (byte, base[index + 1], base[index + length - 1]) {
                    case (0xE2, 0x80, 0xA8): escape = "\\u2028"
                    case (0xE2, 0x80, 0xA9): escape = "\\u2029"
                    case (0xC2, 0x85, 0x85): escape = "\\u0085"
                    default: continue
                    }
                    output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
                    append(escape, to: &output)
                    start = index + length
                    index = start - 1
                    continue
                }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
                start = index + 1
                switch byte {
                case 0x22: append("\\\"", to: &output)
                case 0x5C: append("\\\\", to: &output)
                case 0x0A: append("\\n", to: &output)
                case 0x0D: append("\\r", to: &output)
                case 0x09: append("\\t", to: &output)
                case 0x08: append("\\b", to: &output)
                case 0x0C: append("\\f", to: &output)
                default:
                    // \u00XX, lower-case hex.
                    let digits: StaticString = "0123456789abcdef"
                    append("\\u00", to: &output)
                    output.append(digits.utf8Start[Int(byte >> 4)])
                    output.append(digits.utf8Start[Int(byte & 0x0F)])
                }
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
        }
        output.append(UInt8(ascii: "\""))
    }
}

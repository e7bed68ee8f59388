/// Writes ``JSONValue`` as deterministic JSON text: object keys sorted, integers without a decimal
/// point, so that a load/save round trip is byte-stable.
public enum JSONWriter {
    /// JSON text for `value`; `pretty` indents with two spaces and ends without a newline.
    public static func string(from value: JSONValue, pretty: Bool = false) -> String {
        var output = ""
        write(value, into: &output, pretty: pretty, indent: 0)
        return output
    }

    /// JSON text for `value` like ``string(from:pretty:)``, except that in every object the keys
    /// listed in `keyOrder` come first, in that order (the others follow, sorted): for files people
    /// read, where `"id"` and `"type"` belong at the top.
    public static func string(from value: JSONValue, pretty: Bool, keyOrder: [String]) -> String {
        var output = ""
        var rank: [String: Int] = [:]
        for (index, key) in keyOrder.enumerated() where rank[key] == nil { rank[key] = index }
        write(value, into: &output, pretty: pretty, indent: 0, rank: rank)
        return output
    }

    static func write(
        _ value: JSONValue, into output: inout String, pretty: Bool, indent: Int, rank: [String: Int] = [:]
    ) {
        switch value {
        case .null: output += "null"
        case .bool(let flag): output += flag ? "true" : "false"
        case .number(let number): output += JSONValue.format(number: number)
        case .string(let text): writeString(text, into: &output)
        case .array(let elements):
            if elements.isEmpty {
                output += "[]"
                return
            }
            output += "["
            for (offset, element) in elements.enumerated() {
                if offset > 0 { output += "," }
                if pretty { newline(into: &output, indent: indent + 1) }
                write(element, into: &output, pretty: pretty, indent: indent + 1, rank: rank)
            }
            if pretty { newline(into: &output, indent: indent) }
            output += "]"
        case .object(let members):
            if members.isEmpty {
                output += "{}"
                return
            }
            output += "{"
            let keys =
                rank.isEmpty
                ? members.keys.sorted()
                : members.keys.sorted { (rank[$0] ?? Int.max, $0) < (rank[$1] ?? Int.max, $1) }
            for (offset, key) in keys.enumerated() {
                if offset > 0 { output += "," }
                if pretty { newline(into: &output, indent: indent + 1) }
                writeString(key, into: &output)
                output += pretty ? ": " : ":"
                write(members[key] ?? .null, into: &output, pretty: pretty, indent: indent + 1, rank: rank)
            }
            if pretty { newline(into: &output, indent: indent) }
            output += "}"
        }
    }

    static func newline(into output: inout String, indent: Int) {
        output += "\n"
        output += String(repeating: "  ", count: indent)
    }

    static func writeString(_ text: String, into output: inout String) {
        output += "\""
        var needsEscape = false
        for byte in text.utf8 where byte < 0x20 || byte == 0x22 || byte == 0x5C {
            needsEscape = true
            break
        }
        if !needsEscape {
            output += text
            output += "\""
            return
        }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "\u{08}": output += "\\b"
            case "\u{0C}": output += "\\f"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        output += "\""
    }
}

import SurveyCore

/// Finds the line and column of many JSON paths in one pass over the source text (the loader's
/// `SourceLocator` parses the document once per path, too slow for thousands of findings).
///
/// A path that does not exist resolves to its closest existing ancestor, as `SourceLocator` does.
struct SourceIndex {
    private var positions: [JSONPath: SourcePosition] = [:]

    /// Indexes the positions of `paths` (and their ancestors) in `text`.
    init(text: String, paths: Set<JSONPath>) {
        guard !paths.isEmpty else { return }
        var wanted = Set<[JSONPath.Component]>()
        for path in paths {
            var components = path.components
            while true {
                wanted.insert(components)
                if components.isEmpty { break }
                components.removeLast()
            }
        }
        var scanner = Scanner(bytes: Array(text.utf8), wanted: wanted)
        scanner.scanDocument()
        var found: [[JSONPath.Component]: SourcePosition] = scanner.found
        for path in paths {
            var components = path.components
            while found[components] == nil, !components.isEmpty { components.removeLast() }
            if let position = found[components] { positions[path] = position }
        }
        found.removeAll()
    }

    func position(of path: JSONPath) -> SourcePosition? { positions[path] }

    private struct Scanner {
        let bytes: [UInt8]
        let wanted: Set<[JSONPath.Component]>
        var found: [[JSONPath.Component]: SourcePosition] = [:]
        var index = 0
        var line = 1
        var column = 1
        var path: [JSONPath.Component] = []

        init(bytes: [UInt8], wanted: Set<[JSONPath.Component]>) {
            self.bytes = bytes
            self.wanted = wanted
        }

        mutating func scanDocument() {
            if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
            skipWhitespace()
            scanValue(depth: 0)
        }

        mutating func advance() {
            let byte = bytes[index]
            index += 1
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }

        mutating func skipWhitespace() {
            while index < bytes.count, [32, 9, 10, 13].contains(bytes[index]) { advance() }
        }

        /// Records the current position for the current path, then skips or descends into the value.
        mutating func scanValue(depth: Int) {
            guard index < bytes.count, depth < 512 else { return }
            let isWanted = wanted.contains(path)
            if isWanted { found[path] = SourcePosition(line: line, column: column) }
            switch bytes[index] {
            case UInt8(ascii: "{"):
                advance()
                skipWhitespace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "}") { return advance() }
                while index < bytes.count {
                    skipWhitespace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return }
                    let key = scanString()
                    skipWhitespace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return }
                    advance()
                    skipWhitespace()
                    path.append(.key(key))
                    if wanted.contains(path) { scanValue(depth: depth + 1) } else { skipValue() }
                    path.removeLast()
                    skipWhitespace()
                    guard index < bytes.count else { return }
                    if bytes[index] == UInt8(ascii: ",") {
                        advance()
                        continue
                    }
                    if bytes[index] == UInt8(ascii: "}") { advance() }
                    return
                }
            case UInt8(ascii: "["):
                advance()
                skipWhitespace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "]") { return advance() }
                var element = 0
                while index < bytes.count {
                    skipWhitespace()
                    path.append(.index(element))
                    if wanted.contains(path) { scanValue(depth: depth + 1) } else { skipValue() }
                    path.removeLast()
                    element += 1
                    skipWhitespace()
                    guard index < bytes.count else { return }
                    if bytes[index] == UInt8(ascii: ",") {
                        advance()
                        continue
                    }
                    if bytes[index] == UInt8(ascii: "]") { advance() }
                    return
                }
            case UInt8(ascii: "\""):
                _ = scanString()
            default:
                while index < bytes.count, !",}] \t\r\n".utf8.contains(bytes[index]) { advance() }
            }
        }

        /// Skips one value without recording anything below it.
        mutating func skipValue() {
            guard index < bytes.count else { return }
            if bytes[index] == UInt8(ascii: "\"") {
                _ = scanString()
                return
            }
            guard bytes[index] == UInt8(ascii: "{") || bytes[index] == UInt8(ascii: "[") else {
                while index < bytes.count, !",}] \t\r\n".utf8.contains(bytes[index]) { advance() }
                return
            }
            var depth = 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    _ = scanString()
                    continue
                }
                if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") { depth += 1 }
                if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
                    depth -= 1
                    if depth == 0 {
                        advance()
                        return
                    }
                }
                advance()
            }
        }

        /// Reads a string token (the current byte is its opening quote) and returns its text.
        mutating func scanString() -> String {
            advance()
            var text: [UInt8] = []
            var hasEscape = false
            while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                if bytes[index] == UInt8(ascii: "\\") {
                    hasEscape = true
                    text.append(bytes[index])
                    advance()
                    guard index < bytes.count else { break }
                }
                text.append(bytes[index])
                advance()
            }
            if index < bytes.count { advance() }
            let raw = String(decoding: text, as: UTF8.self)
            guard hasEscape else { return raw }
            // Object keys with escapes are rare; decode them through the real parser.
            if case .string(let decoded)? = try? JSONParser.parse("\"" + raw + "\"") { return decoded }
            return raw
        }
    }
}

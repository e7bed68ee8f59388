import SurveyCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a front end reads the respondent's lines from.
public protocol LineSource {
    /// The next line without its line break, or `nil` at the end of input.
    mutating func readLine() -> String?

    /// The next line, or the place of the first byte that is not UTF-8; `nil` at the end of input.
    /// Default: ``readLine()``, for sources that only hold text.
    mutating func readCheckedLine() -> CheckedLine?
}

extension LineSource {
    public mutating func readCheckedLine() -> CheckedLine? {
        readLine().map(CheckedLine.text)
    }
}

/// A line read from bytes: text, or not text.
public enum CheckedLine: Sendable, Hashable {
    case text(String)
    /// The line is not valid UTF-8; `byteOffset` is the 0-based offset of the first bad byte.
    case invalidUTF8(byteOffset: Int)
}

/// Lines from standard input, read as bytes so that input that is not UTF-8 is reported, not
/// silently replaced by U+FFFD. A line longer than 64 MiB is cut into 64 MiB pieces.
public struct StandardInputLines: LineSource {
    var buffer: [UInt8] = []
    var start = 0
    var isAtEnd = false

    /// Reads standard input.
    public init() {}

    public mutating func readLine() -> String? {
        switch readCheckedLine() {
        case .text(let text): return text
        case .invalidUTF8: return "\u{FFFD}"
        case nil: return nil
        }
    }

    public mutating func readCheckedLine() -> CheckedLine? {
        guard let bytes = nextLineBytes() else { return nil }
        var line = bytes[...]
        if line.last == 13 { line = line.dropLast() }
        if let text = String(validating: line, as: UTF8.self) { return .text(text) }
        return .invalidUTF8(byteOffset: UTF8Validation.firstInvalidOffset(in: line) ?? line.count)
    }

    /// The bytes up to the next line feed (without it), reading standard input as needed.
    mutating func nextLineBytes() -> [UInt8]? {
        while true {
            if let newline = buffer[start...].firstIndex(of: 10) {
                let line = Array(buffer[start..<newline])
                start = newline + 1
                return line
            }
            if isAtEnd || buffer.count - start >= 64 << 20 {
                guard start < buffer.count else { return nil }
                let line = Array(buffer[start...])
                buffer.removeAll(keepingCapacity: true)
                start = 0
                return line
            }
            if start > 0 {
                buffer.removeFirst(start)
                start = 0
            }
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            let count = chunk.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 {
                isAtEnd = true
            } else {
                buffer.append(contentsOf: chunk[..<count])
            }
        }
    }
}

/// Lines from memory, for tests and scripts.
public struct ArrayLineSource: LineSource {
    /// The lines not yet read.
    public private(set) var remaining: ArraySlice<String>

    /// Lines to hand out in order.
    public init(_ lines: [String]) {
        remaining = ArraySlice(lines)
    }

    /// The lines of `text` (split at line breaks; a final line break ends the last line).
    public init(text: String) {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if text.hasSuffix("\n") { lines.removeLast() }
        self.init(lines)
    }

    public mutating func readLine() -> String? {
        remaining.popFirst()
    }
}

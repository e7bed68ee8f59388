/// Where a front end reads the respondent's lines from.
public protocol LineSource {
    /// The next line without its line break, or `nil` at the end of input.
    mutating func readLine() -> String?
}

/// Lines from standard input.
public struct StandardInputLines: LineSource {
    /// Reads standard input.
    public init() {}

    public mutating func readLine() -> String? {
        Swift.readLine(strippingNewline: true)
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

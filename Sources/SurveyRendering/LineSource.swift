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
    /// The line is longer than `limit` bytes (without its line break): it was read to its end and
    /// dropped, so memory stays bounded. `byteCount` is its length.
    case tooLong(byteCount: Int, limit: Int)
}

/// Lines from standard input (or any file descriptor), read as bytes so that input that is not
/// UTF-8 is reported, not silently replaced by U+FFFD.
///
/// Reading is linear in the input: each byte is searched for a line break once, however long the
/// line. A line longer than ``maximumLineLength-swift.property`` (64 MiB, without its line break) is read to its
/// end and dropped, and reported as ``CheckedLine/tooLong(byteCount:limit:)``; memory stays below
/// the limit plus one read.
public struct StandardInputLines: LineSource {
    /// The longest line accepted by default, in bytes without its line break: 64 MiB.
    public static let maximumLineLength = 64 << 20

    /// The descriptor read from.
    public let descriptor: Int32
    /// The longest line accepted, in bytes without its line break.
    public let maximumLineLength: Int
    var buffer: [UInt8] = []
    /// Where the first unread line starts in `buffer`.
    var start = 0
    /// How far `buffer` has been searched for a line feed (never before `start`).
    var scanned = 0
    var isAtEnd = false
    /// A descriptor that, once readable, ends the input at once (see ``init(descriptor:maximumLineLength:stopDescriptor:)``).
    public let stopDescriptor: Int32?
    private var chunk = [UInt8](repeating: 0, count: 1 << 16)

    /// Reads standard input.
    public init() {
        self.init(descriptor: 0)
    }

    /// Reads `descriptor` (which stays open), refusing lines longer than `maximumLineLength` bytes.
    ///
    /// When `stopDescriptor` is given, the input ends as soon as that descriptor is readable (a byte
    /// written to a pipe, e.g. from a signal handler: the self-pipe pattern), even while waiting for
    /// a line; a line not yet ended is then dropped, never handed out half typed. So a front end can
    /// be told to quit (and save its session as at the end of input) from where nothing else may be
    /// done safely.
    ///
    /// ```swift
    /// var ends: [Int32] = [0, 0]
    /// pipe(&ends)  // a signal handler writes one byte to ends[1]
    /// var lines = StandardInputLines(descriptor: 0, stopDescriptor: ends[0])
    /// ```
    public init(
        descriptor: Int32, maximumLineLength: Int = StandardInputLines.maximumLineLength, stopDescriptor: Int32? = nil
    ) {
        self.descriptor = descriptor
        self.maximumLineLength = max(1, maximumLineLength)
        self.stopDescriptor = stopDescriptor
    }

    /// Whether `stopDescriptor` is readable; else waits until it or `descriptor` is.
    private func waitIsStopped() -> Bool {
        guard let stopDescriptor else { return false }
        var watched = [
            pollfd(fd: stopDescriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            let ready = poll(&watched, 2, -1)
            if ready < 0, errno == EINTR { continue }
            // A failed poll reads on: the read reports what is wrong with the input.
            if ready < 0 { return false }
            return watched[0].revents != 0
        }
    }

    public mutating func readLine() -> String? {
        switch readCheckedLine() {
        case .text(let text): return text
        case .invalidUTF8, .tooLong: return "\u{FFFD}"
        case nil: return nil
        }
    }

    public mutating func readCheckedLine() -> CheckedLine? {
        switch nextLine() {
        case nil: return nil
        case .tooLong(let count): return .tooLong(byteCount: count, limit: maximumLineLength)
        case .bytes(let bytes):
            var line = bytes[...]
            if line.last == 13 { line = line.dropLast() }
            if let text = String(validating: line, as: UTF8.self) { return .text(text) }
            return .invalidUTF8(byteOffset: UTF8Validation.firstInvalidOffset(in: line) ?? line.count)
        }
    }

    /// A line's bytes, or the length of a line that was too long.
    enum RawLine: Equatable {
        case bytes([UInt8])
        case tooLong(Int)
    }

    /// The bytes up to the next line feed (without it), reading the descriptor as needed.
    mutating func nextLine() -> RawLine? {
        // Bytes of an over-long line already thrown away.
        var dropped = 0
        while true {
            if let newline = firstLineFeed() {
                let length = newline - start
                let line: RawLine =
                    dropped > 0 || length > maximumLineLength
                    ? .tooLong(dropped + length) : .bytes(Array(buffer[start..<newline]))
                start = newline + 1
                scanned = start
                return line
            }
            scanned = buffer.count
            if buffer.count - start > maximumLineLength {
                dropped += buffer.count - start
                discardPending()
            }
            if isAtEnd {
                guard start < buffer.count || dropped > 0 else { return nil }
                let line: RawLine =
                    dropped > 0 ? .tooLong(dropped + buffer.count - start) : .bytes(Array(buffer[start...]))
                discardPending()
                return line
            }
            if start > 0 {
                // Only the unfinished line is moved, once per read: linear overall.
                buffer.removeFirst(start)
                scanned -= start
                start = 0
            }
            if waitIsStopped() {
                isAtEnd = true
                discardPending()
                return nil
            }
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 {
                isAtEnd = true
            } else {
                buffer.append(contentsOf: chunk[..<count])
            }
        }
    }

    /// The index of the first line feed at or after `scanned`.
    private func firstLineFeed() -> Int? {
        buffer.withUnsafeBufferPointer { bytes in
            guard let base = bytes.baseAddress, scanned < bytes.count,
                let found = memchr(base + scanned, 10, bytes.count - scanned)
            else { return nil }
            return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }
    }

    private mutating func discardPending() {
        buffer.removeAll(keepingCapacity: true)
        start = 0
        scanned = 0
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

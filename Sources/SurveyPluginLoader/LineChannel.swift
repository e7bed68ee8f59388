import SurveyCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// One end of the plugin host's pipe: JSON lines in, JSON lines out, with a timeout on reads.
struct LineChannel: ~Copyable {
    /// The longest line either side accepts: 64 MiB (a summary of many answers is the largest).
    static let maximumLineLength = 64 << 20

    let input: Int32
    let output: Int32
    private var buffer: [UInt8] = []
    /// Where the first unread line starts in `buffer`.
    private var start = 0
    /// How far `buffer` has been searched for a newline (never before `start`).
    private var scanned = 0
    private var chunk = [UInt8](repeating: 0, count: 1 << 16)

    init(input: Int32, output: Int32) {
        self.input = input
        self.output = output
    }

    /// What a read produced.
    enum Read {
        case line(String)
        /// The other side closed the connection (or died).
        case end
        case timeout
        case tooLong
        case failed(String)
    }

    /// The next line; waits at most `timeout` seconds (forever when `nil`).
    mutating func readLine(timeout: Double?) -> Read {
        let deadline = timeout.map { ContinuousClock.now + .milliseconds(Int64(($0 * 1000).rounded(.up))) }
        while true {
            if let newline = buffer[scanned...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[start..<newline], as: UTF8.self)
                // Lines after this one in the same read stay where they are: no copy per line.
                start = newline + 1
                scanned = start
                return .line(line)
            }
            scanned = buffer.count
            guard buffer.count - start <= Self.maximumLineLength else { return .tooLong }
            if start > 0 {
                // Only the unfinished line is moved, once per read: linear overall.
                buffer.removeFirst(start)
                scanned -= start
                start = 0
            }
            if let deadline {
                let remaining = deadline - .now
                guard remaining > .zero else { return .timeout }
                let milliseconds =
                    remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000 + 1
                var poller = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
                let ready = poll(&poller, 1, Int32(clamping: milliseconds))
                if ready < 0 {
                    if errno == EINTR { continue }
                    return .failed(String(cString: strerror(errno)))
                }
                if ready == 0 { continue }
            }
            let count = chunk.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                if errno == ECONNRESET { return .end }
                return .failed(String(cString: strerror(errno)))
            }
            if count == 0 { return .end }
            buffer += chunk[..<count]
        }
    }

    /// Writes `message` as one line; `false` when the other side has gone.
    func write(_ message: JSONValue) -> Bool {
        Self.write(JSONWriter.string(from: message) + "\n", to: output)
    }

    /// Writes all of `text` to `descriptor` without raising SIGPIPE on a socket.
    static func write(_ text: String, to descriptor: Int32) -> Bool {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            var written = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written < 0, errno == ENOTSOCK {
                written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            }
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            bytes = bytes.dropFirst(written)
        }
        return true
    }
}

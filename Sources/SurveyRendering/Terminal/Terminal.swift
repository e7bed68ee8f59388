#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the interactive front end reads keys from and learns the screen's size: a ``Terminal``,
/// or keys from memory in tests.
public protocol KeySource {
    /// The next keys pressed (at least one), or `nil` at the end of input.
    mutating func readKeys() -> [Key]?
    /// The screen's columns and rows.
    var size: (columns: Int, rows: Int) { get }
}

/// Keys from memory, for tests: each call hands out the next group.
public struct ScriptedKeys: KeySource {
    /// The groups not read yet.
    public private(set) var remaining: ArraySlice<[Key]>
    public let size: (columns: Int, rows: Int)

    /// Keys handed out one group per read, on a screen of `size`.
    public init(_ groups: [[Key]], size: (columns: Int, rows: Int) = (80, 24)) {
        remaining = ArraySlice(groups)
        self.size = size
    }

    /// Each key in its own read.
    public init(keys: [Key], size: (columns: Int, rows: Int) = (80, 24)) {
        self.init(keys.map { [$0] }, size: size)
    }

    public mutating func readKeys() -> [Key]? {
        remaining.popFirst()
    }
}

/// The terminal, for the interactive front end: the only code that changes the terminal's mode
/// (termios), reads raw key bytes and asks the window's size.
///
/// Invariants, which every way out keeps:
/// - Raw mode is entered by ``withRawMode(_:)`` only, and the mode found before is put back when
///   its body returns or throws; ``restoreAfterSignal()`` puts it back from a signal handler (it only
///   calls `tcsetattr` and `write`, both async-signal-safe, on memory allocated before raw mode), and
///   the handlers ``withRawMode(_:)`` installs for the crash signals (SIGSEGV, SIGBUS, SIGILL, SIGTRAP,
///   SIGABRT, SIGFPE) call it before the signal's default action ends the process.
/// - "Raw" here keeps output processing and signals (Ctrl-C still sends SIGINT, so a run ends
///   as it does in line mode, its session saved); it turns off line buffering, echo and the
///   translation of CR to LF.
public final class Terminal: KeySource {
    /// The descriptor keys are read from.
    public let input: Int32
    /// The descriptor the screen is written to.
    public let output: Int32
    /// When readable, the input ends (the self-pipe a signal handler writes to).
    public let stopDescriptor: Int32?
    var decoder = KeyDecoder()

    /// The mode to put back, kept where a signal handler can reach it without allocating.
    nonisolated(unsafe) static let saved: UnsafeMutablePointer<termios> = .allocate(capacity: 1)
    /// The descriptor whose mode is in ``saved`` (-1 when not in raw mode).
    nonisolated(unsafe) static var savedDescriptor: Int32 = -1
    /// The output descriptor, for showing the cursor again after a signal.
    nonisolated(unsafe) static var savedOutput: Int32 = -1

    /// The terminal on `input` and `output`; `nil` unless both are terminals.
    public init?(input: Int32 = 0, output: Int32 = 1, stopDescriptor: Int32? = nil) {
        guard isatty(input) != 0, isatty(output) != 0 else { return nil }
        self.input = input
        self.output = output
        self.stopDescriptor = stopDescriptor
    }

    /// Whether the interactive mode applies: standard input and output are terminals and `TERM`
    /// names one that can move the cursor (set, and not `dumb`).
    public static func isInteractive(environment: [String: String], input: Int32 = 0, output: Int32 = 1) -> Bool {
        guard let term = environment["TERM"], !term.isEmpty, term != "dumb" else { return false }
        return isatty(input) != 0 && isatty(output) != 0
    }

    /// Runs `body` with the terminal in raw mode and puts the mode found before back when it returns
    /// or throws (and, through the crash handlers, when the process crashes in it).
    /// - Throws: what `body` throws.
    public func withRawMode<Result>(_ body: () throws -> Result) rethrows -> Result {
        var original = termios()
        guard tcgetattr(input, &original) == 0 else { return try body() }
        Self.saved.pointee = original
        Self.savedOutput = output
        Self.savedDescriptor = input
        Self.installCrashHandlers()
        var raw = original
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO | IEXTEN)
        raw.c_iflag &= ~tcflag_t(ICRNL | IXON | INLCR | IGNCR)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        _ = tcsetattr(input, TCSAFLUSH, &raw)
        defer { restore() }
        return try body()
    }

    /// Puts the mode found by ``withRawMode(_:)`` back and shows the cursor.
    func restore() {
        Self.restoreAfterSignal()
    }

    /// Puts back the terminal's mode from before raw mode, if raw mode is on; safe in a signal
    /// handler (no allocation, no lock).
    public static func restoreAfterSignal() {
        let descriptor = savedDescriptor
        guard descriptor >= 0 else { return }
        savedDescriptor = -1
        _ = tcsetattr(descriptor, TCSAFLUSH, saved)
        if savedOutput >= 0 {
            // Show the cursor and reset colours.
            _ = systemWrite(savedOutput, "\u{1B}[0m\u{1B}[?25h", 10)
        }
    }

    nonisolated(unsafe) static var crashHandlersInstalled = false
    /// The actions found for the crash signals (the Swift runtime's backtracer), by signal number.
    nonisolated(unsafe) static let previousActions: UnsafeMutablePointer<sigaction> = .allocate(capacity: 64)

    /// On a crash signal: the terminal's mode back, then what was there before (the runtime's
    /// backtrace, or the signal's default action).
    static func installCrashHandlers() {
        guard !crashHandlersInstalled else { return }
        crashHandlersInstalled = true
        for number in [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE] {
            var action = sigaction()
            #if canImport(Glibc)
                action.__sigaction_handler.sa_handler = { received in
                    Terminal.restoreAfterSignal()
                    sigaction(received, Terminal.previousActions + Int(received), nil)
                    raise(received)
                }
            #else
                action.__sigaction_u.__sa_handler = { received in
                    Terminal.restoreAfterSignal()
                    sigaction(received, Terminal.previousActions + Int(received), nil)
                    raise(received)
                }
            #endif
            action.sa_flags = 0
            sigemptyset(&action.sa_mask)
            sigaction(number, &action, previousActions + Int(number))
        }
    }

    public var size: (columns: Int, rows: Int) {
        var window = winsize()
        if ioctl(output, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0 {
            return (Int(window.ws_col), Int(window.ws_row))
        }
        return (80, 24)
    }

    public func readKeys() -> [Key]? {
        var chunk = [UInt8](repeating: 0, count: 256)
        while true {
            guard waitReadable(timeout: -1) else { return nil }
            let count = chunk.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return nil }
            var bytes = Array(chunk[..<count])
            // The rest of an escape sequence or character arrives at once; a lone Escape does not.
            while true {
                let keys = decoder.decode(bytes, isFinal: false)
                if !decoder.hasPending {
                    if keys.isEmpty { break }
                    return keys
                }
                bytes = []
                if waitReadable(timeout: 50) {
                    let more = chunk.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
                    if more > 0 {
                        bytes = Array(chunk[..<more])
                        if !keys.isEmpty { return keys + decoder.decode(bytes, isFinal: false) }
                        continue
                    }
                }
                let rest = keys + decoder.decode([], isFinal: true)
                if !rest.isEmpty { return rest }
                break
            }
        }
    }

    /// Waits until the input is readable (`false` when the stop descriptor is, or `timeout`
    /// milliseconds passed; -1 waits for ever).
    func waitReadable(timeout: Int32) -> Bool {
        var watched = [pollfd(fd: input, events: Int16(POLLIN), revents: 0)]
        if let stopDescriptor { watched.append(pollfd(fd: stopDescriptor, events: Int16(POLLIN), revents: 0)) }
        while true {
            let ready = poll(&watched, nfds_t(watched.count), timeout)
            if ready < 0, errno == EINTR { continue }
            if ready <= 0 { return false }
            if watched.count > 1, watched[1].revents != 0 { return false }
            return watched[0].revents != 0
        }
    }

    /// Writes `text` to the terminal.
    public func write(_ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { systemWrite(output, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            if written <= 0 { return }
            bytes = bytes.dropFirst(written)
        }
    }
}

/// `write(2)`, named apart from ``Terminal/write(_:)``.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}

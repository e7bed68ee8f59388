import Foundation
import SurveyBuiltins
import SurveyCore
import SurveyDelivery
import SurveyPluginLoader
import SurveyRendering

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Exit codes: 0 success, 1 an input problem or a failed expectation, 2 wrong command-line usage.
enum ExitCode: Int32 {
    case success = 0
    case failure = 1
    case usage = 2
}

/// A problem with the input (a file, a survey, a script) or a failed expectation: exit code 1.
/// The message already names the file and place.
struct InputError: Error, CustomStringConvertible {
    var lines: [String]

    init(_ lines: [String]) { self.lines = lines }
    init(_ line: String) { self.lines = [line] }

    var description: String { lines.joined(separator: "\n") }
}

/// Standard output and error, unbuffered.
enum Console {
    /// Writes to standard output; when the reader has gone away (a closed pipe, `| head -1`), the
    /// program ends at once with status 141, as a process ended by SIGPIPE does. Everything
    /// acknowledged before is already in the response store.
    static func out(_ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                if errno == EPIPE { _exit(141) }
                return
            }
            bytes = bytes.dropFirst(written)
        }
    }

    static func line(_ text: String) {
        out(text + "\n")
    }

    static func error(_ text: String) {
        let bytes = Array((text + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }

    static var isOutputTerminal: Bool { isatty(1) != 0 }
}

/// The `--today` option, `nil` when it is not given.
/// - Throws: ``UsageError`` unless it is a real calendar date written `YYYY-MM-DD` (`2026-02-30`
///   is refused rather than passed on to `today()` and `age()`).
func today(_ arguments: ParsedArguments, command: String) throws(UsageError) -> String? {
    guard let text = arguments.value("--today") else { return nil }
    guard CivilDate(exactly: text) != nil else {
        throw UsageError("--today must be a real date written YYYY-MM-DD, got '\(text)'", command: command)
    }
    return text
}

/// Which plugins a command loads and where their calls run: `--plugin PATH...`,
/// `--isolate-plugins` and `--plugin-timeout SECONDS`.
struct PluginSelection {
    var paths: [String]
    var isolation: PluginIsolation?

    init(paths: [String], isolation: PluginIsolation? = nil) {
        self.paths = paths
        self.isolation = isolation
    }

    /// - Throws: ``UsageError`` for a timeout that is not a positive number of seconds, or one
    ///   given without `--isolate-plugins`.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        paths = arguments.all("--plugin")
        var timeout = PluginIsolation.defaultTimeout
        if let text = arguments.value("--plugin-timeout") {
            guard let value = Double(text), value.isFinite, value > 0, value <= 86_400 else {
                throw UsageError("--plugin-timeout must be a number of seconds above 0 (at most 86400), got '\(text)'")
            }
            guard arguments.flag("--isolate-plugins") else {
                throw UsageError("--plugin-timeout only applies with --isolate-plugins")
            }
            timeout = value
        }
        guard arguments.flag("--isolate-plugins") else { return }
        // The plugin host is this very program: `survey plugin-host FILE...`.
        let executable =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        isolation = PluginIsolation(executable: executable, timeout: timeout)
    }
}

/// What every command shares: the environment, plugins, registries, file reading.
struct CommandContext {
    var environment: [String: String]

    /// The respondent's locale: `--locale`, else `LC_ALL`, `LC_MESSAGES`, `LANG` (ignoring `C` and
    /// `POSIX`), else `nil` (the survey's default locale).
    func locale(option: String?) -> String? {
        if let option, !option.isEmpty { return option }
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            guard let value = environment[name], !value.isEmpty else { continue }
            let base = String(value.prefix { $0 != "." && $0 != "@" })
            if base == "C" || base == "POSIX" || base.isEmpty { continue }
            return base.replacingOccurrences(of: "_", with: "-")
        }
        return nil
    }

    /// The built-in types plus those of the plugins given with `--plugin` and found in the
    /// directories of `SURVEY_PLUGIN_PATH`.
    func registries(plugins: PluginSelection) throws(InputError) -> (QuestionTypeRegistry, ExpressionFunctionRegistry) {
        let (registry, functions, _) = try registriesAndPlugins(plugins: plugins)
        return (registry, functions)
    }

    /// The registries and the loaded plugins themselves (for their function signatures).
    func registriesAndPlugins(plugins: PluginSelection) throws(InputError) -> (
        QuestionTypeRegistry, ExpressionFunctionRegistry, [LoadedPlugin]
    ) {
        var registry = QuestionTypeRegistry.builtins()
        var functions = ExpressionFunctionRegistry.standard
        let loaded: [LoadedPlugin]
        do {
            loaded = try PluginLoader(isolation: plugins.isolation).load(paths: plugins.paths, environment: environment)
            try loaded.install(into: &registry, functions: &functions)
        } catch {
            throw InputError(error.description)
        }
        return (registry, functions, loaded)
    }

    /// The largest input file read (a survey, script or state): 512 MiB.
    static let maximumFileSize = 512 << 20

    /// The text of a file, or an input error naming it. Any readable stream works (a pipe, a FIFO,
    /// `<(command)`); a directory, an empty input, a file over ``maximumFileSize`` or text that is not
    /// UTF-8 is refused with a message that says so (and where, for bad UTF-8).
    func read(_ path: String) throws(InputError) -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw InputError("\(path): cannot read the file (\(String(cString: strerror(errno))))")
        }
        defer { close(descriptor) }
        var info = stat()
        let known = fstat(descriptor, &info) == 0
        if known, (info.st_mode & S_IFMT) == S_IFDIR {
            throw InputError("\(path): is a directory, not a file")
        }
        if known, (info.st_mode & S_IFMT) == S_IFREG, info.st_size > 0, info.st_size <= Self.maximumFileSize {
            if let text = try Self.readRegularFile(descriptor, size: Int(info.st_size), path: path) { return text }
            // The file changed size while it was read: read it again as a stream.
            guard lseek(descriptor, 0, SEEK_SET) == 0 else {
                throw InputError("\(path): the file changed while it was read")
            }
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw InputError("\(path): cannot read the file (\(String(cString: strerror(errno))))")
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[..<count])
            guard bytes.count <= Self.maximumFileSize else {
                throw InputError("\(path): the input is larger than \(Self.maximumFileSize >> 20) MiB")
            }
        }
        guard !bytes.isEmpty else { throw InputError("\(path): the file is empty") }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            // Located only when it fails: the standard library's check is the faster one.
            throw bytes.withUnsafeBufferPointer { Self.notUTF8(in: $0, path: path) }
                ?? InputError("\(path): the file is not UTF-8 text")
        }
        return text
    }

    /// A regular file of `size` bytes read straight into the string's own storage (one allocation
    /// the size of the file: reading in chunks into a growing array, then copying that into a
    /// string, touched three times the file's size, which a 100 MB survey pays in page faults).
    /// `nil` when the file is not `size` bytes long any more. A large file is read in pieces on all
    /// cores (`pread` into each piece of the one buffer): most of a read's time is the kernel giving
    /// the fresh buffer its pages and copying into them.
    static func readRegularFile(_ descriptor: Int32, size: Int, path: String) throws(InputError) -> String? {
        let outcome = ReadOutcome()
        let text = String(unsafeUninitializedCapacity: size) { buffer in
            guard let base = buffer.baseAddress else { return 0 }
            let pieces = size >= Self.parallelRead ? min(4, ProcessInfo.processInfo.activeProcessorCount) : 1
            // Each piece writes only its own range of the buffer, before concurrentPerform returns.
            nonisolated(unsafe) let target = base
            DispatchQueue.concurrentPerform(iterations: pieces) { piece in
                var offset = piece * size / pieces
                let end = (piece + 1) * size / pieces
                while offset < end {
                    let count = pread(descriptor, target + offset, end - offset, off_t(offset))
                    if count < 0 {
                        if errno == EINTR { continue }
                        outcome.fail(InputError("\(path): cannot read the file (\(String(cString: strerror(errno))))"))
                        return
                    }
                    // The file is shorter than it was.
                    if count == 0 { return outcome.markChanged() }
                    offset += count
                }
            }
            guard !outcome.isChanged, outcome.failure == nil else { return 0 }
            // Longer than it was?
            var extra: UInt8 = 0
            guard pread(descriptor, &extra, 1, off_t(size)) == 0 else {
                outcome.markChanged()
                return 0
            }
            if let problem = notUTF8(in: UnsafeBufferPointer(start: base, count: size), path: path) {
                outcome.fail(problem)
                return 0
            }
            return size
        }
        if let failure = outcome.failure { throw failure }
        return outcome.isChanged ? nil : text
    }

    /// Files this large (bytes) are read on all cores.
    static let parallelRead = 1 << 24

    /// What reading a file's pieces on several threads ran into.
    private final class ReadOutcome: @unchecked Sendable {
        private let lock = NSLock()
        private var storedFailure: InputError?
        private var storedChanged = false

        var failure: InputError? { lock.withLock { storedFailure } }
        var isChanged: Bool { lock.withLock { storedChanged } }

        func fail(_ error: InputError) { lock.withLock { storedFailure = storedFailure ?? error } }
        func markChanged() { lock.withLock { storedChanged = true } }
    }

    /// The error for text that is not UTF-8, naming `LINE:COL` of the first byte that is not part
    /// of valid UTF-8 (columns count characters), or `nil` when all of `bytes` is UTF-8.
    static func notUTF8(in bytes: UnsafeBufferPointer<UInt8>, path: String) -> InputError? {
        guard let offset = UTF8Validation.firstInvalidOffset(in: bytes) else { return nil }
        let before = bytes[..<offset]
        let lineStart = (before.lastIndex(of: 10)).map { $0 + 1 } ?? 0
        let line = 1 + before.lazy.filter { $0 == 10 }.count
        let column = 1 + bytes[lineStart..<offset].lazy.filter { $0 & 0xC0 != 0x80 }.count
        return InputError("\(path):\(line):\(column): the file is not UTF-8 text")
    }

    /// A JSON file, with syntax errors as `FILE:LINE:COL: message`.
    func readJSON(_ path: String) throws(InputError) -> JSONValue {
        let text = try read(path)
        do {
            return try JSONParser.parse(text)
        } catch {
            throw InputError("\(path):\(error.position): invalid JSON: \(error.message)")
        }
    }

    /// Loads and compiles a survey, every problem as `FILE:LINE:COL: message`.
    func loadSurvey(_ path: String, plugins: PluginSelection) throws(InputError) -> Survey {
        try loadSurveyAndTypes(path, plugins: plugins).survey
    }

    /// Loads and compiles a survey like ``loadSurvey(_:plugins:)``, also returning the registry of
    /// question types it was compiled with (to tell which plugin a type came from).
    func loadSurveyAndTypes(_ path: String, plugins: PluginSelection) throws(InputError) -> (
        survey: Survey, types: QuestionTypeRegistry
    ) {
        let (registry, functions) = try registries(plugins: plugins)
        let loader = SurveyLoader(registry: registry, functions: functions)
        let text = try readSurvey(path, with: loader)
        do {
            return (try SurveySource.load(text, file: path, with: loader), registry)
        } catch {
            throw InputError(error.errors.map(\.description))
        }
    }

    /// The text of survey `path`: a file, or an `http(s)://` URL fetched through the cache
    /// (conditionally; a copy that does not load with `loader` is never cached; offline or on a
    /// server error the cached copy is used, with a warning saying its age).
    func readSurvey(_ path: String, with loader: SurveyLoader) throws(InputError) -> String {
        guard RemoteFetcher.isRemote(path) else { return try read(path) }
        struct Refused: Error, CustomStringConvertible { var description: String }
        let document: RemoteFetcher.Document
        do throws(FetchError) {
            document = try SurveySource.fetcher.fetch(path) { body in
                guard let text = String(data: body, encoding: .utf8) else {
                    throw Refused(description: "not UTF-8 text")
                }
                do throws(SurveyLoadError) {
                    _ = try SurveySource.load(text, file: path, with: loader)
                } catch {
                    throw Refused(description: error.errors.first.map { $0.description } ?? "it does not load")
                }
            }
        } catch {
            throw InputError(error.description)
        }
        if let warning = document.warning { Console.error("warning: " + warning) }
        guard let text = String(data: document.body, encoding: .utf8) else {
            throw InputError("\(path): the survey is not UTF-8 text")
        }
        return text
    }

    /// Reads a saved session state.
    func readState(_ path: String) throws(InputError) -> SessionState {
        let text = try read(path)
        let json: JSONValue
        do {
            json = try JSONParser.parse(text)
        } catch {
            throw InputError("\(path):\(error.position): invalid JSON: \(error.message)")
        }
        do {
            return try SessionState(json: json)
        } catch {
            var located = error
            located.file = path
            if located.position == nil, let jsonPath = located.path {
                located.position = SourceLocator.position(of: jsonPath, in: text)
            }
            throw InputError(located.description)
        }
    }

    /// Fails early when `path` could not be written later (so that a respondent does not answer a
    /// whole survey before hearing that the result cannot be saved).
    func checkWritable(_ path: String) throws(InputError) {
        if FileManager.default.fileExists(atPath: path) {
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            guard !isDirectory.boolValue else { throw InputError("\(path): is a directory, not a file") }
            guard access(path, W_OK) == 0 else {
                throw InputError("\(path): cannot write the file (\(String(cString: strerror(errno))))")
            }
            return
        }
        let directory = (path as NSString).deletingLastPathComponent
        guard access(directory.isEmpty ? "." : directory, W_OK) == 0 else {
            throw InputError(
                "\(path): cannot create the file in '\(directory.isEmpty ? "." : directory)' (\(String(cString: strerror(errno))))"
            )
        }
    }

    /// Writes text to a file.
    func write(_ text: String, to path: String) throws(InputError) {
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        } catch {
            throw InputError("\(path): cannot write the file (\(Self.reason(error)))")
        }
    }

    static func reason(_ error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError,
            let message = String(validatingCString: strerror(Int32(underlying.code)))
        {
            return message
        }
        return nsError.localizedDescription
    }
}

/// What SIGINT, SIGTERM and SIGHUP do during `survey run`: say so on stderr and end at once with
/// 128 + the signal number (130, 143, 129). Nothing is lost that was acknowledged: the response
/// store has every acknowledged action (with `--no-store` there is nothing to keep). SIGPIPE is
/// ignored so that a closed output ends the run through ``Console/out(_:)`` with status 141.
enum SignalHandling {
    nonisolated(unsafe) static var message: UnsafeMutablePointer<CChar>?
    nonisolated(unsafe) static var messageLength = 0

    static func install(answersAreKept: Bool) {
        let text =
            answersAreKept
            ? "\nsurvey: stopped by a signal; every acknowledged answer is in the response store\n"
            : "\nsurvey: stopped by a signal; no store was used (--no-store), so the answers were not kept\n"
        message = strdup(text)
        messageLength = text.utf8.count
        signal(SIGPIPE, SIG_IGN)
        // A launcher may have started us with these blocked (a mask is inherited across exec, and
        // dispatch worker threads block every signal): unblock them, or they would never arrive.
        var set = sigset_t()
        sigemptyset(&set)
        for number in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&set, number) }
        sigprocmask(SIG_UNBLOCK, &set, nil)
        for number in [SIGINT, SIGTERM, SIGHUP] {
            signal(number) { received in
                if let message = SignalHandling.message { _ = write(2, message, SignalHandling.messageLength) }
                _exit(128 + received)
            }
        }
    }
}

/// Saves session states as JSON files.
struct FileStateStore: SessionStateStore {
    var path: String

    func save(_ state: SessionState) throws -> String {
        do {
            // A regular file (or a new one) is replaced atomically, so a crash never leaves half a state;
            // anything else (a pipe, /dev/null) is written in place, never replaced.
            var info = stat()
            let isSpecial = stat(path, &info) == 0 && (info.st_mode & S_IFMT) != S_IFREG
            try Data((JSONWriter.string(from: state.jsonValue, pretty: true) + "\n").utf8).write(
                to: URL(fileURLWithPath: path), options: isSpecial ? [] : .atomic)
        } catch {
            throw InputError("\(path): cannot write the session state (\(CommandContext.reason(error)))")
        }
        return path
    }
}

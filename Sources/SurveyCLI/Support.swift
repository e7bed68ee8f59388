import Foundation
import SurveyBuiltins
import SurveyCore
import SurveyImport
import SurveyPluginLoader
import SurveyRendering
import Synchronization

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
    /// `survey eligible`: the respondent would not be asked (docs/targeting.md).
    case skip = 3
    /// SIGHUP ended the run (after saving the session).
    case hangUp = 129
    /// SIGINT ended the run (after saving the session).
    case interrupted = 130
    /// SIGTERM ended the run (after saving the session).
    case terminated = 143
    /// Standard output was closed (as a process ended by SIGPIPE).
    case brokenPipe = 141
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
    /// Whether a closed standard output ends the program at once (status 141, as a process ended by
    /// SIGPIPE); when not, ``isOutputClosed`` turns true and output is dropped, so that `survey run`
    /// can save the session first (``UntilOutputCloses``).
    nonisolated(unsafe) static var endsAtClosedOutput = true
    /// Whether a write found standard output closed.
    nonisolated(unsafe) private(set) static var isOutputClosed = false

    /// Writes to standard output; when the reader has gone away (a closed pipe, `| head -1`), the
    /// program ends at once with status 141 (unless ``endsAtClosedOutput`` is off). Everything
    /// acknowledged before is already in the response store.
    /// Whether a line of standard output was begun and not ended (a signal's event then starts a new one).
    nonisolated(unsafe) static var isMidLine = false

    static func out(_ text: String) {
        guard !isOutputClosed else { return }
        var bytes = Array(text.utf8)[...]
        defer { isMidLine = bytes.isEmpty ? text.utf8.last.map { $0 != 10 } ?? isMidLine : true }
        if !bytes.isEmpty { isMidLine = true }
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                if errno == EPIPE {
                    if endsAtClosedOutput { _exit(141) }
                    isOutputClosed = true
                }
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

/// The lines of `base` until standard output is found closed, then the end of input: the front end
/// quits as at the end of input, so the session is saved before the program ends (with 141).
struct UntilOutputCloses<Base: LineSource>: LineSource {
    var base: Base

    init(_ base: Base) {
        self.base = base
    }

    mutating func readLine() -> String? {
        Console.isOutputClosed ? nil : base.readLine()
    }

    mutating func readCheckedLine() -> CheckedLine? {
        Console.isOutputClosed ? nil : base.readCheckedLine()
    }
}

/// The `--today` option, `nil` when it is not given.
/// - Throws: ``UsageError`` unless it is a real calendar date written `YYYY-MM-DD` (`2026-02-30`
///   is refused rather than passed on to `today()` and `age()`).
func today(_ arguments: ParsedArguments, command: String) throws(UsageError) -> String? {
    guard let text = arguments.value(todayOption) else { return nil }
    guard CivilDate(exactly: text) != nil else {
        throw UsageError("--today must be a real date written YYYY-MM-DD, got '\(text)'", command: command)
    }
    return text
}

/// Which plugins a command loads and where their calls run: `--plugin PATH...`,
/// `--isolate-plugins` and `--plugin-timeout SECONDS`.
/// `--data-shape`: the shape of a SurveyJS survey's results (``SurveyJSDataShape``).
enum DataShapeChoice {
    case surveyJS, engine

    init(_ arguments: ParsedArguments, command: String) throws(UsageError) {
        switch arguments.value(ifDeclared: dataShapeOption) ?? "surveyjs" {
        case "surveyjs": self = .surveyJS
        case "engine": self = .engine
        case let other: throw UsageError("--data-shape must be surveyjs or engine, got '\(other)'", command: command)
        }
    }
}

struct PluginSelection {
    var paths: [String]
    var isolation: PluginIsolation?
    /// `--lenient-expressions`: a SurveyJS survey's expressions that cannot be parsed are left out, as
    /// survey-core ignores them (``SurveySource/lenientExpressions``). It travels with the plugins
    /// because both are chosen where the survey is loaded.
    var lenientExpressions = false

    init(paths: [String], isolation: PluginIsolation? = nil) {
        self.paths = paths
        self.isolation = isolation
    }

    /// - Throws: ``UsageError`` for a timeout that is not a positive number of seconds, or one
    ///   given without `--isolate-plugins`.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        paths = arguments.all(pluginOption)
        lenientExpressions = arguments.flag(ifDeclared: lenientExpressionsOption)
        var timeout = PluginIsolation.defaultTimeout
        if let text = arguments.value(ifDeclared: pluginTimeoutOption) {
            guard let value = Double(text), value.isFinite, value > 0, value <= 86_400 else {
                throw UsageError("--plugin-timeout must be a number of seconds above 0 (at most 86400), got '\(text)'")
            }
            guard arguments.flag(ifDeclared: isolatePluginsOption) else {
                throw UsageError("--plugin-timeout only applies with --isolate-plugins")
            }
            timeout = value
        }
        guard arguments.flag(ifDeclared: isolatePluginsOption) else { return }
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

    /// The text of a file (``TextFile/read(_:maximumSize:)``: any readable stream, up to 512 MiB of
    /// UTF-8), or an input error naming it (and where, for bad UTF-8).
    func read(_ path: String) throws(InputError) -> String {
        do {
            return try TextFile.read(path)
        } catch {
            throw InputError(error.description)
        }
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
    func loadSurvey(_ path: String, plugins: PluginSelection, dataShape: DataShapeChoice = .surveyJS)
        throws(InputError) -> Survey
    {
        try loadSurveyAndTypes(path, plugins: plugins, dataShape: dataShape).survey
    }

    /// Loads and compiles a survey like ``loadSurvey(_:plugins:)``, also returning the registry of
    /// question types it was compiled with (to tell which plugin a type came from).
    func loadSurveyAndTypes(_ path: String, plugins: PluginSelection, dataShape: DataShapeChoice = .surveyJS)
        throws(InputError) -> (survey: Survey, types: QuestionTypeRegistry)
    {
        let (registry, functions) = try registries(plugins: plugins)
        var source = surveySource(SurveyLoader(registry: registry, functions: functions))
        source.givesSurveyJSDataShape = dataShape == .surveyJS
        source.lenientExpressions = plugins.lenientExpressions
        let text = try readSurvey(path, from: source)
        do {
            let survey = try source.load(text, file: path)
            KeptUntilExit.keep(survey)
            return (survey, registry)
        } catch {
            throw InputError(error.errors.map(\.description))
        }
    }

    /// The text of survey `path` (``SurveySource/read(_:)``): a file, or an `http(s)://` URL fetched
    /// through the cache (conditionally; a copy that does not load is never cached; offline or on a
    /// server error the cached copy is used, with a warning saying its age).
    func readSurvey(_ path: String, from source: SurveySource) throws(InputError) -> String {
        do {
            return try source.read(path)
        } catch {
            throw InputError(error.description)
        }
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

    /// Checks, before the first question, that the session can be saved to the state file `path`
    /// on quit: it holds no other unfinished session (unless it is the file being resumed), and it
    /// can be written (a regular file is replaced atomically, so its folder must be writable).
    /// - Throws: ``InputError`` naming the file and what to do.
    func checkStateFile(_ path: String, resumed: String?) throws(InputError) {
        let isResumed = resumed.map { Self.isSameFile($0, path) } ?? false
        if !isResumed, let saved = try? readState(path), saved.status == .inProgress {
            throw InputError(
                "\(path): holds an unfinished session of '\(saved.surveyID)'; continue it with "
                    + "--resume \(path), or choose another --state-file")
        }
        var info = stat()
        if stat(path, &info) == 0, (info.st_mode & S_IFMT) != S_IFREG {
            guard (info.st_mode & S_IFMT) != S_IFDIR else { throw InputError("\(path): is a directory, not a file") }
            guard access(path, W_OK) == 0 else {
                throw InputError(
                    "\(path): cannot write the session state there (\(String(cString: strerror(errno))))")
            }
            return
        }
        let parent = (path as NSString).deletingLastPathComponent
        let folder = parent.isEmpty ? "." : parent
        if let problem = Self.folderProblem(folder) {
            throw InputError(
                "\(path): cannot save the session state in '\(folder)' (\(problem)); choose another --state-file")
        }
    }

    /// Why no file can be created in `folder`, or `nil` when one can.
    static func folderProblem(_ folder: String) -> String? {
        var info = stat()
        guard stat(folder, &info) == 0 else { return String(cString: strerror(errno)) }
        guard (info.st_mode & S_IFMT) == S_IFDIR else { return "not a folder" }
        guard access(folder, W_OK) == 0 else { return String(cString: strerror(errno)) }
        return nil
    }

    /// Whether `first` and `second` name the same file (the same one when both exist, else the same path).
    static func isSameFile(_ first: String, _ second: String) -> Bool {
        var one = stat()
        var two = stat()
        if stat(first, &one) == 0, stat(second, &two) == 0 {
            return one.st_dev == two.st_dev && one.st_ino == two.st_ino
        }
        return URL(fileURLWithPath: first).standardizedFileURL.path
            == URL(fileURLWithPath: second).standardizedFileURL.path
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

/// Large surveys left for the process's exit to reclaim: freeing a compiled survey object by object
/// costs more than the exit that drops the whole address space at once (0.5 s of `survey validate`
/// on a 1,000,000-question survey). Only the last is kept, so a command that loads many surveys
/// holds at most one more than it uses; a survey of fewer than ``minimumSteps`` steps is freed as
/// usual (there is nothing to gain).
enum KeptUntilExit {
    static let minimumSteps = 10_000

    private static let kept = Mutex<Survey?>(nil)

    /// Keeps `survey` until the process exits when it is large, freeing the one kept before.
    static func keep(_ survey: Survey) {
        guard survey.stepCount >= minimumSteps else { return }
        let previous = kept.withLock { kept in
            defer { kept = survey }
            return kept
        }
        withExtendedLifetime(previous) {}  // freed here, outside the lock
    }
}

/// What SIGINT, SIGTERM and SIGHUP do during `survey run`: say so on stderr and end with 128 + the
/// signal number (130, 143, 129). Nothing is lost that was acknowledged: with a response store, it
/// has every acknowledged action and the run ends at once; without one (`--no-store`), the signal
/// ends the input instead (through ``stopDescriptor``, read by `StandardInputLines`), the front end
/// quits as at the end of input and saves the session to its state file, and then the run ends with
/// the signal's status (``stoppedBy``). A signal that comes while the session is being saved is held
/// (`StopSignals`, with a line on stderr) and the run still ends once the save is written, with the
/// first signal's status; the signal after it ends the run at once. `survey serve` holds none: its
/// second signal ends it at once. SIGPIPE is ignored so that a closed output ends the run through ``Console/out(_:)`` with status 141.
enum SignalHandling {
    nonisolated(unsafe) static var message: UnsafeMutablePointer<CChar>?
    nonisolated(unsafe) static var messageLength = 0

    /// The `failed` events written to stdout for SIGINT, SIGTERM and SIGHUP (in that order) when the
    /// run speaks the JSON-event protocol: made before any signal comes, since a handler may not allocate.
    nonisolated(unsafe) static var events: [(text: UnsafeMutablePointer<CChar>?, length: Int)] = []

    /// The read end of the pipe a signal writes to when the session is saved first (`-1` otherwise).
    nonisolated(unsafe) static var stopDescriptor: Int32 = -1
    nonisolated(unsafe) static var stopWriteDescriptor: Int32 = -1
    /// The signal that ended the input (0 while none came).
    nonisolated(unsafe) static var received: Int32 = 0
    /// How many stop signals came (the handler counts them; an atomic, as one handler may interrupt another).
    static let count = Atomic<Int>(0)
    /// Whether signals after the first are held while the session is saved (`survey run`), and the
    /// line that says so.
    nonisolated(unsafe) static var holdsWhileSaving = false
    nonisolated(unsafe) static var holdMessage: UnsafeMutablePointer<CChar>?
    nonisolated(unsafe) static var holdMessageLength = 0

    /// The signal that stopped the input, when one did: the run saved its session and ends with
    /// 128 + its number.
    static var stoppedBy: (number: Int32, name: String)? {
        switch received {
        case SIGINT: (SIGINT, "SIGINT")
        case SIGTERM: (SIGTERM, "SIGTERM")
        case SIGHUP: (SIGHUP, "SIGHUP")
        default: nil
        }
    }

    /// Installs the handlers.
    /// - Parameters:
    ///   - answersAreKept: a response store keeps every acknowledged action (the run ends at once).
    ///   - writesEvents: the run speaks the JSON-event protocol (a signal that ends it at once writes
    ///     the `failed` event).
    ///   - savesFirst: without a store, a signal ends the input so the session is saved before the
    ///     run ends; read ``stopDescriptor`` with the input.
    ///   - holdsWhileSaving: with `savesFirst`, a signal that comes while the session is saved is
    ///     held (`StopSignals`) instead of ending the run before the state file is written.
    static func install(
        answersAreKept: Bool, writesEvents: Bool = false, savesFirst: Bool = false, holdsWhileSaving: Bool = false
    ) {
        let kept =
            answersAreKept
            ? "every acknowledged answer is in the response store"
            : "no store was used (--no-store), so the answers were not kept"
        let text = "\nsurvey: stopped by a signal; \(kept)\n"
        message = strdup(text)
        messageLength = text.utf8.count
        if writesEvents {
            events = [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM"), (SIGHUP, "SIGHUP")].map { number, name in
                let line =
                    JSONWriter.string(
                        from: EventProtocol.failed(
                            code: "stoppedBySignal", message: "stopped by \(name); \(kept)", exitCode: 128 + number))
                    + "\n"
                return (strdup(line), line.utf8.count)
            }
        }
        if savesFirst, holdsWhileSaving {
            self.holdsWhileSaving = true
            let line =
                "\nsurvey: saving the session first; the run ends once it is saved (another signal ends it now)\n"
            holdMessage = strdup(line)
            holdMessageLength = line.utf8.count
        }
        if savesFirst {
            var ends: [Int32] = [-1, -1]
            if pipe(&ends) == 0 {
                for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
                // The handler never blocks on a full pipe.
                _ = fcntl(ends[1], F_SETFL, O_NONBLOCK)
                stopDescriptor = ends[0]
                stopWriteDescriptor = ends[1]
            }
        }
        signal(SIGPIPE, SIG_IGN)
        // A launcher may have started us with these blocked (a mask is inherited across exec, and
        // dispatch worker threads block every signal): unblock them, or they would never arrive.
        var set = sigset_t()
        sigemptyset(&set)
        for number in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&set, number) }
        sigprocmask(SIG_UNBLOCK, &set, nil)
        for number in [SIGINT, SIGTERM, SIGHUP] {
            signal(number) { received in
                // Without a store, the first signal ends the input: the session is saved, then the run
                // ends. One that comes while it is saved is held, so the state file is written first.
                if SignalHandling.stopWriteDescriptor >= 0 {
                    let count = SignalHandling.count.wrappingAdd(1, ordering: .sequentiallyConsistent).newValue
                    switch StopSignals.action(forSignal: count) {
                    case .endInput:
                        SignalHandling.received = received
                        _ = write(SignalHandling.stopWriteDescriptor, "x", 1)
                        return
                    case .hold where SignalHandling.holdsWhileSaving:
                        if let line = SignalHandling.holdMessage {
                            _ = write(2, line, SignalHandling.holdMessageLength)
                        }
                        return
                    case .hold, .endNow: break
                    }
                }
                // The terminal's mode back first (the interactive mode's raw mode), then the message.
                Terminal.restoreAfterSignal()
                if let message = SignalHandling.message { _ = write(2, message, SignalHandling.messageLength) }
                let slot = received == SIGINT ? 0 : received == SIGTERM ? 1 : 2
                if slot < SignalHandling.events.count, let event = SignalHandling.events[slot].text {
                    // A line cut short by the signal is ended first, so the event is a line of its own.
                    if Console.isMidLine { _ = write(1, "\n", 1) }
                    _ = write(1, event, SignalHandling.events[slot].length)
                }
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

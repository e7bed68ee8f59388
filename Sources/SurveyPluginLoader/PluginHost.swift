import SurveyCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Runs every plugin call in a child process (`--isolate-plugins`), so a plugin that crashes or
/// loops costs the call a clear error instead of ending the session: the child is replaced and the
/// next call goes on. The wire protocol is in docs/plugin-abi.md ("Isolated plugins").
///
/// ```swift
/// let isolation = PluginIsolation(executable: "/usr/local/bin/survey")   // runs `survey plugin-host FILE...`
/// let plugins = try PluginLoader(isolation: isolation).load(paths: ["libcolor.so"], environment: environment)
/// ```
public struct PluginIsolation: Sendable {
    /// The default longest time one plugin call may take: 5 seconds.
    public static let defaultTimeout = 5.0

    /// The program that serves the calls, normally the `survey` binary itself.
    public var executable: String
    /// Its arguments before the plugin files (default `["plugin-host"]`).
    public var arguments: [String]
    /// How long one call may take (seconds) before the child is stopped and the call fails.
    /// Starting the child and loading the plugins may take at least 10 seconds.
    public var timeout: Double

    /// Describes how to start the plugin host.
    public init(executable: String, arguments: [String] = ["plugin-host"], timeout: Double = Self.defaultTimeout) {
        self.executable = executable
        self.arguments = arguments
        self.timeout = timeout
    }
}

/// The parent's side of the plugin host: starts the child, sends one request at a time, and
/// replaces the child when it crashes, hangs or exits. Thread-safe (calls are serialised).
final class PluginHostConnection: Sendable {
    let isolation: PluginIsolation
    let files: [String]
    let environment: [String: String]
    let diagnostics: @Sendable (String) -> Void

    private struct Child: ~Copyable {
        var pid: pid_t
        var channel: LineChannel
    }

    private struct State: ~Copyable {
        var child: Child?
        /// What the first child said it loaded: a replacement must load the same.
        var hello: String?
    }

    private let state = Mutex<State>(State(child: nil, hello: nil))

    init(
        isolation: PluginIsolation, files: [String], environment: [String: String],
        diagnostics: @escaping @Sendable (String) -> Void
    ) {
        self.isolation = isolation
        self.files = files
        self.environment = environment
        self.diagnostics = diagnostics
    }

    deinit {
        state.withLock { state in
            if let child = state.child.take() { Self.stop(child, kill: true) }
        }
    }

    /// Starts the child and returns the plugins it loaded (the `plugins` member of its hello).
    func start() throws(PluginError) -> [JSONValue] {
        let result: Result<[JSONValue], PluginError> = state.withLock { state in
            do throws(PluginError) {
                try ensureChild(&state)
                let hello = try? JSONParser.parse(state.hello ?? "")
                return .success(hello?["plugins"]?.arrayValue ?? [])
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Sends `request` and waits for its reply; `label` names the call in failure messages
    /// ("normalize", "function 'bmi'"). A failure is a message for the operator.
    func request(_ request: JSONValue, label: String) -> Result<JSONValue, HostFailure> {
        state.withLock { state in
            do throws(PluginError) {
                try ensureChild(&state)
            } catch {
                return .failure(HostFailure(message: "the plugin host could not start again: \(error.message)"))
            }
            guard var child = state.child.take() else {
                return .failure(HostFailure(message: "the plugin host is not running"))
            }
            guard child.channel.write(request) else {
                return .failure(HostFailure(message: Self.stop(child, kill: true, during: label)))
            }
            while true {
                switch child.channel.readLine(timeout: isolation.timeout) {
                case .line(let text):
                    guard let reply = try? JSONParser.parse(text) else {
                        let message = "the plugin host sent a line that is not JSON: \(PluginLibrary.excerpt(text))"
                        _ = Self.stop(child, kill: true)
                        return .failure(HostFailure(message: message))
                    }
                    if let line = reply["log"]?.stringValue {
                        diagnostics(line)
                        continue
                    }
                    state.child = consume child
                    return .success(reply)
                case .end:
                    return .failure(
                        HostFailure(message: Self.stop(child, kill: false, during: label), reason: .ended))
                case .timeout:
                    _ = Self.stop(child, kill: true)
                    return .failure(
                        HostFailure(
                            message:
                                "\(label) did not answer within \(Self.seconds(isolation.timeout)) s; the plugin host was stopped and restarts for the next call",
                            reason: .timedOut))
                case .tooLong:
                    _ = Self.stop(child, kill: true)
                    return .failure(HostFailure(message: "\(label) sent a reply over 64 MiB"))
                case .failed(let reason):
                    _ = Self.stop(child, kill: true)
                    return .failure(HostFailure(message: "reading the plugin host's reply failed (\(reason))"))
                }
            }
        }
    }

    /// Why a call through the host failed.
    struct HostFailure: Error {
        /// How the call ended, for the plugin checker's rules.
        enum Reason {
            /// The child ended during the call: it crashed (a signal) or exited.
            case ended
            /// The call did not answer within the timeout; the child was killed.
            case timedOut
            /// Anything else: the child could not start, or broke the protocol.
            case other
        }

        var message: String
        var reason: Reason = .other
    }

    // MARK: the child

    private func ensureChild(_ state: inout State) throws(PluginError) {
        guard state.child == nil else { return }
        var child = try spawn()
        let startTimeout = max(isolation.timeout, 10)
        while true {
            switch child.channel.readLine(timeout: startTimeout) {
            case .line(let text):
                guard let hello = try? JSONParser.parse(text) else {
                    Self.stop(child, kill: true)
                    throw hostError("the plugin host sent a line that is not JSON: \(PluginLibrary.excerpt(text))")
                }
                if let line = hello["log"]?.stringValue {
                    diagnostics(line)
                    continue
                }
                if let problem = hello["loadError"] {
                    Self.stop(child, kill: false)
                    throw PluginError(
                        PluginError.Kind(rawValue: problem["kind"]?.stringValue ?? "") ?? .hostFailure,
                        path: problem["path"]?.stringValue ?? isolation.executable,
                        problem["message"]?.stringValue ?? "the plugin host could not load the plugin")
                }
                guard hello["plugins"]?.arrayValue != nil else {
                    Self.stop(child, kill: true)
                    throw hostError("the plugin host did not start with a hello line: \(PluginLibrary.excerpt(text))")
                }
                if let first = state.hello, first != text {
                    Self.stop(child, kill: true)
                    throw hostError("the plugin files changed since they were loaded; restart the survey")
                }
                state.hello = text
                state.child = consume child
                return
            case .end:
                throw hostError(Self.stop(child, kill: false, during: "start-up"))
            case .timeout:
                Self.stop(child, kill: true)
                throw hostError("the plugin host did not start within \(Self.seconds(startTimeout)) s")
            case .tooLong, .failed:
                Self.stop(child, kill: true)
                throw hostError("the plugin host's first line could not be read")
            }
        }
    }

    private func hostError(_ message: String) -> PluginError {
        PluginError(.hostFailure, path: files.first ?? isolation.executable, message)
    }

    private func spawn() throws(PluginError) -> Child {
        var sockets: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &sockets) == 0 else {
            throw hostError("cannot create the plugin host's socket (\(String(cString: strerror(errno))))")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, sockets[1], 0)
        posix_spawn_file_actions_adddup2(&actions, sockets[1], 1)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The child starts with no signal blocked (a dispatch thread blocks them all) and the default
        // actions, whatever the parent installed.
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in [SIGPIPE, SIGINT, SIGTERM, SIGHUP] { sigaddset(&defaults, number) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argumentStrings = [isolation.executable] + isolation.arguments + files
        var childEnvironment = environment
        // A crash is reported in one line by the parent; the Swift runtime's backtrace of the child
        // (pages of it) only when asked for with SWIFT_BACKTRACE.
        if childEnvironment["SWIFT_BACKTRACE"] == nil { childEnvironment["SWIFT_BACKTRACE"] = "enable=no" }
        let environmentStrings = childEnvironment.map { "\($0.key)=\($0.value)" }
        var argv = argumentStrings.map { strdup($0) } + [nil]
        var envp = environmentStrings.map { strdup($0) } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid = pid_t()
        let status = posix_spawn(&pid, isolation.executable, &actions, &attributes, &argv, &envp)
        close(sockets[1])
        guard status == 0 else {
            close(sockets[0])
            throw hostError(
                "cannot start the plugin host \(isolation.executable) (\(String(cString: strerror(status))))")
        }
        return Child(pid: pid, channel: LineChannel(input: sockets[0], output: sockets[0]))
    }

    /// Ends `child` (with SIGKILL when `kill`), reaps it and says how it ended.
    @discardableResult
    private static func stop(_ child: consuming Child, kill: Bool, during label: String = "") -> String {
        if kill { Glibc.kill(child.pid, SIGKILL) }
        close(child.channel.input)
        var status: Int32 = 0
        while waitpid(child.pid, &status, 0) < 0, errno == EINTR {}
        let how: String
        if status & 0x7f == 0 {
            how = "exited with status \((status >> 8) & 0xff)"
        } else {
            let signal = status & 0x7f
            let name = strsignal(signal).map { String(cString: $0) } ?? "signal"
            how = "crashed (signal \(signal), \(name))"
        }
        return "the plugin host \(how) during \(label); it restarts for the next call"
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}

/// A question type whose callbacks run in the plugin host child process.
struct IsolatedTypeChannel: PluginTypeChannel {
    let host: PluginHostConnection
    /// The plugin's position in the host's file list.
    let plugin: Int
    let typeID: String
    let path: String
    let callbacks: Set<PluginCallback>

    func provides(_ callback: PluginCallback) -> Bool { callbacks.contains(callback) }

    func call(_ callback: PluginCallback, options: String, argument: String?) -> PluginReply {
        let request: JSONValue = [
            "call": .string(callback.rawValue), "plugin": .number(Double(plugin)), "type": .string(typeID),
            "options": .string(options), "argument": argument.map(JSONValue.string) ?? .null,
        ]
        switch host.request(request, label: callback.rawValue) {
        case .success(let reply):
            if let json = reply["json"] { return .json(json) }
            if let failure = reply["failure"] {
                return .failure(
                    PluginError.Kind(rawValue: failure["kind"]?.stringValue ?? "") ?? .pluginReportedError,
                    failure["message"]?.stringValue ?? "\(callback.rawValue) failed")
            }
            return .failure(.hostFailure, "the plugin host's reply has neither json nor failure")
        case .failure(let failure):
            return .failure(.hostFailure, failure.message)
        }
    }

    func log(_ message: String) { host.diagnostics("\(path): \(message)") }
}

extension PluginLoader {
    /// This process's environment, for a plugin host started without one.
    static var processEnvironment: [String: String] {
        var result: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            entry += 1
        }
        return result
    }

    /// Loads `files` into a plugin host child process and wraps what it reports.
    func loadIsolated(files: [String], isolation: PluginIsolation, environment: [String: String])
        throws(PluginError) -> [LoadedPlugin]
    {
        guard !files.isEmpty else { return [] }
        let host = PluginHostConnection(
            isolation: isolation, files: files, environment: environment, diagnostics: diagnostics)
        let described = try host.start()
        guard described.count == files.count else {
            throw PluginError(
                .hostFailure, path: files[0],
                "the plugin host loaded \(described.count) plugins, not the \(files.count) it was given")
        }
        var plugins: [LoadedPlugin] = []
        for (index, (file, plugin)) in zip(files, described).enumerated() {
            var types: [AnyQuestionType] = []
            var schemas: [String: JSONValue] = [:]
            for type in plugin["types"]?.arrayValue ?? [] {
                guard let id = type["id"]?.stringValue else { continue }
                var optionsSchema: OptionsSchema?
                if let schema = type["optionsSchema"], !schema.isNull {
                    schemas[id] = schema
                    do {
                        optionsSchema = try OptionsSchema(schema)
                    } catch {
                        throw PluginError(
                            .invalidDescriptor, path: file,
                            "the options_schema of question type '\(id)': \(error.message)")
                    }
                }
                let callbacks = Set(
                    (type["callbacks"]?.arrayValue ?? []).compactMap { name in
                        name.stringValue.flatMap(PluginCallback.init(rawValue:))
                    })
                let channel = IsolatedTypeChannel(
                    host: host, plugin: index, typeID: id, path: file, callbacks: callbacks)
                let wrapper = PluginQuestionType(
                    channel: channel, optionsSchema: optionsSchema, typeID: id,
                    summary: type["summary"]?.stringValue ?? "",
                    collectsAnswer: type["collectsAnswer"]?.boolValue ?? true)
                types.append(AnyQuestionType(wrapper, origin: file))
            }
            var functions: [ExpressionFunction] = []
            var signatures: [String: String] = [:]
            for function in plugin["functions"]?.arrayValue ?? [] {
                guard let name = function["name"]?.stringValue, let arity = function["arity"]?.intValue, arity >= 0
                else { continue }
                signatures[name.lowercased()] = function["signature"]?.stringValue ?? name
                let diagnostics = self.diagnostics
                functions.append(
                    ExpressionFunction(name: name, arity: arity...arity, origin: file) { arguments, _ in
                        let request: JSONValue = [
                            "function": .string(name), "plugin": .number(Double(index)), "arguments": .array(arguments),
                        ]
                        switch host.request(request, label: "function '\(name)'") {
                        case .success(let reply):
                            return reply["value"] ?? .null
                        case .failure(let failure):
                            diagnostics("\(file): function '\(name)': \(failure.message)")
                            return .null
                        }
                    })
            }
            plugins.append(
                LoadedPlugin(
                    path: file, name: plugin["name"]?.stringValue ?? file,
                    version: plugin["version"]?.stringValue ?? "",
                    questionTypes: types, functions: functions, optionsSchemas: schemas,
                    functionSignatures: signatures,
                    abiMinor: UInt32(clamping: plugin["abiMinor"]?.intValue ?? 0), inProcess: LoadedPlugin.InProcess()))
        }
        return plugins
    }
}

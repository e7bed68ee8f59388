import Foundation
import SurveyCore
import SurveyResponses
import SurveyServer

#if canImport(Glibc)
    import Glibc
#endif

// MARK: serve

enum ServeCommand: Command {
    /// The options only this command declares, read by these constants.
    enum Options {
        static let listen = CommandSpec.Option(
            name: "--listen", valueName: "HOST:PORT",
            help:
                "Where to listen (default 127.0.0.1:8080: this machine only). 0.0.0.0:PORT or [::]:PORT is reachable from other machines, without TLS; port 0 takes a free one."
        )
        static let threads = CommandSpec.Option(
            name: "--threads", valueName: "N", help: "Threads answering requests (default 8).")
        static let storeConnections = CommandSpec.Option(
            name: "--store-connections", valueName: "N",
            help:
                "Connections to the store that sessions are spread over (default 1); several let PostgreSQL commit several respondents' answers at once."
        )
        static let sessionSecretFile = CommandSpec.Option(
            name: "--session-secret-file", valueName: "PATH",
            help:
                "The key session tokens are signed with (at least 32 bytes; else $SURVEY_SERVE_SESSION_SECRET). Give every server of one store the same key, and a respondent's requests may reach any of them; without one, tokens are valid in this process only."
        )
        static let apiTokenFile = CommandSpec.Option(
            name: "--api-token-file", valueName: "PATH",
            help:
                "API tokens, one per line (else $SURVEY_SERVE_API_TOKENS, separated by commas): each request of the JSON API must then carry one in Authorization: Bearer TOKEN."
        )
        static let respondentSecretFile = CommandSpec.Option(
            name: "--respondent-secret-file", valueName: "PATH",
            help:
                "The secret respondent ids are signed with (at least 32 bytes; else $SURVEY_SERVE_RESPONDENT_SECRET): POST /v1/sessions must then carry respondentSignature, the hex HMAC-SHA-256 of respondentId."
        )
    }

    /// The API tokens from `--api-token-file` (one per line; empty lines and `#` comments left out),
    /// else from `SURVEY_SERVE_API_TOKENS` (separated by commas); none when neither is given.
    static func apiTokens(_ arguments: ParsedArguments) throws -> [String] {
        let text: String
        let origin: String
        var separators: Set<Character> = ["\n", "\r"]
        if let path = arguments.value(Options.apiTokenFile) {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw InputError("survey serve: --api-token-file: cannot read \(path)")
            }
            text = String(decoding: data, as: UTF8.self)
            origin = "--api-token-file \(path)"
        } else if let value = ProcessInfo.processInfo.environment["SURVEY_SERVE_API_TOKENS"] {
            text = value
            origin = "$SURVEY_SERVE_API_TOKENS"
            separators.insert(",")
        } else {
            return []
        }
        let tokens = text.split(whereSeparator: { separators.contains($0) })
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
        guard !tokens.isEmpty else {
            throw UsageError("\(origin) holds no API token", command: spec.name)
        }
        for (index, token) in tokens.enumerated() {
            guard token.utf8.count >= 16,
                token.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 32 && $0.value < 127 })
            else {
                throw UsageError(
                    "\(origin): API token \(index + 1) must be at least 16 printable ASCII characters without spaces",
                    command: spec.name)
            }
        }
        return tokens
    }

    /// A secret from the file `option` names, else from the environment variable `variable`; `nil`
    /// when neither is given. Never printed.
    static func secret(
        _ arguments: ParsedArguments, _ option: CommandSpec.Option, variable: String, minimumBytes: Int
    ) throws -> [UInt8]? {
        var secret: [UInt8]
        var origin: String
        if let path = arguments.value(option) {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw InputError("survey serve: \(option.name): cannot read \(path)")
            }
            secret = Array(data)
            origin = "\(option.name) \(path)"
        } else if let value = ProcessInfo.processInfo.environment[variable], !value.isEmpty {
            secret = Array(value.utf8)
            origin = "$\(variable)"
        } else {
            return nil
        }
        // A trailing line break (as editors and `echo` write) is not part of the secret.
        while let last = secret.last, last == UInt8(ascii: "\n") || last == UInt8(ascii: "\r") { secret.removeLast() }
        guard secret.count >= minimumBytes else {
            throw UsageError(
                "\(origin) holds \(secret.count) bytes; a secret needs at least \(minimumBytes) (e.g. openssl rand -hex 32)",
                command: spec.name)
        }
        return secret
    }

    static let spec = CommandSpec(
        name: "serve", summary: "Serve surveys over HTTP: the JSON-event protocol as a JSON API for apps.",
        usage: "serve FILE|URL... [--listen 127.0.0.1:8080] [--store PATH|URL | --no-store] [--plugin PATH]...",
        positionalHelp: [("FILE|URL", "The surveys to serve (JSON files or http(s) URLs), each with its own id.")],
        options: [
            Options.listen, Options.threads, Options.storeConnections, Options.sessionSecretFile, Options.apiTokenFile,
            Options.respondentSecretFile, storeOption, noStoreOption, dataShapeOption,
            pluginOption,
            isolatePluginsOption, lenientExpressionsOption,
            pluginTimeoutOption,
        ],
        minimumPositionals: 1, maximumPositionals: nil,
        discussion: """
            Browsers get web pages at / (plain forms, JavaScript not needed). The API is under /v1 (docs/http-api.md): POST /v1/sessions starts or continues a respondent's
            session, POST /v1/sessions/TOKEN/commands sends the JSON-event protocol's commands and returns
            their events, GET /v1/sessions/TOKEN shows the current step again, GET /v1/health and /v1/ready.
            Every accepted command is in the response store before its response is sent. Several servers
            may share one store (PostgreSQL, or one SQLite file): with one --session-secret-file, any of
            them continues a session from the store. With --api-token-file the JSON API requires
            Authorization: Bearer TOKEN; with --respondent-secret-file, respondent ids signed by the app's
            backend (docs/http-api.md, Authorization). The server prints its URL and
            runs until SIGINT (Ctrl-C) or SIGTERM, which stop it after the requests being answered.
            With --no-store, responses are kept in memory only, and lost when the server stops.
            There is no TLS: to reach it from other machines, put a reverse proxy such as nginx in front.
            """)

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        let listen = arguments.value(Options.listen) ?? "127.0.0.1:8080"
        let threadsText = arguments.value(Options.threads)
        let plugins = try PluginSelection(arguments)
        let dataShape = try DataShapeChoice(arguments, command: spec.name)
        let storeChoice = try context.storeChoice(arguments, command: spec.name, defaultToStore: true)
        let address: ListenAddress
        do {
            address = try ListenAddress(parsing: listen)
        } catch {
            throw UsageError("--listen: \(error.message)", command: spec.name)
        }
        var threads = 8
        if let threadsText {
            guard let value = Int(threadsText), (1...256).contains(value) else {
                throw UsageError(
                    "--threads must be a whole number from 1 to 256, got '\(threadsText)'", command: spec.name)
            }
            threads = value
        }
        let sessionSecret = try secret(
            arguments, Options.sessionSecretFile, variable: "SURVEY_SERVE_SESSION_SECRET", minimumBytes: 32)
        let access = SurveyAPI.Access(
            apiTokens: try apiTokens(arguments),
            respondentSecret: try secret(
                arguments, Options.respondentSecretFile, variable: "SURVEY_SERVE_RESPONDENT_SECRET", minimumBytes: 32))
        var surveys: [Survey] = []
        for file in arguments.positionals {
            surveys.append(try context.loadSurvey(file, plugins: plugins, dataShape: dataShape))
        }
        var connections = 1
        if let text = arguments.value(Options.storeConnections) {
            guard let value = Int(text), (1...64).contains(value) else {
                throw UsageError(
                    "--store-connections must be a whole number from 1 to 64, got '\(text)'", command: spec.name)
            }
            connections = value
        }
        let store: any ResponseStore
        var moreConnections: [any ResponseStore] = []
        var kept = "every acknowledged answer is in the response store"
        switch storeChoice {
        case .location(let location, let isDefault):
            store = try context.openStore(location, isDefault: isDefault)
            for _ in 1..<connections { moreConnections.append(try context.openStore(location, isDefault: isDefault)) }
        case .none:
            store = InMemoryResponseStore()
            kept = "no store was used (--no-store), so the answers were not kept"
        }
        // The first SIGINT or SIGTERM ends the wait below; the server then stops in order.
        SignalHandling.install(answersAreKept: storeChoice.isStore, savesFirst: true)
        let service: SurveyService
        do {
            service = try SurveyService(
                surveys: surveys, store: store,
                configuration: .init(address: address, threadCount: threads), sessionSecret: sessionSecret,
                access: access, moreConnections: moreConnections)
        } catch {
            throw InputError("survey serve: \(error.message)")
        }
        if !address.isLoopback {
            Console.error(
                "survey serve: listening on \(address), reachable from other machines, without TLS "
                    + "(put a reverse proxy in front; see docs/http-api.md)")
        }
        let ids = surveys.map(\.id).joined(separator: ", ")
        Console.line("survey serve: serving \(ids) at \(service.url)/ (JSON API under /v1/; Ctrl-C stops)")
        waitForStop()
        service.stop()
        let name = SignalHandling.stoppedBy?.name ?? "a signal"
        Console.error("survey serve: stopped by \(name); \(kept)")
        return .success
    }

    /// Waits until SIGINT, SIGTERM or SIGHUP arrives (the handler writes to the stop pipe).
    static func waitForStop() {
        guard SignalHandling.stopDescriptor >= 0 else {
            // No pipe: the handler ends the process itself.
            while true { pause() }
        }
        var byte: UInt8 = 0
        while read(SignalHandling.stopDescriptor, &byte, 1) < 0, errno == EINTR {}
    }
}

extension StoreChoice {
    /// Whether responses go to a store.
    var isStore: Bool {
        if case .location = self { return true }
        return false
    }
}

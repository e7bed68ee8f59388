import Foundation
import SurveyBuiltins
import SurveyCore
import SurveyDelivery
import SurveyImport
import SurveyPluginLoader
import SurveyRendering
import SurveyResponses

/// One subcommand of `survey`.
protocol Command {
    static var spec: CommandSpec { get }
    /// Runs the command; throws ``InputError`` (exit 1) or ``UsageError`` (exit 2).
    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode
}

let dataShapeOption = CommandSpec.Option(
    name: "--data-shape", valueName: "surveyjs|engine",
    help:
        "The shape of a SurveyJS survey's results: surveyjs (default: survey-core's data, Other as \"other\" + NAME-Comment, a dynamic panel's empty panels) or engine (answers by step id, as for this engine's own format)."
)

let pluginOption = CommandSpec.Option(
    name: "--plugin", valueName: "PATH",
    help:
        "Load question types and functions from a plugin library (.so), or a plugin NAME found in SURVEY_PLUGIN_PATH (libNAME.so); SURVEY_PLUGIN_PATH adds every .so in its directories.",
    isRepeatable: true)
let variableOption = CommandSpec.Option(
    name: "--var", valueName: "NAME=VALUE",
    help:
        "Give the survey's declared variable NAME a value (JSON, or text when it is not JSON), as a host app would.",
    isRepeatable: true)

/// The `--var NAME=VALUE` options, checked against the survey's declared `variables`.
/// - Throws: ``UsageError`` for a malformed option or a name the survey does not declare.
func variables(_ arguments: ParsedArguments, survey: Survey, command: String) throws(UsageError) -> [String: JSONValue]
{
    var result: [String: JSONValue] = [:]
    let declared = survey.definition.variables.map(\.name)
    for option in arguments.all(variableOption) {
        guard let equals = option.firstIndex(of: "="), equals != option.startIndex else {
            throw UsageError("--var must be NAME=VALUE, got '\(option)'", command: command)
        }
        let name = String(option[..<equals])
        let text = String(option[option.index(after: equals)...])
        guard declared.contains(name) else {
            let known = declared.isEmpty ? "it declares none" : "it declares \(declared.joined(separator: ", "))"
            throw UsageError("--var \(name): the survey declares no variable '\(name)' (\(known))", command: command)
        }
        result[name] = (try? JSONParser.parse(text)) ?? .string(text)
    }
    return result
}
let lenientExpressionsOption = CommandSpec.Option(
    name: "--lenient-expressions", valueName: nil,
    help:
        "Load a SurveyJS survey as survey-core does when an expression cannot be parsed (survey-core logs it and ignores it): it is left out, with a note naming it and its place (survey lint reports it as an invalid-expression error). Without it such a survey does not load."
)
let isolatePluginsOption = CommandSpec.Option(
    name: "--isolate-plugins", valueName: nil,
    help:
        "Run plugin calls in a child process: a plugin that crashes or hangs fails that call with a clear error and the session goes on."
)
let pluginTimeoutOption = CommandSpec.Option(
    name: "--plugin-timeout", valueName: "SECONDS",
    help: "With --isolate-plugins, how long one plugin call may take (default 5).")
let localeOption = CommandSpec.Option(
    name: "--locale", valueName: "LOCALE",
    help: "Language of texts and built-in strings, e.g. fr or pt-BR (default: LC_ALL, LC_MESSAGES, LANG).")
let seedOption = CommandSpec.Option(name: "--seed", valueName: "N", help: "Seed of choice shuffles (default 0).")
let todayOption = CommandSpec.Option(
    name: "--today", valueName: "YYYY-MM-DD", help: "The date today() and age() use (default: the current date).")

func seed(_ arguments: ParsedArguments, command: String) throws(UsageError) -> UInt64 {
    guard let text = arguments.value(seedOption) else { return 0 }
    guard let seed = UInt64(text) else {
        throw UsageError("--seed must be a whole number, got '\(text)'", command: command)
    }
    return seed
}

// MARK: run

enum RunCommand: Command {
    /// The options only this command declares, read by these constants.
    enum Options {
        static let renderer = CommandSpec.Option(
            name: "--renderer", valueName: "text|json",
            help: "The front end: text (default) or json (JSON Lines events on stdout, commands on stdin).")
        static let askAgain = CommandSpec.Option(
            name: "--ask-again", valueName: nil,
            help: "Ask even if the respondent already completed or dismissed the survey.")
        static let resume = CommandSpec.Option(
            name: "--resume", valueName: "STATE", help: "Continue a session exported to a state file.")
        static let stateFile = CommandSpec.Option(
            name: "--state-file", valueName: "PATH",
            help: "Also export the session to PATH on quit (without a store: default FILE's name with .state.json)."
        )
        static let result = CommandSpec.Option(
            name: "--result", valueName: "PATH",
            help: "Also write the completed result (path and answers) as JSON to PATH.")
        static let plain = CommandSpec.Option(
            name: "--plain", valueName: nil,
            help: "Line mode on a terminal too: numbered choices typed as lines (the mode of pipes and scripts).")
    }

    static let spec = CommandSpec(
        name: "run", summary: "Take a survey in the terminal, or drive it over JSON Lines.",
        usage:
            "run FILE [--renderer text|json] [--locale L] [--store PATH|URL | --no-store] [--respondent ID] "
            + "[--resume STATE] [--plugin PATH]...",
        positionalHelp: [("FILE", "The survey definition (JSON).")],
        options: [
            Options.renderer,
            localeOption, storeOption,
            noStoreOption,
            respondentOption,
            Options.askAgain,
            Options.resume,
            Options.stateFile,
            Options.result,
            Options.plain,
            seedOption, todayOption, atOption, cooldownOption, attributeOption, variableOption, deliveryOption,
            dataShapeOption,
            pluginOption,
            isolatePluginsOption, pluginTimeoutOption, lenientExpressionsOption,
        ],
        minimumPositionals: 1, maximumPositionals: 1,
        discussion: """
            With --delivery FILE (or $SURVEY_DELIVERY_CONFIG), completing the survey also queues the response
            for the configured targets in the same store write, and a detached `survey deliver` sends it
            after the run ends, so the respondent never waits for the network (see docs/delivery.md).
            Every accepted answer, Next, Back, dismissal and completion is written to the response store
            before it is acknowledged. Running the same survey again as the same respondent continues an
            unfinished response exactly where it stopped (also after a crash or kill -9). A new response starts
            only when the survey's targeting rules allow it (docs/targeting.md; by default, not once the
            respondent completed or dismissed it; --ask-again asks anyway): otherwise the command says which
            rule and why on stderr (with --renderer json also in a not-asked event) and exits 0.
            `survey eligible` explains the same decision rule by rule.
            On a terminal (stdin and stdout, TERM set and not dumb) the text front end is interactive:
            ↑/↓ (or j/k) and Enter pick, Space toggles or picks up a ranked item, typing filters a long
            list, ← or b goes back, d dismisses the survey (don't ask again), q quits, ? shows the keys;
            text is edited on its line. In pipes and scripts, and with --plain, it reads lines: type a
            choice's number (or several as 1,3), b to go back, d to dismiss, q to quit. The json front end's protocol is described in
            docs/json-event-protocol.md.
            """)

    /// How far a run got: what a `failed` event says when it ends early.
    enum Stage {
        case arguments, survey, state, store, result

        /// The `failed` event's code for `error` thrown at this stage.
        func code(for error: any Error) -> String {
            if error is UsageError { return "invalidArguments" }
            switch self {
            case .arguments: return "fileNotUsable"
            case .survey: return "surveyNotLoaded"
            case .state: return "stateNotUsable"
            case .store: return "storeUnavailable"
            case .result: return "resultNotWritten"
            }
        }
    }

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        guard arguments.value(Options.renderer) == "json" else {
            var stage = Stage.arguments
            return try take(arguments, context: context, stage: &stage)
        }
        // Every JSON run ends with an event, an early end too (docs/json-event-protocol.md).
        var stage = Stage.arguments
        do {
            return try take(arguments, context: context, stage: &stage)
        } catch {
            let (message, exitCode): (String, ExitCode) =
                switch error {
                case let usage as UsageError: (usage.message, .usage)
                case let input as InputError: (input.description, .failure)
                default: ("\(error)", .failure)
                }
            Console.line(
                JSONWriter.string(
                    from: EventProtocol.failed(
                        code: stage.code(for: error), message: message, exitCode: exitCode.rawValue)))
            throw error
        }
    }

    /// Takes the survey: `run` without the `failed` event; `stage` says how far it got.
    static func take(_ arguments: ParsedArguments, context: CommandContext, stage: inout Stage) throws -> ExitCode {
        let file = arguments.positionals[0]
        let rendererName = arguments.value(Options.renderer) ?? "text"
        guard rendererName == "text" || rendererName == "json" else {
            throw UsageError("--renderer must be text or json, got '\(rendererName)'", command: spec.name)
        }
        let seed = try seed(arguments, command: spec.name)
        let storeChoice = try context.storeChoice(arguments, command: spec.name, defaultToStore: true)
        var respondent: String?
        if case .location = storeChoice { respondent = try context.respondentID(arguments, command: spec.name) }
        let resultPath = arguments.value(Options.result)
        if let resultPath { try context.checkWritable(resultPath) }
        let delivery = try context.deliveryConfiguration(arguments)
        if delivery != nil, case .none = storeChoice {
            throw UsageError(
                "--delivery needs a response store (the outbox is in it); leave out --no-store", command: spec.name)
        }
        stage = .survey
        let survey = try context.loadSurvey(
            file, plugins: PluginSelection(arguments), dataShape: try DataShapeChoice(arguments, command: spec.name))

        stage = .state
        var session: SurveySession?
        var isResumed = false
        let resumePath = arguments.value(Options.resume)
        if let resumePath {
            let state = try context.readState(resumePath)
            do {
                session = try SurveySession(survey: survey, resuming: state)
            } catch {
                throw InputError("\(resumePath): \(error)")
            }
            isResumed = true
        }
        // The file the session is saved to on quit: never one holding another unfinished session,
        // and one that can be written, both found before the first question.
        let statePath: String? =
            if case .location = storeChoice { arguments.value(Options.stateFile) } else {
                arguments.value(Options.stateFile) ?? defaultStatePath(for: file)
            }
        if let statePath { try context.checkStateFile(statePath, resumed: resumePath) }
        var recorder: ResponseRecorder?
        var stateStore: (any SessionStateStore)?
        if case .location(let location, let isDefault) = storeChoice, let respondent {
            stage = .store
            let store = try context.openStore(location, isDefault: isDefault)
            let prepared = try prepareRecording(
                survey: survey, store: store, respondent: respondent, resumed: session, arguments: arguments,
                context: context)
            guard let prepared else { return .success }
            if session == nil, prepared.isContinued { isResumed = true }
            session = prepared.session
            recorder = prepared.recorder
            if let delivery {
                recorder?.deliveryTargets = delivery.configuration.targets.map(\.name)
                recorder?.deliversDismissals = delivery.configuration.deliversDismissed
                recorder?.deliversPartial = delivery.configuration.deliversPartial
            }
            stateStore = RecordedStateStore(storeName: store.name)
        }
        if let statePath { stateStore = FileStateStore(path: statePath) }
        stage = .arguments
        let today = try today(arguments, command: spec.name)
        let given = try variables(arguments, survey: survey, command: spec.name)
        let started =
            session
            ?? SurveySession(
                survey: survey, seed: seed, locale: context.locale(option: arguments.value(localeOption)), today: today,
                variables: given)
        var driver = SurveyDriver(session: started, stateStore: stateStore, isResumed: isResumed, recorder: recorder)
        SignalHandling.install(
            answersAreKept: recorder != nil, writesEvents: rendererName == "json",
            savesFirst: recorder == nil && stateStore != nil, holdsWhileSaving: true)
        let stop = SignalHandling.stopDescriptor >= 0 ? SignalHandling.stopDescriptor : nil
        let lines = UntilOutputCloses(StandardInputLines(descriptor: 0, stopDescriptor: stop))
        // A closed stdout ends the run as the end of input does (the session is saved), then 141.
        Console.endsAtClosedOutput = false
        let outcome: DriverOutcome
        if rendererName == "json" {
            var renderer = JSONEventRenderer(input: lines) { Console.line($0) }
            outcome = driver.run(with: &renderer)
        } else if !arguments.flag(Options.plain), Terminal.isInteractive(environment: context.environment),
            let terminal = Terminal(stopDescriptor: stop)
        {
            // Arrow keys on a terminal; the terminal's mode is put back however the run ends.
            let style = TextRenderer.Style.detect(isTerminal: true, environment: context.environment)
            var renderer = TextRenderer(keys: terminal, style: style) { Console.out($0) }
            outcome = terminal.withRawMode { driver.run(with: &renderer) }
        } else {
            let style = TextRenderer.Style.detect(
                isTerminal: Console.isOutputTerminal, environment: context.environment)
            var renderer = TextRenderer(input: lines, style: style) {
                Console.out($0)
            }
            outcome = driver.run(with: &renderer)
        }
        stage = .result
        if let resultPath, let result = outcome.result {
            try context.write(JSONWriter.string(from: result.jsonValue, pretty: true) + "\n", to: resultPath)
        }
        // A state file that was continued to the end is marked finished, so it cannot be submitted twice.
        if let resumePath, outcome.result != nil || driver.session.status == .dismissed {
            try context.write(
                JSONWriter.string(from: driver.session.state.jsonValue, pretty: true) + "\n", to: resumePath)
        }
        if let signal = SignalHandling.stoppedBy {
            return stopped(by: signal, outcome: outcome, writesEvent: rendererName == "json")
        }
        if Console.isOutputClosed {
            Console.error(
                "survey: the output was closed; the session was saved, run the same command again to continue")
            return .brokenPipe
        }
        if case .quit = outcome, recorder != nil {
            Console.error("survey: run the same command again to continue where you stopped")
        }
        if let delivery, case .location(let location, _) = storeChoice,
            outcome.result != nil || (delivery.configuration.deliversDismissed && driver.session.status == .dismissed)
                || delivery.configuration.deliversPartial
        {
            startDeliveryInBackground(store: location, configuration: delivery.file, survey: file)
        }
        return .success
    }

    /// Ends a run without a store that a signal stopped after its session was saved (or could not be):
    /// one line on stderr, the `failed` event in the JSON protocol, and 128 + the signal's number.
    static func stopped(by signal: (number: Int32, name: String), outcome: DriverOutcome, writesEvent: Bool)
        -> ExitCode
    {
        var kept = "the session could not be saved"
        if case .quit(_, let location?) = outcome {
            kept = "the session was saved to \(location); continue it with --resume \(location)"
        }
        if Console.isMidLine { Console.out("\n") }
        if writesEvent {
            Console.line(
                JSONWriter.string(
                    from: EventProtocol.failed(
                        code: "stoppedBySignal", message: "stopped by \(signal.name); \(kept)",
                        exitCode: 128 + signal.number)))
        }
        Console.error("survey: stopped by \(signal.name); \(kept)")
        return ExitCode(rawValue: 128 + signal.number) ?? .failure
    }

    /// Starts `survey deliver` for `store` in its own session (it outlives this process and the
    /// terminal), its output discarded: what it could not send stays pending for the next run.
    static func startDeliveryInBackground(store: String, configuration: String, survey: String) {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        let arguments = [
            "deliver", "--store", store, "--delivery", configuration, "--wait", "600", "--survey", survey,
        ]
        do {
            try DetachedProcess.start(executable, arguments: arguments)
        } catch {
            Console.error("survey: the delivery could not be started; run 'survey deliver' to send what is pending")
        }
    }

    struct PreparedRecording {
        var session: SurveySession?
        var recorder: ResponseRecorder
        var isContinued: Bool
    }

    /// Continues the respondent's unfinished response or starts a new one, as ``ResponseStart``
    /// decides, saying which on stderr.
    /// - Returns: `nil` when the respondent is not to be asked (the reason is printed).
    static func prepareRecording(
        survey: Survey, store: any ResponseStore, respondent: String, resumed: SurveySession?,
        arguments: ParsedArguments, context: CommandContext
    ) throws -> PreparedRecording? {
        let at = try decisionTime(arguments, command: spec.name)
        let cooldown = try cooldown(arguments, command: spec.name)
        let given = try attributes(arguments, command: spec.name)
        do {
            let start = try ResponseStart.begin(
                survey: survey, respondent: respondent, store: store, isRestored: resumed != nil,
                ignoresAskAgain: arguments.flag(Options.askAgain), now: at ?? Date(), cooldown: cooldown,
                attributes: given)
            if let abandoned = start.abandoned {
                Console.error("survey: \(abandoned); it is kept as abandoned and a new response starts")
            }
            switch start {
            case .resumed(let session, let recorder, let latest):
                Console.error(
                    "survey: continuing response \(latest.id) of '\(respondent)' from "
                        + "\(ResponseExport.timestamp(latest.updatedAt)) (\(latest.actionCount) action\(latest.actionCount == 1 ? "" : "s") so far)"
                )
                if let migration = recorder.migration { Console.error("survey: \(migration.summary)") }
                return PreparedRecording(session: session, recorder: recorder, isContinued: true)
            case .notAsked(let reason):
                if arguments.value(Options.renderer) == "json" {
                    Console.line(JSONWriter.string(from: reason.event(respondent: respondent)))
                }
                Console.error("survey: \(reason.message(respondent: respondent)); --ask-again to ask anyway")
                return nil
            case .new(let new):
                let seed = try seed(arguments, command: spec.name)
                let today =
                    try today(arguments, command: spec.name)
                    ?? at.map { String(ResponseExport.timestamp($0).prefix(10)) }
                let given = try variables(arguments, survey: survey, command: spec.name)
                let session =
                    resumed
                    ?? SurveySession(
                        survey: survey, seed: seed, locale: context.locale(option: arguments.value(localeOption)),
                        today: today, variables: given)
                let recorder =
                    try at.map { at throws(StoreError) in try new.start(session, clock: { at }) } ?? new.start(session)
                return PreparedRecording(session: session, recorder: recorder, isContinued: false)
            }
        } catch let error as StoreError {
            throw InputError(error.description)
        }
    }

    static func defaultStatePath(for file: String) -> String {
        let name = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
        return name + ".state.json"
    }
}

// MARK: validate

enum ValidateCommand: Command {
    static let spec = CommandSpec(
        name: "validate",
        summary: "Check survey definitions: JSON syntax, format, question types, options, expressions.",
        usage: "validate FILE... [--plugin PATH]...", positionalHelp: [("FILE...", "Survey definitions (JSON).")],
        options: [
            pluginOption, isolatePluginsOption, pluginTimeoutOption, lenientExpressionsOption, lenientExpressionsOption,
        ],
        minimumPositionals: 1,
        maximumPositionals: nil,
        discussion:
            "Prints one line per problem as FILE:LINE:COL: message and exits 1; exits 0 when every file is valid.")

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        let plugins = try PluginSelection(arguments)
        let (registry, functions) = try context.registries(plugins: plugins)
        var source = context.surveySource(SurveyLoader(registry: registry, functions: functions))
        source.lenientExpressions = plugins.lenientExpressions
        var problems = 0
        for file in arguments.positionals {
            do {
                let text = try context.readSurvey(file, from: source)
                do {
                    KeptUntilExit.keep(try source.load(text, file: file))
                } catch {
                    for problem in error.errors { Console.error(problem.description) }
                    problems += error.errors.count
                }
            } catch {
                Console.error(error.description)
                problems += 1
            }
        }
        if problems == 0 {
            let count = arguments.positionals.count
            Console.line(count == 1 ? "\(arguments.positionals[0]): valid" : "\(count) surveys are valid")
            return .success
        }
        return .failure
    }
}

// MARK: types

enum TypesCommand: Command {
    static let spec = CommandSpec(
        name: "types",
        summary: "List the registered question types and expression functions with a one-line summary each.",
        usage: "types [--plugin PATH]...", positionalHelp: [],
        options: [pluginOption, isolatePluginsOption, pluginTimeoutOption], minimumPositionals: 0,
        maximumPositionals: 0,
        discussion: """
            Question types first (id, summary, and the plugin that provides it), then the expression
            functions: built-ins with how many arguments they take, plugin functions with their C signature.
            """)

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        let (registry, functions, plugins) = try context.registriesAndPlugins(plugins: PluginSelection(arguments))
        let width = (registry.typeIDs.map(\.count).max() ?? 0) + 2
        for type in registry.types {
            let origin = type.origin == "built-in" ? "" : "  [\(type.origin)]"
            Console.line(type.typeID + String(repeating: " ", count: width - type.typeID.count) + type.summary + origin)
        }
        var signatures: [String: (signature: String, origin: String)] = [:]
        for plugin in plugins {
            for (name, signature) in plugin.functionSignatures { signatures[name] = (signature, plugin.path) }
        }
        Console.line("")
        Console.line("Expression functions:")
        for name in functions.names {
            guard let function = functions.function(named: name) else { continue }
            if let plugin = signatures[name.lowercased()] {
                Console.line("  \(plugin.signature)  [\(plugin.origin)]")
            } else {
                let arity = function.arity
                let count =
                    arity.upperBound == Int.max
                    ? "\(arity.lowerBound) or more"
                    : arity.count == 1 ? "\(arity.lowerBound)" : "\(arity.lowerBound)–\(arity.upperBound)"
                Console.line("  \(function.name)(…)  \(count) argument\(arity == 1...1 ? "" : "s")")
            }
        }
        return .success
    }
}

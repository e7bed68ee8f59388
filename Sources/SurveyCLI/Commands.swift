import Foundation
import SurveyBuiltins
import SurveyCore
import SurveyRendering

/// One subcommand of `survey`.
protocol Command {
    static var spec: CommandSpec { get }
    /// Runs the command; throws ``InputError`` (exit 1) or ``UsageError`` (exit 2).
    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode
}

let pluginOption = CommandSpec.Option(
    name: "--plugin", valueName: "PATH",
    help:
        "Load question types and functions from a plugin library (.so); SURVEY_PLUGIN_PATH adds every .so in its directories.",
    isRepeatable: true)
let localeOption = CommandSpec.Option(
    name: "--locale", valueName: "LOCALE",
    help: "Language of texts and built-in strings, e.g. fr or pt-BR (default: LC_ALL, LC_MESSAGES, LANG).")
let seedOption = CommandSpec.Option(name: "--seed", valueName: "N", help: "Seed of choice shuffles (default 0).")
let todayOption = CommandSpec.Option(
    name: "--today", valueName: "YYYY-MM-DD", help: "The date today() and age() use (default: the current date).")

func seed(_ arguments: ParsedArguments, command: String) throws(UsageError) -> UInt64 {
    guard let text = arguments.value("--seed") else { return 0 }
    guard let seed = UInt64(text) else {
        throw UsageError("--seed must be a whole number, got '\(text)'", command: command)
    }
    return seed
}

// MARK: run

enum RunCommand: Command {
    static let spec = CommandSpec(
        name: "run", summary: "Take a survey in the terminal, or drive it over JSON Lines.",
        usage: "run FILE [--renderer text|json] [--locale L] [--resume STATE] [--state-file PATH] [--plugin PATH]...",
        positionalHelp: [("FILE", "The survey definition (JSON).")],
        options: [
            .init(
                name: "--renderer", valueName: "text|json",
                help: "The front end: text (default) or json (JSON Lines events on stdout, commands on stdin)."),
            localeOption,
            .init(name: "--resume", valueName: "STATE", help: "Continue a session saved when quitting."),
            .init(
                name: "--state-file", valueName: "PATH",
                help: "Where to save the session on quit (default: FILE's name with .state.json)."),
            .init(
                name: "--result", valueName: "PATH",
                help: "Also write the completed result (path and answers) as JSON to PATH."),
            seedOption, todayOption, pluginOption,
        ],
        minimumPositionals: 1, maximumPositionals: 1,
        discussion: """
            In the text front end, type a choice's number (or several as 1,3), b to go back, q to quit.
            Quitting or ending input (Ctrl-D) saves the session; continue it with --resume STATE.
            The json front end's protocol is described in docs/json-event-protocol.md.
            """)

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        let file = arguments.positionals[0]
        let rendererName = arguments.value("--renderer") ?? "text"
        guard rendererName == "text" || rendererName == "json" else {
            throw UsageError("--renderer must be text or json, got '\(rendererName)'", command: spec.name)
        }
        let seed = try seed(arguments, command: spec.name)
        let survey = try context.loadSurvey(file, plugins: arguments.all("--plugin"))
        let session: SurveySession
        var isResumed = false
        if let statePath = arguments.value("--resume") {
            let state = try context.readState(statePath)
            do {
                session = try SurveySession(survey: survey, resuming: state)
            } catch {
                throw InputError("\(statePath): \(error)")
            }
            isResumed = true
        } else {
            session = SurveySession(
                survey: survey, seed: seed, locale: context.locale(option: arguments.value("--locale")),
                today: try today(arguments, command: spec.name))
        }
        let statePath = arguments.value("--state-file") ?? defaultStatePath(for: file)
        var driver = SurveyDriver(session: session, stateStore: FileStateStore(path: statePath), isResumed: isResumed)
        let outcome: DriverOutcome
        if rendererName == "json" {
            var renderer = JSONEventRenderer(input: StandardInputLines()) { Console.line($0) }
            outcome = driver.run(with: &renderer)
        } else {
            let style = TextRenderer.Style.detect(
                isTerminal: Console.isOutputTerminal, environment: context.environment)
            var renderer = TextRenderer(input: StandardInputLines(), style: style) { Console.out($0) }
            outcome = driver.run(with: &renderer)
        }
        if let resultPath = arguments.value("--result"), let result = outcome.result {
            try context.write(JSONWriter.string(from: result.jsonValue, pretty: true) + "\n", to: resultPath)
        }
        return .success
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
        options: [pluginOption], minimumPositionals: 1, maximumPositionals: nil,
        discussion:
            "Prints one line per problem as FILE:LINE:COL: message and exits 1; exits 0 when every file is valid.")

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        let (registry, functions) = try context.registries(plugins: arguments.all("--plugin"))
        let loader = SurveyLoader(registry: registry, functions: functions)
        var problems = 0
        for file in arguments.positionals {
            do {
                let text = try context.read(file)
                do {
                    _ = try loader.load(text: text, source: file)
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
        name: "types", summary: "List the registered question types with a one-line summary each.",
        usage: "types [--plugin PATH]...", positionalHelp: [], options: [pluginOption], minimumPositionals: 0,
        maximumPositionals: 0)

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        let (registry, _) = try context.registries(plugins: arguments.all("--plugin"))
        let width = (registry.typeIDs.map(\.count).max() ?? 0) + 2
        for type in registry.types {
            let origin = type.origin == "built-in" ? "" : "  [\(type.origin)]"
            Console.line(type.typeID + String(repeating: " ", count: width - type.typeID.count) + type.summary + origin)
        }
        return .success
    }
}

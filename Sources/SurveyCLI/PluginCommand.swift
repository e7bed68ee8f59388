import Foundation
import SurveyBuiltins
import SurveyCore
import SurveyPluginLoader
import SurveyPluginTemplates

// MARK: plugin new

enum PluginNewCommand: Command {
    /// The options only this command declares, read by these constants.
    enum Options {
        static let language = CommandSpec.Option(
            name: "--lang", valueName: "c|swift", help: "The plugin's language (required).")
        static let out = CommandSpec.Option(
            name: "--out", valueName: "DIR", help: "The folder to write (default ./NAME); it must not hold anything.")
        static let engine = CommandSpec.Option(
            name: "--engine", valueName: "DIR",
            help:
                "With --lang swift: the engine's package folder the plugin depends on (default: the package this survey was built from)."
        )
    }

    static let spec = CommandSpec(
        name: "plugin new",
        summary: "Start a plugin: a folder with one question kind and one function, ready to build and test.",
        usage: "plugin new NAME --lang c|swift [--out DIR] [--engine DIR]",
        positionalHelp: [("NAME", "The plugin's name and its kind's id: lower-case letters, digits and '-'.")],
        options: [Options.language, Options.out, Options.engine],
        minimumPositionals: 1, maximumPositionals: 1,
        discussion: """
            Writes the source (the kind NAME and the function NAME_percent), a build file (a Makefile using
            only cc for C; a SwiftPM package depending on the engine's package by path for Swift), a sample
            survey using both, answer scripts in tests/ and a README. Then, in the folder: `make` (or
            `swift build`), and `survey test survey.json --plugin LIB --answers tests`. Exits 1 when the
            folder cannot be written or is not empty. See docs/plugin-abi.md, "Start a plugin".
            """)

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        let name = arguments.positionals[0]
        guard let languageName = arguments.value(Options.language) else {
            throw UsageError("missing --lang c|swift", command: spec.name)
        }
        guard let language = PluginTemplate.Language(rawValue: languageName) else {
            throw UsageError("--lang must be c or swift, got '\(languageName)'", command: spec.name)
        }
        var engine: String?
        if language == .swift {
            engine = try arguments.value(Options.engine).map(absolutePath) ?? enginePackage()
        } else if arguments.value(Options.engine) != nil {
            throw UsageError("--engine only applies with --lang swift", command: spec.name)
        }
        let template: PluginTemplate
        do {
            template = try PluginTemplate(
                name: name, language: language, enginePackagePath: engine,
                reservedKinds: Set(QuestionTypeRegistry.builtins().typeIDs))
        } catch {
            throw UsageError(error.description, command: spec.name)
        }
        let folder = arguments.value(Options.out) ?? name
        do {
            try template.write(to: folder)
        } catch {
            throw InputError(error.description)
        }
        let library = template.libraryPath
        let lines = [
            "Wrote \(folder)/ (\(template.files.map(\.path).joined(separator: ", "))).", "",
            "  cd \(folder)",
            "  \(template.buildCommand.joined(separator: " "))",
            "  survey test \(PluginTemplate.surveyFile) --plugin \(language == .c ? "./" : "")\(library) --answers \(PluginTemplate.testsFolder)",
        ]
        Console.line(lines.joined(separator: "\n"))
        return .success
    }

    private static func absolutePath(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }

    /// The engine's package folder: the first folder above this executable whose `Package.swift`
    /// declares the package `survey-engine` (a `survey` built with `swift build` lives in its `.build`).
    private static func enginePackage() throws(UsageError) -> String {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
        var folder = URL(fileURLWithPath: executable).deletingLastPathComponent()
        while folder.pathComponents.count > 1 {
            let manifest = folder.appendingPathComponent("Package.swift")
            if let text = try? String(contentsOf: manifest, encoding: .utf8), text.contains("name: \"survey-engine\"") {
                return folder.path
            }
            folder.deleteLastPathComponent()
        }
        throw UsageError(
            "cannot tell where the engine's package is (this survey was not built inside it); give it with --engine DIR",
            command: spec.name)
    }
}

// MARK: plugin check

enum PluginCheckCommand: Command {
    /// The options only this command declares, read by these constants.
    enum Options {
        static let survey = CommandSpec.Option(
            name: "--survey", valueName: "FILE",
            help: "Also try the options of this survey's questions of each kind, and its locales.")
        static let format = CommandSpec.Option(
            name: "--format", valueName: "text|json|sarif",
            help: "Output: text (default, one line per problem), json, or sarif (SARIF 2.1.0).")
        static let timeout = CommandSpec.Option(
            name: "--timeout", valueName: "SECONDS", help: "How long one call may take before it fails (default 2).")
    }

    static let spec = CommandSpec(
        name: "plugin check",
        summary: "Check that a plugin behaves: call every callback and function with edge cases, in a child process.",
        usage: "plugin check LIB.so [--survey FILE] [--format text|json|sarif] [--timeout SECONDS]",
        positionalHelp: [("LIB.so", "The plugin library.")],
        options: [Options.survey, Options.format, Options.timeout],
        minimumPositionals: 1, maximumPositionals: 1,
        discussion: """
            The plugin runs in a child process (as with --isolate-plugins), so one that crashes or hangs is
            reported, not fatal. Rules: \(PluginRule.allCases.map(\.rawValue).joined(separator: ", ")).
            Each problem names its rule, the kind or function, the callback and the input that showed it.
            Exits 1 when any rule is broken, else 0. See docs/plugin-abi.md, "Check a plugin".
            """)

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        let path = arguments.positionals[0]
        let format = arguments.value(Options.format) ?? "text"
        guard ["text", "json", "sarif"].contains(format) else {
            throw UsageError("--format must be text, json or sarif, got '\(format)'", command: spec.name)
        }
        var timeout = 2.0
        if let text = arguments.value(Options.timeout) {
            guard let value = Double(text), value.isFinite, value > 0, value <= 3600 else {
                throw UsageError(
                    "--timeout must be a number of seconds above 0 (at most 3600), got '\(text)'", command: spec.name)
            }
            timeout = value
        }
        let executable =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var checker = PluginChecker(isolation: PluginIsolation(executable: executable, timeout: timeout))
        if let survey = arguments.value(Options.survey) {
            let json = try context.readJSON(survey)
            checker.options = questionOptions(in: json)
            var locales = checker.locales
            for locale in [json["defaultLocale"]?.stringValue].compactMap({ $0 })
                + (json["locales"]?.arrayValue ?? []).compactMap(\.stringValue) where !locales.contains(locale)
            {
                locales.append(locale)
            }
            checker.locales = locales
        }
        let report = checker.check(path: path)
        if format != "text" {
            Console.line(JSONWriter.string(from: format == "json" ? report.json : report.sarif, pretty: true))
        } else {
            Console.out(report.text)
            let problems = report.findings.count
            Console.error(
                "\(path): \(report.kinds.count) kind\(report.kinds.count == 1 ? "" : "s"), "
                    + "\(report.functions.count) function\(report.functions.count == 1 ? "" : "s"), "
                    + "\(report.calls) calls: "
                    + (problems == 0 ? "passed" : "\(problems) problem\(problems == 1 ? "" : "s")"))
        }
        return report.passes ? .success : .failure
    }

    /// The `options` of every object with a `type` in the survey (questions, nested ones too), by type.
    static func questionOptions(in json: JSONValue) -> [String: [JSONValue]] {
        var found: [String: [JSONValue]] = [:]
        func visit(_ value: JSONValue) {
            switch value {
            case .object(let members):
                if let type = members["type"]?.stringValue, let options = members["options"], options.objectValue != nil
                {
                    found[type, default: []].append(options)
                }
                for member in members.values { visit(member) }
            case .array(let items):
                for item in items { visit(item) }
            default:
                break
            }
        }
        visit(json)
        return found
    }
}

import Foundation
import SurveyBuiltins
import SurveyCore
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
    static func out(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    static func line(_ text: String) {
        out(text + "\n")
    }

    static func error(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
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
    func registries(plugins: [String]) throws(InputError) -> (QuestionTypeRegistry, ExpressionFunctionRegistry) {
        var registry = QuestionTypeRegistry.builtins()
        var functions = ExpressionFunctionRegistry.standard
        do {
            let loaded = try PluginLoader().load(paths: plugins, environment: environment)
            try loaded.install(into: &registry, functions: &functions)
        } catch {
            throw InputError(error.description)
        }
        return (registry, functions)
    }

    /// The text of a file, or an input error naming it.
    func read(_ path: String) throws(InputError) -> String {
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            guard let text = String(data: data, encoding: .utf8) else {
                throw InputError("\(path): the file is not UTF-8 text")
            }
            return text
        } catch let error as InputError {
            throw error
        } catch {
            throw InputError("\(path): cannot read the file (\(Self.reason(error)))")
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
    func loadSurvey(_ path: String, plugins: [String]) throws(InputError) -> Survey {
        try loadSurveyAndTypes(path, plugins: plugins).survey
    }

    /// Loads and compiles a survey like ``loadSurvey(_:plugins:)``, also returning the registry of
    /// question types it was compiled with (to tell which plugin a type came from).
    func loadSurveyAndTypes(_ path: String, plugins: [String]) throws(InputError) -> (
        survey: Survey, types: QuestionTypeRegistry
    ) {
        let (registry, functions) = try registries(plugins: plugins)
        let text = try read(path)
        do {
            return (try SurveyLoader(registry: registry, functions: functions).load(text: text, source: path), registry)
        } catch {
            throw InputError(error.errors.map(\.description))
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

/// Saves session states as JSON files.
struct FileStateStore: SessionStateStore {
    var path: String

    func save(_ state: SessionState) throws -> String {
        try Data((JSONWriter.string(from: state.jsonValue, pretty: true) + "\n").utf8).write(
            to: URL(fileURLWithPath: path))
        return path
    }
}

import Foundation
import SurveyCore
import SurveyDelivery
import SurveyImport

// MARK: import

enum ImportCommand: Command {
    static let spec = CommandSpec(
        name: "import", summary: "Convert a SurveyJS survey into this engine's format, listing what did not convert.",
        usage: "import surveyjs FILE [--out PATH] [--id ID] [--strict] [--plugin PATH]...",
        positionalHelp: [
            ("surveyjs", "The format of FILE (SurveyJS's JSON; the only one so far)."),
            ("FILE", "The SurveyJS survey (JSON)."),
        ],
        options: [
            .init(
                name: "--out", valueName: "PATH", help: "Write the converted survey here (default: standard output)."),
            .init(name: "--id", valueName: "ID", help: "The survey id (default: FILE's name without .json)."),
            .init(
                name: "--strict", valueName: nil, help: "Fail (exit 1, nothing written) if anything is not converted."),
            pluginOption, isolatePluginsOption, pluginTimeoutOption,
        ],
        minimumPositionals: 2, maximumPositionals: 2,
        discussion: """
            Every property, element, trigger or validator that is not carried over is listed on stderr as
            FILE:LINE:COL: not converted: what (why); properties that only change the layout are listed as
            "ignored (layout only)" and do not fail --strict. The converted survey is then loaded as
            'survey validate' would; a problem there is reported at the SurveyJS element it came from and
            exits 1 (the survey is still written, to fix by hand). 'survey run', 'test', 'validate', 'lint',
            'paths', 'coverage', 'graph' and 'simulate' take a SurveyJS file directly and convert it in
            memory. See docs/import.md.
            """)

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        guard arguments.positionals[0] == "surveyjs" else {
            throw UsageError(
                "the only format is 'surveyjs', got '\(arguments.positionals[0])'", command: spec.name)
        }
        let file = arguments.positionals[1]
        let text = try context.read(file)
        let id = arguments.value("--id") ?? SurveySource.defaultID(for: file)
        let conversion: SurveyJSConversion
        do {
            conversion = try SurveyJSImporter.convert(text: text, source: file, id: id)
        } catch {
            throw InputError(error.description)
        }
        for note in conversion.notes { Console.error(note.description) }
        let missing = conversion.notes.filter { $0.kind == .notConverted }.count
        let layout = conversion.notes.filter { $0.kind == .layoutOnly }.count
        let renamed = conversion.notes.count - missing - layout
        let summary =
            "\(file): converted from SurveyJS; \(missing) not converted, \(layout) ignored (layout only)"
            + (renamed > 0 ? ", \(renamed) renamed" : "")
        if arguments.flag("--strict"), missing > 0 {
            Console.error(summary + "; --strict: nothing written")
            return .failure
        }
        let out = arguments.value("--out")
        if let out { try context.checkWritable(out) }
        let (registry, functions) = try context.registries(plugins: PluginSelection(arguments))
        var problems: [String] = []
        do throws(SurveyLoadError) {
            // The check loads what a run would: with its `choicesByUrl` lists fetched (the output keeps them).
            var checked = conversion.text
            if ChoicesByURL.mayContain(checked) {
                // The converted survey as JSON, not its text parsed again.
                let resolution = try ChoicesByURL.resolve(conversion.survey, with: SurveySource.fetcher)
                for warning in resolution.warnings { Console.error("warning: " + warning) }
                checked = JSONWriter.string(from: resolution.survey)
            }
            _ = try SurveyLoader(registry: registry, functions: functions).load(text: checked)
        } catch {
            problems = SurveySource.locate(error, in: conversion, original: text, file: file).map(\.description)
        }
        if let out {
            try context.write(conversion.text, to: out)
        } else {
            Console.out(conversion.text)
        }
        for problem in problems { Console.error(problem) }
        Console.error(
            summary
                + (problems.isEmpty
                    ? "; the result is valid"
                    : "; the result does not load (\(problems.count) problem\(problems.count == 1 ? "" : "s"))"))
        return problems.isEmpty ? .success : .failure
    }
}

/// Survey files as commands read them: this engine's format, or SurveyJS's converted in memory.
enum SurveySource {
    /// The fetcher of remote surveys and choice lists: one per run, so each URL is fetched once.
    static let fetcher = RemoteFetcher()

    /// The survey id for a file: its name without the directory and `.json`.
    static func defaultID(for file: String) -> String {
        var name = Substring(file.split(separator: "/").last ?? Substring(file))
        if name.hasSuffix(".json") { name = name.dropLast(5) }
        if name.hasSuffix(".surveyjs") { name = name.dropLast(9) }
        return name.isEmpty ? "survey" : String(name)
    }

    /// Loads `text` with `loader`; a SurveyJS survey (by its shape) is converted first, its
    /// not-converted items printed on stderr as warnings, and load errors are placed at the SurveyJS
    /// elements they come from.
    static func load(_ text: String, file: String, with loader: SurveyLoader) throws(SurveyLoadError) -> Survey {
        let prepared = try prepare(text, file: file, loader: loader)
        let survey: Survey
        do {
            survey = try loader.load(text: prepared.text, source: prepared.isOriginal ? file : nil)
        } catch {
            throw SurveyLoadError(errors: prepared.locate(error))
        }
        if survey.stepCount >= KeptUntilExit.minimumSteps { KeptUntilExit.shared.keep(survey) }
        return survey
    }

    /// A survey's text made ready to load: a SurveyJS survey converted, and every `choicesByUrl`
    /// fetched (through the cache; warnings printed on stderr).
    struct Prepared {
        var text: String
        /// The file's own text (errors carry their positions), or a converted or completed one.
        var isOriginal: Bool
        var conversion: SurveyJSConversion?
        var original: String
        var file: String
        /// Whether ``text`` was made from a question table (its paths are not the file's).
        var isGenerated = false

        /// Load errors of ``text``, placed in the original file.
        func locate(_ error: SurveyLoadError) -> [SurveyError] {
            if isGenerated {
                return error.errors.map { problem in
                    var located = problem
                    located.file = file
                    located.position = nil
                    if let path = problem.path { located.message += " (in the survey made from the table, at \(path))" }
                    located.path = nil
                    return located
                }
            }
            if isOriginal, error.errors.allSatisfy({ $0.position != nil || $0.path == nil }) { return error.errors }
            if let conversion { return SurveySource.locate(error, in: conversion, original: original, file: file) }
            return error.errors.map { problem in
                var located = problem
                located.file = file
                located.position = problem.path.flatMap { SourceLocator.position(of: $0, in: original) }
                return located
            }
        }

        /// A JSON path of ``text`` as a path of the original file.
        func originalPath(_ path: JSONPath) -> JSONPath? {
            if isGenerated { return nil }
            return conversion.map { $0.origin(of: path) } ?? path
        }
    }

    static func prepare(_ text: String, file: String, loader: SurveyLoader? = nil) throws(SurveyLoadError) -> Prepared {
        // One pass over the text for every key that calls for more than the loader (a byte search: a
        // survey can be 100 MB).
        let sniffed = text.containsUTF8([
            "\"airtable\"", "\"pages\"", "\"elements\"", "\"questions\"", ChoicesByURL.marker,
        ])
        if sniffed[0], let json = try? JSONParser.parse(text), AirTable.Source.isSource(json) {
            return try questionTable(json, text: text, file: file, loader: loader)
        }
        let conversion = sniffed[1] || sniffed[2] || sniffed[3] ? convertIfSurveyJS(text, file: file) : nil
        var prepared = Prepared(
            text: conversion?.text ?? text, isOriginal: conversion == nil, conversion: conversion, original: text,
            file: file)
        // A converted survey is already JSON; only a file's own text is parsed here.
        guard conversion == nil ? sniffed[4] : ChoicesByURL.mayContain(prepared.text),
            let json = conversion?.survey ?? (try? JSONParser.parse(prepared.text))
        else {
            return prepared
        }
        let resolution: ChoicesByURL.Resolution
        do {
            resolution = try ChoicesByURL.resolve(json, with: fetcher)
        } catch {
            throw SurveyLoadError(errors: prepared.locate(error))
        }
        for warning in resolution.warnings { Console.error("warning: " + warning) }
        guard resolution.resolved > 0 || resolution.survey != json else { return prepared }
        prepared.text = JSONWriter.string(from: resolution.survey, pretty: true)
        prepared.isOriginal = false
        return prepared
    }

    /// The survey an AirTable question table makes (`json` names the table), through the cache: a
    /// table that does not make a survey `loader` loads is never cached; offline, the last good one.
    static func questionTable(_ json: JSONValue, text: String, file: String, loader: SurveyLoader?)
        throws(SurveyLoadError) -> Prepared
    {
        let source = try AirTable.Source(json: json, file: file)
        struct Refused: Error, CustomStringConvertible { var description: String }
        let loaded: (text: String, warning: String?)
        do {
            loaded = try AirTable.load(source, cache: fetcher.cache) { survey in
                guard let loader else { return }
                do throws(SurveyLoadError) {
                    _ = try loader.load(text: survey)
                } catch {
                    throw Refused(description: error.errors.map(\.message).joined(separator: "; "))
                }
            }
        } catch {
            throw SurveyLoadError(errors: [SurveyError(.invalidValue, error.description, file: file)])
        }
        if let warning = loaded.warning { Console.error("warning: " + warning) }
        return Prepared(
            text: loaded.text, isOriginal: false, conversion: nil, original: text, file: file, isGenerated: true)
    }

    /// The conversion of `text` when it is a SurveyJS survey (warnings printed), else `nil`. Called
    /// only when `prepare`'s sniff found a SurveyJS key, so the text is not scanned again here.
    static func convertIfSurveyJS(_ text: String, file: String) -> SurveyJSConversion? {
        guard let json = try? JSONParser.parse(text), SurveyJSImporter.looksLikeSurveyJS(json),
            let conversion = try? SurveyJSImporter.convert(
                json, parsedFrom: text, source: file, id: defaultID(for: file))
        else { return nil }
        let missing = conversion.notes.filter { $0.kind == .notConverted }
        for note in missing { Console.error("warning: " + note.description) }
        if !missing.isEmpty {
            Console.error(
                "warning: \(file) is a SurveyJS survey; \(missing.count) item\(missing.count == 1 ? " was" : "s were") not converted (see 'survey import surveyjs \(file)')"
            )
        }
        return conversion
    }

    /// Load errors of a converted survey, placed at the SurveyJS element each comes from.
    static func locate(_ error: SurveyLoadError, in conversion: SurveyJSConversion, original: String, file: String)
        -> [SurveyError]
    {
        error.errors.map { problem in
            var located = problem
            located.file = file
            let origin = problem.path.flatMap { conversion.origin(of: $0) }
            located.path = origin
            located.position = origin.flatMap { SourceLocator.position(of: $0, in: original) }
            if let path = problem.path, !path.components.isEmpty {
                located.message += " (in the converted survey at \(path))"
            }
            return located
        }
    }
}

/// The last large survey the command loaded, kept until the process exits: freeing a compiled
/// survey object by object costs more than the exit that drops the whole address space at once
/// (0.5 s of `survey validate` on a 1,000,000-question survey). Only the last is kept, so a command
/// that loads many surveys holds at most one more than it uses.
final class KeptUntilExit: @unchecked Sendable {
    static let shared = KeptUntilExit()
    static let minimumSteps = 10_000

    private let lock = NSLock()
    private var survey: Survey?

    func keep(_ survey: Survey) {
        lock.lock()
        let previous = self.survey
        self.survey = survey
        lock.unlock()
        withExtendedLifetime(previous) {}  // freed here, outside the lock
    }
}

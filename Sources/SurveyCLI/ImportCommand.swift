import Foundation
import SurveyCore
import SurveyDelivery
import SurveyImport

// MARK: import

enum ImportCommand: Command {
    /// The options only this command declares, read by these constants.
    enum Options {
        static let out = CommandSpec.Option(
            name: "--out", valueName: "PATH", help: "Write the converted survey here (default: standard output).")
        static let id = CommandSpec.Option(
            name: "--id", valueName: "ID", help: "The survey id (default: FILE's name without .json).")
        static let strict = CommandSpec.Option(
            name: "--strict", valueName: nil, help: "Fail (exit 1, nothing written) if anything is not converted.")
        static let quiet = CommandSpec.Option(
            name: "--quiet", valueName: nil,
            help: "List only what changes behaviour or names, not the layout-only and custom properties.")
    }

    static let spec = CommandSpec(
        name: "import", summary: "Convert a SurveyJS survey into this engine's format, listing what did not convert.",
        usage: "import surveyjs FILE [--out PATH] [--id ID] [--strict] [--quiet] [--plugin PATH]...",
        positionalHelp: [
            ("surveyjs", "The format of FILE (SurveyJS's JSON; the only one so far)."),
            ("FILE", "The SurveyJS survey (JSON)."),
        ],
        options: [
            Options.out,
            Options.id,
            Options.strict,
            Options.quiet,
            pluginOption, isolatePluginsOption, pluginTimeoutOption, lenientExpressionsOption,
        ],
        minimumPositionals: 2, maximumPositionals: 2,
        discussion: """
            Every property, element, trigger or validator that is not carried over is listed on stderr as
            FILE:LINE:COL: not converted: what (why). Properties that only change the layout are counted in
            one line ("layout only, no effect here"), and properties an app added (not survey-core's) are
            kept under the converted survey's x-surveyjs member and counted in another; neither fails
            --strict, and --quiet leaves both lines out. The converted survey is then loaded as
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
        let id = arguments.value(Options.id) ?? SurveySource.defaultID(for: file)
        // Loaded first: a custom SurveyJS type becomes the plugin kind of the same name.
        let (registry, functions) = try context.registries(plugins: PluginSelection(arguments))
        let conversion: SurveyJSConversion
        do {
            conversion = try SurveyJSImporter.convert(
                text: text, source: file, id: id, lenientExpressions: arguments.flag(lenientExpressionsOption),
                pluginKinds: SurveySource.pluginKinds(of: registry))
        } catch {
            throw InputError(error.description)
        }
        for line in conversion.noteLines(file: file, quiet: arguments.flag(Options.quiet)) { Console.error(line) }
        let missing = conversion.notes.filter { $0.kind == .notConverted }.count
        let layout = conversion.notes.filter { $0.kind == .layoutOnly }.count
        let renamed = conversion.notes.filter { $0.kind == .renamed }.count
        let hostVariables = conversion.notes.filter { $0.kind == .hostVariable }.count
        let custom = conversion.notes.filter { $0.kind == .custom }.count
        let summary =
            "\(file): converted from SurveyJS; \(missing) not converted, \(layout) ignored (layout only)"
            + (renamed > 0 ? ", \(renamed) renamed" : "")
            + (hostVariables > 0 ? ", \(hostVariables) read from the host" : "")
            + (custom > 0 ? ", \(custom) custom kept" : "")
        if arguments.flag(Options.strict), missing > 0 {
            Console.error(summary + "; --strict: nothing written")
            return .failure
        }
        let out = arguments.value(Options.out)
        if let out { try context.checkWritable(out) }
        // The check loads what a run would: with its `choicesByUrl` lists fetched (the output keeps them).
        let problems = context.surveySource(SurveyLoader(registry: registry, functions: functions))
            .problems(of: conversion, original: text, file: file).map(\.description)
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

/// SurveyDelivery's fetching, for SurveyImport's survey sources: remote surveys and choice lists
/// through the HTTP cache, and AirTable question tables. One fetcher per run, so each URL is
/// fetched once.
struct DeliveredContent: RemoteSurveyContent {
    static let fetcher = RemoteFetcher()

    func isRemote(_ location: String) -> Bool { RemoteFetcher.isRemote(location) }

    func fetch(_ location: String, accept: (Data) throws -> Void) throws(TextReadError) -> (
        body: Data, warning: String?
    ) {
        do {
            let document = try Self.fetcher.fetch(location, accept: accept)
            return (document.body, document.warning)
        } catch {
            throw TextReadError(error.url, error.reason)
        }
    }

    var questionTableMarker: String { "\"airtable\"" }

    func questionTable(_ json: JSONValue, file: String, accept: (String) throws -> Void) throws -> (
        text: String, warning: String?
    )? {
        guard AirTable.Source.isSource(json) else { return nil }
        let source = try AirTable.Source(json: json, file: file)
        return try AirTable.load(source, cache: Self.fetcher.cache, accept: accept)
    }

    var remoteChoicesMarker: String { ChoicesByURL.marker }

    func resolveRemoteChoices(in survey: JSONValue, offUnreachable: Bool) throws(SurveyLoadError) -> RemoteChoices {
        let resolution = try ChoicesByURL.resolve(survey, with: Self.fetcher, offUnreachable: offUnreachable)
        return RemoteChoices(survey: resolution.survey, warnings: resolution.warnings, resolved: resolution.resolved)
    }
}

extension CommandContext {
    /// Survey sources read as every command reads them: files and remote surveys, SurveyJS converted
    /// in memory, warnings on stderr.
    func surveySource(_ loader: SurveyLoader) -> SurveySource {
        SurveySource(loader: loader, remote: DeliveredContent()) { Console.error("warning: " + $0) }
    }
}

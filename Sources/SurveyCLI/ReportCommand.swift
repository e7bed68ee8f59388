import Foundation
import SurveyCore
import SurveyReports
import SurveyResponses

/// `survey report`: a survey's results from a response store, as HTML, CSV or JSON.
enum ReportCommand: Command {
    /// The options only this command declares, read by these constants.
    enum Options {
        static let format = CommandSpec.Option(
            name: "--format", valueName: "F", help: "html (default): one self-contained page; csv; json.")
        static let out = CommandSpec.Option(
            name: "--out", valueName: "PATH", help: "Write to PATH instead of standard output.")
        static let since = CommandSpec.Option(
            name: "--since", valueName: "TIME", help: "Only responses created at or after TIME.")
        static let until = CommandSpec.Option(
            name: "--until", valueName: "TIME", help: "Only responses created before TIME.")
        static let surveyVersion = CommandSpec.Option(
            name: "--survey-version", valueName: "V", help: "Only responses given on this survey version.")
        static let locale = CommandSpec.Option(
            name: "--locale", valueName: "L",
            help: "Only responses given in this locale (also the page's language).")
        static let status = CommandSpec.Option(
            name: "--status", valueName: "S", help: "completed, or all (default), or another status (repeatable).",
            isRepeatable: true)
        static let bom = CommandSpec.Option(
            name: "--bom", valueName: nil, help: "csv: start with a UTF-8 byte order mark (for spreadsheet apps).")
    }

    static let spec = CommandSpec(
        name: "report", summary: "Results per question from a response store: HTML with charts, CSV or JSON.",
        usage:
            "report FILE [--store PATH|URL] [--format html|csv|json] [--out PATH] [--since T] [--until T] "
            + "[--survey-version V] [--locale L] [--status completed|all] [--bom]",
        positionalHelp: [("FILE", "The survey whose responses are reported (its question types summarise them).")],
        options: [
            storeOption,
            Options.format,
            Options.out,
            Options.since,
            Options.until,
            Options.surveyVersion,
            Options.locale,
            Options.status,
            Options.bom,
            pluginOption, isolatePluginsOption, pluginTimeoutOption, lenientExpressionsOption,
        ],
        minimumPositionals: 1, maximumPositionals: 1,
        discussion: """
            The HTML page needs no network to view (inline CSS and SVG); every chart has a data table and
            a text alternative; every respondent text is escaped. JSON holds the same content. CSV is one
            row per response and a column per step id, as `survey responses export --format csv` (RFC
            4180; see docs/response-store.md). Exit status: 0 success; 1 a survey, store or output problem;
            2 wrong usage.
            """)

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        let format = arguments.value(Options.format) ?? "html"
        guard ["html", "csv", "json"].contains(format) else {
            throw UsageError("--format must be html, csv or json, got '\(format)'", command: spec.name)
        }
        let query = try ResponsesCommand.query(arguments, command: spec.name)
        let survey = try context.loadSurvey(arguments.positionals[0], plugins: PluginSelection(arguments))
        let location = arguments.value(storeOption) ?? context.defaultStorePath
        if arguments.value(storeOption) == nil, !FileManager.default.fileExists(atPath: location) {
            throw InputError("\(location): no responses are stored yet (--store to choose another store)")
        }
        let store = try context.openStore(location)
        var selected = query
        selected.surveyID = survey.id
        let out = arguments.value(Options.out)
        if let out { try context.checkWritable(out) }
        if format == "csv" {
            try ResponsesCommand.export(
                store, query: selected, survey: survey, format: "csv", out: out, context: context,
                byteOrderMark: arguments.flag(Options.bom))
            return .success
        }
        let report: SurveyReport
        do {
            report = try SurveyReport(
                survey: survey, store: store, query: selected,
                locale: context.locale(option: arguments.value(Options.locale)))
        } catch {
            throw InputError("\(error)")
        }
        let text =
            format == "json" ? JSONWriter.string(from: report.json, pretty: true) + "\n" : HTMLReport.page(report)
        if let out {
            try context.write(text, to: out)
        } else {
            Console.out(text)
        }
        return .success
    }
}

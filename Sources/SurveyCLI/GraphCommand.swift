import SurveyAnalysis
import SurveyCore

// MARK: graph

enum GraphCommand: Command {
    /// The options only this command declares, read by these constants.
    enum Options {
        static let format = CommandSpec.Option(
            name: "--format", valueName: "dot|mermaid", help: "dot (default; render with dot -Tsvg) or mermaid.")
        static let locale = CommandSpec.Option(
            name: "--locale", valueName: "LOCALE", help: "Language of the titles shown (default: the survey's).")
    }

    static let spec = CommandSpec(
        name: "graph", summary: "Print a survey's flow as a graph (Graphviz dot or Mermaid).",
        usage: "graph FILE [--format dot|mermaid] [--locale L] [--plugin PATH]...",
        positionalHelp: [("FILE", "The survey definition (JSON).")],
        options: [
            Options.format,
            Options.locale,
            pluginOption, isolatePluginsOption, pluginTimeoutOption, lenientExpressionsOption,
        ],
        minimumPositionals: 1, maximumPositionals: 1,
        discussion: """
            Units (pages and steps outside pages) are nodes, with their questions and visibility conditions;
            edges are the default next step and each branch, labelled with its condition. Steps no respondent
            can reach are drawn dashed and marked unreachable. See docs/graph.md.
            """)

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        let formatName = arguments.value(Options.format) ?? "dot"
        guard let format = FlowGraph.Format(rawValue: formatName) else {
            throw UsageError("--format must be dot or mermaid, got '\(formatName)'", command: spec.name)
        }
        let survey = try context.loadSurvey(arguments.positionals[0], plugins: PluginSelection(arguments))
        let graph = FlowGraph(survey: survey)
        Console.out(graph.rendered(as: format, locale: arguments.value(Options.locale)))
        return .success
    }
}

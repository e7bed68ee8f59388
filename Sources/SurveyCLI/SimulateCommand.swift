import Foundation
import SurveyAnalysis
import SurveyCore

enum SimulateCommand: Command {
    /// The options only this command declares, read by these constants.
    enum Options {
        static let respondents = CommandSpec.Option(
            name: "--respondents", valueName: "N", help: "How many respondents (default 1000).")
        static let profile = CommandSpec.Option(
            name: "--profile", valueName: "FILE",
            help: "How respondents answer: {\"skipOptional\": 0.1, \"weights\": {step: {choice: weight}}, "
                + "\"secondsPerQuestion\": {kind: seconds}}.")
        static let format = CommandSpec.Option(
            name: "--format", valueName: "text|json", help: "The report format (default text).")
    }

    static let spec = CommandSpec(
        name: "simulate",
        summary: "Run seeded synthetic respondents: reach per question, path lengths, completion, common paths, time.",
        usage: "simulate FILE [--respondents N] [--seed S] [--profile FILE] [--format text|json] [--plugin PATH]...",
        positionalHelp: [("FILE", "The survey definition (JSON).")],
        options: [
            Options.respondents,
            seedOption,
            Options.profile,
            Options.format,
            todayOption, pluginOption, isolatePluginsOption, pluginTimeoutOption, lenientExpressionsOption,
        ],
        minimumPositionals: 1, maximumPositionals: 1,
        discussion: """
            Every respondent is a real session with seed S + its number, so the same command gives the same
            report. Respondents answer each visible question from its input (uniformly, or by the profile's
            weights), skip optional questions with the profile's probability, and run on every core.
            """)

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        let respondents = try count(arguments.value(Options.respondents) ?? "1000")
        let seed = try seed(arguments, command: spec.name)
        let format = arguments.value(Options.format) ?? "text"
        guard format == "text" || format == "json" else {
            throw UsageError("--format must be text or json, got '\(format)'", command: spec.name)
        }
        let today = try today(arguments, command: spec.name) ?? "2026-01-01"
        let survey = try context.loadSurvey(arguments.positionals[0], plugins: PluginSelection(arguments))
        var profile = SimulationProfile()
        if let path = arguments.value(Options.profile) {
            do {
                profile = try SimulationProfile(json: try context.readJSON(path), path: path)
            } catch let error as SimulationError {
                throw InputError(error.message)
            }
            for step in profile.weights.keys.sorted() where survey.question(forStep: step) == nil {
                let hint =
                    survey.stepIDs.first { $0.lowercased() == step.lowercased() }.map { " (did you mean '\($0)'?)" }
                    ?? ""
                throw InputError("\(path): weights name '\(step)', which is not a step of the survey\(hint)")
            }
        }
        let report = SurveySimulator(survey: survey, profile: profile).run(
            respondents: respondents, seed: seed, today: today)
        if format == "json" {
            Console.line(JSONWriter.string(from: report.jsonValue, pretty: true))
        } else {
            Console.out(report.text)
        }
        return .success
    }

    static func count(_ text: String) throws(UsageError) -> Int {
        guard let value = Int(text.replacingOccurrences(of: "_", with: "")), value > 0, value <= 100_000_000 else {
            throw UsageError(
                "--respondents must be a whole number from 1 to 100,000,000, got '\(text)'", command: spec.name)
        }
        return value
    }
}

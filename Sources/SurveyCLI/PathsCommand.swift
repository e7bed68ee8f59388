import Foundation
import SurveyAnalysis
import SurveyCore
import SurveyRendering

enum PathsCommand: Command {
    /// The options only this command declares, read by these constants.
    enum Options {
        static let out = CommandSpec.Option(
            name: "--out", valueName: "DIR", help: "Where to write path-001.json, path-002.json, … (created).")
        static let all = CommandSpec.Option(
            name: "--all", valueName: nil, help: "Collect distinct paths instead of covering goals (with --max).")
        static let max = CommandSpec.Option(
            name: "--max", valueName: "N", help: "With --all: at most N distinct paths (default 100).")
        static let timeLimit = CommandSpec.Option(
            name: "--time-limit", valueName: "SECONDS", help: "Stop searching after this long (default 50).")
        static let format = CommandSpec.Option(
            name: "--format", valueName: "text|json", help: "The coverage report's format (default text).")
    }

    static let spec = CommandSpec(
        name: "paths", summary: "Generate answer scripts that together reach branch coverage of a survey.",
        usage:
            "paths FILE --out DIR [--all --max N] [--seed S] [--time-limit SECONDS] [--format text|json] [--plugin PATH]...",
        positionalHelp: [("FILE", "The survey definition (JSON).")],
        options: [
            Options.out,
            Options.all,
            Options.max,
            seedOption,
            Options.timeLimit,
            Options.format,
            todayOption, pluginOption, isolatePluginsOption, pluginTimeoutOption, lenientExpressionsOption,
        ],
        minimumPositionals: 1, maximumPositionals: 1,
        discussion: """
            Each script is a test case with its expected path and answers: `survey test FILE --answers DIR`
            runs them unchanged. Coverage counts every step shown, every visibleIf both true and false,
            every branch taken and passed over, and completion; goals left uncovered are listed, those
            the linter proves impossible as infeasible. Exits 0 when every feasible goal is covered, 1
            otherwise.
            """)

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        guard let out = arguments.value(Options.out) else { throw UsageError("missing --out DIR", command: spec.name) }
        let seed = try seed(arguments, command: spec.name)
        let limit = try timeLimit(arguments)
        let format = try CoverageCommand.format(arguments, command: spec.name)
        let survey = try context.loadSurvey(arguments.positionals[0], plugins: PluginSelection(arguments))
        var generator = PathGenerator(survey: survey, seed: seed == 0 ? 1 : seed, timeLimit: limit)
        if let today = try today(arguments, command: spec.name) { generator.today = today }
        if arguments.flag(Options.all) {
            let text = arguments.value(Options.max) ?? "100"
            guard let maximum = Int(text), maximum > 0, maximum <= 1_000_000 else {
                throw UsageError("--max must be a whole number from 1 to 1,000,000, got '\(text)'", command: spec.name)
            }
            generator.distinctPaths = maximum
        } else if arguments.value(Options.max) != nil {
            throw UsageError("--max goes with --all", command: spec.name)
        }
        let result = generator.generate()
        do {
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        } catch {
            throw InputError("\(out): cannot create the directory (\(CommandContext.reason(error)))")
        }
        for (number, script) in result.scripts.enumerated() {
            let name = String(format: "%@/path-%03d.json", out, number + 1)
            try context.write(JSONWriter.string(from: script.jsonValue, pretty: true) + "\n", to: name)
        }
        CoverageCommand.report(
            result.coverage, infeasible: result.infeasible, format: format,
            header: "\(result.scripts.count) scripts in \(out) (\(result.walks) walks, "
                + String(format: "%.1f s", result.seconds) + ")", blocked: result.blocked)
        if generator.distinctPaths != nil { return .success }
        let feasible = Set(result.coverage.uncovered).subtracting(result.infeasible)
        return feasible.isEmpty ? .success : .failure
    }

    static func timeLimit(_ arguments: ParsedArguments) throws(UsageError) -> Double {
        guard let text = arguments.value(Options.timeLimit) else { return 50 }
        guard let value = Double(text), value > 0, value <= 86_400 else {
            throw UsageError("--time-limit must be a number of seconds, got '\(text)'", command: spec.name)
        }
        return value
    }
}

enum CoverageCommand: Command {
    /// The options only this command declares, read by these constants.
    enum Options {
        static let answers = CommandSpec.Option(
            name: "--answers", valueName: "SCRIPT|DIR", help: "Answer scripts, or directories of them.",
            isRepeatable: true)
        static let format = CommandSpec.Option(
            name: "--format", valueName: "text|json", help: "The report's format (default text).")
    }

    static let spec = CommandSpec(
        name: "coverage", summary: "Measure the branch coverage a set of answer scripts reaches.",
        usage: "coverage FILE --answers SCRIPT|DIR... [--format text|json] [--plugin PATH]...",
        positionalHelp: [("FILE", "The survey definition (JSON).")],
        options: [
            Options.answers,
            Options.format,
            localeOption, seedOption, todayOption, pluginOption, isolatePluginsOption, pluginTimeoutOption,
            lenientExpressionsOption,
        ],
        minimumPositionals: 1, maximumPositionals: nil,
        discussion: """
            Runs every script through the engine (as survey test does) and reports which goals they
            cover: every step shown, every visibleIf both true and false, every branch taken and passed
            over, completion. Uncovered goals are listed by step id.
            """)

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        let sources = arguments.all(Options.answers) + arguments.positionals.dropFirst()
        guard !sources.isEmpty else { throw UsageError("missing --answers SCRIPT|DIR", command: spec.name) }
        let format = try format(arguments, command: spec.name)
        let seed = try seed(arguments, command: spec.name)
        let today = try today(arguments, command: spec.name)
        let survey = try context.loadSurvey(arguments.positionals[0], plugins: PluginSelection(arguments))
        var coverage = BranchCoverage(survey: survey)
        var failures: [String] = []
        let files = try TestCommand.scriptFiles(sources)
        for file in files {
            let testCase = try TestCommand.readCase(file, context: context)
            let run = HeadlessRun(
                survey: survey, script: testCase.script, seed: testCase.seed ?? seed,
                locale: testCase.locale ?? context.locale(option: arguments.value(localeOption)),
                today: testCase.today ?? today, allowsExtra: true, variables: testCase.variables ?? [:])
            if let failure = run.failure { failures.append("\(file): \(failure.message)") }
            coverage.record(
                run.finalState.actions, seed: run.finalState.seed, locale: run.finalState.locale,
                today: run.finalState.today, variables: testCase.variables ?? [:])
        }
        for failure in failures { Console.error("survey coverage: \(failure) (its actions up to there still count)") }
        report(coverage, infeasible: [], format: format, header: "\(files.count) script\(files.count == 1 ? "" : "s")")
        return .success
    }

    static func format(_ arguments: ParsedArguments, command: String) throws(UsageError) -> String {
        let format = arguments.value(Options.format) ?? "text"
        guard format == "text" || format == "json" else {
            throw UsageError("--format must be text or json, got '\(format)'", command: command)
        }
        return format
    }

    static func report(
        _ coverage: BranchCoverage, infeasible: [CoverageGoal], format: String, header: String,
        blocked: [PathGenerator.BlockedStep] = []
    ) {
        let percent = String(format: "%.1f%%", coverage.fraction * 100)
        let uncovered = coverage.uncovered
        let impossible = Set(infeasible)
        if format == "json" {
            let json: JSONValue = [
                "goals": .number(Double(coverage.goals.count)), "covered": .number(Double(coverage.covered.count)),
                "percent": .number((coverage.fraction * 1000).rounded() / 10),
                "uncovered": .array(
                    uncovered.map { goal in
                        [
                            "goal": .string(goal.description), "stepId": goal.stepID.map(JSONValue.string) ?? .null,
                            "infeasible": .bool(impossible.contains(goal)),
                        ]
                    }),
            ]
            if !blocked.isEmpty, case .object(var members) = json {
                members["blocked"] = .array(
                    blocked.map { step in
                        [
                            "stepId": .string(step.stepID), "validator": step.validator.map(JSONValue.string) ?? .null,
                            "message": .string(step.message),
                        ]
                    })
                Console.line(JSONWriter.string(from: .object(members), pretty: true))
                return
            }
            Console.line(JSONWriter.string(from: json, pretty: true))
            return
        }
        Console.line("\(header): branch coverage \(coverage.covered.count)/\(coverage.goals.count) goals (\(percent))")
        for goal in uncovered {
            Console.line(
                "  not covered: \(goal)" + (impossible.contains(goal) ? "  (infeasible: see survey lint)" : ""))
        }
        for step in blocked {
            let what = step.validator.map { "its '\($0)' validator" } ?? "Next"
            Console.line(
                "  blocked at '\(step.stepID)': no generated answer passes \(what) (\(step.message)); write a script that answers it"
            )
        }
    }
}

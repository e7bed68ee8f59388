import SurveyAnalysis
import SurveyCore
import SurveyImport

// MARK: lint

enum LintCommand: Command {
    /// The options only this command declares, read by these constants.
    enum Options {
        static let format = CommandSpec.Option(
            name: "--format", valueName: "text|json|sarif",
            help: "Output: text (default, FILE:LINE:COL: severity: message [rule]), json, or sarif (SARIF 2.1.0).")
        static let warningsAsErrors = CommandSpec.Option(
            name: "--warnings-as-errors", valueName: nil, help: "Exit 1 when there is a warning too.")
        static let disable = CommandSpec.Option(
            name: "--disable", valueName: "RULE", help: "Leave out a rule, e.g. missing-translation.",
            isRepeatable: true)
    }

    static let spec = CommandSpec(
        name: "lint",
        summary: "Analyse survey flows: unreachable steps, dead ends, loops, impossible comparisons and more.",
        usage:
            "lint FILE... [--format text|json|sarif] [--warnings-as-errors] [--disable RULE]... [--plugin PATH]...",
        positionalHelp: [("FILE...", "Survey definitions (JSON).")],
        options: [
            Options.format,
            Options.warningsAsErrors,
            Options.disable,
            todayOption, pluginOption, isolatePluginsOption, pluginTimeoutOption, lenientExpressionsOption,
        ],
        minimumPositionals: 1, maximumPositionals: nil,
        discussion: """
            Rules: \(LintRule.allCases.filter { $0 != .invalidSurvey }.map(\.id).joined(separator: ", ")).
            Errors are proved (no respondent avoids them); warnings are probable defects or conditions that
            never change anything; info marks what the analysis could not decide. A file that does not load is
            reported like 'survey validate' does (rule invalid-survey). Exits 1 when there is an error (or,
            with --warnings-as-errors, a warning), else 0. The rules are described in docs/lint.md.
            """)

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        let formatName = arguments.value(Options.format) ?? "text"
        guard let format = LintReport.Format(rawValue: formatName) else {
            throw UsageError("--format must be text, json or sarif, got '\(formatName)'", command: spec.name)
        }
        var disabled = Set<LintRule>()
        for name in arguments.all(Options.disable) {
            guard let rule = LintRule(rawValue: name), rule != .invalidSurvey else {
                let known = LintRule.allCases.filter { $0 != .invalidSurvey }.map(\.id)
                let hint = closestMatch(to: name, in: known).map { " (did you mean '\($0)'?)" } ?? ""
                throw UsageError(
                    "unknown rule '\(name)'\(hint); rules: \(known.joined(separator: ", "))", command: spec.name)
            }
            disabled.insert(rule)
        }
        var configuration = LintConfiguration(today: FunctionContext.current().today, disabledRules: disabled)
        if let today = arguments.value(todayOption) {
            guard CivilDate(today) != nil, today.utf8.count == 10 else {
                throw UsageError("--today must be a date as YYYY-MM-DD, got '\(today)'", command: spec.name)
            }
            configuration.today = today
        }
        let plugins = try PluginSelection(arguments)
        let (registry, functions) = try context.registries(plugins: plugins)
        let loader = SurveyLoader(registry: registry, functions: functions)
        var source = context.surveySource(loader)
        source.lenientExpressions = plugins.lenientExpressions
        let linter = SurveyLinter(configuration: configuration)
        var findings: [LintFinding] = []
        for file in arguments.positionals {
            // Each file's findings in the order of their places in it (the ones placed nowhere last).
            let first = findings.count
            defer { Self.sortByPosition(&findings[first...]) }
            let text: String
            do {
                text = try context.readSurvey(file, from: source)
            } catch {
                findings.append(
                    LintFinding(rule: .invalidSurvey, severity: .error, message: error.description, file: file))
                continue
            }
            do throws(SurveyLoadError) {
                let prepared = try source.prepare(text, file: file)
                let survey: Survey
                do {
                    survey = try source.loader(for: prepared).load(
                        text: prepared.text, source: prepared.isOriginal ? file : nil)
                } catch {
                    throw SurveyLoadError(errors: prepared.locate(error))
                }
                // Names a SurveyJS survey reads but does not define: placed in the file as written.
                findings += linter.unknownReferences(prepared.conversion?.hostNames ?? [], in: survey, file: file).map {
                    var located = $0
                    located.position = $0.path.flatMap { SourceLocator.position(of: $0, in: text) }
                    return located
                }
                // Expressions survey-core cannot parse either: left out of the conversion, an error here.
                findings += linter.invalidExpressions(prepared.conversion?.unparsableExpressions ?? [], file: file).map
                {
                    var located = $0
                    located.position = $0.path.flatMap { SourceLocator.position(of: $0, in: text) }
                    return located
                }
                // Questions made to hold a value a trigger writes are never shown, as intended.
                let dataKeys = SurveyJSDataShape.dataKeys(of: survey)
                findings += linter.lint(survey, source: prepared.text, file: file).filter {
                    $0.stepID.map { !dataKeys.contains($0) } ?? true
                }.map { finding in
                    guard !prepared.isOriginal else { return finding }
                    var located = finding
                    located.path = finding.path.flatMap { prepared.originalPath($0) }
                    located.position = located.path.flatMap { SourceLocator.position(of: $0, in: text) }
                    return located
                }
            } catch {
                findings += error.errors.map { problem in
                    LintFinding(
                        rule: .invalidSurvey, severity: .error, message: problem.message, stepID: problem.stepID,
                        path: problem.path, position: problem.position, file: file)
                }
            }
        }
        let report = LintReport(findings: findings)
        Console.out(report.rendered(as: format))
        if format == .text {
            let files = arguments.positionals.count
            Console.error("\(files) file\(files == 1 ? "" : "s") linted: \(report.summary)")
        }
        return report.fails(warningsAsErrors: arguments.flag(Options.warningsAsErrors)) ? .failure : .success
    }

    /// `findings` in the order of their line and column (the ones without a position last, each
    /// group in its order): the conversion's findings and the linter's, placed in the file as written.
    static func sortByPosition(_ findings: inout ArraySlice<LintFinding>) {
        let sorted = findings.enumerated().sorted { lhs, rhs in
            let left = lhs.element.position.map { ($0.line, $0.column) } ?? (Int.max, Int.max)
            let right = rhs.element.position.map { ($0.line, $0.column) } ?? (Int.max, Int.max)
            if left != right { return left < right }
            return lhs.offset < rhs.offset
        }.map(\.element)
        findings.replaceSubrange(findings.indices, with: sorted)
    }
}

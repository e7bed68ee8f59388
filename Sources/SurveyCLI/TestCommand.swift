import Foundation
import SurveyCore
import SurveyRendering
import SurveyResponses

enum TestCommand: Command {
    /// The options only this command declares, read by these constants.
    enum Options {
        static let answers = CommandSpec.Option(
            name: "--answers", valueName: "SCRIPT|DIR",
            help:
                "Answer script(s): {\"step\": answer, …}, {\"actions\": [commands…]} or a test case with expectations; "
                + "a directory runs every *.json in it.", isRepeatable: true)
        static let expectPath = CommandSpec.Option(
            name: "--expect-path", valueName: "a,b,c",
            help: "Fail unless the completed path is exactly these unit ids (one script only).")
        static let expectAnswers = CommandSpec.Option(
            name: "--expect-answers", valueName: "FILE",
            help: "Fail unless the completed answers equal this JSON object (one script only).")
        static let junit = CommandSpec.Option(
            name: "--junit", valueName: "PATH", help: "Write the results as JUnit XML (for CI) to PATH.")
        static let quiet = CommandSpec.Option(
            name: "--quiet", valueName: nil, help: "Do not print the event transcript.")
        static let allowExtra = CommandSpec.Option(
            name: "--allow-extra", valueName: nil,
            help: "Accept script entries for unknown step ids and actions left after the survey ended.")
        static let store = CommandSpec.Option(
            name: "--store", valueName: "PATH|URL",
            help: "Also record the run into this response store (default: none, so CI runs leave nothing behind).")
        static let respondent = CommandSpec.Option(
            name: "--respondent", valueName: "ID",
            help: "The respondent id of the recorded run (default survey-test).")
    }

    static let spec = CommandSpec(
        name: "test", summary: "Run a survey headless with scripted answers and check the path and answers.",
        usage:
            "test FILE --answers SCRIPT|DIR... [--expect-path a,b,c] [--expect-answers FILE] [--junit PATH] "
            + "[--locale L] [--plugin PATH]...",
        positionalHelp: [("FILE", "The survey definition (JSON).")],
        options: [
            Options.answers,
            Options.expectPath,
            Options.expectAnswers,
            Options.junit,
            Options.quiet,
            Options.allowExtra,
            Options.store,
            Options.respondent,
            localeOption, seedOption, todayOption, variableOption, dataShapeOption, pluginOption,
            isolatePluginsOption, pluginTimeoutOption, lenientExpressionsOption,
        ],
        minimumPositionals: 1, maximumPositionals: nil,
        discussion: """
            Files after FILE are more scripts, so a shell glob works: --answers scripts/onboarding-*.json.
            With one script: prints the run as JSON-event lines (see docs/json-event-protocol.md), ending
            with `completed`, and exits 1 with a message on stderr when a shown required question has no
            scripted answer, a scripted answer is invalid, or an expectation fails (with a readable diff).
            With several scripts (a directory, several --answers, or --junit): runs them in parallel on
            every core, prints one line per script and a summary, and exits 1 when any fails. A script
            may carry its own expectations: {"answers": {…} or "actions": […], "expectPath": […],
            "expectAnswers": {…}, "expectShown": […], "expectHidden": […], "seed": 0, "locale": "en",
            "today": "2026-01-01", "description": "…"}.
            """)

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        let file = arguments.positionals[0]
        let sources = arguments.all(Options.answers)
        guard !sources.isEmpty else { throw UsageError("missing --answers SCRIPT|DIR", command: spec.name) }
        let sourcesAndGlob = sources + arguments.positionals.dropFirst()
        let scripts = try scriptFiles(sourcesAndGlob)
        let isBatch =
            scripts.count > 1 || sourcesAndGlob.contains(where: isDirectory) || arguments.value(Options.junit) != nil
        if isBatch {
            guard arguments.value(Options.expectPath) == nil, arguments.value(Options.expectAnswers) == nil else {
                throw UsageError(
                    "--expect-path and --expect-answers check one script; put expectPath / expectAnswers in each script",
                    command: spec.name)
            }
            return try runBatch(file: file, scripts: scripts, arguments: arguments, context: context)
        }
        return try runOne(file: file, answersPath: scripts[0], arguments: arguments, context: context)
    }

    static func isDirectory(_ path: String) -> Bool {
        var flag: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &flag) && flag.boolValue
    }

    /// The script files: each `--answers` file as given, each directory's `*.json` files sorted by name.
    static func scriptFiles(_ sources: [String]) throws(InputError) -> [String] {
        var files: [String] = []
        for source in sources {
            guard isDirectory(source) else {
                files.append(source)
                continue
            }
            let names = (try? FileManager.default.contentsOfDirectory(atPath: source)) ?? []
            let scripts = names.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.sorted()
            guard !scripts.isEmpty else { throw InputError("\(source): the directory has no *.json answer scripts") }
            let prefix = source.hasSuffix("/") ? source : source + "/"
            files += scripts.map { prefix + $0 }
        }
        return files
    }

    static func makeRecorder(_ arguments: ParsedArguments, context: CommandContext) throws -> (
        @Sendable (SurveySession) throws -> any SessionRecorder
    )? {
        guard let location = arguments.value(Options.store) else { return nil }
        guard !location.isEmpty else { throw UsageError("--store needs a file path or a URL", command: spec.name) }
        let respondent = arguments.value(Options.respondent) ?? "survey-test"
        guard !respondent.isEmpty else { throw UsageError("--respondent must not be empty", command: spec.name) }
        let store = try context.openStore(location)
        return { session in try ResponseRecorder(store: store, respondentID: respondent, session: session) }
    }

    static func readCase(_ path: String, context: CommandContext) throws(InputError) -> TestCase {
        let json = try context.readJSON(path)
        do {
            return try TestCase(json: json)
        } catch {
            throw InputError("\(path): \(error.message)")
        }
    }

    // MARK: One script

    static func runOne(file: String, answersPath: String, arguments: ParsedArguments, context: CommandContext) throws
        -> ExitCode
    {
        let seed = try seed(arguments, command: spec.name)
        let today = try today(arguments, command: spec.name)
        let expectedPath = arguments.value(Options.expectPath).map {
            $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        }
        let (survey, types) = try context.loadSurveyAndTypes(
            file, plugins: PluginSelection(arguments), dataShape: try DataShapeChoice(arguments, command: spec.name))
        var testCase = try readCase(answersPath, context: context)
        if let expectedPath { testCase.expectations.path = expectedPath }
        if let path = arguments.value(Options.expectAnswers) {
            guard case .object(let members) = try context.readJSON(path) else {
                throw InputError("\(path): expected answers must be a JSON object (step id → answer)")
            }
            testCase.expectations.answers = members
        }
        if let mismatch = testCase.mismatches(with: survey, allowsExtra: arguments.flag(Options.allowExtra)).first {
            throw InputError("\(answersPath): \(mismatch)")
        }
        let quiet = arguments.flag(Options.quiet)
        let run = HeadlessRun(
            survey: survey, script: testCase.script, seed: testCase.seed ?? seed,
            locale: testCase.locale ?? context.locale(option: arguments.value(localeOption)),
            today: testCase.today ?? today, output: quiet ? nil : { Console.line($0) }, keepsTranscript: false,
            recorder: try makeRecorder(arguments, context: context), allowsExtra: arguments.flag(Options.allowExtra),
            variables: testCase.variables(over: try variables(arguments, survey: survey, command: spec.name)))
        if let failure = run.failure {
            var place = failure.stepID.map { " (at '\($0)'" } ?? ""
            // A refusal by a plugin type names the plugin file, like every other plugin problem.
            if let stepID = failure.stepID, let typeID = survey.stepDefinition(stepID)?.type,
                let origin = types.type(withID: typeID)?.origin, origin != "built-in"
            {
                place += "; question type '\(typeID)' from \(origin)"
            }
            if !place.isEmpty { place += ")" }
            throw InputError("\(answersPath): \(failure.message)\(place)")
        }
        var problems: [String] = []
        if case .empty = run.outcome {
            if !testCase.expectsEmpty { problems.append(HeadlessRun.emptyProblem) }
        } else if run.outcome.result == nil, !testCase.expectations.isEmpty {
            problems.append("the survey did not complete (it ended at '\(run.path.last ?? "")')")
        }
        problems += testCase.pathAndAnswerProblems(
            of: run, pathSource: expectedPath != nil ? "--expect-path" : "expectPath of \(answersPath)",
            answersSource: arguments.value(Options.expectAnswers) ?? "expectAnswers of \(answersPath)")
        if run.outcome.result != nil { problems += testCase.visibilityProblems(of: run) }
        problems = problems.map { "\(file): \($0)" }
        guard problems.isEmpty else { throw InputError(problems) }
        return .success
    }

    // MARK: Many scripts

    struct ScriptResult: Sendable {
        var path: String
        var description: String?
        var problems: [String]
        var unitPath: [String]
        var seconds: Double
    }

    static func runBatch(file: String, scripts: [String], arguments: ParsedArguments, context: CommandContext) throws
        -> ExitCode
    {
        let seed = try seed(arguments, command: spec.name)
        let today = try today(arguments, command: spec.name)
        let locale = context.locale(option: arguments.value(localeOption))
        let junit = arguments.value(Options.junit)
        if let junit { try context.checkWritable(junit) }
        let survey = try context.loadSurvey(
            file, plugins: PluginSelection(arguments), dataShape: try DataShapeChoice(arguments, command: spec.name))
        let recorder = try makeRecorder(arguments, context: context)
        let allowsExtra = arguments.flag(Options.allowExtra)
        let given = try variables(arguments, survey: survey, command: spec.name)
        // Read every script first (reading is cheap and its errors belong to the script).
        var read: [Result<TestCase, InputError>] = []
        for path in scripts {
            do {
                read.append(.success(try readCase(path, context: context)))
            } catch {
                read.append(.failure(error))
            }
        }
        let cases = read
        let started = Date()
        let results = ResultSlots(count: scripts.count)
        DispatchQueue.concurrentPerform(iterations: scripts.count) { index in
            let path = scripts[index]
            let clock = Date()
            switch cases[index] {
            case .failure(let error):
                results[index] = ScriptResult(
                    path: path, description: nil, problems: error.lines, unitPath: [], seconds: 0)
            case .success(let testCase):
                let mismatches = testCase.mismatches(with: survey, allowsExtra: allowsExtra)
                guard mismatches.isEmpty else {
                    results[index] = ScriptResult(
                        path: path, description: testCase.description, problems: mismatches, unitPath: [],
                        seconds: 0)
                    return
                }
                let run = HeadlessRun(
                    survey: survey, script: testCase.script, seed: testCase.seed ?? seed,
                    locale: testCase.locale ?? locale, today: testCase.today ?? today,
                    keepsTranscript: false, recorder: recorder, allowsExtra: allowsExtra,
                    variables: testCase.variables(over: given))
                results[index] = ScriptResult(
                    path: path, description: testCase.description, problems: testCase.problems(of: run),
                    unitPath: run.path, seconds: Date().timeIntervalSince(clock))
            }
        }
        let all = results.values
        let elapsed = Date().timeIntervalSince(started)
        var failed = 0
        for result in all {
            if result.problems.isEmpty {
                Console.line("ok    \(result.path)  (\(result.unitPath.joined(separator: " → ")))")
            } else {
                failed += 1
                Console.line("FAIL  \(result.path)")
                for problem in result.problems {
                    for line in problem.split(separator: "\n", omittingEmptySubsequences: false) {
                        Console.line("      " + line)
                    }
                }
            }
        }
        let seconds = String(format: "%.2f", elapsed)
        Console.line(
            "\(all.count) script\(all.count == 1 ? "" : "s"): \(all.count - failed) passed, \(failed) failed (\(seconds) s)"
        )
        if let junit {
            let xml = JUnitReport.xml(
                suite: survey.id, file: file,
                results: all.map {
                    JUnitReport.Case(
                        name: $0.path, description: $0.description, problems: $0.problems, seconds: $0.seconds)
                }, seconds: elapsed, timestamp: started)
            try context.write(xml, to: junit)
        }
        return failed == 0 ? .success : .failure
    }
}

/// Results written by parallel workers, each to its own slot.
final class ResultSlots: @unchecked Sendable {
    private var slots: [TestCommand.ScriptResult?]
    private let lock = NSLock()

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    subscript(index: Int) -> TestCommand.ScriptResult? {
        get { lock.withLock { slots[index] } }
        set { lock.withLock { slots[index] = newValue } }
    }

    var values: [TestCommand.ScriptResult] { lock.withLock { slots.compactMap { $0 } } }
}

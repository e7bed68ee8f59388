import Foundation
import SurveyCore
import SurveyRendering
import SurveyResponses

enum TestCommand: Command {
    static let spec = CommandSpec(
        name: "test", summary: "Run a survey headless with scripted answers and check the path and answers.",
        usage:
            "test FILE --answers ANSWERS [--expect-path a,b,c] [--expect-answers FILE] [--locale L] [--plugin PATH]...",
        positionalHelp: [("FILE", "The survey definition (JSON).")],
        options: [
            .init(
                name: "--answers", valueName: "ANSWERS",
                help: "Answer script: {\"step\": answer, …} or {\"actions\": [commands…]}."),
            .init(
                name: "--expect-path", valueName: "a,b,c",
                help: "Fail unless the completed path is exactly these unit ids."),
            .init(
                name: "--expect-answers", valueName: "FILE",
                help: "Fail unless the completed answers equal this JSON object."),
            .init(name: "--quiet", valueName: nil, help: "Do not print the event transcript."),
            .init(
                name: "--allow-extra", valueName: nil,
                help: "Accept script entries for unknown step ids and actions left after the survey ended."),
            .init(
                name: "--store", valueName: "PATH|URL",
                help: "Also record the run into this response store (default: none, so CI runs leave nothing behind)."),
            .init(
                name: "--respondent", valueName: "ID",
                help: "The respondent id of the recorded run (default survey-test)."),
            localeOption, seedOption, todayOption, pluginOption,
        ],
        minimumPositionals: 1, maximumPositionals: 1,
        discussion: """
            Prints the run as JSON-event lines (see docs/json-event-protocol.md), ending with `completed`.
            Exits 1 with a message on stderr when a shown required question has no scripted answer, a
            scripted answer is invalid, or an expectation fails (with a readable diff).
            """)

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        let file = arguments.positionals[0]
        guard let answersPath = arguments.value("--answers") else {
            throw UsageError("missing --answers ANSWERS", command: spec.name)
        }
        let seed = try seed(arguments, command: spec.name)
        let expectedPath = arguments.value("--expect-path").map {
            $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        }
        let (survey, types) = try context.loadSurveyAndTypes(file, plugins: arguments.all("--plugin"))
        let scriptJSON = try context.readJSON(answersPath)
        let script: AnswerScript
        do {
            script = try AnswerScript(json: scriptJSON)
        } catch {
            throw InputError("\(answersPath): \(error.message)")
        }
        var expectedAnswers: [String: JSONValue]?
        if let path = arguments.value("--expect-answers") {
            guard case .object(let members) = try context.readJSON(path) else {
                throw InputError("\(path): expected answers must be a JSON object (step id → answer)")
            }
            expectedAnswers = members
        }
        let quiet = arguments.flag("--quiet")
        var makeRecorder: ((SurveySession) throws -> any SessionRecorder)?
        if let location = arguments.value("--store") {
            guard !location.isEmpty else { throw UsageError("--store needs a file path or a URL", command: spec.name) }
            let respondent = arguments.value("--respondent") ?? "survey-test"
            guard !respondent.isEmpty else { throw UsageError("--respondent must not be empty", command: spec.name) }
            let store = try context.openStore(location)
            makeRecorder = { session in try ResponseRecorder(store: store, respondentID: respondent, session: session) }
        }
        let run = HeadlessRun(
            survey: survey, script: script, seed: seed, locale: context.locale(option: arguments.value("--locale")),
            today: try today(arguments, command: spec.name), output: quiet ? nil : { Console.line($0) },
            recorder: makeRecorder,
            allowsExtra: arguments.flag("--allow-extra"))
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
        if run.outcome.result == nil, expectedPath != nil || expectedAnswers != nil {
            problems.append("\(file): the survey did not complete (it ended at '\(run.path.last ?? "")')")
        }
        if let expectedPath, let difference = HeadlessRun.pathDifference(expected: expectedPath, actual: run.path) {
            problems.append("\(file): the path differs from --expect-path:\n" + difference)
        }
        if let expectedAnswers, let path = arguments.value("--expect-answers"),
            let difference = HeadlessRun.answersDifference(expected: expectedAnswers, actual: run.answers)
        {
            problems.append("\(file): the answers differ from \(path):\n" + difference)
        }
        guard problems.isEmpty else { throw InputError(problems) }
        return .success
    }
}

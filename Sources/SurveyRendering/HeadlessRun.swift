import SurveyCore

/// One run of a survey with an ``AnswerScript`` through the headless front end, and checks of its
/// result. `survey test` and the test kit are thin layers over this.
///
/// ```swift
/// let run = HeadlessRun(survey: survey, script: .answers(["rating": 5]))
/// if let difference = HeadlessRun.pathDifference(expected: ["rating", "thanks"], actual: run.path) {
///     print(difference)
/// }
/// ```
public struct HeadlessRun: Sendable {
    /// How the session ended.
    public var outcome: DriverOutcome
    /// Why the script did not fit the survey, if it did not.
    public var failure: RendererError?
    /// The transcript: one JSON event per line, as the JSON-event front end prints them (empty when
    /// the run was made with `keepsTranscript: false` and no `output`).
    public var eventLines: [String]
    /// The progress shown on each unit, in order.
    public var progressTrail: [ProgressMark]
    /// The session's final state.
    public var finalState: SessionState
    /// Every step shown at least once, in the order first shown.
    public var shownSteps: [String] = []

    /// Runs `survey` with `script`.
    /// - Parameters:
    ///   - survey: the compiled survey.
    ///   - script: the answers or actions to play.
    ///   - seed: the shuffle seed.
    ///   - locale: the respondent's locale (default: the survey's).
    ///   - today: the date for `today()`/`age()` (`YYYY-MM-DD`; default: today in UTC).
    ///   - output: also receives each event line as it is produced.
    ///   - keepsTranscript: whether ``eventLines`` collects the events. Without it and without
    ///     `output` the events are not built at all, which makes a run several times cheaper (batch
    ///     tests that only check paths and answers).
    ///   - makeRecorder: makes a recorder for the new session (a response store's), which keeps every
    ///     accepted action; when it cannot be made, the run fails with a `storeFailed` failure.
    ///   - variables: values of the survey's declared variables.
    ///   - allowsExtra: accept a script that names steps the survey does not have, or has actions
    ///     left after the survey was completed (by default both fail the run: they are usually typos).
    public init(
        survey: Survey, script: AnswerScript, seed: UInt64 = 0, locale: String? = nil, today: String? = nil,
        output: ((String) -> Void)? = nil, keepsTranscript: Bool = true,
        recorder makeRecorder: ((SurveySession) throws -> any SessionRecorder)? = nil,
        allowsExtra: Bool = false, variables: [String: JSONValue] = [:]
    ) {
        var script = script.foldingOtherComments(for: survey)
        if case .answers(let answers) = script, let shape = survey.resultShape {
            script = .answers(shape.scriptAnswers(answers))
        }
        final class Lines: @unchecked Sendable { var lines: [String] = [] }
        let collected = Lines()
        var write: ((String) -> Void)?
        if keepsTranscript {
            write = { line in
                collected.lines.append(line)
                output?(line)
            }
        } else {
            write = output
        }
        var renderer = HeadlessRenderer(script: script, output: write)
        let session = SurveySession(survey: survey, seed: seed, locale: locale, today: today, variables: variables)
        var driver = SurveyDriver(session: session)
        var recorderFailure: RendererError?
        if let makeRecorder {
            do {
                driver.recorder = try makeRecorder(session)
            } catch {
                recorderFailure = RendererError(code: "storeFailed", message: "the response store failed: \(error)")
            }
        }
        if !allowsExtra, let unknown = Self.unknownSteps(in: script, of: survey) {
            recorderFailure = unknown
        }
        if let recorderFailure {
            outcome = .quit(session.state, location: nil)
            failure = recorderFailure
            progressTrail = []
            eventLines = []
            finalState = session.state
            return
        }
        outcome = driver.run(with: &renderer)
        failure = renderer.failure
        if failure == nil, !allowsExtra, case .actions(let actions) = script, renderer.nextAction < actions.count,
            outcome.result != nil || driver.session.status == .dismissed
        {
            let extra = actions.count - renderer.nextAction
            let first = EventProtocol.line(EventProtocol.json(of: actions[renderer.nextAction]))
            failure = RendererError(
                code: "extraActions",
                message:
                    "the script has \(extra) action\(extra == 1 ? "" : "s") after the survey ended (the first: \(first)); "
                    + "remove \(extra == 1 ? "it" : "them") or allow extra actions")
        }
        progressTrail = renderer.progressTrail
        shownSteps = renderer.shownSteps
        eventLines = collected.lines
        finalState = driver.session.state
    }

    /// The failure for script entries that name no step of `survey`, with a suggestion.
    static func unknownSteps(in script: AnswerScript, of survey: Survey) -> RendererError? {
        var unknown: String?
        switch script {
        case .answers(let answers):
            // A whole answer per key: a step or a comment.
            unknown = answers.keys.sorted().first { survey.question(forStep: $0) == nil && !survey.isComment($0) }
        case .actions(let actions):
            // One action per key: also an entry of a list answer (`kids[1]`).
            for action in actions {
                if case .answer(let key, _) = action, !survey.isAnswerKey(key) {
                    unknown = key
                    break
                }
            }
        }
        guard let unknown else { return nil }
        let suggestion = closestMatch(to: unknown, in: survey.stepIDs).map { " (did you mean '\($0)'?)" } ?? ""
        return RendererError(
            code: "unknownStep",
            message: "the script answers '\(unknown)', which is not a step of this survey\(suggestion)", stepID: unknown
        )
    }

    /// Why a run that ended ``DriverOutcome/empty(_:)`` fails a test (unless the case expects an empty
    /// path): the survey showed nothing.
    public static let emptyProblem =
        "the survey has nothing to show: no page was visible at the start, so it ended empty "
        + "(without a completion, as survey-core's 'empty' state); a case that means it says \"expectPath\": []"

    /// Whether the survey was completed without a script failure.
    public var isCompleted: Bool { failure == nil && outcome.result != nil }

    /// The units shown, in order (the completed path, or the path so far).
    public var path: [String] { outcome.result?.path ?? finalState.path }

    /// The answers on the completed path (empty when the survey did not complete).
    public var answers: [String: JSONValue] { outcome.result?.answers ?? [:] }

    // MARK: Comparing

    /// A readable description of how `actual` differs from `expected`, or `nil` when equal.
    public static func pathDifference(expected: [String], actual: [String]) -> String? {
        guard expected != actual else { return nil }
        var lines = [
            "  expected: " + (expected.isEmpty ? "(nothing)" : expected.joined(separator: " → ")),
            "  actual:   " + (actual.isEmpty ? "(nothing)" : actual.joined(separator: " → ")),
        ]
        let index = zip(expected, actual).prefix { $0 == $1 }.count
        switch (index < expected.count, index < actual.count) {
        case (true, true):
            lines.append(
                "  first difference at step \(index + 1): expected '\(expected[index])', got '\(actual[index])'")
        case (true, false):
            lines.append(
                "  the run stopped after '\(actual.last ?? "")'; missing: \(expected[index...].joined(separator: ", "))"
            )
        default:
            lines.append(
                "  the run went on after '\(expected.last ?? "")' with: \(actual[index...].joined(separator: ", "))")
        }
        return lines.joined(separator: "\n")
    }

    /// A readable, per-step description of how `actual` answers differ from `expected`, or `nil` when equal.
    public static func answersDifference(expected: [String: JSONValue], actual: [String: JSONValue]) -> String? {
        guard expected != actual else { return nil }
        var lines: [String] = []
        for key in Set(expected.keys).union(actual.keys).sorted() {
            switch (expected[key], actual[key]) {
            case (let want?, let got?) where want != got:
                lines.append("  \(key): expected \(want), got \(got)")
            case (let want?, nil):
                lines.append("  \(key): expected \(want), but it has no answer")
            case (nil, let got?):
                lines.append("  \(key): not expected, got \(got)")
            default:
                break
            }
        }
        return lines.joined(separator: "\n")
    }
}

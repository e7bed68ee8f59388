import Foundation
import SurveyCore
import Synchronization

/// Checks a submitted response against the survey's logic: could some respondent have produced it?
///
/// The audit replays the response as a respondent would, through a ``SurveySession`` (no flow logic
/// of its own): unit by unit in the order the session shows them, it gives each visible question
/// its submitted answer (the question type and the choice conditions check it), clears a default the
/// response does not keep, goes on with Next (the required checks, the validators, the `complete`
/// triggers and the branches), and past a unit the response left invalid, so that one problem does
/// not hide the others. The replay's result, in the survey's result shape
/// (``Survey/resultShape``), is then compared with the response key by key. Every difference is an
/// ``AuditProblem`` with a stable code (``AuditProblem/Code``).
///
/// The run is deterministic: the shuffles' seed, the date `today()` reads, the locale and the host's
/// variables are inputs.
///
/// ```swift
/// let survey = try SurveyLoader(registry: .builtins()).load(text: json)
/// let audit = ResponseAudit(survey: survey, today: "2026-12-07")
/// let report = audit.audit(response: try JSONParser.parse(#"{"age": 42, "pets": ["cat"]}"#))
/// for problem in report.problems { print(problem) }  // "hidden-answer $.pets (pets): …"
/// ```
public struct ResponseAudit: Sendable {
    /// The survey the responses answer (with its result shape, when it has one).
    public let survey: Survey
    /// The seed of the respondent's shuffles (choice and page order).
    public var seed: UInt64
    /// The date `today()` and `age()` read, `YYYY-MM-DD`.
    public var today: String
    /// The respondent's locale (the survey's default when `nil`): messages are in it.
    public var locale: String?
    /// The values the host gave the survey's variables.
    public var variables: [String: JSONValue]
    /// For a record whose status is `ended-by-quota`: the quota that ended it (`""` when it names
    /// none), replayed as full.
    var endingQuotaID: String?

    /// Names a response may hold besides step ids: calculated values, host variables and the keys
    /// the result shape adds.
    let calculatedNames: Set<String>
    let variableNames: Set<String>
    let addedKeys: Set<String>
    /// The comment key (`<id>-Comment`) of each step with a comment box, by step index.
    let commentKeys: [Int: String]
    /// Each step's id and whether it takes an answer, by step index (read once per step a replay shows).
    let stepIDs: [String]
    let collectsAnswer: [Bool]
    /// With `clearInvisibleValues` `"onComplete"`: the value slots each step's visibility reads (its
    /// condition and its page's, through calculated values), by step index; and the slots each
    /// calculated value reads, by name. `nil` for the other settings.
    let visibilitySlots: [Set<Int>]?
    let calculatedSlots: [String: Set<Int>]

    /// An audit of responses to `survey`.
    public init(
        survey: Survey, seed: UInt64 = 0, today: String, locale: String? = nil, variables: [String: JSONValue] = [:]
    ) {
        self.survey = survey
        self.seed = seed
        self.today = today
        self.locale = locale
        self.variables = variables
        calculatedNames = Set(survey.definition.calculatedValues.map(\.name))
        variableNames = Set(survey.definition.variables.map(\.name))
        addedKeys = survey.resultShape?.addedKeys ?? []
        var comments: [Int: String] = [:]
        for (index, id) in survey.stepIDs.enumerated() where survey.isComment(id + "-Comment") {
            comments[index] = id + "-Comment"
        }
        commentKeys = comments
        stepIDs = survey.stepIDs
        collectsAnswer = survey.stepIDs.map { survey.question(forStep: $0)?.collectsAnswer ?? false }
        if survey.definition.settings.clearInvisibleValues == .onComplete {
            let steps = survey.analysisSteps
            let units = survey.analysisUnits
            let calculated = survey.analysisCalculatedValues
            let stepCount = steps.count
            func closure(_ expressions: [SurveyCore.Expression?]) -> Set<Int> {
                var slots = Set<Int>()
                var pending = expressions.compactMap { $0 }.flatMap(\.referencedSlots)
                while let slot = pending.popLast() {
                    guard slots.insert(slot).inserted else { continue }
                    if slot >= stepCount, calculated.indices.contains(slot - stepCount) {
                        pending += calculated[slot - stepCount].expression.referencedSlots
                    }
                }
                return slots
            }
            visibilitySlots = steps.map { step in
                closure([step.visibleIf, units.indices.contains(step.unit) ? units[step.unit].visibleIf : nil])
            }
            var byName: [String: Set<Int>] = [:]
            for value in calculated where !value.isVariable { byName[value.name] = closure([value.expression]) }
            calculatedSlots = byName
        } else {
            visibilitySlots = nil
            calculatedSlots = [:]
        }
    }

    /// The answers a response holds and where they are in it: our result, export record or webhook
    /// payload (an object with an `answers` object and a `path`, `surveyId` or `responseId`) keeps them
    /// under `answers`; anything else (SurveyJS's `data`) is itself the answers.
    /// - Returns: `nil` when `response` is not an object.
    public static func answers(in response: JSONValue) -> (answers: [String: JSONValue], path: JSONPath)? {
        guard case .object(let members) = response else { return nil }
        if case .object(let answers)? = members["answers"],
            members["path"] != nil || members["surveyId"] != nil || members["responseId"] != nil
        {
            return (answers, JSONPath.root.appending("answers"))
        }
        return (members, .root)
    }

    /// Audits one response (see ``answers(in:)`` for the forms it may take). A record of ours (an
    /// export record, a webhook payload) that says its `seed`, `locale` or `today` is replayed with
    /// them. A response that is no object is one ``AuditProblem/Code/notAResponse`` problem.
    public func audit(response: JSONValue) -> AuditReport {
        var session: SurveySession?
        return audit(response: response, reusing: &session)
    }

    /// ``audit(response:)`` on `session` when there is one for the same locale and date (restarted
    /// with the response's seed: no storage allocated again), leaving the session used in it.
    func audit(response: JSONValue, reusing session: inout SurveySession?) -> AuditReport {
        var audit = self
        if path(of: response) != .root {
            if let seed = response["seed"]?.stringValue.flatMap({ UInt64($0) })
                ?? response["seed"]?.numberValue.flatMap({ $0 >= 0 && $0 < 1.8e19 ? UInt64($0) : nil })
            {
                audit.seed = seed
            }
            if let locale = response["locale"]?.stringValue { audit.locale = locale }
            if let today = response["today"]?.stringValue { audit.today = today }
            if response["status"]?.stringValue == "ended-by-quota" {
                let ended = response["quotasReached"]?.arrayValue?.last { $0["action"]?.stringValue == "end" }
                audit.endingQuotaID = ended?["quotaId"]?.stringValue ?? ""
            }
        }
        return audit.auditAsGiven(response, reusing: &session)
    }

    /// Where `response`'s answers are (see ``answers(in:)``).
    func path(of response: JSONValue) -> JSONPath? { Self.answers(in: response)?.path }

    /// Audits many responses on up to `parallelism` threads at once, each as ``audit(response:)``
    /// does; the reports are in the order of `responses`.
    public func audit(responses: [JSONValue], parallelism: Int) -> [AuditReport] {
        let parts = max(1, min(parallelism, responses.count / 64 + 1))
        if parts == 1 { return responses.map { audit(response: $0) } }
        let reports = Reports(count: responses.count)
        DispatchQueue.concurrentPerform(iterations: parts) { part in
            let range = (responses.count * part / parts)..<(responses.count * (part + 1) / parts)
            var found: [AuditReport] = []
            found.reserveCapacity(range.count)
            var session: SurveySession?
            for index in range { found.append(audit(response: responses[index], reusing: &session)) }
            reports.store(found, at: range.lowerBound)
        }
        return reports.all
    }

    /// ``audit(response:)`` with this audit's seed, locale and date.
    func auditAsGiven(_ response: JSONValue, reusing session: inout SurveySession?) -> AuditReport {
        guard let (answers, path) = Self.answers(in: response) else {
            return AuditReport(
                problems: [
                    AuditProblem(
                        code: .notAResponse, stepID: nil, path: .root,
                        message:
                            "a response is a JSON object of answers, got \(response.kindDescription)"
                    )
                ], path: [], isCompleted: false, cleaned: [:])
        }
        return audit(answers, at: path, reusing: &session)
    }

    /// Audits the answers `data` (by answer key, in the survey's result shape); `base` is where they
    /// are in the submitted document (each problem's path starts there).
    public func audit(_ data: [String: JSONValue], at base: JSONPath = .root) -> AuditReport {
        var session: SurveySession?
        return audit(data, at: base, reusing: &session)
    }

    func audit(_ data: [String: JSONValue], at base: JSONPath, reusing session: inout SurveySession?) -> AuditReport {
        guard let quotaID = endingQuotaID else {
            var replay = Replay(audit: self, data: data, base: base, reusing: session.take())
            replay.session.fullQuotas = []
            replay.run()
            let report = replay.report()
            session = replay.session
            return report
        }
        // Ended by a full quota: replayed with that quota full, the answers end there.
        var replay = Replay(audit: self, data: data, base: base, reusing: session.take())
        replay.session.fullQuotas = [quotaID]
        replay.run()
        var report = replay.report()
        session = replay.session
        let endedThere = replay.session.endingQuota?.quotaID == quotaID
        if endedThere, report.isClean { return report }
        // Or the quota filled while the respondent finished: a whole completion, matching the quota.
        var completion = Replay(audit: self, data: data, base: base, reusing: session.take())
        completion.session.fullQuotas = []
        completion.run()
        let completed = completion.report()
        let matches = completion.session.matchingQuotas().contains { $0.id == quotaID }
        session = completion.session
        if completed.isClean, completed.isCompleted, matches { return completed }
        if !endedThere {
            let named = quotaID.isEmpty ? "names no quota that ended it" : "says quota '\(quotaID)' ended it"
            let known = survey.definition.quotas.contains { $0.id == quotaID }
            report.problems.append(
                AuditProblem(
                    code: .quotaMismatch, stepID: quotaID.isEmpty ? nil : quotaID, path: .root.appending("status"),
                    message: "the response \(named), but "
                        + (known ? "these answers do not match its condition" : "the survey has no such quota")))
        }
        return report
    }
}

/// The reports of a parallel audit, filled part by part.
final class Reports: Sendable {
    let storage: Mutex<[AuditReport?]>

    init(count: Int) { storage = Mutex(Array(repeating: nil, count: count)) }

    func store(_ reports: [AuditReport], at start: Int) {
        storage.withLock { all in
            for (offset, report) in reports.enumerated() { all[start + offset] = report }
        }
    }

    var all: [AuditReport] { storage.withLock { $0.compactMap { $0 } } }
}

/// The outcome of auditing one response.
public struct AuditReport: Sendable, Hashable {
    /// What the response does that no respondent could have done, in the order found (the replay's,
    /// then the keys of the response sorted).
    public var problems: [AuditProblem]
    /// The units the replay went through (page ids, or step ids outside pages).
    public var path: [String]
    /// Whether the replay reached the survey's completion.
    public var isCompleted: Bool
    /// The response as the replay leaves it, in the survey's result shape: hidden answers and refused
    /// values dropped, calculated and read-only values as the answers give them (what `survey audit
    /// --fix` writes).
    public var cleaned: [String: JSONValue]

    /// Whether no problem was found.
    public var isClean: Bool { problems.isEmpty }
}

/// One thing a submitted response does that a respondent could not have done.
public struct AuditProblem: Sendable, Hashable, CustomStringConvertible {
    /// The kinds of problem, with their stable codes (docs/audit.md).
    public enum Code: String, Sendable, Hashable, CaseIterable {
        /// An answer to a question that is hidden for these answers (its condition, its page's, or a
        /// branch that skips its page).
        case hiddenAnswer = "hidden-answer"
        /// A required question (or panel) shown to the respondent has no answer.
        case requiredMissing = "required-missing"
        /// A value its question's kind or one of its validators refuses (the message is theirs).
        case invalidValue = "invalid-value"
        /// A read-only question (`readOnly`, or an `enableIf` that does not hold) holds another value
        /// than the survey gives it.
        case readOnlyChanged = "read-only-changed"
        /// A calculated value, an expression question or a value the survey's rules set differs from
        /// what the answers give.
        case calculatedMismatch = "calculated-mismatch"
        /// A value under a name the survey does not have.
        case unknownName = "unknown-name"
        /// An answer after the point where a `complete` trigger or a branch ends the survey for these
        /// answers.
        case endedEarlier = "ended-earlier"
        /// The submitted document is not a response (not a JSON object).
        case notAResponse = "not-a-response"
        /// A record whose status is `ended-by-quota` names a quota (the last of its `quotasReached`)
        /// that these answers do not match, or none.
        case quotaMismatch = "quota-mismatch"
    }

    /// What kind of problem it is.
    public var code: Code
    /// The step (or panel, calculated value) it is about; `nil` when it names none.
    public var stepID: String?
    /// Where in the submitted document (`$.answers.age`, `$.age`).
    public var path: JSONPath
    /// What is wrong, in the respondent's locale where the engine's own message is used.
    public var message: String

    public init(code: Code, stepID: String?, path: JSONPath, message: String) {
        self.code = code
        self.stepID = stepID
        self.path = path
        self.message = message
    }

    /// `code path (step): message`.
    public var description: String {
        "\(code.rawValue) \(path)" + (stepID.map { " (\($0))" } ?? "") + ": \(message)"
    }

    /// `{"code", "step", "path", "message"}` (`step` only when there is one).
    public var jsonValue: JSONValue {
        var members: [String: JSONValue] = [
            "code": .string(code.rawValue), "path": .string(path.description), "message": .string(message),
        ]
        if let stepID { members["step"] = .string(stepID) }
        return .object(members)
    }
}

/// One response replayed through a session, then compared with the replay's result.
struct Replay {
    let audit: ResponseAudit
    let survey: Survey
    /// The response as submitted, and as the answers a session takes.
    let data: [String: JSONValue]
    let given: [String: JSONValue]
    let base: JSONPath
    var session: SurveySession
    var problems: [AuditProblem] = []
    /// Keys already reported (a refused value is not reported again when the result lacks it).
    var reported: Set<String> = []
    /// Steps the replay found read-only when it reached them.
    var readOnly: Set<Int> = []
    /// What the session stored for each answer it accepted, by step index.
    var accepted: [Int: JSONValue] = [:]
    /// The units the replay entered.
    var entered: Set<Int> = []
    /// Steps the replay showed that the response holds no answer for, by step index.
    var shownUnanswered: [Int] = []

    init(audit: ResponseAudit, data: [String: JSONValue], base: JSONPath, reusing previous: SurveySession? = nil) {
        self.audit = audit
        survey = audit.survey
        // A `null` member is no answer (as survey-core's data leaves a cleared answer).
        let data = data.contains { $0.value.isNull } ? data.filter { !$0.value.isNull } : data
        self.data = data
        given = audit.survey.resultShape?.answers(fromShaped: data) ?? data
        self.base = base
        // A session of the same batch (same survey) for the same locale and date, without host variables,
        // starts over as a new respondent; otherwise a new one.
        if var previous, audit.variables.isEmpty, previous.variables.isEmpty, previous.today == audit.today,
            previous.locale == (audit.locale ?? audit.survey.definition.defaultLocale)
        {
            previous.restart(seed: audit.seed)
            session = previous
        } else {
            session = SurveySession(
                survey: audit.survey, seed: audit.seed, locale: audit.locale, today: audit.today,
                variables: audit.variables)
        }
    }

    /// Answers every unit the session shows, in turn, and moves on, until the session ends (bounded: a
    /// branch back to an earlier page that the answers keep taking ends the replay after as many moves
    /// as four times the survey's units).
    mutating func run() {
        var moves = 0
        let limit = 4 * survey.unitCount + 16
        while session.status == .inProgress, let unit = session.currentUnit, moves < limit {
            moves += 1
            entered.insert(unit.rawValue)
            answerUnit()
            if case .blocked(let errors) = session.advance() {
                for error in errors where error.severity == .error { record(error) }
                session.analysisAdvanceUnchecked()
            }
        }
    }

    /// Gives each visible step of the current unit its submitted answer, again while answers show more
    /// steps (a question visible only for a later answer on the same page).
    mutating func answerUnit() {
        var done: [Int] = []
        var changed = true
        while changed {
            changed = false
            for step in session.currentSteps where !done.contains(step.rawValue) {
                done.append(step.rawValue)
                changed = true
                answer(step)
            }
        }
    }

    mutating func answer(_ step: StepIndex) {
        let index = step.rawValue
        guard audit.collectsAnswer.indices.contains(index), audit.collectsAnswer[index] else { return }
        let id = audit.stepIDs[index]
        if session.analysisIsReadOnly(index) {
            readOnly.insert(index)
            return
        }
        if let value = given[id] {
            do {
                accepted[index] = try session.answer(value, at: step)
            } catch {
                refused(error, key: id, index: index)
            }
        } else {
            shownUnanswered.append(index)
            if session.answer(at: step) != nil {
                // A default (or a value a rule set) the response does not keep: the respondent cleared it.
                _ = try? session.answer(.null, at: step)
            }
        }
        if let key = audit.commentKeys[index], let comment = given[key] {
            do {
                try session.answer(comment, for: key)
            } catch {
                refused(error, key: key, index: index)
            }
        }
    }

    /// Reports an answer the session refused (unless it was refused as read-only: the comparison with
    /// the result reports that).
    mutating func refused(_ error: SessionError, key: String, index: Int) {
        guard case .invalidAnswer(let stepError) = error else { return }
        if stepError.error.code == "readOnly" {
            readOnly.insert(index)
            return
        }
        reported.insert(key)
        let value = data[key].map { JSONWriter.string(from: $0, pretty: false) } ?? "the answer"
        problems.append(
            AuditProblem(
                code: .invalidValue, stepID: survey.stepID(at: StepIndex(index)), path: base.appending(key),
                message: "\(Self.clipped(value)) is refused: \(stepError.message)"))
    }

    /// Reports a problem that blocked Next: a missing required answer, or a validator's refusal.
    mutating func record(_ error: StepError) {
        guard !reported.contains(error.stepID) else { return }
        reported.insert(error.stepID)
        if error.error.code == AnswerError.required.code || error.error.code == AnswerError.panelRequired.code {
            problems.append(
                AuditProblem(
                    code: .requiredMissing, stepID: error.stepID, path: base.appending(error.stepID),
                    message: "required and shown for these answers, but not answered (\(error.message))"))
        } else {
            problems.append(
                AuditProblem(
                    code: .invalidValue, stepID: error.stepID, path: base.appending(error.stepID),
                    message: (error.validator.map { "refused by its \($0) validator: " } ?? "refused: ")
                        + error.message))
        }
    }

    /// The problems found, with those of comparing the replay's result with the response.
    mutating func report() -> AuditReport {
        let result = session.completionResult()
        let expected = result.answers
        // The keys that differ, found without sorting, then looked at in sorted order (deterministic).
        var differing: [String] = []
        for (key, value) in data where expected[key] != value && !reported.contains(key) { differing.append(key) }
        for key in differing.sorted() { compare(key, value: data[key] ?? .null, expected: expected[key]) }
        var absent: [String] = []
        for key in expected.keys where data[key] == nil && !reported.contains(key) { absent.append(key) }
        for key in absent.sorted() { missing(key, expected: expected[key] ?? .null) }
        return AuditReport(
            problems: problems, path: result.path, isCompleted: session.status == .completed, cleaned: expected)
    }

    /// Whether what `slots` read may hold an answer the response lost: with `clearInvisibleValues`
    /// `"onComplete"` (survey-core's default) a question answered and then hidden by a later answer
    /// still counts until completion, which drops its answer. A step the replay showed with no answer
    /// and that is hidden at the end may have been such a question: what depends on it cannot be
    /// replayed from the data, and is not reported.
    func readsLostAnswer(_ slots: Set<Int>?) -> Bool {
        guard let slots, !slots.isEmpty else { return false }
        return shownUnanswered.contains { index in
            slots.contains(index)
                && (!session.analysisStepVisible(index)
                    || !session.analysisUnitVisible(survey.analysisUnit(ofStep: index)))
        }
    }

    /// A key of the response whose value the replay's result does not have.
    mutating func compare(_ key: String, value: JSONValue, expected: JSONValue?) {
        let place = base.appending(key)
        let stepID =
            survey.stepID(forAnswerKey: key)
            ?? (key.hasSuffix("-Comment") ? String(key.dropLast(8)) : nil).flatMap {
                survey.stepIndex(of: $0) == nil ? nil : $0
            }
        guard let stepID, let step = survey.stepIndex(of: stepID) else {
            if audit.calculatedNames.contains(key) || audit.addedKeys.contains(key) {
                if readsLostAnswer(audit.calculatedSlots[key]) { return }
                problems.append(
                    AuditProblem(
                        code: .calculatedMismatch, stepID: key, path: place,
                        message: "is \(Self.shown(expected)) for these answers, the response says \(Self.shown(value))"
                    ))
            } else if !audit.variableNames.contains(key) {
                problems.append(
                    AuditProblem(code: .unknownName, stepID: nil, path: place, message: "the survey has no '\(key)'"))
            }
            return
        }
        let index = step.rawValue
        if survey.question(forStep: stepID)?.typeID == "expression" {
            problems.append(
                AuditProblem(
                    code: .calculatedMismatch, stepID: stepID, path: place,
                    message: "is \(Self.shown(expected)) for these answers, the response says \(Self.shown(value))"))
            return
        }
        if readOnly.contains(index), key == stepID {
            problems.append(
                AuditProblem(
                    code: .readOnlyChanged, stepID: stepID, path: place,
                    message: "read-only: is \(Self.shown(expected)) for these answers, the response says "
                        + Self.shown(value)))
            return
        }
        if survey.question(forStep: stepID)?.collectsAnswer == false {
            problems.append(
                AuditProblem(code: .unknownName, stepID: stepID, path: place, message: "'\(stepID)' takes no answer"))
            return
        }
        if let expected {
            // The session kept another value than the one it accepted: a rule set it afterwards.
            if key == stepID, let stored = accepted[index], session.answer(at: step) != stored {
                problems.append(
                    AuditProblem(
                        code: .calculatedMismatch, stepID: stepID, path: place,
                        message: "the survey's rules make it \(Self.shown(expected)) for these answers, the "
                            + "response says \(Self.shown(value))"))
            }
            // Otherwise the same answer, written as the engine normalises it.
            return
        }
        let unit = survey.analysisUnit(ofStep: index)
        // Hidden for these answers, but perhaps not for an answer the data lost (see readsLostAnswer).
        if readsLostAnswer(audit.visibilitySlots?[index]) { return }
        if entered.contains(unit) {
            // Answered while shown and hidden afterwards is kept where the survey keeps hidden answers.
            if survey.analysisKeepsHiddenAnswers { return }
            problems.append(
                AuditProblem(
                    code: .hiddenAnswer, stepID: stepID, path: place,
                    message: "'\(stepID)' is hidden for these answers, so no respondent could answer it"))
        } else if session.status == .completed, let last = session.analysisPath.last, unit > last,
            session.analysisUnitVisible(unit), session.analysisStepVisible(index)
        {
            problems.append(
                AuditProblem(
                    code: .endedEarlier, stepID: stepID, path: place,
                    message: "the survey ends after '\(survey.unitID(at: UnitIndex(last)) ?? "")' for these "
                        + "answers (a complete trigger or a branch), before '\(stepID)' is shown"))
        } else {
            problems.append(
                AuditProblem(
                    code: .hiddenAnswer, stepID: stepID, path: place,
                    message: "'\(stepID)' is on a page these answers never show, so no respondent could answer it"))
        }
    }

    /// A key the replay's result has and the response does not.
    mutating func missing(_ key: String, expected: JSONValue) {
        let place = base.appending(key)
        if audit.calculatedNames.contains(key) || audit.addedKeys.contains(key)
            || survey.question(forStep: key)?.typeID == "expression"
        {
            if readsLostAnswer(audit.calculatedSlots[key]) { return }
            problems.append(
                AuditProblem(
                    code: .calculatedMismatch, stepID: key, path: place,
                    message: "is \(Self.shown(expected)) for these answers, the response has no value"))
        } else if let step = survey.stepIndex(of: key), readOnly.contains(step.rawValue) {
            problems.append(
                AuditProblem(
                    code: .readOnlyChanged, stepID: key, path: place,
                    message: "read-only: is \(Self.shown(expected)) for these answers, the response has no value"))
        } else if let step = survey.stepIndex(of: key), accepted[step.rawValue] == nil, given[key] == nil {
            problems.append(
                AuditProblem(
                    code: .calculatedMismatch, stepID: key, path: place,
                    message: "the survey's rules make it \(Self.shown(expected)) for these answers, the response "
                        + "has no value"))
        }
    }

    /// `value` as compact JSON, at most 80 characters.
    static func shown(_ value: JSONValue?) -> String {
        guard let value, !value.isNull else { return "empty" }
        return clipped(JSONWriter.string(from: value, pretty: false))
    }

    static func clipped(_ text: String) -> String {
        text.count > 80 ? String(text.prefix(77)) + "…" : text
    }
}

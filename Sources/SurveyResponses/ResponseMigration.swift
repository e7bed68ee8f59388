import Foundation
import SurveyCore

/// An unfinished response carried over to a new version of its survey: its recorded actions replayed
/// on the survey as it is now, keeping every answer that still fits and setting aside, as orphaned,
/// the answers the new version no longer takes.
///
/// Only the new version is needed: the replay reads the response's actions and step ids, never the
/// version it was started on. The rules (docs/response-store.md, "When the survey changes"):
///
/// - An answer is given again to its step, found by id. When the step is not shown at that point it
///   waits, and is given when the respondent's replayed path reaches the step's unit; an answer given
///   later to a step of the unit being left is given before leaving it (a step moved to an earlier
///   page keeps its answer).
/// - An answer the new version does not take is orphaned, with the reason
///   (``OrphanedAnswer/Reason``): its step was removed, takes no answer now, refuses the value (a
///   removed choice, another kind of question), or is on a unit the replay does not reach. A step's
///   last answer decides: a later answer that fits replaces an orphaned one, and an answer that is
///   orphaned clears the earlier one it replaced.
/// - A Next the new version refuses (a new required question, an answer that no longer passes) or
///   that would complete the survey stops the replay's movement there: the respondent continues on
///   that unit, the first that changed; later answers to its steps are still given.
/// - A response is replayable unless it answered something and none of its answers fits: each was
///   to a removed step, or a step that takes no answer or refuses it now.
///
/// ```swift
/// let migration = ResponseMigration.replay(response, actions: try store.actions(of: response.id), on: survey)
/// if migration.isReplayable { continueWith(migration.session) }
/// ```
public struct ResponseMigration {
    /// The session on the new version: where the respondent continues, with the answers kept.
    public var session: SurveySession
    /// The answers set aside by this replay, in the order they were given.
    public var orphaned: [OrphanedAnswer]
    /// How many answer keys (steps, entries, comments) the response answered.
    public var answeredCount: Int
    /// How many of them keep their answer on the new version.
    public var keptCount: Int
    /// The version the response was on.
    public var fromVersion: String?
    /// The survey's version now.
    public var toVersion: String?

    /// Whether the response can continue on the new version: it answered nothing yet, at least one of
    /// its answers fits, or one is to a step the respondent has not reached on the new version (it is
    /// asked again there).
    public var isReplayable: Bool {
        answeredCount == 0 || keptCount > 0 || orphaned.contains { $0.reason == .notReached }
    }

    /// Why the response cannot continue, for the abandoned record; `nil` when it can.
    public var failure: String? {
        guard !isReplayable else { return nil }
        return
            "it was started on version \(Self.name(fromVersion)) of the survey, which is now \(Self.name(toVersion)), "
            + "and none of its \(answeredCount) answers fits the new version (their steps were removed or changed)"
    }

    static func name(_ version: String?) -> String { version.map { "'\($0)'" } ?? "(none)" }

    /// What the carrying over did, in a sentence for the person running the survey:
    ///
    /// ```swift
    /// migration.summary
    /// // "the survey changed from version '1' to '2' since the response was started: 3 answers kept,
    /// //  1 set aside as orphaned (notes: removed-step)"
    /// ```
    public var summary: String {
        let change =
            fromVersion == toVersion
            ? "the survey (version \(Self.name(toVersion))) changed since the response was started"
            : "the survey changed from version \(Self.name(fromVersion)) to \(Self.name(toVersion)) since the response "
                + "was started"
        var text = "\(change): \(keptCount) answer\(keptCount == 1 ? "" : "s") kept"
        if !orphaned.isEmpty {
            text +=
                ", \(orphaned.count) set aside as orphaned ("
                + orphaned.map { "\($0.stepID): \($0.reason.rawValue)" }.joined(separator: ", ") + ")"
        }
        return text
    }

    /// Replays `actions` (the response's, in order) on `survey` from the response's seed, locale and
    /// date, by the rules above.
    /// - Returns: the new session and what was set aside; nothing is written.
    public static func replay(_ response: Response, actions: [RecordedAction], on survey: Survey) -> ResponseMigration {
        var replay = Replay(
            session: SurveySession(survey: survey, seed: response.seed, locale: response.locale, today: response.today),
            actions: actions.map(\.action), from: response.surveyVersion, to: survey.definition.version)
        replay.run()
        let orphaned = replay.orphanOrder.compactMap { replay.orphans[$0] }
        return ResponseMigration(
            session: replay.session, orphaned: orphaned, answeredCount: replay.answeredKeys.count,
            keptCount: replay.answeredKeys.count - orphaned.count, fromVersion: response.surveyVersion,
            toVersion: survey.definition.version)
    }
}

/// The state of one ``ResponseMigration/replay(_:actions:on:)``.
private struct Replay {
    var session: SurveySession
    let actions: [SessionAction]
    let from: String?
    let to: String?
    /// Actions already given earlier (answers pulled before a Next).
    var consumed = Set<Int>()
    /// Answers to steps not shown when they came, by key, in order.
    var waiting: [(key: String, value: JSONValue)] = []
    var orphans: [String: OrphanedAnswer] = [:]
    var orphanOrder: [String] = []
    var answeredKeys = Set<String>()
    /// A Next was refused: the respondent continues on this unit.
    var isHeld = false

    init(session: SurveySession, actions: [SessionAction], from: String?, to: String?) {
        self.session = session
        self.actions = actions
        self.from = from
        self.to = to
    }

    mutating func run() {
        for (index, action) in actions.enumerated() where !consumed.contains(index) {
            switch action {
            case .answer(let key, let value):
                waiting.removeAll { $0.key == key }
                give(value, for: key, canWait: true)
            case .next:
                guard !isHeld else { continue }
                pullForward(after: index)
                var trial = session
                trial.next()
                guard trial.status == .inProgress, trial.actionCount != session.actionCount else {
                    isHeld = true
                    continue
                }
                session = trial
                giveWaiting()
            case .back:
                guard !isHeld, (try? session.back()) != nil else { continue }
                giveWaiting()
            case .dismiss:
                continue
            }
        }
        for (key, value) in waiting {
            let unit = session.survey.stepID(forAnswerKey: key).map { "'\($0)'" } ?? "it"
            orphan(
                key, value, .notReached,
                "\(unit) is not on the respondent's path up to where the response continues on version \(Self.name(to))"
            )
        }
        waiting = []
    }

    static func name(_ version: String?) -> String { ResponseMigration.name(version) }

    /// Gives the later answers to the steps shown now, before the Next at `index` leaves them.
    mutating func pullForward(after index: Int) {
        let shown = Set(session.currentStepIDs)
        guard !shown.isEmpty, index + 1 < actions.count else { return }
        for later in (index + 1)..<actions.count where !consumed.contains(later) {
            guard case .answer(let key, let value) = actions[later],
                let step = session.survey.stepID(forAnswerKey: key), shown.contains(step)
            else { continue }
            answeredKeys.insert(key)
            if (try? session.answer(value, for: key)) != nil {
                consumed.insert(later)
                waiting.removeAll { $0.key == key }
                keep(key)
            }
        }
    }

    /// Gives the waiting answers whose steps are shown now.
    mutating func giveWaiting() {
        guard !waiting.isEmpty else { return }
        let shown = Set(session.currentStepIDs)
        let ready = waiting.filter { session.survey.stepID(forAnswerKey: $0.key).map(shown.contains) ?? false }
        guard !ready.isEmpty else { return }
        waiting.removeAll { entry in ready.contains { $0.key == entry.key } }
        for entry in ready { give(entry.value, for: entry.key, canWait: false) }
    }

    mutating func give(_ value: JSONValue, for key: String, canWait: Bool) {
        answeredKeys.insert(key)
        do {
            try session.answer(value, for: key)
            keep(key)
        } catch {
            switch error {
            case .unknownStep:
                orphan(key, value, .removedStep, "version \(Self.name(to)) has no step '\(key)'")
            case .notAnswerable:
                clear(key)
                orphan(key, value, .notAnswerable, "\(error) in version \(Self.name(to))")
            case .invalidAnswer(let stepError):
                clear(key)
                orphan(key, value, .refused, stepError.message)
            case .stepNotCurrent where canWait:
                waiting.append((key, value))
            default:
                clear(key)
                orphan(key, value, .notReached, "\(error)")
            }
        }
    }

    mutating func keep(_ key: String) {
        orphans[key] = nil
    }

    /// Clears what the step holds from an earlier answer that a refused one replaced.
    mutating func clear(_ key: String) {
        guard session.survey.stepIndex(of: key) != nil, session.answer(for: key) != nil else { return }
        _ = try? session.answer(.null, for: key)
    }

    mutating func orphan(_ key: String, _ value: JSONValue, _ reason: OrphanedAnswer.Reason, _ message: String) {
        if orphans[key] == nil { orphanOrder.removeAll { $0 == key } }
        if !orphanOrder.contains(key) { orphanOrder.append(key) }
        orphans[key] = OrphanedAnswer(
            stepID: key, value: value, reason: reason, message: message, surveyVersion: from, orphanedOn: to)
    }
}

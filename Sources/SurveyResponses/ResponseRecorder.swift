import Foundation
import SurveyCore

/// Records one session into a ``ResponseStore``: each accepted action in its own write, with the
/// funnel events it caused and the response header, before the front end acknowledges it.
///
/// Give it to `SurveyDriver(recorder:)`, or call ``record(_:)`` yourself after every accepted
/// action. What is kept per action is small and does not grow with the survey: the action, the
/// header (status, current unit, action count) and a few funnel events. The path and the answers
/// on it are written when the response is completed or dismissed.
///
/// ```swift
/// let store = InMemoryResponseStore()
/// var session = SurveySession(survey: survey)
/// var recorder = try ResponseRecorder(store: store, respondentID: "user-42", session: session)
/// try session.answer(4, for: "rating")
/// try recorder.record(session)  // durable now
/// ```
public struct ResponseRecorder: SessionRecorder {
    /// Where the response goes.
    public let store: any ResponseStore
    /// The response as last written.
    public private(set) var response: Response
    let clock: @Sendable () -> Date
    /// Leaf steps shown when the last recorded action was applied (where a dismissal happened).
    var shownSteps: [String]
    var hasStarted: Bool
    /// The delivery targets a completed response is queued for, in the write that completes it (the
    /// store's outbox; `survey deliver` sends them).
    public var deliveryTargets: [String] = []
    /// Whether a dismissed response is queued for ``deliveryTargets`` too.
    public var deliversDismissals = false
    /// Whether an unfinished response is queued for ``deliveryTargets`` too: in each write that
    /// records an answer (a new version of the response; a Next, a Back or a dismissal changes no
    /// answer and queues nothing), and again on completion, so a target gets every version once.
    public var deliversPartial = false

    /// Each version of the response is delivered under its action count when ``deliversPartial``,
    /// so every answer must count: the session then keeps an answer that replaces the one just given.
    /// `SurveyDriver` sets the session's `keepsEveryAnswer` from this; a caller that records a session
    /// itself sets it.
    public var keepsEveryAnswer: Bool { deliversPartial }
    /// How the response was carried over to a new version of the survey when it was resumed
    /// (``resume(_:from:survey:)``); `nil` when it continued as it was.
    public internal(set) var migration: ResponseMigration?
    /// The response was carried over and that version was not delivered yet: the next write queues it
    /// for ``deliveryTargets`` when ``deliversPartial`` (the targets are set after ``resume(_:from:survey:)``).
    var carriedOverUndelivered = false
    /// The quotas this response counts in (claimed by this recorder, or found counted on resume).
    public private(set) var countedQuotas: Set<String> = []
    /// The quota whose place was taken by others while this respondent completed: the completion is
    /// kept, not counted, and when the quota's action is an end the respondent reads its message.
    public private(set) var completionQuota: QuotaReached?
    /// The last action recorded: when the session's action at that position differs, a new answer
    /// to its step replaced it (``SurveySession/actions``).
    var lastRecorded: SessionAction?

    /// Starts a new response for `session` and writes it (with any actions the session already has,
    /// such as one resumed from a state file) together with the `invitation-shown` event.
    /// - Parameters:
    ///   - store: where the response is written.
    ///   - respondentID: who answers (not empty).
    ///   - session: the session to record.
    ///   - id: the response id; a new UUIDv7 by default.
    ///   - clock: the time stamps' source.
    /// - Throws: ``StoreError`` when the first write fails (an empty respondent id, an unavailable store).
    public init(
        store: any ResponseStore, respondentID: String, session: SurveySession, id: ResponseID = .make(),
        clock: @escaping @Sendable () -> Date = { Date() }
    ) throws(StoreError) {
        guard !respondentID.isEmpty else {
            throw StoreError(.invalidRequest, "the respondent id is empty", store: store.name)
        }
        let now = clock()
        self.store = store
        self.clock = clock
        response = Response(
            id: id, respondentID: respondentID, surveyID: session.survey.id,
            surveyVersion: session.survey.definition.version, locale: session.locale, seed: session.seed,
            today: session.today, createdAt: now)
        shownSteps = []
        hasStarted = false
        try writeHistory(of: session, at: now)
    }

    /// Continues `response` (already in `store`) with `session`, which must be the replay of its actions.
    public init(
        store: any ResponseStore, continuing response: Response, session: SurveySession,
        clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.store = store
        self.response = response
        self.clock = clock
        shownSteps = session.currentStepIDs
        hasStarted = (0..<session.actionCount).contains { session.action(at: $0) != .dismiss }
        lastRecorded = session.actionCount > 0 ? session.action(at: session.actionCount - 1) : nil
    }

    /// Loads `response` from `store` and replays its actions on `survey`: exactly as they were taken when
    /// the survey is the version the response was started on, else carried over to the survey as it is
    /// now (``ResponseMigration``: the answers that fit kept, the others stored as
    /// ``Response/orphaned``, the response then on the new version; see ``migration``).
    /// - Returns: the session where the respondent continues, and a recorder that continues the response.
    /// - Throws: ``ResumeError`` when the response is finished, belongs to another survey, or none of
    ///   its answers fits the survey now (``ResumeError/orphaned`` holds them); ``StoreError`` when
    ///   reading or writing fails.
    public static func resume(_ response: Response, from store: any ResponseStore, survey: Survey) throws -> (
        session: SurveySession, recorder: ResponseRecorder
    ) {
        guard response.status == .inProgress else {
            throw ResumeError(response: response.id, reason: "it is \(response.status.rawValue)")
        }
        guard response.surveyID == survey.id else {
            throw ResumeError(
                response: response.id, reason: "it is a response to survey '\(response.surveyID)', not '\(survey.id)'")
        }
        let recorded = try store.actions(of: response.id)
        guard response.surveyVersion == survey.definition.version else {
            return try carryOver(response, actions: recorded, to: survey, in: store)
        }
        var session = SurveySession(survey: survey, seed: response.seed, locale: response.locale, today: response.today)
        // A quota filled since the respondent stopped applies its action on the replay, as on a Next
        // now; one the response itself counts in (a started quota) does not.
        let quotas = try fullQuotas(of: survey, for: response, in: store)
        session.fullQuotas = quotas.full
        // The stored actions as they are: an answer stored after one to the same step stays (it may be
        // a version already delivered under its action count).
        session.keepsEveryAnswer = true
        for entry in recorded {
            // Refused: the survey changed without a new version; carried over as for a new version.
            guard session.apply(entry.action) else {
                return try carryOver(response, actions: recorded, to: survey, in: store)
            }
        }
        session.keepsEveryAnswer = false
        var recorder = ResponseRecorder(store: store, continuing: response, session: session)
        recorder.countedQuotas = quotas.counted
        // Ended on the replay by a quota filled since: the response ends so in the store too.
        if session.endingQuota != nil { try recorder.rewriteActions(of: session) }
        // Recorded before the session dropped undone Back/Next pairs from its log: store its log as it is now.
        if session.actionCount != recorded.count { try recorder.rewriteActions(of: session) }
        return (session, recorder)
    }

    /// The quotas of `survey` full in `store` for `response`: those at their limit that it does not
    /// count in; and those it counts in (asked of the store with a claim that cannot add, as the
    /// quota is full: the store answers whether the response is one of its members).
    static func fullQuotas(of survey: Survey, for response: Response, in store: any ResponseStore) throws(StoreError)
        -> (full: Set<String>, counted: Set<String>)
    {
        let quotas = survey.definition.quotas
        guard !quotas.isEmpty else { return ([], []) }
        let counts = try store.quotaCounts(survey: survey.id)
        let atLimit = quotas.filter { (counts[$0.id] ?? 0) >= $0.limit }
        var counted = Set<String>()
        let started = atLimit.filter { $0.count == .started }
        if !started.isEmpty {
            counted = try store.write(
                ResponseWrite(response: response),
                claiming: started.map { QuotaClaim(quotaID: $0.id, limit: $0.limit) })
        }
        return (Set(atLimit.map(\.id)).subtracting(counted), counted)
    }

    /// Tells `session` which quotas are full now (read from the store), before a Next.
    public mutating func prepareNext(of session: inout SurveySession) throws {
        let quotas = session.survey.definition.quotas
        guard !quotas.isEmpty else { return }
        let counts = try store.quotaCounts(survey: session.survey.id)
        session.fullQuotas = Set(quotas.filter { (counts[$0.id] ?? 0) >= $0.limit }.map(\.id))
            .subtracting(countedQuotas)
    }

    /// Carries `response` over to `survey` (``ResponseMigration``) and stores it so: its actions as
    /// replayed, the new version, its orphaned answers added.
    static func carryOver(
        _ response: Response, actions: [RecordedAction], to survey: Survey, in store: any ResponseStore
    ) throws -> (session: SurveySession, recorder: ResponseRecorder) {
        let migration = ResponseMigration.replay(response, actions: actions, on: survey)
        if let failure = migration.failure {
            throw ResumeError(response: response.id, reason: failure, orphaned: migration.orphaned)
        }
        var header = response
        header.surveyVersion = survey.definition.version
        header.orphaned += migration.orphaned
        var recorder = ResponseRecorder(store: store, continuing: header, session: migration.session)
        recorder.migration = migration
        // The funnel hears of it (once per response) and of the questions now shown, which may be new.
        let now = recorder.clock()
        let events =
            [FunnelEvent(kind: .carriedOver, recordedAt: now)]
            + migration.session.currentStepIDs.map { FunnelEvent(kind: .stepSeen, stepID: $0, recordedAt: now) }
        try recorder.rewriteActions(of: migration.session, funnelEvents: events)
        recorder.carriedOverUndelivered = true
        return (migration.session, recorder)
    }

    /// Gives back the answers a carried-over response had given to steps it had not reached on the
    /// new version (``OrphanedAnswer/Reason/notReached``), once the respondent is shown their step with
    /// no answer: each is recorded as an answer (with its funnel events and, when partial responses
    /// are delivered, a new version queued) and leaves ``Response/orphaned``. An answer the step
    /// refuses now stays orphaned, its reason then `refused`.
    public mutating func giveBack(into session: inout SurveySession) throws {
        guard session.status == .inProgress, response.orphaned.contains(where: { $0.reason == .notReached }) else {
            return
        }
        let shown = Set(session.currentStepIDs)
        var index = 0
        while index < response.orphaned.count {
            let orphan = response.orphaned[index]
            guard orphan.reason == .notReached, let step = session.survey.stepID(forAnswerKey: orphan.stepID),
                shown.contains(step), session.answer(for: orphan.stepID) == nil
            else {
                index += 1
                continue
            }
            var trial = session
            do {
                try trial.answer(orphan.value, for: orphan.stepID)
            } catch {
                // Refused now that it is asked (a choice removed too): orphaned for that reason, at once.
                if case .invalidAnswer(let stepError) = error {
                    var header = response
                    header.orphaned[index].reason = .refused
                    header.orphaned[index].message = stepError.message
                    try store.write(ResponseWrite(response: header))
                    response = header
                }
                index += 1
                continue
            }
            guard trial.actionCount > session.actionCount else {
                index += 1
                continue
            }
            let before = response
            response.orphaned.remove(at: index)
            do {
                try recordActions(of: trial)
            } catch {
                response = before
                throw error
            }
            session = trial
        }
    }

    /// Replaces the stored actions by `session`'s log (which holds fewer: it dropped a Back and the Next
    /// that undid it), in one write.
    mutating func rewriteActions(of session: SurveySession, funnelEvents: [FunnelEvent] = []) throws(StoreError) {
        let now = clock()
        var header = response
        header.actionCount = session.actionCount
        header.updatedAt = now
        if let unit = session.currentUnitID { header.currentUnitID = unit }
        try finishHeader(&header, session: session, at: now)
        let actions = (0..<session.actionCount).map {
            RecordedAction(sequence: $0 + 1, action: session.action(at: $0), recordedAt: now)
        }
        try store.write(
            ResponseWrite(response: header, actions: actions, funnelEvents: funnelEvents, removesActionsFrom: 1))
        response = header
        shownSteps = session.currentStepIDs
        lastRecorded = actions.last?.action
    }

    public mutating func record(_ session: SurveySession) throws {
        try recordActions(of: session)
    }

    /// Writes the actions `session` accepted since the last write, each in its own transaction.
    mutating func recordActions(of session: SurveySession) throws(StoreError) {
        let recorded = response.actionCount
        let total = session.actionCount
        if total < recorded {
            // A Next undid the Back recorded last: both left the session's log, so the Back leaves the store.
            try removeActions(after: total, of: session)
            return
        }
        // A new answer to the step answered last took that answer's place (it left no other trace): the
        // stored one is replaced.
        let first =
            recorded > 0 && lastRecorded.map { session.action(at: recorded - 1) != $0 } ?? false
            ? recorded : recorded + 1
        guard total >= first else { return }
        if first == total {
            try writeAction(
                session.action(at: total - 1), sequence: total, after: session, at: clock(),
                replacing: first == recorded)
            return
        }
        // Several at once (rare: a caller that records late): replay to know each action's effect.
        var replay = SurveySession.replay(
            survey: session.survey, seed: session.seed, locale: session.locale, today: session.today,
            actions: (0..<(first - 1)).map(session.action(at:)))
        for sequence in first...total {
            let action = session.action(at: sequence - 1)
            replay.apply(action)
            try writeAction(action, sequence: sequence, after: replay, at: clock(), replacing: sequence == recorded)
        }
    }

    /// Removes the stored actions after the first `count` (which `session`'s log still holds).
    mutating func removeActions(after count: Int, of session: SurveySession) throws(StoreError) {
        let now = clock()
        var header = response
        header.actionCount = count
        header.updatedAt = now
        if let unit = session.currentUnitID { header.currentUnitID = unit }
        try finishHeader(&header, session: session, at: now)
        try store.write(ResponseWrite(response: header, removesActionsFrom: count + 1))
        response = header
        shownSteps = session.currentStepIDs
        lastRecorded = count > 0 ? session.action(at: count - 1) : nil
    }

    /// The respondent switched to another saved session: this response is abandoned and a new one
    /// holds the other session's actions.
    public mutating func restart(with session: SurveySession) throws {
        let now = clock()
        var header = response
        if !header.status.isFinal {
            header.status = .abandoned
            header.updatedAt = now
            header.completedAt = now
            try store.write(ResponseWrite(response: header))
        }
        self = try ResponseRecorder(
            store: store, respondentID: response.respondentID, session: session, clock: clock)
    }

    /// Writes the new response as offered (the invitation, the first unit's questions seen), then every
    /// action `session` already has, each in its own write.
    mutating func writeHistory(of session: SurveySession, at now: Date) throws(StoreError) {
        let start =
            session.actionCount == 0
            ? session
            : SurveySession(survey: session.survey, seed: session.seed, locale: session.locale, today: session.today)
        var header = response
        shownSteps = start.currentStepIDs
        header.currentUnitID = start.currentUnitID
        let events =
            [FunnelEvent(kind: .invitationShown, recordedAt: now)]
            + shownSteps.map { FunnelEvent(kind: .stepSeen, stepID: $0, recordedAt: now) }
        try finishHeader(&header, session: start, at: now)
        try store.write(ResponseWrite(response: header, funnelEvents: events))
        response = header
        try recordActions(of: session)
    }

    mutating func writeAction(
        _ action: SessionAction, sequence: Int, after session: SurveySession, at now: Date, replacing: Bool = false
    ) throws(StoreError) {
        var events: [FunnelEvent] = []
        let isDismissal: Bool
        if case .dismiss = action { isDismissal = true } else { isDismissal = false }
        if !hasStarted, !isDismissal { events.append(FunnelEvent(kind: .started, recordedAt: now)) }
        let nowShown = session.currentStepIDs
        switch action {
        case .answer(let key, _):
            // A comment (`q-Comment`) or an entry (`q[2]`) counts for its step.
            let stepID = session.survey.stepID(forAnswerKey: key) ?? key
            events.append(FunnelEvent(kind: .stepSeen, stepID: stepID, recordedAt: now))
            if session.answer(for: stepID) != nil {
                events.append(FunnelEvent(kind: .answered, stepID: stepID, recordedAt: now))
            }
        case .next, .back:
            for step in nowShown { events.append(FunnelEvent(kind: .stepSeen, stepID: step, recordedAt: now)) }
            if session.status == .completed {
                // A quota's end is not a completion.
                events.append(
                    FunnelEvent(kind: session.endingQuota == nil ? .completed : .endedByQuota, recordedAt: now))
            }
        case .dismiss:
            events.append(FunnelEvent(kind: .dismissed, recordedAt: now))
            for step in shownSteps { events.append(FunnelEvent(kind: .dismissed, stepID: step, recordedAt: now)) }
        }
        var header = response
        header.actionCount = sequence
        header.updatedAt = now
        if let unit = session.currentUnitID { header.currentUnitID = unit }
        try finishHeader(&header, session: session, at: now)
        // The write that finishes the response also queues its deliveries: both or neither are kept.
        let finishes =
            !response.status.isFinal
            && (header.status == .completed || (deliversDismissals && header.status == .dismissed))
        var isAnswer = false
        if case .answer = action { isAnswer = true }
        let newVersion = isAnswer || carriedOverUndelivered
        let queued = finishes || (newVersion && header.status == .inProgress) ? deliveryTargets : []
        let write = ResponseWrite(
            response: header, actions: [RecordedAction(sequence: sequence, action: action, recordedAt: now)],
            funnelEvents: events, deliveries: deliversPartial ? [] : (finishes ? queued : []),
            requeuedDeliveries: deliversPartial ? queued : [], removesActionsFrom: replacing ? sequence : nil)
        let claims = quotaClaims(after: action, session: session, finishes: finishes)
        if claims.isEmpty {
            try store.write(write)
        } else {
            // Counted in the same transaction as the write: exactly, however many finish at once. A
            // completion's funnel event waits for the answer: a quota filled meanwhile may end it instead.
            var claiming = write
            let completion = claiming.funnelEvents.firstIndex { $0.kind == .completed }.map {
                claiming.funnelEvents.remove(at: $0)
            }
            let granted = try store.write(claiming, claiming: claims)
            countedQuotas.formUnion(granted)
            if finishes, let refused = claims.first(where: { !granted.contains($0.quotaID) }),
                let quota = session.survey.definition.quotas.first(where: { $0.id == refused.quotaID }),
                case .end(let text) = quota.action
            {
                // Too late to skip; a flag needs nothing more: only an end changes what the respondent reads.
                let context = PresentationContext(
                    locale: session.locale, defaultLocale: session.survey.definition.defaultLocale)
                let reached = QuotaReached(
                    quotaID: quota.id, action: quota.action, message: text.map { session.pipe(context.text($0)) })
                completionQuota = reached
                // Screened out after all: the response says so (its answers kept, counted in no quota).
                header.status = .endedByQuota
                header.quotasReached.append(reached)
                let ended = completion.map { [FunnelEvent(kind: .endedByQuota, recordedAt: $0.recordedAt)] } ?? []
                try store.write(ResponseWrite(response: header, funnelEvents: ended))
            } else {
                // A skip or a flag changes nothing the respondent reads, but the response notes it.
                if finishes, let refused = claims.first(where: { !granted.contains($0.quotaID) }),
                    let quota = session.survey.definition.quotas.first(where: { $0.id == refused.quotaID }),
                    !header.quotasReached.contains(where: { $0.quotaID == quota.id })
                {
                    header.quotasReached.append(QuotaReached(quotaID: quota.id, action: quota.action))
                }
                if header != claiming.response || completion != nil {
                    try store.write(ResponseWrite(response: header, funnelEvents: completion.map { [$0] } ?? []))
                }
            }
        }
        response = header
        shownSteps = nowShown
        if !isDismissal { hasStarted = true }
        lastRecorded = action
        carriedOverUndelivered = false
    }

    /// The quotas a write claims a place in: at a completion (not one a quota ended), each matching
    /// quota; at a Next, each matching ``QuotaCount/started`` quota; never one already counted.
    func quotaClaims(after action: SessionAction, session: SurveySession, finishes: Bool) -> [QuotaClaim] {
        guard !session.survey.definition.quotas.isEmpty, case .next = action else { return [] }
        let completes = finishes && session.status == .completed && session.endingQuota == nil
        guard completes || session.status == .inProgress else { return [] }
        return session.matchingQuotas()
            .filter { !countedQuotas.contains($0.id) && (completes || $0.count == .started) }
            .map { QuotaClaim(quotaID: $0.id, limit: $0.limit) }
    }

    /// Sets the status, and for a finished session the path, answers and completion time.
    func finishHeader(_ header: inout Response, session: SurveySession, at now: Date) throws(StoreError) {
        // Those the session got; one refused at completion (``completionQuota``) stays noted.
        let refusedAtCompletion = header.quotasReached.filter { stored in
            !session.quotasReached.contains { $0.quotaID == stored.quotaID }
        }
        header.quotasReached = session.quotasReached + refusedAtCompletion
        switch session.status {
        case .inProgress:
            header.status = .inProgress
        case .empty:
            // Nothing was ever shown: there is no answer to keep and nothing to continue.
            header.status = .abandoned
            header.abandonedReason = "the survey had nothing to show this respondent (no page was visible at the start)"
        case .completed, .dismissed:
            header.status =
                session.status == .dismissed ? .dismissed : (session.endingQuota == nil ? .completed : .endedByQuota)
            header.completedAt = now
            let result = session.completionResult()
            header.path = result.path
            header.answers = result.answers
        }
    }
}

/// A stored response that cannot be continued.
public struct ResumeError: Error, Sendable, Hashable, CustomStringConvertible {
    public var response: ResponseID
    /// Why, for a person (and for the abandoned record, ``Response/abandonedReason``).
    public var reason: String
    /// The answers the survey as it is now does not take, when that is why: to be kept with the
    /// abandoned response (``Response/orphaned``).
    public var orphaned: [OrphanedAnswer]

    public init(response: ResponseID, reason: String, orphaned: [OrphanedAnswer] = []) {
        self.response = response
        self.reason = reason
        self.orphaned = orphaned
    }

    public var description: String { "response \(response) cannot be continued: \(reason)" }
}

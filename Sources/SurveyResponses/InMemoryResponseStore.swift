import Foundation
import SurveyCore

/// A response store in memory, for tests and for apps that keep responses elsewhere.
///
/// It has the same semantics as the database stores (idempotent writes, conflicts, funnel counts of
/// distinct responses) and passes ``ResponseStoreConformance``; it forgets everything when released.
///
/// ```swift
/// let store = InMemoryResponseStore()
/// var recorder = try ResponseRecorder(store: store, respondentID: "user-42", session: session)
/// ```
public final class InMemoryResponseStore: ResponseStore, @unchecked Sendable {
    public let name: String
    /// Makes the next writes fail (to test that front ends undo unsaved actions); `nil` writes normally.
    public var failingWrites: StoreError? {
        get { lock.withLock { failure } }
        set { lock.withLock { failure = newValue } }
    }

    struct FunnelKey: Hashable {
        var kind: FunnelEventKind
        var stepID: String
    }

    let lock = NSLock()
    var failure: StoreError?
    var headers: [ResponseID: Response] = [:]
    var order: [ResponseID] = []
    var recordedActions: [ResponseID: [RecordedAction]] = [:]
    var events: [ResponseID: [FunnelKey: FunnelEvent]] = [:]
    var counts: [String: [FunnelKey: Int]] = [:]
    /// Store-wide settings.
    var settings: [String: String] = [:]
    /// Quota counts and the responses counted, by survey and quota.
    var quotas: [String: [String: Set<ResponseID>]] = [:]
    /// Respondents not asked, by survey and reason.
    var notAsked: [String: [String: Int]] = [:]
    /// Respondent attributes, by respondent.
    var respondentAttributes: [String: [String: JSONValue]] = [:]
    /// The outbox, by (response, target).
    var jobs: [DeliveryKey: DeliveryJob] = [:]

    struct DeliveryKey: Hashable {
        var response: ResponseID
        var target: String
    }

    /// An empty store.
    public init(name: String = "memory") {
        self.name = name
    }

    public func write(_ write: ResponseWrite) throws(StoreError) {
        lock.lock()
        defer { lock.unlock() }
        if let failure { throw failure }
        try apply(write)
    }

    public func write(batch writes: [ResponseWrite]) throws(StoreError) {
        lock.lock()
        defer { lock.unlock() }
        if let failure { throw failure }
        let saved = (headers, order, recordedActions, events, counts, jobs)
        do {
            for write in writes { try apply(write) }
        } catch {
            (headers, order, recordedActions, events, counts, jobs) = saved
            throw error
        }
    }

    func apply(_ write: ResponseWrite) throws(StoreError) {
        let response = write.response
        try write.validate(store: name)
        if let from = write.removesActionsFrom, let stored = recordedActions[response.id], stored.count >= from {
            recordedActions[response.id] = Array(stored.prefix(from - 1))
        }
        let existing = recordedActions[response.id] ?? []
        var appended: [RecordedAction] = []
        var expected = existing.count + 1
        for action in write.actions {
            if action.sequence <= existing.count {
                guard existing[action.sequence - 1].action == action.action else {
                    throw StoreError(
                        .conflict,
                        "response \(response.id) already has a different action number \(action.sequence)",
                        store: name)
                }
                continue
            }
            guard action.sequence == expected else {
                throw StoreError(
                    .invalidRequest,
                    "action \(action.sequence) of response \(response.id) comes before action \(expected)",
                    store: name)
            }
            appended.append(action)
            expected += 1
        }
        if var header = headers[response.id] {
            guard header.respondentID == response.respondentID, header.surveyID == response.surveyID else {
                throw StoreError(
                    .conflict, "response \(response.id) belongs to another respondent or survey", store: name)
            }
            if response.actionCount >= header.actionCount || write.removesActionsFrom != nil {
                let createdAt = header.createdAt
                header = response
                header.createdAt = createdAt
                headers[response.id] = header
            }
        } else {
            headers[response.id] = response
            let index = order.firstIndex { Self.isOrdered(response, before: headers[$0]) } ?? order.count
            order.insert(response.id, at: index)
        }
        recordedActions[response.id, default: []].append(contentsOf: appended)
        for event in write.funnelEvents {
            let key = FunnelKey(kind: event.kind, stepID: event.stepID ?? "")
            guard events[response.id, default: [:]][key] == nil else { continue }
            events[response.id, default: [:]][key] = event
            counts[response.surveyID, default: [:]][key, default: 0] += 1
        }
        for target in write.deliveries {
            let key = DeliveryKey(response: response.id, target: target)
            guard jobs[key] == nil else { continue }
            jobs[key] = DeliveryJob(
                responseID: response.id, target: target, nextAttemptAt: response.updatedAt,
                updatedAt: response.updatedAt)
        }
        for target in write.requeuedDeliveries {
            let key = DeliveryKey(response: response.id, target: target)
            guard var job = jobs[key] else {
                jobs[key] = DeliveryJob(
                    responseID: response.id, target: target, nextAttemptAt: response.updatedAt,
                    updatedAt: response.updatedAt)
                continue
            }
            if job.status != .pending {
                job.status = .pending
                job.attempts = 0
                job.nextAttemptAt = response.updatedAt
            }
            // Always a new time, so that a deliverer's stale copy no longer matches.
            job.updatedAt = max(response.updatedAt, job.updatedAt.addingTimeInterval(0.001))
            jobs[key] = job
        }
    }

    static func isOrdered(_ response: Response, before other: Response?) -> Bool {
        guard let other else { return false }
        return (response.createdAt, response.id.rawValue) < (other.createdAt, other.id.rawValue)
    }

    public func response(_ id: ResponseID) throws(StoreError) -> Response? {
        lock.withLock { headers[id] }
    }

    public func actions(of id: ResponseID) throws(StoreError) -> [RecordedAction] {
        lock.withLock { recordedActions[id] ?? [] }
    }

    public func funnelEvents(of id: ResponseID) throws(StoreError) -> [FunnelEvent] {
        lock.withLock {
            (events[id] ?? [:]).values.sorted {
                ($0.recordedAt, $0.kind.rawValue, $0.stepID ?? "") < ($1.recordedAt, $1.kind.rawValue, $1.stepID ?? "")
            }
        }
    }

    public func forEachResponse(matching query: ResponseQuery, _ body: (Response) throws -> Void) throws {
        let selected: [Response] = lock.withLock {
            var selected: [Response] = []
            for id in order {
                guard let response = headers[id], query.matches(response) else { continue }
                selected.append(response)
                if let limit = query.limit, selected.count >= limit { break }
            }
            return selected
        }
        for response in selected { try body(response) }
    }

    public func split(_ query: ResponseQuery, into parts: Int, minimumPartSize: Int) throws(StoreError)
        -> [ResponseQuery]
    {
        guard parts > 1, query.limit == nil else { return [query] }
        let times: [Date] = lock.withLock {
            order.compactMap { headers[$0] }.filter(query.matches).map(\.createdAt).sorted()
        }
        return ResponseQuery.split(
            query, into: parts, minimumPartSize: minimumPartSize, total: times.count, time: { times[$0] })
    }

    public func latestResponse(respondent respondentID: String, survey surveyID: String) throws(StoreError)
        -> Response?
    {
        lock.withLock {
            order.reversed().lazy.compactMap { self.headers[$0] }.first {
                $0.respondentID == respondentID && $0.surveyID == surveyID
            }
        }
    }

    public func lastFinished(respondent respondentID: String, survey surveyID: String) throws(StoreError) -> (
        status: ResponseStatus, at: Date
    )? {
        lock.withLock {
            var best: (status: ResponseStatus, at: Date)?
            for response in headers.values
            where response.respondentID == respondentID && response.surveyID == surveyID
                && (response.status == .completed || response.status == .dismissed)
            {
                let at = response.completedAt ?? response.updatedAt
                if best == nil || at > best!.at { best = (response.status, at) }
            }
            return best
        }
    }

    public func setting(named name: String) throws(StoreError) -> String? {
        lock.withLock { settings[name] }
    }

    public func setSetting(named name: String, to value: String?) throws(StoreError) {
        lock.withLock { settings[name] = value }
    }

    public func attributes(of respondentID: String) throws(StoreError) -> [String: JSONValue] {
        lock.withLock { respondentAttributes[respondentID] ?? [:] }
    }

    public func setAttributes(_ attributes: [String: JSONValue], of respondentID: String, at date: Date)
        throws(StoreError)
    {
        guard !respondentID.isEmpty else {
            throw StoreError(.invalidRequest, "the respondent id is empty", store: name)
        }
        lock.withLock {
            var stored = respondentAttributes[respondentID] ?? [:]
            for (key, value) in attributes {
                if value.isNull { stored.removeValue(forKey: key) } else { stored[key] = value }
            }
            respondentAttributes[respondentID] = stored
        }
    }

    public func write(_ write: ResponseWrite, claiming claims: [QuotaClaim]) throws(StoreError) -> Set<String> {
        lock.lock()
        defer { lock.unlock() }
        if let failure { throw failure }
        try apply(write)
        let survey = write.response.surveyID
        var granted = Set<String>()
        for claim in claims {
            var members = quotas[survey, default: [:]][claim.quotaID, default: []]
            if members.contains(write.response.id) {
                granted.insert(claim.quotaID)
            } else if members.count < claim.limit {
                members.insert(write.response.id)
                granted.insert(claim.quotaID)
            }
            quotas[survey, default: [:]][claim.quotaID] = members
        }
        return granted
    }

    public func quotaCounts(survey surveyID: String) throws(StoreError) -> [String: Int] {
        lock.withLock { (quotas[surveyID] ?? [:]).mapValues(\.count) }
    }

    public func countNotAsked(survey surveyID: String, reason: String) throws(StoreError) {
        lock.withLock { notAsked[surveyID, default: [:]][reason, default: 0] += 1 }
    }

    public func funnelCounts(survey surveyID: String) throws(StoreError) -> FunnelCounts {
        lock.withLock {
            var result = FunnelCounts()
            result.notAsked = notAsked[surveyID] ?? [:]
            for (key, count) in counts[surveyID] ?? [:] where count > 0 {
                if key.stepID.isEmpty {
                    result.survey[key.kind] = count
                } else {
                    result.steps[key.stepID, default: [:]][key.kind] = count
                }
            }
            for response in headers.values
            where response.surveyID == surveyID
                && response.status != .completed && response.status != .endedByQuota
            {
                if let unit = response.currentUnitID { result.stoppedAt[unit, default: 0] += 1 }
            }
            return result
        }
    }

    public func deleteResponses(respondent respondentID: String) throws(StoreError) -> Int {
        guard !respondentID.isEmpty else {
            throw StoreError(.invalidRequest, "the respondent id is empty", store: name)
        }
        return lock.withLock {
            respondentAttributes[respondentID] = nil
            let ids = headers.values.filter { $0.respondentID == respondentID }.map(\.id)
            for id in ids {
                guard let response = headers.removeValue(forKey: id) else { continue }
                for key in (events.removeValue(forKey: id) ?? [:]).keys {
                    counts[response.surveyID, default: [:]][key, default: 0] -= 1
                }
                recordedActions.removeValue(forKey: id)
                // The quotas it counted in count it no more.
                for quota in (quotas[response.surveyID] ?? [:]).keys {
                    quotas[response.surveyID]?[quota]?.remove(id)
                }
            }
            let deleted = Set(ids)
            order.removeAll { deleted.contains($0) }
            jobs = jobs.filter { !deleted.contains($0.key.response) }
            return ids.count
        }
    }

    // MARK: The delivery outbox

    public func dueDeliveries(at now: Date, limit: Int) throws(StoreError) -> [DeliveryJob] {
        lock.withLock {
            Array(
                jobs.values.filter { $0.status == .pending && $0.nextAttemptAt <= now }
                    .sorted {
                        ($0.nextAttemptAt, $0.responseID.rawValue, $0.target) < (
                            $1.nextAttemptAt, $1.responseID.rawValue, $1.target
                        )
                    }
                    .prefix(max(0, limit)))
        }
    }

    public func updateDelivery(_ job: DeliveryJob) throws(StoreError) {
        lock.withLock {
            let key = DeliveryKey(response: job.responseID, target: job.target)
            if jobs[key] != nil { jobs[key] = job }
        }
    }

    public func updateDelivery(_ job: DeliveryJob, replacing read: DeliveryJob) throws(StoreError) -> Bool {
        lock.withLock {
            let key = DeliveryKey(response: job.responseID, target: job.target)
            guard let stored = jobs[key], stored == read else { return false }
            jobs[key] = job
            return true
        }
    }

    public func deliveries(status: DeliveryStatus?) throws(StoreError) -> [DeliveryJob] {
        lock.withLock {
            jobs.values.filter { status == nil || $0.status == status }
                .sorted {
                    ($0.updatedAt, $0.responseID.rawValue, $0.target) < (
                        $1.updatedAt, $1.responseID.rawValue, $1.target
                    )
                }
        }
    }

    public func retryFailedDeliveries(at now: Date) throws(StoreError) -> Int {
        lock.withLock {
            var count = 0
            for (key, job) in jobs where job.status == .failed {
                var retried = job
                retried.status = .pending
                retried.attempts = 0
                retried.nextAttemptAt = now
                retried.updatedAt = now
                jobs[key] = retried
                count += 1
            }
            return count
        }
    }
}

extension ResponseWrite {
    /// Checks every store applies to a write before touching anything.
    package func validate(store: String) throws(StoreError) {
        let response = self.response
        guard !response.respondentID.isEmpty else {
            throw StoreError(.invalidRequest, "the respondent id is empty", store: store)
        }
        guard !response.surveyID.isEmpty else {
            throw StoreError(.invalidRequest, "the survey id is empty", store: store)
        }
        for action in actions where action.sequence < 1 {
            throw StoreError(
                .invalidRequest, "action sequence numbers start at 1, got \(action.sequence)", store: store)
        }
        if let from = removesActionsFrom, from < 1 {
            throw StoreError(
                .invalidRequest, "actions are removed from sequence number 1 at the lowest, got \(from)", store: store)
        }
    }
}

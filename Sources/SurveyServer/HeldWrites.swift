import Foundation
import SurveyCore
import SurveyResponses
import Synchronization

/// A store that holds back the writes of a response while one request's commands are applied to it,
/// and commits them as one write when the request is done: an answer and its Next, or a page of
/// answers, then cost one commit (and one place in a group commit), not one each.
///
/// Only writes to a response being held (``hold(_:)``) wait, merged as they come
/// (``ResponseWrite/merged(with:)``); everything else goes to ``base`` at once. Before anything else
/// touches a held response (a read of it, a write claiming a quota place), its held write goes first,
/// so that whoever reads sees it. ``release(_:)`` commits what is held; the request's reply is sent
/// only after that, so nothing is acknowledged before it is durable.
///
/// A response is held by one request at a time (its session's lock), so its held write is only ever
/// used by the thread applying that request.
final class HeldWrites: ResponseStore {
    /// The store the writes go to.
    let base: any ResponseStore
    /// The held responses, each with its write so far (`nil` when none yet), and whether a write went
    /// to the store before ``release(_:)``; shared by every connection of one server, since a
    /// session's recorder may write through another connection than the one its requests hold with.
    private let held: Table

    struct Held {
        var write: ResponseWrite?
        var wroteEarly = false
        /// Why a write that went early failed: the request then fails as a whole at ``release(_:)``
        /// (what was held with it is lost with it).
        var failure: StoreError?
    }

    /// The held writes of one server's connections, in shards by response so that requests of
    /// different respondents seldom wait for one another's lock.
    final class Table: Sendable {
        final class Shard: Sendable {
            let entries = Mutex<[ResponseID: Held]>([:])
        }

        let shards: [Shard] = (0..<64).map { _ in Shard() }

        /// The shard `id` is in.
        func shard(_ id: ResponseID) -> Shard {
            shards[Int(UInt(bitPattern: id.hashValue) % UInt(shards.count))]
        }
    }

    /// `base`, holding writes in `table` (shared by the other connections to the same store).
    init(base: any ResponseStore, table: Table) {
        self.base = base
        held = table
    }

    var name: String { base.name }

    /// Holds the writes of response `id` from now until ``release(_:)``.
    func hold(_ id: ResponseID) {
        held.shard(id).entries.withLock { $0[id] = Held() }
    }

    /// Commits what was held for `id` and stops holding it.
    /// - Returns: `nil` when it is kept; else the store's error (nothing of the held write is kept),
    ///   and whether a write of the response went to the store earlier in the request (something
    ///   read the response, or a write claimed a quota place): then the request was not all or nothing.
    func release(_ id: ResponseID) -> (error: StoreError, wroteEarly: Bool)? {
        guard let taken = held.shard(id).entries.withLock({ $0.removeValue(forKey: id) }) else { return nil }
        if let failure = taken.failure { return (failure, taken.wroteEarly) }
        guard let write = taken.write else { return nil }
        do {
            try base.write(write)
            return nil
        } catch {
            return (error, taken.wroteEarly)
        }
    }

    /// Writes what is held for `id` now, keeping it held for later writes.
    private func writeHeld(_ id: ResponseID) throws(StoreError) {
        let write = held.shard(id).entries.withLock { table -> ResponseWrite? in
            guard let write = table[id]?.write else { return nil }
            table[id]?.write = nil
            return write
        }
        guard let write else { return }
        do {
            try base.write(write)
            held.shard(id).entries.withLock { $0[id]?.wroteEarly = true }
        } catch {
            held.shard(id).entries.withLock { $0[id]?.failure = error }
            throw error
        }
    }

    /// What a write found of its response: not held, or held with what was held so far.
    private enum Found {
        case notHeld
        case held(ResponseWrite?)
    }

    func write(_ write: ResponseWrite) throws(StoreError) {
        let id = write.response.id
        let shard = held.shard(id)
        // Only the thread applying the request uses the held write: it is taken out under the lock
        // and merged outside it, so that other requests do not wait for the merge.
        let found = shard.entries.withLock { table -> Found in
            guard let entry = table[id] else { return .notHeld }
            table[id]?.write = nil
            return .held(entry.write)
        }
        guard case .held(let before) = found else {
            try base.write(write)
            return
        }
        let merged = before.map { $0.merged(with: write) } ?? write
        guard let merged else {
            // Not one write (cannot happen for one response): what was held goes first, this one is held.
            shard.entries.withLock { $0[id]?.write = before }
            try writeHeld(id)
            shard.entries.withLock { $0[id]?.write = write }
            return
        }
        shard.entries.withLock { $0[id]?.write = merged }
    }

    func write(batch writes: [ResponseWrite]) throws(StoreError) {
        for id in Set(writes.map(\.response.id)) { try writeHeld(id) }
        try base.write(batch: writes)
    }

    func write(_ write: ResponseWrite, claiming claims: [QuotaClaim]) throws(StoreError) -> Set<String> {
        try writeHeld(write.response.id)
        return try base.write(write, claiming: claims)
    }

    func response(_ id: ResponseID) throws(StoreError) -> Response? {
        try writeHeld(id)
        return try base.response(id)
    }

    func responseVersion(_ id: ResponseID) throws(StoreError) -> ResponseVersion? {
        try writeHeld(id)
        return try base.responseVersion(id)
    }

    func actions(of id: ResponseID) throws(StoreError) -> [RecordedAction] {
        try writeHeld(id)
        return try base.actions(of: id)
    }

    func funnelEvents(of id: ResponseID) throws(StoreError) -> [FunnelEvent] {
        try writeHeld(id)
        return try base.funnelEvents(of: id)
    }

    // What follows is not about one response: it goes to the store as it is. A held write is not
    // acknowledged yet, so a count or a list that does not have it yet is right.

    func forEachResponse(matching query: ResponseQuery, _ body: (Response) throws -> Void) throws {
        try base.forEachResponse(matching: query, body)
    }

    func split(_ query: ResponseQuery, into parts: Int, minimumPartSize: Int) throws(StoreError) -> [ResponseQuery] {
        try base.split(query, into: parts, minimumPartSize: minimumPartSize)
    }

    func compact() throws(StoreError) -> (before: Int64, after: Int64)? { try base.compact() }

    func latestResponse(respondent respondentID: String, survey surveyID: String) throws(StoreError) -> Response? {
        try base.latestResponse(respondent: respondentID, survey: surveyID)
    }

    func lastFinished(respondent respondentID: String, survey surveyID: String) throws(StoreError) -> (
        status: ResponseStatus, at: Date
    )? {
        try base.lastFinished(respondent: respondentID, survey: surveyID)
    }

    func history(respondent respondentID: String) throws(StoreError) -> RespondentHistory {
        try base.history(respondent: respondentID)
    }

    func setting(named name: String) throws(StoreError) -> String? { try base.setting(named: name) }

    func setSetting(named name: String, to value: String?) throws(StoreError) {
        try base.setSetting(named: name, to: value)
    }

    func attributes(of respondentID: String) throws(StoreError) -> [String: JSONValue] {
        try base.attributes(of: respondentID)
    }

    func setAttributes(_ attributes: [String: JSONValue], of respondentID: String, at date: Date) throws(StoreError) {
        try base.setAttributes(attributes, of: respondentID, at: date)
    }

    func countNotAsked(survey surveyID: String, reason: String) throws(StoreError) {
        try base.countNotAsked(survey: surveyID, reason: reason)
    }

    func quotaCounts(survey surveyID: String) throws(StoreError) -> [String: Int] {
        try base.quotaCounts(survey: surveyID)
    }

    func funnelCounts(survey surveyID: String) throws(StoreError) -> FunnelCounts {
        try base.funnelCounts(survey: surveyID)
    }

    func deleteResponses(respondent respondentID: String) throws(StoreError) -> Int {
        try base.deleteResponses(respondent: respondentID)
    }

    func dueDeliveries(at now: Date, limit: Int) throws(StoreError) -> [DeliveryJob] {
        try base.dueDeliveries(at: now, limit: limit)
    }

    func updateDelivery(_ job: DeliveryJob) throws(StoreError) { try base.updateDelivery(job) }

    func updateDelivery(_ job: DeliveryJob, replacing read: DeliveryJob) throws(StoreError) -> Bool {
        try base.updateDelivery(job, replacing: read)
    }

    func deliveries(status: DeliveryStatus?) throws(StoreError) -> [DeliveryJob] {
        try base.deliveries(status: status)
    }

    func retryFailedDeliveries(at now: Date) throws(StoreError) -> Int { try base.retryFailedDeliveries(at: now) }
}

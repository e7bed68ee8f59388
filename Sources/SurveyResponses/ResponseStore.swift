import Foundation
import SurveyCore

/// Where responses are kept: every accepted action, the response headers and the funnel counts.
///
/// Implementations: ``InMemoryResponseStore`` (tests), `SQLiteResponseStore` (the embedded default,
/// `SurveyStoreSQLite`) and `PostgresResponseStore` (many collectors, `SurveyStorePostgres`). Every
/// implementation passes ``ResponseStoreConformance``.
///
/// ## Implementing a store
///
/// - ``write(_:)`` applies one ``ResponseWrite`` atomically and durably: when it returns, the write
///   survives a crash of the process. It is idempotent (a retried write changes nothing) and safe
///   when several threads or processes write at once. A store may commit the writes of several
///   threads in one transaction (the SQL stores do: group commit), as long as each call returns only
///   once its own write committed and throws only its own write's error (or the store's).
/// - Reads return what committed writes left; ``responses(matching:)`` orders by creation time, then id.
/// - Errors are ``StoreError``s whose message never contains a password.
public protocol ResponseStore: AnyObject, Sendable {
    /// How the store is named in messages (a path, or a URL without its password).
    var name: String { get }

    /// Applies `write` in one transaction; returns once it is durable.
    func write(_ write: ResponseWrite) throws(StoreError)

    /// Applies several writes in one transaction (bulk imports, an outbox being drained): all or none.
    /// The default applies them one by one.
    func write(batch writes: [ResponseWrite]) throws(StoreError)

    /// The response with this id.
    func response(_ id: ResponseID) throws(StoreError) -> Response?

    /// What tells whether a copy of the response is the stored one, read without its answers: its
    /// survey, status, number of actions and last write time; `nil` when there is no such response.
    /// The default reads the whole response.
    func responseVersion(_ id: ResponseID) throws(StoreError) -> ResponseVersion?

    /// The recorded actions of a response, in sequence order.
    func actions(of id: ResponseID) throws(StoreError) -> [RecordedAction]

    /// The funnel events recorded for a response (each kind/step once).
    func funnelEvents(of id: ResponseID) throws(StoreError) -> [FunnelEvent]

    /// Calls `body` for each selected response, oldest first, without loading them all at once.
    func forEachResponse(matching query: ResponseQuery, _ body: (Response) throws -> Void) throws

    /// Splits what `query` selects into at most `parts` consecutive queries by creation time, each of
    /// at least `minimumPartSize` responses, so that they can be read at once on several threads:
    /// every response of a part was created before (or with the same time and a smaller id than)
    /// every response of the next, and together they select exactly what `query` does. A query with
    /// a limit is not split. The default does not split (returns `[query]`).
    func split(_ query: ResponseQuery, into parts: Int, minimumPartSize: Int) throws(StoreError) -> [ResponseQuery]

    /// Rewrites the store so that each table's rows lie together on disk and free pages are given
    /// back. A store written over months interleaves responses, actions and funnel events page by
    /// page; a long scan (a report, an export) of a compacted store reads the disk in order, which is
    /// what decides its time when the file is not in the page cache. Blocks writers while it runs
    /// and needs free space about the store's size. The default does nothing (returns `nil`).
    /// - Returns: the store's size in bytes before and after, when it has a size.
    func compact() throws(StoreError) -> (before: Int64, after: Int64)?

    /// The most recently created response of `respondentID` to `surveyID`.
    func latestResponse(respondent respondentID: String, survey surveyID: String) throws(StoreError) -> Response?

    /// The most recent time `respondentID` completed or dismissed `surveyID`, with the status.
    func lastFinished(respondent respondentID: String, survey surveyID: String) throws(StoreError) -> (
        status: ResponseStatus, at: Date
    )?

    /// What the respondent did with each survey (displays, completions, dismissals, and when), for
    /// eligibility. The default reads their responses (``forEachResponse(matching:_:)``).
    func history(respondent respondentID: String) throws(StoreError) -> RespondentHistory

    /// A store-wide setting (such as ``Eligibility/cooldownSetting``), `nil` when not set.
    /// The default keeps none (`nil`).
    func setting(named name: String) throws(StoreError) -> String?

    /// Sets a store-wide setting; `nil` removes it. The default refuses (``StoreError/Kind/invalidRequest``).
    func setSetting(named name: String, to value: String?) throws(StoreError)

    /// The attributes the host gave the respondent (plan, country, app version, …), by name; empty
    /// when none. The default keeps none.
    func attributes(of respondentID: String) throws(StoreError) -> [String: JSONValue]

    /// Sets the respondent's attributes named in `attributes` (others are kept; a `null` value
    /// removes one), in one transaction. The default refuses (``StoreError/Kind/invalidRequest``).
    /// ``deleteResponses(respondent:)`` erases them too.
    func setAttributes(_ attributes: [String: JSONValue], of respondentID: String, at date: Date) throws(StoreError)

    /// Counts one respondent not asked `surveyID` for `reason` (``FunnelCounts/notAsked``). The
    /// default counts nothing.
    func countNotAsked(survey surveyID: String, reason: String) throws(StoreError)

    /// Applies `write` and counts its response in each quota of `claims` that is below its limit, in
    /// one transaction, exactly: however many writers claim at once, a quota never counts more than
    /// its limit, and a response counts at most once per quota (a retried write changes nothing).
    /// The default refuses (``StoreError/Kind/invalidRequest``).
    /// - Returns: the ids of the quotas the response counts in (now or before).
    func write(_ write: ResponseWrite, claiming claims: [QuotaClaim]) throws(StoreError) -> Set<String>

    /// How many responses each quota of `surveyID` counts, by quota id.
    func quotaCounts(survey surveyID: String) throws(StoreError) -> [String: Int]

    /// The funnel counts of `surveyID`.
    func funnelCounts(survey surveyID: String) throws(StoreError) -> FunnelCounts

    /// Deletes every response of `respondentID` (all surveys), with its actions and funnel events,
    /// and takes them out of the funnel counts; the respondent's attributes are deleted too.
    /// - Returns: how many responses were deleted.
    func deleteResponses(respondent respondentID: String) throws(StoreError) -> Int

    // MARK: The delivery outbox

    /// Pending delivery jobs due at `now` (``DeliveryJob/nextAttemptAt`` not after it), the most
    /// overdue first, at most `limit`.
    func dueDeliveries(at now: Date, limit: Int) throws(StoreError) -> [DeliveryJob]

    /// Replaces the state of job (``DeliveryJob/responseID``, ``DeliveryJob/target``) — after an
    /// attempt. A job that no longer exists (its response was erased) is ignored.
    func updateDelivery(_ job: DeliveryJob) throws(StoreError)

    /// Replaces the state of `job` as ``updateDelivery(_:)`` does, unless the stored job is no longer
    /// `read` (the job as the deliverer read it before the attempt): a write queued it again since
    /// (``ResponseWrite/requeuedDeliveries``), for a newer version of the response, and it stays
    /// pending so that version is sent too. Returns whether `job` was written.
    ///
    /// Default: ``updateDelivery(_:)``, always written (a store without requeued deliveries).
    func updateDelivery(_ job: DeliveryJob, replacing read: DeliveryJob) throws(StoreError) -> Bool

    /// The delivery jobs with `status` (all when `nil`), oldest update first.
    func deliveries(status: DeliveryStatus?) throws(StoreError) -> [DeliveryJob]

    /// Makes every failed job pending again, due at `now`, with its attempts reset; returns how many.
    func retryFailedDeliveries(at now: Date) throws(StoreError) -> Int
}

/// The columns of a stored response that every write changes (``ResponseStore/responseVersion(_:)``).
public struct ResponseVersion: Sendable, Equatable {
    /// The survey the response is for.
    public var surveyID: String
    /// Its status.
    public var status: ResponseStatus
    /// How many actions it has.
    public var actionCount: Int
    /// The time of the last write, in whole milliseconds since 1970 (as stored).
    public var updatedAtMilliseconds: Int64

    /// A version from its columns.
    public init(surveyID: String, status: ResponseStatus, actionCount: Int, updatedAtMilliseconds: Int64) {
        self.surveyID = surveyID
        self.status = status
        self.actionCount = actionCount
        self.updatedAtMilliseconds = updatedAtMilliseconds
    }

    /// The version of `response`.
    public init(of response: Response) {
        self.init(
            surveyID: response.surveyID, status: response.status, actionCount: response.actionCount,
            updatedAtMilliseconds: ResponseCodec.milliseconds(response.updatedAt))
    }
}

extension ResponseStore {
    public func responseVersion(_ id: ResponseID) throws(StoreError) -> ResponseVersion? {
        try response(id).map(ResponseVersion.init(of:))
    }

    public func updateDelivery(_ job: DeliveryJob, replacing read: DeliveryJob) throws(StoreError) -> Bool {
        try updateDelivery(job)
        return true
    }

    public func write(batch writes: [ResponseWrite]) throws(StoreError) {
        for write in writes { try self.write(write) }
    }

    public func split(_ query: ResponseQuery, into parts: Int, minimumPartSize: Int) throws(StoreError)
        -> [ResponseQuery]
    {
        [query]
    }

    public func compact() throws(StoreError) -> (before: Int64, after: Int64)? { nil }

    public func setting(named name: String) throws(StoreError) -> String? { nil }

    public func countNotAsked(survey surveyID: String, reason: String) throws(StoreError) {}

    public func write(_ write: ResponseWrite, claiming claims: [QuotaClaim]) throws(StoreError) -> Set<String> {
        throw StoreError(.invalidRequest, "this store counts no quotas", store: name)
    }

    public func quotaCounts(survey surveyID: String) throws(StoreError) -> [String: Int] { [:] }

    public func attributes(of respondentID: String) throws(StoreError) -> [String: JSONValue] { [:] }

    public func setAttributes(_ attributes: [String: JSONValue], of respondentID: String, at date: Date)
        throws(StoreError)
    {
        throw StoreError(.invalidRequest, "this store keeps no respondent attributes", store: name)
    }

    public func setSetting(named name: String, to value: String?) throws(StoreError) {
        throw StoreError(.invalidRequest, "this store keeps no settings", store: self.name)
    }

    /// Splits `query` (``split(_:into:minimumPartSize:)``) into up to `parallelism` parts of at
    /// least `minimumPartSize` responses and calls `body` with each part's index and query, the
    /// parts at once on their own threads (one part may run on this thread): `body` must be safe
    /// to call from several threads at once for different parts.
    /// - Returns: each part's result, in part order (oldest responses first).
    /// - Throws: the split's error, or the error of the first part (in part order) that failed.
    public func forEachPart<Result>(
        of query: ResponseQuery, parallelism: Int = ProcessInfo.processInfo.activeProcessorCount,
        minimumPartSize: Int = 50_000, _ body: (_ index: Int, _ part: ResponseQuery) throws -> Result
    ) throws -> [Result] {
        let parts = try split(query, into: max(1, parallelism), minimumPartSize: minimumPartSize)
        let results = PartResults<Result>(count: parts.count)
        withoutActuallyEscaping(body) { body in
            // The caller's promise (see above) that `body` may run on several threads at once.
            let shared = UncheckedSendable(body)
            // concurrentPerform of one iteration runs it inline, without a hop.
            DispatchQueue.concurrentPerform(iterations: parts.count) { index in
                results.set(index, Swift.Result { try shared.value(index, parts[index]) })
            }
        }
        return try results.values.map { try $0.get() }
    }

    /// The selected responses, oldest first.
    public func responses(matching query: ResponseQuery) throws(StoreError) -> [Response] {
        var result: [Response] = []
        do {
            try forEachResponse(matching: query) { result.append($0) }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(.failed, "\(error)", store: name)
        }
        return result
    }

    /// Whether `respondentID` should be asked `survey` at `date`, following its `askAgain` setting:
    /// a respondent who never completed or dismissed it is always asked.
    public func shouldAsk(respondent respondentID: String, survey: Survey, at date: Date = Date()) throws(StoreError)
        -> AskDecision
    {
        guard let last = try lastFinished(respondent: respondentID, survey: survey.id) else { return .ask }
        return AskDecision.decide(policy: survey.definition.settings.askAgain, last: last, now: date)
    }
}

/// A response asking to count in a quota of its survey.
public struct QuotaClaim: Sendable, Hashable {
    /// The quota's id, unique within the survey.
    public var quotaID: String
    /// How many responses the quota takes.
    public var limit: Int

    public init(quotaID: String, limit: Int) {
        self.quotaID = quotaID
        self.limit = limit
    }
}

/// Whether to ask a respondent a survey, and why not.
public enum AskDecision: Sendable, Hashable {
    case ask
    /// The respondent completed or dismissed it (at that time); ask again from `until` (`nil`: never).
    case doNotAsk(status: ResponseStatus, at: Date, until: Date?)

    /// Whether the survey should be shown.
    public var shouldAsk: Bool { self == .ask }

    /// Applies an `askAgain` policy to the respondent's last completion or dismissal.
    public static func decide(policy: AskAgainPolicy, last: (status: ResponseStatus, at: Date), now: Date)
        -> AskDecision
    {
        switch policy {
        case .always: return .ask
        case .never: return .doNotAsk(status: last.status, at: last.at, until: nil)
        case .after(let duration):
            let again = duration.adding(to: last.at)
            return now >= again ? .ask : .doNotAsk(status: last.status, at: last.at, until: again)
        }
    }
}

extension ISODuration {
    /// `date` plus this duration on the UTC Gregorian calendar (`P1M` from 31 January is the end of February).
    public func adding(to date: Date) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        var components = DateComponents()
        components.year = years
        components.month = months
        components.day = weeks * 7 + days
        components.hour = hours
        components.minute = minutes
        components.second = seconds
        return calendar.date(byAdding: components, to: date) ?? date
    }
}

/// The results of the parts of ``ResponseStore/forEachPart(of:parallelism:minimumPartSize:_:)``,
/// set from their threads.
private final class PartResults<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [Result<Value, any Error>?]

    init(count: Int) { results = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ result: Result<Value, any Error>) { lock.withLock { results[index] = result } }

    /// Every part's result (a part that never ran is reported as failed).
    var values: [Result<Value, any Error>] {
        lock.withLock {
            results.map { $0 ?? .failure(StoreError(.failed, "a part of the selection was not read", store: "")) }
        }
    }
}

/// A value handed to the threads of ``ResponseStore/forEachPart(of:parallelism:minimumPartSize:_:)``
/// on its caller's promise that they may share it.
private struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

import Foundation
import SurveyCore
import SurveyResponses

/// Sends the store's pending delivery jobs to their targets.
///
/// Each attempt either delivers the job (the target answered 2xx), schedules it again (no
/// response, a timeout, 408, 425, 429 or 5xx: after an exponential backoff with ±50 % jitter, or
/// after the target's `Retry-After` when that is longer), or parks it as failed (another 4xx, an
/// unknown target, a response no longer in the store, or the last of `maxAttempts`). Every request
/// carries the response id (and a partial response's version) as its idempotency key, so an attempt
/// repeated after a lost reply never creates a second record. An unfinished response (queued with
/// `deliverPartial`) is sent with its answers so far, replayed on its survey from ``surveys``. A job's new state is written after each attempt: a deliverer killed at
/// any moment loses nothing, and at worst sends one response again, which the key makes harmless.
public struct Deliverer: Sendable {
    public var store: any ResponseStore
    public var configuration: DeliveryConfiguration
    /// Where credentials come from (the process environment by default).
    public var environment: [String: String]
    public var clock: @Sendable () -> Date
    /// Requests in flight at once.
    public var concurrency: Int
    /// Surveys by id, for the question texts an AirTable answers table shows (the step id otherwise).
    public var surveys: [String: Survey] = [:]

    public init(
        store: any ResponseStore, configuration: DeliveryConfiguration,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        clock: @escaping @Sendable () -> Date = { Date() }, concurrency: Int = 4
    ) {
        self.store = store
        self.configuration = configuration
        self.environment = environment
        self.clock = clock
        self.concurrency = max(1, concurrency)
    }

    /// What one pass did.
    public struct Report: Sendable, Hashable {
        public var delivered = 0
        public var retried = 0
        public var failed = 0
        /// When the next pending job is due, if any is left.
        public var nextDue: Date?
    }

    /// What one attempt gave.
    enum Outcome: Sendable, Hashable {
        case delivered
        case retry(String, after: TimeInterval?)
        case refused(String)
    }

    /// Sends every job due now, once each.
    /// - Throws: ``StoreError`` when the store cannot be read or written.
    public func deliverDue(limit: Int = 10_000) throws(StoreError) -> Report {
        let jobs = try store.dueDeliveries(at: clock(), limit: limit)
        final class Shared: @unchecked Sendable {
            let lock = NSLock()
            var next = 0
            var report = Report()
            var failure: StoreError?
        }
        let shared = Shared()
        let workers = min(concurrency, max(1, jobs.count))
        let deliverer = self
        @Sendable func work() {
            while true {
                let index: Int = shared.lock.withLock {
                    defer { shared.next += 1 }
                    return shared.failure == nil ? shared.next : jobs.count
                }
                guard index < jobs.count else { return }
                do throws(StoreError) {
                    let status = try deliverer.attempt(jobs[index])
                    shared.lock.withLock {
                        switch status {
                        case .delivered: shared.report.delivered += 1
                        case .pending: shared.report.retried += 1
                        case .failed: shared.report.failed += 1
                        }
                    }
                } catch {
                    shared.lock.withLock { shared.failure = error }
                }
            }
        }
        // Threads of their own: the work is waiting on the network, not computing, so there can be
        // more of them than cores.
        let group = DispatchGroup()
        for _ in 0..<workers {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                work()
            }
        }
        group.wait()
        if let failure = shared.failure { throw failure }
        var report = shared.report
        report.nextDue = try store.dueDeliveries(at: .distantFuture, limit: 1).first?.nextAttemptAt
        return report
    }

    /// Sends until nothing is pending (waiting for jobs scheduled later), or until `deadline`.
    /// - Returns: the sum of the passes.
    public func deliverAll(until deadline: Date) throws(StoreError) -> Report {
        var total = Report()
        while true {
            let pass = try deliverDue()
            total.delivered += pass.delivered
            total.retried += pass.retried
            total.failed += pass.failed
            total.nextDue = pass.nextDue
            guard let next = pass.nextDue, clock() < deadline else { return total }
            let wait = min(next.timeIntervalSince(clock()), deadline.timeIntervalSince(clock()))
            if wait > 0 { Thread.sleep(forTimeInterval: min(wait, 1)) }
        }
    }

    /// One attempt at `job`, its outcome written to the store.
    func attempt(_ job: DeliveryJob) throws(StoreError) -> DeliveryStatus {
        var updated = job
        updated.attempts += 1
        let outcome: Outcome
        if let target = configuration.targets.first(where: { $0.name == job.target }) {
            if let stored = try store.response(job.responseID) {
                switch try shown(stored) {
                case .success(let (response, isPartial)):
                    outcome = send(
                        response, events: try store.funnelEvents(of: job.responseID), to: target, isPartial: isPartial)
                case .failure(let reason):
                    outcome = .retry(reason.message, after: nil)
                }
            } else {
                outcome = .refused("the response is no longer in the store")
            }
            if case .retry = outcome, updated.attempts >= target.maximumAttempts {
                updated.status = .failed
            }
        } else {
            outcome = .refused("no target is called '\(job.target)' in the delivery configuration")
        }
        let now = clock()
        updated.updatedAt = now
        switch outcome {
        case .delivered:
            updated.status = .delivered
            updated.lastError = nil
        case .refused(let reason):
            updated.status = .failed
            updated.lastError = reason
        case .retry(let reason, let after):
            updated.lastError = reason
            if updated.status != .failed {
                updated.nextAttemptAt = now.addingTimeInterval(max(after ?? 0, backoff(afterAttempt: updated.attempts)))
            }
        }
        // Queued again during the attempt (a newer version of the response): it stays pending.
        guard try store.updateDelivery(updated, replacing: job) else { return .pending }
        return updated.status
    }

    /// Why an unfinished response cannot be sent yet.
    struct NotReplayable: Error {
        var message: String
    }

    /// The response as it is sent: a finished one as stored, an unfinished one with its path and
    /// answers so far, replayed on its survey (``surveys``, same version) from its stored actions.
    func shown(_ response: Response) throws(StoreError) -> Result<(Response, Bool), NotReplayable> {
        guard response.status == .inProgress || response.status == .abandoned else {
            return .success((response, false))
        }
        guard let survey = surveys[response.surveyID], survey.definition.version == response.surveyVersion else {
            return .failure(
                NotReplayable(
                    message:
                        "the unfinished response's answers so far need its survey (\(response.surveyID)"
                        + "\(response.surveyVersion.map { " version " + $0 } ?? "")): survey deliver --survey FILE"))
        }
        let (shown, isPartial) = try PartialResponses(survey: survey, store: store).completing(response)
        return .success((shown, isPartial))
    }

    /// The wait after attempt `attempt` (from 1): doubling from the initial backoff, capped, ±50 %.
    func backoff(afterAttempt attempt: Int) -> TimeInterval {
        let exponent = Double(min(max(attempt - 1, 0), 40))
        let base = min(configuration.maximumBackoff, configuration.initialBackoff * pow(2, exponent))
        return base * Double.random(in: 0.5...1.5)
    }

    /// Sends one response to one target.
    ///
    /// The idempotency key is the response id, and for a partial response the id and its version
    /// (`<id>.<responseVersion>`, ``Response/version``, which no two states of a response share, even
    /// across a carry-over to a new survey version): each version is a delivery of its own, sent once.
    func send(
        _ response: Response, events: [FunnelEvent], to target: DeliveryConfiguration.Target, isPartial: Bool = false
    ) -> Outcome {
        let body = DeliveryPayload.data(of: response, events: events, isPartial: isPartial)
        let token = target.tokenEnvironment.flatMap { environment[$0] }
        if let variable = target.tokenEnvironment, token == nil {
            return .retry("the environment variable \(variable) (the target's credential) is not set", after: nil)
        }
        let key = response.id.rawValue + (isPartial ? ".\(response.version)" : "")
        var headers = ["Content-Type": "application/json", "Idempotency-Key": key]
        let url: URL
        let method: String
        switch target.kind {
        case .webhook:
            method = "POST"
            url = target.url
            if let token { headers["Authorization"] = "Bearer " + token }
        case .airtable:
            return sendRecords(response, events: events, to: target, token: token)
        case .firebase:
            method = "PUT"
            var components = URLComponents(
                url: target.url.appendingPathComponent("responses").appendingPathComponent(
                    response.id.rawValue + ".json"),
                resolvingAgainstBaseURL: false)
            if let token { components?.queryItems = [URLQueryItem(name: "auth", value: token)] }
            guard let built = components?.url else { return .refused("the target's URL cannot take the response id") }
            url = built
        }
        return outcome(of: HTTPClient(timeout: target.timeout), method, url, headers: headers, body: body)
    }

    /// One request's outcome.
    func outcome(of client: HTTPClient, _ method: String, _ url: URL, headers: [String: String], body: Data) -> Outcome
    {
        let reply: HTTPResponse
        do {
            reply = try client.send(method, url, headers: headers, body: body)
        } catch {
            // The reason only: the URL may carry a credential (Firebase's auth).
            return .retry(error.reason, after: nil)
        }
        switch reply.status {
        case 200..<300:
            return .delivered
        case 408, 425, 429, 500..<600:
            return .retry(
                "the target answered \(reply.status)", after: reply.header("Retry-After").flatMap(Self.retryAfter))
        default:
            return .refused("the target refused the response with \(reply.status)")
        }
    }

    /// Upserts a response's records into an AirTable answers table, 10 a request, within the
    /// target's requests per second. Upserts are idempotent: a retry sends them all again.
    func sendRecords(
        _ response: Response, events: [FunnelEvent], to target: DeliveryConfiguration.Target, token: String?
    )
        -> Outcome
    {
        var titles: [String: String] = [:]
        if let survey = surveys[response.surveyID] {
            let context = PresentationContext(locale: response.locale, defaultLocale: survey.definition.defaultLocale)
            for id in survey.stepIDs {
                if let title = survey.stepDefinition(id)?.title { titles[id] = context.text(title) }
            }
        }
        let records = AirTable.answerRecords(response, events: events, titles: titles, columns: target.columns)
        let merge: JSONValue = .array(
            ["responseId", "id"].map { .string(target.columns[$0] ?? $0) })
        var headers = ["Content-Type": "application/json"]
        if let token { headers["Authorization"] = "Bearer " + token }
        let client = HTTPClient(timeout: target.timeout)
        var start = 0
        while start < records.count {
            let batch = Array(records[start..<min(records.count, start + 10)])
            let body: JSONValue = [
                "performUpsert": ["fieldsToMergeOn": merge], "records": .array(batch), "typecast": true,
            ]
            AirTable.RateLimiter.shared.wait(target.name, perSecond: target.requestsPerSecond)
            let result = outcome(
                of: client, "PATCH", target.url, headers: headers, body: Data(JSONWriter.string(from: body).utf8))
            guard case .delivered = result else { return result }
            start += 10
        }
        return .delivered
    }

    /// A `Retry-After` header's wait in seconds (at most a day): a number of seconds or an HTTP date;
    /// `nil` for anything else.
    public static func retryAfter(_ value: String) -> TimeInterval? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Double(text), seconds >= 0, seconds.isFinite { return min(seconds, 86_400) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: text) else { return nil }
        return min(max(0, date.timeIntervalSinceNow), 86_400)
    }
}

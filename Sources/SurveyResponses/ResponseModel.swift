import Foundation
import SurveyCore

/// The id of one response: a UUID version 7 (RFC 9562), unique across machines and ordered by
/// creation time, written in lower case (`0193a6c4-7c2e-7d3a-9f1e-2b4c6d8e0a1f`).
public struct ResponseID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The canonical text form.
    public let rawValue: String

    /// Wraps an existing id.
    /// - Returns: `nil` when `text` is empty or longer than 128 characters.
    public init?(_ text: String) {
        guard !text.isEmpty, text.utf8.count <= 128 else { return nil }
        rawValue = text
    }

    /// A new UUIDv7 for `date`: 48 bits of Unix milliseconds, version 7, then 74 random bits.
    public static func make(at date: Date = Date()) -> ResponseID {
        var generator = SystemRandomNumberGenerator()
        return make(at: date, using: &generator)
    }

    /// A new UUIDv7 for `date`, with randomness from `generator` (seeded generators give reproducible ids).
    public static func make(at date: Date, using generator: inout some RandomNumberGenerator) -> ResponseID {
        let milliseconds = UInt64(max(0, (date.timeIntervalSince1970 * 1000).rounded(.down)))
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in 0..<6 { bytes[index] = UInt8(truncatingIfNeeded: milliseconds >> (8 * (5 - UInt64(index)))) }
        let random = (generator.next() as UInt64, generator.next() as UInt64)
        for index in 6..<16 {
            let source = index < 14 ? random.0 : random.1
            bytes[index] = UInt8(truncatingIfNeeded: source >> (8 * UInt64(index % 8)))
        }
        bytes[6] = 0x70 | (bytes[6] & 0x0F)
        bytes[8] = 0x80 | (bytes[8] & 0x3F)
        let hex = bytes.map { byte -> String in
            let text = String(byte, radix: 16)
            return byte < 16 ? "0" + text : text
        }
        let text =
            hex[0..<4].joined() + "-" + hex[4..<6].joined() + "-" + hex[6..<8].joined() + "-" + hex[8..<10].joined()
            + "-" + hex[10..<16].joined()
        return ResponseID(uncheckedRawValue: text)
    }

    init(uncheckedRawValue: String) { rawValue = uncheckedRawValue }

    public var description: String { rawValue }
    public static func < (lhs: ResponseID, rhs: ResponseID) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Where a response stands.
public enum ResponseStatus: String, Sendable, Hashable, CaseIterable {
    /// Started and not finished; can be continued.
    case inProgress = "in-progress"
    /// Completed: ``Response/answers`` holds the answers on the completed path.
    case completed
    /// The respondent dismissed the survey ("don't ask again").
    case dismissed
    /// Given up: replaced by another response of the same respondent, or closed by an operator.
    case abandoned
    /// Ended by a full quota (`"action": "end"`): the respondent was screened out. ``Response/answers``
    /// holds the answers given so far and ``Response/quotasReached`` ends with the quota; it is not a
    /// completion (the funnel, `completed(…)` audiences and the display rule `untilSubmitted` do not
    /// count it as one) and counts in no quota.
    case endedByQuota = "ended-by-quota"

    /// Whether the response can still change.
    public var isFinal: Bool { self != .inProgress }
}

/// One respondent's response to one survey: the header row of a store.
///
/// The ordered actions (``RecordedAction``) are stored beside it; with ``seed``, ``locale`` and
/// ``today`` they replay the run exactly (`SurveySession.replay`).
public struct Response: Sendable, Hashable {
    public var id: ResponseID
    /// Who answered: an app's user id, a kiosk's session id, `survey run --respondent`.
    public var respondentID: String
    public var surveyID: String
    /// The author's version of the survey the response was given on.
    public var surveyVersion: String?
    public var locale: String
    /// The session's shuffle seed.
    public var seed: UInt64
    /// The date `today()` and `age()` used (`YYYY-MM-DD`), part of an exact replay.
    public var today: String
    public var status: ResponseStatus
    public var createdAt: Date
    public var updatedAt: Date
    /// When it was completed (or dismissed); `nil` while in progress.
    public var completedAt: Date?
    /// The unit the respondent is on (in progress) or ended on (dismissed, abandoned).
    public var currentUnitID: String?
    /// Units shown, in order.
    public var path: [String]
    /// The answers on the path: for completed responses exactly what completion returned; for others
    /// the answers on the path so far.
    public var answers: [String: JSONValue]
    /// How many actions are recorded (the sequence number of the last one).
    public var actionCount: Int
    /// Added to ``actionCount`` to give ``version``: raised when the stored actions are replaced by
    /// others (a carry-over to a new version of the survey, a Back and the Next that undid it, an
    /// answer taking the place of the one just given) so that the version never goes down. 0 for a
    /// response whose log was only ever appended to.
    public var versionOffset: Int
    /// Answers given on an earlier version of the survey that its current version no longer takes
    /// (a removed step or choice, a step of another kind), oldest first: kept, never deleted, when the
    /// response was carried over to a new version (``ResponseMigration``).
    public var orphaned: [OrphanedAnswer]
    /// Why the response was abandoned, when the program abandoned it (it could not be carried over to
    /// the survey's new version); `nil` otherwise.
    public var abandonedReason: String?
    /// The full quotas whose action the respondent got, in order (`SurveySession.quotasReached`): a
    /// `flag` they went on past, a `skip`, and for an ``ResponseStatus/endedByQuota`` response last the
    /// quota that ended it, with the message they read.
    public var quotasReached: [QuotaReached]

    /// The response's version: ``actionCount`` plus ``versionOffset``. Each write that changes the
    /// stored actions gives a higher one, and no version is ever held twice, so `<id>.<version>` names
    /// one state of the response for good (the idempotency key of a partial delivery).
    public var version: Int { versionOffset + actionCount }

    public init(
        id: ResponseID, respondentID: String, surveyID: String, surveyVersion: String?, locale: String, seed: UInt64,
        today: String, status: ResponseStatus = .inProgress, createdAt: Date, updatedAt: Date? = nil,
        completedAt: Date? = nil, currentUnitID: String? = nil, path: [String] = [], answers: [String: JSONValue] = [:],
        actionCount: Int = 0, orphaned: [OrphanedAnswer] = [], abandonedReason: String? = nil,
        quotasReached: [QuotaReached] = [], versionOffset: Int = 0
    ) {
        self.id = id
        self.respondentID = respondentID
        self.surveyID = surveyID
        self.surveyVersion = surveyVersion
        self.locale = locale
        self.seed = seed
        self.today = today
        self.status = status
        self.createdAt = createdAt
        self.updatedAt = updatedAt ?? createdAt
        self.completedAt = completedAt
        self.currentUnitID = currentUnitID
        self.path = path
        self.answers = answers
        self.actionCount = actionCount
        self.orphaned = orphaned
        self.abandonedReason = abandonedReason
        self.quotasReached = quotasReached
        self.versionOffset = versionOffset
    }
}

extension QuotaReached {
    /// The JSON form a store and an export keep: ``jsonValue`` (`{"quotaId", "action", "message"}`),
    /// with `skipTo` for a skip.
    public var storedJSON: JSONValue {
        guard case .object(var members) = jsonValue else { return jsonValue }
        if case .skip(let step) = action { members["skipTo"] = .string(step) }
        return .object(members)
    }

    /// Reads ``storedJSON``; `nil` when it is not one. An end's action keeps no localised message:
    /// ``message`` holds the text the respondent read.
    public init?(storedJSON json: JSONValue) {
        guard let object = json.objectValue, let quotaID = object["quotaId"]?.stringValue,
            let name = object["action"]?.stringValue
        else { return nil }
        let action: QuotaAction
        switch name {
        case "end": action = .end(message: nil)
        case "flag": action = .flag
        case "skip":
            guard let step = object["skipTo"]?.stringValue else { return nil }
            action = .skip(to: step)
        default: return nil
        }
        self.init(quotaID: quotaID, action: action, message: object["message"]?.stringValue)
    }
}

/// An answer that an earlier version of the survey took and its current version does not: kept in
/// the response (``Response/orphaned``) and shown by exports and lists, never deleted.
///
/// ```json
/// {"stepId": "role", "value": "designer", "reason": "refused", "surveyVersion": "1", "orphanedOn": "2",
///  "message": "'designer' is not one of the choices"}
/// ```
public struct OrphanedAnswer: Sendable, Hashable {
    /// Why the current version does not take an answer.
    public enum Reason: String, Sendable, Hashable, CaseIterable {
        /// No step has the id any more.
        case removedStep = "removed-step"
        /// The step takes no answer any more (it became content, a page, …).
        case notAnswerable = "not-answerable"
        /// The step's question refuses the value now: a removed choice, a step of another kind, a
        /// narrower range.
        case refused
        /// The step is now on a unit the respondent has not reached (it moved ahead of where the
        /// response continues, or is hidden there): it is given back when the step is shown
        /// (``ResponseRecorder/giveBack(into:)``).
        case notReached = "not-reached"
    }

    /// The key the answer was given under: a step id, or `<id>[k]` / `<id>-Comment`.
    public var stepID: String
    /// The answer as the respondent gave it.
    public var value: JSONValue
    public var reason: Reason
    /// What the current version said, for a person.
    public var message: String
    /// The version of the survey the answer was given on.
    public var surveyVersion: String?
    /// The version that no longer took it.
    public var orphanedOn: String?

    public init(
        stepID: String, value: JSONValue, reason: Reason, message: String, surveyVersion: String?,
        orphanedOn: String?
    ) {
        self.stepID = stepID
        self.value = value
        self.reason = reason
        self.message = message
        self.surveyVersion = surveyVersion
        self.orphanedOn = orphanedOn
    }

    /// The JSON form stores and exports use (see the type's example); `surveyVersion` and
    /// `orphanedOn` are left out when the survey has no version.
    public var jsonValue: JSONValue {
        var members: [String: JSONValue] = [
            "stepId": .string(stepID), "value": value, "reason": .string(reason.rawValue), "message": .string(message),
        ]
        if let surveyVersion { members["surveyVersion"] = .string(surveyVersion) }
        if let orphanedOn { members["orphanedOn"] = .string(orphanedOn) }
        return .object(members)
    }

    /// Reads the JSON form of ``jsonValue``; `nil` when it is not one.
    public init?(json: JSONValue) {
        guard let object = json.objectValue, let stepID = object["stepId"]?.stringValue,
            let reasonText = object["reason"]?.stringValue, let reason = Reason(rawValue: reasonText)
        else { return nil }
        self.init(
            stepID: stepID, value: object["value"] ?? .null, reason: reason,
            message: object["message"]?.stringValue ?? "", surveyVersion: object["surveyVersion"]?.stringValue,
            orphanedOn: object["orphanedOn"]?.stringValue)
    }
}

/// One accepted session action, numbered from 1 within its response.
public struct RecordedAction: Sendable, Hashable {
    public var sequence: Int
    public var action: SessionAction
    public var recordedAt: Date

    public init(sequence: Int, action: SessionAction, recordedAt: Date) {
        self.sequence = sequence
        self.action = action
        self.recordedAt = recordedAt
    }
}

/// What the funnel counts. Survey-level kinds have no step; step-level kinds name a leaf step.
public enum FunnelEventKind: String, Sendable, Hashable, CaseIterable {
    /// The survey was offered (a response was created).
    case invitationShown = "invitation-shown"
    /// The respondent did something (answered or continued) for the first time.
    case started
    /// A question was shown to the respondent.
    case stepSeen = "step-seen"
    /// A question was answered.
    case answered
    /// The survey was dismissed (survey level, and at the step it was dismissed on).
    case dismissed
    /// The survey was completed.
    case completed
    /// A full quota ended the survey for the respondent (``ResponseStatus/endedByQuota``): not a completion.
    case endedByQuota = "ended-by-quota"
    /// The response was carried over to a new version of the survey (``ResponseMigration``).
    case carriedOver = "carried-over"
}

/// One funnel fact about one response. A store keeps each (response, kind, step) once, however
/// often it happens (a question seen again after Back counts once), so counts are of responses.
public struct FunnelEvent: Sendable, Hashable {
    public var kind: FunnelEventKind
    /// The leaf step, or `nil` for survey-level events.
    public var stepID: String?
    public var recordedAt: Date

    public init(kind: FunnelEventKind, stepID: String? = nil, recordedAt: Date) {
        self.kind = kind
        self.stepID = stepID
        self.recordedAt = recordedAt
    }
}

/// Everything one store write holds, applied in one transaction: the response header as it is now,
/// the actions it gained, and the funnel events they caused.
///
/// Writes are idempotent: an action whose `(response, sequence)` is already stored with the same
/// content is skipped, funnel events already counted are not counted again, and the header is
/// replaced only by a header with at least as many actions. An action whose sequence is taken by a
/// different action is a ``StoreError/Kind/conflict``.
///
/// A write with ``removesActionsFrom`` first removes the response's actions numbered from there on
/// (the session dropped them from its log: a Back and the Next that undid it), and its header then
/// replaces the stored one even with fewer actions.
public struct ResponseWrite: Sendable, Hashable {
    public var response: Response
    public var actions: [RecordedAction]
    public var funnelEvents: [FunnelEvent]
    /// Delivery targets (by name) the response is to be sent to: a pending ``DeliveryJob`` is added
    /// for each in the same transaction (a job already there for that target is kept as it is).
    public var deliveries: [String]
    /// Delivery targets (by name) a new version of the response is to be sent to (a partial response
    /// that got new answers, or its completion after partial ones were sent): the job is added, or made
    /// pending again from its first attempt when it was delivered or failed; a job still pending stays
    /// as it is (it sends the response as it is when it goes). Its ``DeliveryJob/updatedAt`` changes
    /// either way, so a deliverer that read it before finds it queued again
    /// (``ResponseStore/updateDelivery(_:replacing:)``).
    public var requeuedDeliveries: [String]
    /// When set, the response's stored actions with this sequence number or a higher one are removed
    /// before ``actions`` are added (from 1: all of them).
    public var removesActionsFrom: Int?

    public init(
        response: Response, actions: [RecordedAction] = [], funnelEvents: [FunnelEvent] = [],
        deliveries: [String] = [], requeuedDeliveries: [String] = [], removesActionsFrom: Int? = nil
    ) {
        self.response = response
        self.actions = actions
        self.funnelEvents = funnelEvents
        self.deliveries = deliveries
        self.requeuedDeliveries = requeuedDeliveries
        self.removesActionsFrom = removesActionsFrom
    }
}

/// Where a ``DeliveryJob`` stands.
public enum DeliveryStatus: String, Sendable, Hashable, CaseIterable {
    /// Not delivered yet: due at ``DeliveryJob/nextAttemptAt``.
    case pending
    /// The target acknowledged it (a 2xx reply).
    case delivered
    /// Given up on: refused by the target, or out of attempts. `survey deliver --retry-failed` sends it again.
    case failed
}

/// One response to send to one delivery target: the store's outbox entry. It is created in the
/// transaction that completes the response, so a completed response always has its jobs.
public struct DeliveryJob: Sendable, Hashable {
    public var responseID: ResponseID
    /// The target's name in the delivery configuration.
    public var target: String
    public var status: DeliveryStatus
    /// Attempts made so far.
    public var attempts: Int
    /// When the next attempt is due (for ``DeliveryStatus/pending``).
    public var nextAttemptAt: Date
    /// What went wrong last time (never a credential).
    public var lastError: String?
    public var updatedAt: Date

    public init(
        responseID: ResponseID, target: String, status: DeliveryStatus = .pending, attempts: Int = 0,
        nextAttemptAt: Date, lastError: String? = nil, updatedAt: Date
    ) {
        self.responseID = responseID
        self.target = target
        self.status = status
        self.attempts = attempts
        self.nextAttemptAt = nextAttemptAt
        self.lastError = lastError
        self.updatedAt = updatedAt
    }
}

/// Which responses a query returns.
public struct ResponseQuery: Sendable, Hashable {
    public var surveyID: String?
    public var respondentID: String?
    public var statuses: Set<ResponseStatus>?
    /// Created at or after.
    public var since: Date?
    /// Created before.
    public var until: Date?
    public var surveyVersion: String?
    public var locale: String?
    public var limit: Int?

    public init(
        surveyID: String? = nil, respondentID: String? = nil, statuses: Set<ResponseStatus>? = nil, since: Date? = nil,
        until: Date? = nil, surveyVersion: String? = nil, locale: String? = nil, limit: Int? = nil
    ) {
        self.surveyID = surveyID
        self.respondentID = respondentID
        self.statuses = statuses
        self.since = since
        self.until = until
        self.surveyVersion = surveyVersion
        self.locale = locale
        self.limit = limit
    }

    /// The parts ``ResponseStore/split(_:into:minimumPartSize:)`` gives for `query`, which selects
    /// `total` responses: `time(k)` is the creation time of the k-th of them (from 0, oldest first).
    /// Stores call it with their own way of finding that time.
    public static func split<E: Error>(
        _ query: ResponseQuery, into parts: Int, minimumPartSize: Int, total: Int, time: (Int) throws(E) -> Date?
    ) throws(E) -> [ResponseQuery] {
        let count = min(parts, total / max(1, minimumPartSize))
        guard count > 1, query.limit == nil else { return [query] }
        var boundaries: [Date] = []
        for part in 1..<count {
            if let at = try time(total * part / count), at > (boundaries.last ?? .distantPast) { boundaries.append(at) }
        }
        return self.parts(of: query, between: boundaries)
    }

    /// `query` cut at each of the increasing `boundaries` (creation times): the part before the first,
    /// between each two, and from the last on (``ResponseStore/split(_:into:minimumPartSize:)``).
    public static func parts(of query: ResponseQuery, between boundaries: [Date]) -> [ResponseQuery] {
        var parts: [ResponseQuery] = []
        var since = query.since
        for boundary in boundaries + [nil] {
            var part = query
            part.since = since
            part.until = boundary ?? query.until
            parts.append(part)
            since = boundary
        }
        return parts
    }

    /// Whether `response` is selected (for stores that filter in memory).
    public func matches(_ response: Response) -> Bool {
        if let surveyID, response.surveyID != surveyID { return false }
        if let respondentID, response.respondentID != respondentID { return false }
        if let statuses, !statuses.contains(response.status) { return false }
        if let since, response.createdAt < since { return false }
        if let until, response.createdAt >= until { return false }
        if let surveyVersion, response.surveyVersion != surveyVersion { return false }
        if let locale, response.locale != locale { return false }
        return true
    }
}

/// Funnel counts of one survey, as a store keeps them: responses per (step, kind).
public struct FunnelCounts: Sendable, Hashable {
    /// Survey-level counts (`invitation-shown`, `started`, `dismissed`, `completed`).
    public var survey: [FunnelEventKind: Int]
    /// Step-level counts by step id (`step-seen`, `answered`, `dismissed`).
    public var steps: [String: [FunnelEventKind: Int]]
    /// Responses not completed, by the unit they stopped on (in progress, dismissed or abandoned).
    public var stoppedAt: [String: Int]
    /// Respondents not asked, by the reason of the targeting rule that said no (``Eligibility/Skip/reason``).
    public var notAsked: [String: Int] = [:]

    public init(
        survey: [FunnelEventKind: Int] = [:], steps: [String: [FunnelEventKind: Int]] = [:],
        stoppedAt: [String: Int] = [:]
    ) {
        self.survey = survey
        self.steps = steps
        self.stoppedAt = stoppedAt
    }
}

/// A problem with a response store: what went wrong, and with which store.
public struct StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable {
        /// The store cannot be opened or reached (missing directory, unreadable file, refused connection).
        case unavailable
        /// The store's contents are damaged or not a response store.
        case corrupt
        /// The store was written by a newer version of this program.
        case newerSchema
        /// Another writer stored something different under the same key.
        case conflict
        /// The request itself is invalid (an empty respondent id, an unknown response).
        case invalidRequest
        /// The database refused or failed the operation.
        case failed
    }

    public var kind: Kind
    /// A one-line message, without credentials.
    public var message: String
    /// The store, as the user named it (a path, or a URL with the password removed).
    public var store: String

    public init(_ kind: Kind, _ message: String, store: String) {
        self.kind = kind
        self.message = message
        self.store = store
    }

    public var description: String { "\(store): \(message)" }
}

import Foundation
import SurveyCore

/// How a respondent's response to a survey begins: their unfinished response continued where they
/// stopped, a new response, or no question at all because a rule of ``Eligibility`` says not now
/// (they already completed or dismissed the survey and its `settings.askAgain` says not yet, …).
///
/// One call decides, for every front end (the `survey run` command, an HTTP server), and a front end
/// only says what happened:
///
/// ```swift
/// switch try ResponseStart.begin(survey: survey, respondent: "user-42", store: store) {
/// case .resumed(let session, let recorder, let response):
///     print("continuing \(response.id)")  // run `session`, recording with `recorder`
/// case .new(let new):
///     let session = SurveySession(survey: survey)
///     let recorder = try new.start(session)  // the response is in the store now
/// case .notAsked(let reason):
///     print(reason.message(respondent: "user-42"))
/// }
/// ```
///
/// An unfinished response started on another version of the survey (or on a survey changed since
/// without a new version) is carried over to the survey as it is (``ResponseMigration``): the answers
/// that still fit are kept, the others are stored as ``Response/orphaned``, and it continues
/// (``ResponseRecorder/migration`` says what changed). Only a response none of whose answers fits is
/// marked abandoned in the store, with the reason (``Response/abandonedReason``) and its answers as
/// orphaned, and a new response is asked for as if there had been none: ``abandoned`` says which and why.
public enum ResponseStart {
    /// The respondent's unfinished response continues: `session` is the replay of its recorded
    /// actions (where the respondent stopped) and `recorder` appends to `response`.
    case resumed(session: SurveySession, recorder: ResponseRecorder, response: Response)
    /// The respondent is to be asked in a new response: create the session and call
    /// ``NewResponse/start(_:clock:)``.
    case new(NewResponse)
    /// The respondent is not to be asked now.
    case notAsked(NotAsked)

    /// A respondent to ask in a new response.
    public struct NewResponse {
        /// Where the response goes.
        public let store: any ResponseStore
        /// Who is answering.
        public let respondentID: String
        /// The unfinished response that could not be continued and is now kept as abandoned, if any.
        public let abandoned: ResumeError?

        /// Writes the new response for `session` (with any actions it already has, such as one
        /// restored from a state file), as ``ResponseRecorder/init(store:respondentID:session:id:clock:)``.
        /// - Parameters:
        ///   - session: the new session.
        ///   - clock: the time stamps' source.
        /// - Returns: the recorder that records the rest of the session.
        /// - Throws: ``StoreError`` when the first write fails.
        public func start(_ session: SurveySession, clock: @escaping @Sendable () -> Date = { Date() })
            throws(StoreError) -> ResponseRecorder
        {
            try ResponseRecorder(store: store, respondentID: respondentID, session: session, clock: clock)
        }
    }

    /// Why a respondent is not asked: the rule that said no (``Eligibility``), with every rule's verdict.
    public struct NotAsked: Sendable, Hashable {
        /// The rule that said no and why.
        public var skip: Eligibility.Skip
        /// Every rule's verdict (``Eligibility/Report/verdicts``).
        public var verdicts: [Eligibility.Verdict]
        /// The unfinished response that could not be continued and is now kept as abandoned, if any.
        public var abandoned: ResumeError?

        /// ``ResponseStatus/completed`` or ``ResponseStatus/dismissed`` when that finish is the reason.
        public var status: ResponseStatus? { ResponseStatus(rawValue: skip.reason) }
        /// When the respondent last completed or dismissed the survey, when that is the reason.
        public var finishedAt: Date? { skip.finishedAt }
        /// From when the respondent will be asked again; `nil` when never or not known.
        public var askedAgainFrom: Date? { skip.until }
        /// The survey's `settings.askAgain`.
        public var policy: AskAgainPolicy { skip.askAgain }
    }

    /// The unfinished response that could not be continued and is now kept as abandoned, if any.
    public var abandoned: ResumeError? {
        switch self {
        case .resumed: nil
        case .new(let new): new.abandoned
        case .notAsked(let reason): reason.abandoned
        }
    }

    /// Decides how `respondent`'s response to `survey` begins, and continues or abandons their
    /// unfinished response in `store`.
    ///
    /// 1. Unless `isRestored`, the respondent's latest response, when it is unfinished, is continued
    ///    (``resumed(session:recorder:response:)``), carried over to the survey's new version when it
    ///    changed; when it cannot be continued any more it is written back as abandoned, with the
    ///    reason, and the decision goes on.
    /// 2. Unless `isRestored` or `ignoresAskAgain`, the respondent is asked only as ``Eligibility``
    ///    decides at `now` (``notAsked(_:)`` says which rule said no).
    /// 3. Otherwise a new response is to be started (``new(_:)``).
    ///
    /// - Parameters:
    ///   - survey: the survey as it is now.
    ///   - respondent: who is answering (not empty).
    ///   - store: where the respondent's responses are.
    ///   - isRestored: the caller continues a session it restored itself (a state file): it is
    ///     recorded as a new response, never merged with a stored one, and always asked.
    ///   - ignoresAskAgain: ask even a respondent the rules would not ask.
    ///   - now: the time the rules are applied at and an abandoned response's update time.
    ///   - cooldown: the global cooldown (``Eligibility/Cooldown``): the store's setting by default.
    ///   - attributes: what the host says about the respondent now (`plan`, `country`, …): stored
    ///     first (``ResponseStore/setAttributes(_:of:at:)``), then read by the survey's audience.
    /// - Throws: ``StoreError`` when the store cannot be read or written.
    public static func begin(
        survey: Survey, respondent: String, store: any ResponseStore, isRestored: Bool = false,
        ignoresAskAgain: Bool = false, now: Date = Date(), cooldown: Eligibility.Cooldown = .store,
        attributes: [String: JSONValue] = [:]
    ) throws(StoreError) -> ResponseStart {
        if !attributes.isEmpty { try store.setAttributes(attributes, of: respondent, at: now) }
        var abandoned: ResumeError?
        let latest = try store.latestResponse(respondent: respondent, survey: survey.id)
        if !isRestored, let latest, latest.status == .inProgress {
            do {
                let (session, recorder) = try ResponseRecorder.resume(latest, from: store, survey: survey)
                return .resumed(session: session, recorder: recorder, response: latest)
            } catch let error as ResumeError {
                var header = latest
                header.status = .abandoned
                header.updatedAt = now
                header.abandonedReason = error.reason
                header.orphaned += error.orphaned
                try store.write(ResponseWrite(response: header))
                abandoned = error
            } catch let error as StoreError {
                throw error
            } catch {
                throw StoreError(.failed, "\(error)", store: store.name)
            }
        }
        if !ignoresAskAgain, !isRestored {
            let report = try Eligibility.decide(
                respondent: respondent, survey: survey, store: store, at: now, cooldown: cooldown)
            if case .skip(let skip) = report.decision {
                // Counted for the funnel; a count that cannot be written does not change the decision.
                try? store.countNotAsked(survey: survey.id, reason: skip.reason)
                return .notAsked(NotAsked(skip: skip, verdicts: report.verdicts, abandoned: abandoned))
            }
        }
        return .new(NewResponse(store: store, respondentID: respondent, abandoned: abandoned))
    }
}

extension ResponseStart.NotAsked {
    /// Why the respondent is not asked, in a sentence a person can act on
    /// (``Eligibility/Skip/message(respondent:)``).
    public func message(respondent: String) -> String { skip.message(respondent: respondent) }

    /// The JSON-event protocol's `not-asked` event (``Eligibility/Skip/event(respondent:)``).
    public func event(respondent: String) -> JSONValue { skip.event(respondent: respondent) }
}

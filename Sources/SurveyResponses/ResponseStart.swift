import Foundation
import SurveyCore

/// How a respondent's response to a survey begins: their unfinished response continued where they
/// stopped, a new response, or no question at all because they already completed or dismissed the
/// survey and its `settings.askAgain` says not yet.
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
///     print("already \(reason.status.rawValue) on \(reason.finishedAt)")
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
    /// ``NewResponse/start(_:)``.
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
        /// - Returns: the recorder that records the rest of the session.
        /// - Throws: ``StoreError`` when the first write fails.
        public func start(_ session: SurveySession) throws(StoreError) -> ResponseRecorder {
            try ResponseRecorder(store: store, respondentID: respondentID, session: session)
        }
    }

    /// Why a respondent is not asked: they completed or dismissed the survey, and its `askAgain`
    /// policy does not ask again yet (or ever).
    public struct NotAsked: Sendable, Hashable {
        /// ``ResponseStatus/completed`` or ``ResponseStatus/dismissed``.
        public var status: ResponseStatus
        /// When the respondent last completed or dismissed the survey.
        public var finishedAt: Date
        /// From when the respondent will be asked again; `nil` when never (`askAgain` is `never`).
        public var askedAgainFrom: Date?
        /// The survey's `settings.askAgain`.
        public var policy: AskAgainPolicy
        /// The unfinished response that could not be continued and is now kept as abandoned, if any.
        public var abandoned: ResumeError?
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
    /// 2. Unless `isRestored` or `ignoresAskAgain`, a respondent who completed or dismissed the survey
    ///    is asked again only as its `settings.askAgain` allows at `now` (``notAsked(_:)``).
    /// 3. Otherwise a new response is to be started (``new(_:)``).
    ///
    /// - Parameters:
    ///   - survey: the survey as it is now.
    ///   - respondent: who is answering (not empty).
    ///   - store: where the respondent's responses are.
    ///   - isRestored: the caller continues a session it restored itself (a state file): it is
    ///     recorded as a new response, never merged with a stored one, and always asked.
    ///   - ignoresAskAgain: ask even a respondent who completed or dismissed the survey.
    ///   - now: the time the `askAgain` policy is applied at and an abandoned response's update time.
    /// - Throws: ``StoreError`` when the store cannot be read or written.
    public static func begin(
        survey: Survey, respondent: String, store: any ResponseStore, isRestored: Bool = false,
        ignoresAskAgain: Bool = false, now: Date = Date()
    ) throws(StoreError) -> ResponseStart {
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
            let decision = try store.shouldAsk(respondent: respondent, survey: survey, at: now)
            if case .doNotAsk(let status, let at, let until) = decision {
                return .notAsked(
                    NotAsked(
                        status: status, finishedAt: at, askedAgainFrom: until,
                        policy: survey.definition.settings.askAgain, abandoned: abandoned))
            }
        }
        return .new(NewResponse(store: store, respondentID: respondent, abandoned: abandoned))
    }
}

extension ResponseStart.NotAsked {
    /// Why the respondent is not asked, in a sentence a person can act on.
    ///
    /// ```swift
    /// reason.message(respondent: "user-42", surveyID: "feedback")
    /// // "'user-42' already completed 'feedback' on 2026-12-01T10:00:00Z; not asking again (askAgain is never)"
    /// ```
    public func message(respondent: String, surveyID: String) -> String {
        let again =
            askedAgainFrom.map { "it will be asked again from \(ResponseExport.timestamp($0))" }
            ?? "askAgain is \(policy)"
        return "'\(respondent)' already \(status == .completed ? "completed" : "dismissed") '\(surveyID)' on "
            + "\(ResponseExport.timestamp(finishedAt)); not asking again (\(again))"
    }

    /// The JSON-event protocol's `not-asked` event, the only event of a run whose respondent is not
    /// asked (see `docs/json-event-protocol.md`):
    ///
    /// ```json
    /// {"event":"not-asked","surveyId":"feedback","respondentId":"user-42","reason":"completed",
    ///  "finishedAt":"2026-12-01T10:00:00Z","askAgain":"P30D","askedAgainFrom":"2026-12-31T10:00:00Z",
    ///  "message":"'user-42' already completed 'feedback' on …"}
    /// ```
    ///
    /// `reason` is `completed` or `dismissed`; `askedAgainFrom` is `null` when the respondent is
    /// never asked again (`askAgain` is `never`).
    public func event(respondent: String, surveyID: String) -> JSONValue {
        .object([
            "event": .string("not-asked"),
            "surveyId": .string(surveyID),
            "respondentId": .string(respondent),
            "reason": .string(status.rawValue),
            "finishedAt": .string(ResponseExport.timestamp(finishedAt)),
            "askAgain": .string(policy.description),
            "askedAgainFrom": askedAgainFrom.map { .string(ResponseExport.timestamp($0)) } ?? .null,
            "message": .string(message(respondent: respondent, surveyID: surveyID)),
        ])
    }
}

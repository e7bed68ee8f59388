/// Keeps what a session accepted somewhere durable, before the respondent is told it was accepted.
///
/// A front end calls ``record(_:)`` after every action the session accepted (an answer, Next,
/// Back, dismiss, completion) and acknowledges the action only when it returns. When it throws,
/// the front end puts the session back as it was before the action and tells the respondent the
/// action was not taken, so nothing is acknowledged that is not kept. `SurveyDriver` does this for
/// every renderer; a response store's recorder (`ResponseRecorder` in `SurveyResponses`) is the
/// usual implementation.
///
/// The session's ``SurveySession/actions`` is the log to keep: a recorder writes the entries it
/// has not written yet, so calling ``record(_:)`` twice for the same state writes nothing new.
///
/// ```swift
/// let before = session
/// let value = try session.answer("yes", for: "contact-me")
/// do { try recorder.record(session) } catch { session = before; throw error }
/// // only now: tell the respondent the answer was saved
/// ```
public protocol SessionRecorder {
    /// Records every action `session` accepted that is not recorded yet.
    /// - Throws: when the actions could not be kept; nothing of this call may count as recorded then.
    mutating func record(_ session: SurveySession) throws

    /// Called when the session being recorded is replaced by another one (a saved state was resumed
    /// into the running front end). Default: ``record(_:)``.
    mutating func restart(with session: SurveySession) throws

    /// Gives `session` answers the recorder holds for steps it shows now, recording each as an answer
    /// of the respondent's: a response carried over to a new version of its survey gives back, when
    /// their unit is reached, the answers it had given to steps it had not reached on the new version.
    /// The driver calls it after each recorded action. Default: nothing to give.
    /// - Throws: when an answer given back could not be recorded (`session` is then as it was before it).
    mutating func giveBack(into session: inout SurveySession) throws

    /// Called before each Next: tells `session` which quotas are full now
    /// (``SurveySession/fullQuotas``). The default does nothing.
    mutating func prepareNext(of session: inout SurveySession) throws

    /// The quota that ended the survey for a respondent who completed it when the quota had just been
    /// filled by others (the completion is kept, not counted); `nil` by default.
    var completionQuota: QuotaReached? { get }

    /// Whether the session must keep every answer in its log, also one that replaces the answer just
    /// given to the same step (``SurveySession/keepsEveryAnswer``): a recorder that hands each
    /// version of an unfinished response on under its action count needs each answer to count.
    /// `false` by default.
    var keepsEveryAnswer: Bool { get }
}

extension SessionRecorder {
    public mutating func restart(with session: SurveySession) throws {
        try record(session)
    }

    public mutating func giveBack(into session: inout SurveySession) throws {}

    public mutating func prepareNext(of session: inout SurveySession) throws {}

    public var completionQuota: QuotaReached? { nil }

    public var keepsEveryAnswer: Bool { false }
}

/// Where a session stands.
public enum SessionStatus: String, Sendable, Hashable, Codable {
    case inProgress = "in-progress"
    case completed
    case dismissed
    /// Nothing to show: no unit was visible when the session started (every page hidden, or a
    /// survey made only of elements this engine leaves out). The session ends there without a
    /// completion, as SurveyJS's survey-core ends in its `empty` state; no answer can be given.
    case empty
}

/// A validation problem on one step, with the message in the session's locale.
public struct StepError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The leaf step the problem is about.
    public var stepID: String
    /// The type's error (code, English message, arguments).
    public var error: AnswerError
    /// The message in the session's locale.
    public var message: String
    /// The kind of the step's validator that refused the answer (`numeric`, `expression`, …), or
    /// `nil` when the question type or the required check did.
    public var validator: String?
    /// ``Severity/error`` for a problem that blocks; a validator's `warning` or `info` notice does not.
    public var severity: Severity = .error

    public init(stepID: String, error: AnswerError, message: String, validator: String? = nil) {
        self.stepID = stepID
        self.error = error
        self.message = message
        self.validator = validator
    }

    public var description: String { "\(stepID): \(message)" }
}

/// How serious a reported problem is (SurveyJS's validator `notificationType`).
public enum Severity: String, Sendable, Hashable, CaseIterable {
    /// Blocks Next until it is fixed.
    case error
    /// A likely problem, shown with the question; the respondent may go on.
    case warning
    /// Guidance, shown with the question; never blocks.
    case info
}

/// A request the session cannot carry out.
public enum SessionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No step has this id.
    case unknownStep(String)
    /// The step exists but is not on the current page (or is hidden).
    case stepNotCurrent(String, current: String?)
    /// The step takes no answer (a content step).
    case notAnswerable(String)
    /// The answer was rejected by the question type.
    case invalidAnswer(StepError)
    /// There is no earlier step to go back to.
    case cannotGoBack
    /// The session is already completed or dismissed.
    case finished(SessionStatus)
    /// Saved state does not fit this survey.
    case incompatibleState(String)
    /// The session already keeps ``SurveySession/actionLimit`` actions: finish it, dismiss it or quit.
    case tooManyActions(limit: Int)

    public var description: String {
        switch self {
        case .unknownStep(let id): return "no step has the id '\(id)'"
        case .stepNotCurrent(let id, let current):
            return "step '\(id)' is not shown now" + (current.map { " (the current step is '\($0)')" } ?? "")
        case .notAnswerable(let id): return "step '\(id)' takes no answer"
        case .invalidAnswer(let error): return "invalid answer for '\(error.stepID)': \(error.message)"
        case .cannotGoBack: return "there is no earlier step to go back to"
        case .finished(let status): return "the session is already \(status.rawValue)"
        case .incompatibleState(let reason): return "the saved session does not fit this survey: \(reason)"
        case .tooManyActions(let limit):
            return "the session already keeps \(limit) actions, the most it keeps (SurveySession.actionLimit); "
                + "it can still be dismissed or quit"
        }
    }
}

/// The result of a finished survey: the path actually taken and the answers on it.
public struct CompletionResult: Sendable, Hashable {
    public var surveyID: String
    public var surveyVersion: String?
    /// Ids of the units shown, in order (page ids for pages, step ids otherwise).
    public var path: [String]
    /// Answers of visible questions on the completed path, keyed by step id.
    public var answers: [String: JSONValue]
    /// The survey's completion message for this respondent (the first of `completionMessages` whose
    /// condition holds), localised and piped; `nil` when the survey has none (front ends then say
    /// their own "Thank you").
    public var message: String?
    /// Where the respondent goes next (the first of `completionRedirects` whose condition holds),
    /// piped; `nil` when the survey has none. Front ends send the respondent there.
    public var redirect: String?
    /// The full quota that ended the survey for this respondent (``QuotaAction/end(message:)``), then
    /// ``message`` is its message; `nil` for a completion. Such a response is kept, and not counted.
    public var quota: QuotaReached?

    public init(
        surveyID: String, surveyVersion: String?, path: [String], answers: [String: JSONValue], message: String? = nil
    ) {
        self.surveyID = surveyID
        self.surveyVersion = surveyVersion
        self.path = path
        self.answers = answers
        self.message = message
    }

    /// `{"surveyId", "surveyVersion", "path", "answers"}`.
    public var jsonValue: JSONValue {
        var members: [String: JSONValue] = [
            "surveyId": .string(surveyID),
            "path": .array(path.map { .string($0) }),
            "answers": .object(answers),
        ]
        if let surveyVersion { members["surveyVersion"] = .string(surveyVersion) }
        if let message { members["message"] = .string(message) }
        if let redirect { members["redirect"] = .string(redirect) }
        return .object(members)
    }
}

/// "Question k of n", counting only what this respondent sees.
public struct Progress: Sendable, Hashable {
    /// 1-based position of the current step among counted steps (0 before the first counted step).
    public var current: Int
    /// Counted steps on the path so far plus the visible ones still ahead.
    public var total: Int
    /// Whether the current step itself counts (content steps do not, by default).
    public var isCounted: Bool

    public init(current: Int, total: Int, isCounted: Bool) {
        self.current = current
        self.total = total
        self.isCounted = isCounted
    }

    /// `current / total`, 0…1.
    public var fraction: Double { total == 0 ? 1 : Double(current) / Double(total) }
}

/// What happened in a session; front ends, stores and analytics subscribe to these.
public enum SessionEvent: Sendable, Hashable {
    /// The session started (or resumed) on its first unit.
    case started(unitID: String)
    /// A unit (page or step) is now shown.
    case stepEntered(unitID: String)
    /// An answer was accepted (already normalised); `nil` when cleared.
    case answered(stepID: String, value: JSONValue?)
    /// An answer or a Next was refused.
    case validationFailed([StepError])
    /// Next moved on.
    case continued(from: String, to: String)
    /// Back returned along the path.
    case wentBack(from: String, to: String)
    /// The respondent dismissed the survey.
    case dismissed(unitID: String?)
    /// The survey was completed.
    case completed(CompletionResult)
}

/// The outcome of ``SurveySession/advance()``: ``NextOutcome`` without ids, and without the
/// completion's answers (``SurveySession/completionResult()`` builds them when they are wanted).
public enum Advance: Sendable, Hashable {
    /// Moved to the unit at this position.
    case moved(to: UnitIndex)
    /// The survey is complete.
    case completed
    /// The current unit has missing or invalid answers.
    case blocked([StepError])
}

/// The outcome of ``SurveySession/next()``.
public enum NextOutcome: Sendable, Hashable {
    /// Moved to another unit.
    case moved(to: String)
    /// The survey is complete.
    case completed(CompletionResult)
    /// The current unit has missing or invalid answers.
    case blocked([StepError])
}

/// A full quota whose action a respondent got (``SurveySession/quotasReached``).
public struct QuotaReached: Sendable, Hashable {
    /// The quota's ``QuotaDefinition/id``.
    public var quotaID: String
    /// What the respondent got.
    public var action: QuotaAction
    /// For an end, the quota's message, localised and piped (`nil` when it has none).
    public var message: String?

    public init(quotaID: String, action: QuotaAction, message: String? = nil) {
        self.quotaID = quotaID
        self.action = action
        self.message = message
    }

    /// `{"quotaId", "action", "message"}`.
    public var jsonValue: JSONValue {
        var members: [String: JSONValue] = ["quotaId": .string(quotaID), "action": .string(action.name)]
        if let message { members["message"] = .string(message) }
        return .object(members)
    }
}

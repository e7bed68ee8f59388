import SurveyCore
import Synchronization

/// A front end: it shows the current step and reports what the respondent did.
///
/// A renderer never decides flow. ``SurveyDriver`` owns the loop: it asks the renderer for an
/// action on the current unit, applies the action to the `SurveySession` and tells the renderer
/// what came of it. Everything needed to present a unit is in the one ``StepRequest`` value the
/// renderer receives, so adding a field never breaks a renderer.
///
/// ## Implementing a renderer
///
/// ```swift
/// struct FirstChoiceRenderer: SurveyRenderer {
///     mutating func action(for request: StepRequest) -> RendererAction {
///         for question in request.presentation.questions where question.answer == nil {
///             if let first = question.input.choiceInput?.choices.first {
///                 return .answer(stepID: question.id, value: .string(first.value))
///             }
///         }
///         return .next
///     }
/// }
/// ```
///
/// ``receive(_:)`` is optional; its default ignores every event.
public protocol SurveyRenderer {
    /// Returns the respondent's next action on the unit described by `request`.
    ///
    /// Called again after every action, with the presentation as it is then: answers stored so
    /// far, the last validation errors, and a new ``StepRequest/visit`` when another unit (or the
    /// same unit again, after Back or a resume) is shown.
    mutating func action(for request: StepRequest) -> RendererAction

    /// Tells the renderer what happened: the session started, an answer was accepted or refused,
    /// the survey completed, the respondent quit. Default: ignore.
    mutating func receive(_ event: RendererEvent)
}

extension SurveyRenderer {
    public mutating func receive(_ event: RendererEvent) {}
}

/// What the respondent did.
public enum RendererAction: Sendable, Hashable {
    /// Answer a visible question of the current unit (`null` clears the answer).
    case answer(stepID: String, value: JSONValue)
    /// Continue to the next unit (or complete the survey).
    case next
    /// Go back along the path actually taken.
    case back
    /// Dismiss the survey: it ends without completing.
    case dismiss
    /// Stop for now; the driver saves the session state so that it can be resumed.
    case quit
    /// Replace the running session by a saved one.
    case resume(SessionState)
}

/// The one value a renderer receives for each request: the unit to present and how to read typed answers.
///
/// The full ``presentation`` is built the first time a renderer reads it; a renderer that needs only
/// ids and progress (a scripted or headless one) reads ``outline`` and never pays for texts, inputs
/// and choices. A request a renderer keeps after answering still gives the presentation of the unit
/// as it was when the request was made.
public struct StepRequest: Sendable {
    /// Everything to show: localised, piped texts, the visible questions with their input
    /// primitives, answers so far, progress, the last validation errors and the UI strings.
    public var presentation: StepPresentation {
        get { source.presentation }
        set {
            source = PresentationSource(built: newValue)
            outline = UnitOutline(newValue)
        }
    }
    /// The unit's id, its visible steps (ids, whether each takes an answer, comment keys) and the
    /// progress: the same as in ``presentation``, without building it.
    public private(set) var outline: UnitOutline
    /// Counts units entered: it changes whenever another unit is shown (Next, Back, resume) and
    /// stays the same while the respondent works on one unit.
    public var visit: Int
    /// Turns a line typed in a terminal into an answer with the question type's own parser.
    public var lineParser: LineParser
    var source: PresentationSource

    /// Creates a request.
    public init(presentation: StepPresentation, visit: Int, lineParser: LineParser) {
        source = PresentationSource(built: presentation)
        outline = UnitOutline(presentation)
        self.visit = visit
        self.lineParser = lineParser
    }

    /// A request for the current unit of `session`, whose presentation is built only when read;
    /// `nil` once the session is finished.
    public init?(session: SurveySession, visit: Int, lineParser: LineParser) {
        guard let outline = session.currentOutline else { return nil }
        self.outline = outline
        source = PresentationSource(session: session)
        self.visit = visit
        self.lineParser = lineParser
    }

    /// Builds the presentation now if a copy of this request is kept elsewhere (a renderer stored
    /// it), so that the copy lets go of the session. The driver calls this before it changes the
    /// session: were the session's storage still shared then, the change would copy it whole.
    mutating func settle() {
        if !isKnownUniquelyReferenced(&source) { source.build() }
    }
}

/// Where a request's presentation comes from: a snapshot of the session until it is built.
final class PresentationSource: Sendable {
    enum State {
        case pending(Snapshot)
        case built(StepPresentation)
    }
    /// A copy of the session, only ever read (to build the presentation). The copy is a value no
    /// other code can change, and the observers it carries are never called from it, so it may be
    /// read on any thread.
    struct Snapshot: @unchecked Sendable {
        let session: SurveySession
    }
    let state: Mutex<State>

    init(built presentation: StepPresentation) { state = Mutex(.built(presentation)) }
    init(session: SurveySession) { state = Mutex(.pending(Snapshot(session: session))) }

    var presentation: StepPresentation {
        state.withLock { state in
            switch state {
            case .built(let presentation): return presentation
            case .pending(let snapshot):
                let presentation = Self.presentation(of: snapshot.session)
                state = .built(presentation)
                return presentation
            }
        }
    }

    func build() { _ = presentation }

    /// Whether the presentation has been built (tests check that reading the outline does not).
    var isBuilt: Bool {
        state.withLock { state in
            if case .built = state { return true }
            return false
        }
    }

    /// A pending source is made only for a session in progress, which always has a presentation;
    /// the empty one is never seen, but keeps this free of a trap.
    static func presentation(of session: SurveySession) -> StepPresentation {
        if let presentation = session.currentStep { return presentation }
        let strings = UIStrings(locale: session.locale)
        return StepPresentation(
            unitID: "", isPage: false, questions: [], progress: session.progress, canGoBack: false, isLastStep: true,
            locale: strings.locale, strings: strings)
    }
}

/// Parses typed lines into answers with each question type's `QuestionType/parse(line:options:in:)`.
public struct LineParser: Sendable {
    let survey: Survey
    let context: PresentationContext

    /// A parser for the questions of `survey`, with texts in `locale`.
    public init(survey: Survey, locale: String) {
        self.survey = survey
        context = PresentationContext(locale: locale, defaultLocale: survey.definition.defaultLocale)
    }

    /// How many leaf steps the survey has.
    public var stepCount: Int { survey.stepCount }

    /// The answer `line` stands for, for step `stepID` (not yet validated).
    /// - Throws: `AnswerError` when the line cannot be read as an answer.
    public func parse(_ line: String, forStep stepID: String) throws(AnswerError) -> JSONValue {
        guard let question = survey.question(forStep: stepID) else {
            throw AnswerError(code: "unknownStep", message: "No step has the id '\(stepID)'.")
        }
        return try question.parse(line: line, in: context)
    }
}

/// Facts about a session, given to a renderer when it starts.
public struct SessionInfo: Sendable, Hashable {
    /// The survey id.
    public var surveyID: String
    /// The author's version of the survey.
    public var surveyVersion: String?
    /// The survey title in ``locale``.
    public var title: String
    /// The survey description in ``locale``.
    public var description: String?
    /// The locale texts are shown in (one of `UIStrings/supportedLocales` for the built-in strings).
    public var locale: String
    /// The seed of every shuffle in the session.
    public var seed: UInt64
    /// Whether the session continues a saved one.
    public var isResumed: Bool
    /// The built-in UI strings in ``locale``.
    public var strings: UIStrings

    /// Creates session facts.
    public init(
        surveyID: String, surveyVersion: String?, title: String, description: String?, locale: String, seed: UInt64,
        isResumed: Bool, strings: UIStrings
    ) {
        self.surveyID = surveyID
        self.surveyVersion = surveyVersion
        self.title = title
        self.description = description
        self.locale = locale
        self.seed = seed
        self.isResumed = isResumed
        self.strings = strings
    }
}

/// What came of the renderer's actions, and how the session ended.
public enum RendererEvent: Sendable, Hashable {
    /// The session started (or a saved session was resumed).
    case started(SessionInfo)
    /// An answer was accepted; the value is normalised, `nil` when the answer was cleared.
    case answered(stepID: String, value: JSONValue?)
    /// An answer or a Next was refused by validation; the messages are in the session's locale.
    case validationFailed([StepError])
    /// An action could not be carried out (unknown step, nothing to go back to, a state that does not fit).
    case rejected(RendererError)
    /// The survey is complete: the path taken and the answers on it.
    case completed(CompletionResult)
    /// The respondent dismissed the survey.
    case dismissed(SessionState)
    /// The survey has nothing to show this respondent: no unit was visible at the start
    /// (`SessionStatus/empty`, SurveyJS's `empty` state). The session ends without a completion.
    case empty(SessionState)
    /// The respondent stopped; `location` names where the state was saved, when it was.
    case quit(SessionState, location: String?)
}

/// A problem that is not a validation message: the action could not be carried out.
public struct RendererError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable code: `unknownStep`, `stepNotCurrent`, `notAnswerable`, `cannotGoBack`, `finished`,
    /// `incompatibleState`, `saveFailed`, or a front end's own (`invalidJSON`, `unknownCommand`, …).
    public var code: String
    /// What went wrong, in English.
    public var message: String
    /// The step the problem is about, when there is one.
    public var stepID: String?

    /// Creates an error.
    public init(code: String, message: String, stepID: String? = nil) {
        self.code = code
        self.message = message
        self.stepID = stepID
    }

    /// The error for a refused session request.
    public init(_ error: SessionError) {
        switch error {
        case .unknownStep(let id): self.init(code: "unknownStep", message: error.description, stepID: id)
        case .stepNotCurrent(let id, _): self.init(code: "stepNotCurrent", message: error.description, stepID: id)
        case .notAnswerable(let id): self.init(code: "notAnswerable", message: error.description, stepID: id)
        case .invalidAnswer(let stepError):
            self.init(code: stepError.error.code, message: stepError.message, stepID: stepError.stepID)
        case .cannotGoBack: self.init(code: "cannotGoBack", message: error.description)
        case .finished: self.init(code: "finished", message: error.description)
        case .incompatibleState: self.init(code: "incompatibleState", message: error.description)
        case .tooManyActions: self.init(code: "tooManyActions", message: error.description)
        }
    }

    public var description: String { message }
}

import SurveyCore

/// A front end: it shows the current step and reports what the respondent did.
///
/// A renderer never decides flow. ``SurveyDriver`` owns the loop: it asks the renderer for an
/// action on the current unit, applies the action to the ``SurveySession`` and tells the renderer
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
public struct StepRequest: Sendable {
    /// Everything to show: localised, piped texts, the visible questions with their input
    /// primitives, answers so far, progress, the last validation errors and the UI strings.
    public var presentation: StepPresentation
    /// Counts units entered: it changes whenever another unit is shown (Next, Back, resume) and
    /// stays the same while the respondent works on one unit.
    public var visit: Int
    /// Turns a line typed in a terminal into an answer with the question type's own parser.
    public var lineParser: LineParser

    /// Creates a request.
    public init(presentation: StepPresentation, visit: Int, lineParser: LineParser) {
        self.presentation = presentation
        self.visit = visit
        self.lineParser = lineParser
    }
}

/// Parses typed lines into answers with each question type's ``QuestionType/parse(line:options:in:)``.
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
    /// - Throws: ``AnswerError`` when the line cannot be read as an answer.
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
    /// The locale texts are shown in (one of ``UIStrings/supportedLocales`` for the built-in strings).
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
        }
    }

    public var description: String { message }
}

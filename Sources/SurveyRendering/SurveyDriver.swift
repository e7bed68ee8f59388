import SurveyCore

/// Runs a `SurveySession` with any ``SurveyRenderer``: the one place the loop lives.
///
/// The driver asks the renderer for an action, applies it to the session, and reports the outcome
/// back; flow (visibility, branching, Back, validation, progress) is the session's alone.
///
/// ```swift
/// var driver = SurveyDriver(session: SurveySession(survey: survey, locale: "fr"))
/// var renderer = ScriptedRenderer(actions: [.answer(stepID: "q1", value: "yes"), .next])
/// switch driver.run(with: &renderer) {
/// case .completed(let result): print(result.path)
/// case .dismissed, .quit, .empty: break
/// }
/// ```
public struct SurveyDriver {
    /// The session being run; after ``run(with:)`` it holds the final state.
    public private(set) var session: SurveySession
    /// Where the state goes when the respondent quits; `nil` keeps it only in the outcome.
    public var stateStore: (any SessionStateStore)?
    /// Whether the session continues a saved one (reported in ``RendererEvent/started(_:)``).
    public var isResumed: Bool
    /// Keeps every accepted action durably (a response store); the renderer hears of an action
    /// only after the recorder has it. `nil` keeps the session in memory only. The one given to
    /// ``init(session:stateStore:isResumed:recorder:)`` also says whether the session keeps every
    /// answer (`SessionRecorder.keepsEveryAnswer`).
    public var recorder: (any SessionRecorder)?
    /// Counts units entered (``StepRequest/visit``).
    var visit = 0
    /// Reads typed answers in the session's locale.
    var lineParser: LineParser

    /// A driver for `session`.
    /// - Parameters:
    ///   - session: the session to run, at its current unit.
    ///   - stateStore: saves the state when the respondent quits.
    ///   - isResumed: whether `session` was resumed from a saved state.
    ///   - recorder: records each accepted action before it is acknowledged; when recording fails the
    ///     action is undone and the renderer receives a `storeFailed` rejection instead.
    public init(
        session: SurveySession, stateStore: (any SessionStateStore)? = nil, isResumed: Bool = false,
        recorder: (any SessionRecorder)? = nil
    ) {
        self.session = session
        self.stateStore = stateStore
        self.isResumed = isResumed
        self.recorder = recorder
        if recorder?.keepsEveryAnswer == true { self.session.keepsEveryAnswer = true }
        lineParser = LineParser(survey: session.survey, locale: session.locale)
    }

    /// Records the session's newly accepted actions. On failure the session goes back to `before`
    /// and the renderer is told that the action was not kept.
    mutating func commit(undoingTo before: SurveySession?, renderer: inout some SurveyRenderer) -> Bool {
        guard recorder != nil else { return true }
        do {
            try recorder?.record(session)
        } catch {
            if let before { session = before }
            renderer.receive(
                .rejected(
                    RendererError(
                        code: "storeFailed",
                        message: "the response could not be saved, so this action was not taken: \(error)")))
            return false
        }
        // The action is kept; answers given back that cannot be kept are tried again after the next one.
        try? recorder?.giveBack(into: &session)
        return true
    }

    /// Runs the session until it completes, is dismissed or the respondent quits.
    /// - Returns: how it ended, with the result or the state to resume from.
    public mutating func run(with renderer: inout some SurveyRenderer) -> DriverOutcome {
        start(with: &renderer)
        while true {
            guard let action = action(visit: visit, lineParser: lineParser, from: &renderer) else {
                return finish(with: &renderer)
            }
            if let outcome = perform(action, with: &renderer) { return outcome }
        }
    }

    /// Tells the renderer that the session starts; the first unit is ``currentRequest``. With
    /// ``perform(_:with:)``, the loop of ``run(with:)`` taken one action at a time (by a front end
    /// whose actions arrive as requests, such as ``EventExchange``).
    mutating func start(with renderer: inout some SurveyRenderer) {
        renderer.receive(.started(info))
        visit = 0
        lineParser = LineParser(survey: session.survey, locale: session.locale)
    }

    /// The request for the current unit; `nil` once the session is finished.
    var currentRequest: StepRequest? { StepRequest(session: session, visit: visit, lineParser: lineParser) }

    /// Applies one action to the session, records it, and tells the renderer what came of it.
    /// - Returns: how the session ended, when this action ended it.
    mutating func perform(_ action: RendererAction, with renderer: inout some SurveyRenderer) -> DriverOutcome? {
        switch action {
        case .answer(let stepID, let value):
            let before = undoPoint
            let unitBefore = session.currentUnitID
            do {
                let stored = try session.answer(value, for: stepID)
                guard commit(undoingTo: before, renderer: &renderer) else { return nil }
                renderer.receive(.answered(stepID: stepID, value: stored.isNull ? nil : stored))
                // A skip trigger moved the respondent on: another unit is entered.
                if session.currentUnitID != unitBefore { visit += 1 }
            } catch {
                if case .invalidAnswer(let stepError) = error {
                    renderer.receive(.validationFailed([stepError]))
                } else {
                    renderer.receive(.rejected(RendererError(error)))
                }
            }
        case .next:
            // The store says which quotas are full now; a Next that cannot know goes on without them.
            if !session.survey.definition.quotas.isEmpty { try? recorder?.prepareNext(of: &session) }
            let before = undoPoint
            switch session.next() {
            case .moved:
                if commit(undoingTo: before, renderer: &renderer) { visit += 1 }
            case .completed(var result):
                guard commit(undoingTo: before, renderer: &renderer) else { return nil }
                // Over a quota filled by others while this respondent finished: the quota's end.
                if result.quota == nil, let quota = recorder?.completionQuota {
                    result.quota = quota
                    result.message = quota.message
                    result.redirect = nil
                }
                renderer.receive(.completed(result))
                return .completed(result)
            case .blocked(let errors): renderer.receive(.validationFailed(errors))
            }
        case .back:
            let before = undoPoint
            do {
                try session.back()
                if commit(undoingTo: before, renderer: &renderer) { visit += 1 }
            } catch {
                renderer.receive(.rejected(RendererError(error)))
            }
        case .dismiss:
            let before = undoPoint
            session.dismiss()
            guard commit(undoingTo: before, renderer: &renderer) else { return nil }
            let state = session.state
            renderer.receive(.dismissed(state))
            return .dismissed(state)
        case .quit:
            let state = session.state
            var location: String?
            if let stateStore {
                do {
                    location = try stateStore.save(state)
                } catch {
                    renderer.receive(
                        .rejected(
                            RendererError(code: "saveFailed", message: "could not save the session: \(error)")))
                }
            }
            renderer.receive(.quit(state, location: location))
            return .quit(state, location: location)
        case .resume(let state):
            do {
                let resumed = try SurveySession(survey: session.survey, resuming: state)
                if recorder != nil {
                    do {
                        try recorder?.restart(with: resumed)
                    } catch {
                        renderer.receive(
                            .rejected(
                                RendererError(
                                    code: "storeFailed",
                                    message:
                                        "the resumed session could not be saved, so it was not resumed: \(error)"
                                )))
                        return nil
                    }
                }
                session = resumed
                lineParser = LineParser(survey: session.survey, locale: session.locale)
                isResumed = true
                visit += 1
                renderer.receive(.started(info))
            } catch {
                renderer.receive(.rejected(RendererError(error)))
            }
        }
        return nil
    }

    /// The renderer's action on the current unit; `nil` once the session is finished. The request
    /// (and its snapshot of the session) is gone when this returns, so the action that follows changes
    /// the session in place.
    func action(visit: Int, lineParser: LineParser, from renderer: inout some SurveyRenderer) -> RendererAction? {
        guard var request = StepRequest(session: session, visit: visit, lineParser: lineParser) else { return nil }
        let action = renderer.action(for: request)
        request.settle()
        return action
    }

    /// The session as it is before an action, to go back to when the recorder cannot store the
    /// action; `nil` without a recorder. Only then is it kept: a copy held across the action makes the
    /// session copy every list it changes (its answers, its action log), so each action would cost in
    /// proportion to the survey and to the run so far.
    var undoPoint: SurveySession? { recorder == nil ? nil : session }

    mutating func finish(with renderer: inout some SurveyRenderer) -> DriverOutcome {
        let state = session.state
        if session.status == .dismissed {
            renderer.receive(.dismissed(state))
            return .dismissed(state)
        }
        if session.status == .empty {
            renderer.receive(.empty(state))
            return .empty(state)
        }
        // Completed before any unit was shown (a resumed completed session).
        let result = session.completionResult()
        renderer.receive(.completed(result))
        return .completed(result)
    }

    var info: SessionInfo {
        let definition = session.survey.definition
        let context = PresentationContext(locale: session.locale, defaultLocale: definition.defaultLocale)
        return SessionInfo(
            surveyID: definition.id, surveyVersion: definition.version,
            title: session.pipe(context.text(definition.title)),
            description: definition.description.map { session.pipe(context.text($0)) }, locale: session.locale,
            seed: session.seed, isResumed: isResumed, strings: context.strings)
    }
}

/// How a driven session ended.
public enum DriverOutcome: Sendable, Hashable {
    /// The survey was completed.
    case completed(CompletionResult)
    /// The respondent dismissed the survey.
    case dismissed(SessionState)
    /// The respondent stopped; resume from the state (saved at `location` when a store was set).
    case quit(SessionState, location: String?)
    /// Nothing was visible at the start: the session ended without a completion (`SessionStatus/empty`).
    case empty(SessionState)

    /// The completion result, when the survey was completed.
    public var result: CompletionResult? {
        if case .completed(let result) = self { return result }
        return nil
    }
}

/// Somewhere to keep a session's state when the respondent quits.
public protocol SessionStateStore {
    /// Saves `state`.
    /// - Returns: a name for where it went (a file path), shown to the respondent.
    func save(_ state: SessionState) throws -> String
}

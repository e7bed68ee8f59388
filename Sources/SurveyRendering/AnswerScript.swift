import SurveyCore

/// Scripted answers for the headless test front end.
///
/// Either a map of step id → answer (each shown question with an entry is answered, then Next),
/// or an ordered list of commands (the JSON-event protocol's commands, `"next"`/`"back"` as short
/// strings) for scripts that go back or change answers:
///
/// ```json
/// { "rating": 4, "comment": "Great" }
/// { "actions": [ {"command": "answer", "stepId": "rating", "value": 2}, "next", "back",
///                {"command": "answer", "stepId": "rating", "value": 5}, "next" ] }
/// ```
public enum AnswerScript: Sendable, Hashable {
    /// Answer every shown question that has an entry, then go on.
    case answers([String: JSONValue])
    /// Carry out these actions in order.
    case actions([RendererAction])

    /// Reads a script from JSON.
    /// - Throws: ``RendererError`` with code `invalidScript` naming the bad entry.
    public init(json: JSONValue) throws(RendererError) {
        guard case .object(let members) = json else {
            throw RendererError(
                code: "invalidScript",
                message:
                    "an answer script must be a JSON object (step id → answer, or {\"actions\": [...]}), got \(json.kindDescription)"
            )
        }
        guard let actions = members["actions"], members.count == 1 else {
            self = .answers(members)
            return
        }
        guard case .array(let entries) = actions else {
            throw RendererError(
                code: "invalidScript",
                message: "'actions' must be an array of commands (e.g. [\"next\"]), got \(actions.kindDescription)")
        }
        var parsed: [RendererAction] = []
        for (index, entry) in entries.enumerated() {
            do {
                parsed.append(try EventProtocol.command(from: entry))
            } catch {
                throw RendererError(code: "invalidScript", message: "actions[\(index)]: \(error.message)")
            }
        }
        self = .actions(parsed)
    }

    /// Reads a script from JSON text.
    public init(text: String) throws(RendererError) {
        let json: JSONValue
        do {
            json = try JSONParser.parse(text)
        } catch {
            throw RendererError(code: "invalidJSON", message: "\(error.position): \(error.message)")
        }
        try self.init(json: json)
    }
}

/// The headless test front end: answers from an ``AnswerScript``, transcript as the JSON-event
/// protocol's events, and a ``failure`` when the script does not fit the survey.
///
/// The run fails when a shown required question has no scripted answer, a scripted answer is
/// invalid, an action is refused, or the script ends before the survey does.
public struct HeadlessRenderer: SurveyRenderer {
    /// The script being played.
    public let script: AnswerScript
    /// Why the run failed, once it did.
    public private(set) var failure: RendererError?
    /// The progress seen on each unit, in order.
    public private(set) var progressTrail: [ProgressMark] = []
    /// Every step shown at least once, in the order first shown.
    public private(set) var shownSteps: [String] = []
    var shownSet: Set<String> = []

    /// `nil` when nobody reads the events: building them is most of a headless run's work.
    var transcript: EventTranscript?
    private(set) var nextAction = 0
    var visit = -1
    var askedThisVisit: Set<String> = []
    var actionCount = 0
    /// Gives up after this many actions (a script that loops, e.g. through a backward jump); by default
    /// 100,000 or 20 per step of the survey, whichever is more, so large surveys are never cut short.
    public var actionLimit: Int?

    /// The default ``actionLimit`` for a survey of `steps` leaf steps.
    public static func defaultActionLimit(steps: Int) -> Int { max(100_000, 20 * (steps + 1)) }

    /// A renderer playing `script`, writing each event line to `output` (none: the events are not
    /// built at all).
    public init(script: AnswerScript, output: ((String) -> Void)? = nil) {
        self.script = script
        transcript = output.map { EventTranscript(write: $0) }
    }

    public mutating func action(for request: StepRequest) -> RendererAction {
        transcript?.show(request)
        let outline = request.outline
        for question in outline.questions where shownSet.insert(question.id).inserted {
            shownSteps.append(question.id)
        }
        if request.visit != visit {
            visit = request.visit
            askedThisVisit = []
            progressTrail.append(
                ProgressMark(
                    unitID: outline.unitID, current: outline.progress.current,
                    total: outline.progress.total, isCounted: outline.progress.isCounted))
        }
        guard failure == nil else { return .quit }
        actionCount += 1
        let actionLimit = self.actionLimit ?? Self.defaultActionLimit(steps: request.lineParser.stepCount)
        if actionCount > actionLimit {
            return fail(
                RendererError(
                    code: "scriptLoops",
                    message:
                        "the script did not finish the survey within \(actionLimit) actions (at '\(outline.unitID)')"
                ))
        }
        switch script {
        case .answers(let answers):
            for question in outline.questions where question.collectsAnswer {
                if askedThisVisit.insert(question.id).inserted, let value = answers[question.id] {
                    return .answer(stepID: question.id, value: value)
                }
                // Its comment box (`showCommentArea`), answered as `<id>-Comment`.
                if let key = question.commentKey, askedThisVisit.insert(key).inserted, let value = answers[key] {
                    return .answer(stepID: key, value: value)
                }
            }
            return .next
        case .actions(let actions):
            guard nextAction < actions.count else {
                return fail(
                    RendererError(
                        code: "scriptEnded",
                        message: "the script ended at '\(outline.unitID)' before the survey was completed",
                        stepID: outline.unitID))
            }
            nextAction += 1
            return actions[nextAction - 1]
        }
    }

    mutating func fail(_ error: RendererError) -> RendererAction {
        failure = error
        transcript?.emit(EventProtocol.json(of: error))
        return .quit
    }

    public mutating func receive(_ event: RendererEvent) {
        if failure != nil, case .quit = event { return }
        transcript?.record(event)
        guard failure == nil else { return }
        switch event {
        case .validationFailed(let errors):
            let lines = errors.map { error -> String in
                if error.error.code == "required" {
                    if case .answers = script {
                        return "step '\(error.stepID)' is required but the script has no answer for it"
                    }
                    return "step '\(error.stepID)' is required but was not answered before next"
                }
                if let validator = error.validator {
                    return
                        "the scripted answer for '\(error.stepID)' fails its '\(validator)' validator: \(error.message)"
                }
                return "the scripted answer for '\(error.stepID)' is invalid: \(error.message)"
            }
            failure = RendererError(
                code: "scriptFailed", message: lines.joined(separator: "; "), stepID: errors.first?.stepID)
        case .rejected(let error):
            failure = RendererError(
                code: error.code, message: "the script's action was refused: \(error.message)", stepID: error.stepID)
        default:
            break
        }
        if let failure { transcript?.emit(EventProtocol.json(of: failure)) }
    }
}

/// The progress shown on one unit.
public struct ProgressMark: Sendable, Hashable, CustomStringConvertible {
    /// The unit shown.
    public var unitID: String
    /// "Question `current` of `total`".
    public var current: Int
    public var total: Int
    /// Whether the unit counts as a question.
    public var isCounted: Bool

    /// Creates a mark.
    public init(unitID: String, current: Int, total: Int, isCounted: Bool = true) {
        self.unitID = unitID
        self.current = current
        self.total = total
        self.isCounted = isCounted
    }

    /// `unit 3/7`.
    public var description: String { "\(unitID) \(current)/\(total)" }
}

extension AnswerScript {
    /// The script with SurveyJS-style Other answers folded in: `{"pet": "other", "pet-Comment":
    /// "hamster"}` answers `pet` with the text `hamster` (in a multiple choice, the `"other"` element
    /// is replaced by it). Only for steps of `survey` with an Other choice, and only where no step is
    /// named `pet-Comment` itself.
    public func foldingOtherComments(for survey: Survey) -> AnswerScript {
        guard case .answers(var answers) = self else { return self }
        for key in answers.keys.sorted() where key.hasSuffix("-Comment") && survey.question(forStep: key) == nil {
            let base = String(key.dropLast(8))
            guard survey.hasOtherChoice(step: base), let text = answers[key]?.stringValue, let value = answers[base]
            else { continue }
            switch value {
            case .string(let chosen) where chosen.lowercased() == "other":
                answers[base] = .string(text)
            case .array(let elements) where elements.contains(where: { $0.stringValue?.lowercased() == "other" }):
                answers[base] = .array(elements.map { $0.stringValue?.lowercased() == "other" ? .string(text) : $0 })
            default:
                continue
            }
            answers[key] = nil
        }
        return .answers(answers)
    }
}

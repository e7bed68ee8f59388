/// Everything needed to resume a session exactly: the seed, the path, every stored answer
/// (including those kept from abandoned branches) and the action log.
///
/// Encodes to deterministic JSON (``jsonValue``) and decodes back; resuming rebuilds visibility
/// and progress from it, so a resumed session equals an uninterrupted one.
public struct SessionState: Sendable, Hashable {
    /// The state format version.
    public static let formatVersion = 1

    public var surveyID: String
    public var surveyVersion: String?
    public var seed: UInt64
    public var locale: String
    public var today: String
    public var status: SessionStatus
    /// Unit ids on the path, the current one last.
    public var path: [String]
    /// Every stored answer by step id.
    public var answers: [String: JSONValue]
    public var actions: [SessionAction]
    /// The values the host gave the survey's variables when the session started.
    public var variables: [String: JSONValue] = [:]
}

extension SurveySession {
    /// The session's complete state, for saving.
    public var state: SessionState {
        var stored: [String: JSONValue] = [:]
        for (index, value) in answers.enumerated() where !value.isNull { stored[survey.steps.ids[index]] = value }
        return SessionState(
            surveyID: survey.id, surveyVersion: survey.definition.version, seed: seed, locale: locale, today: today,
            status: status, path: pathIDs, answers: stored, actions: actions, variables: variables)
    }

    /// Resumes a saved session by replaying its actions through the session's own checks.
    ///
    /// Nothing in the state is taken on trust: every recorded answer is validated again by its
    /// question type, visibility and branches are recomputed, and the path and answers that result
    /// must be the ones the state holds. So a state file or a protocol `resume` cannot inject an answer
    /// that fails validation, a non-choice, or a path that skips a required question.
    /// - Throws: ``SessionError/incompatibleState(_:)`` when the state belongs to another survey or
    ///   version, is finished, or does not follow from its own actions.
    public init(survey: Survey, resuming state: SessionState) throws(SessionError) {
        guard state.surveyID == survey.id else {
            throw .incompatibleState("it belongs to survey '\(state.surveyID)', not '\(survey.id)'")
        }
        guard state.surveyVersion == survey.definition.version else {
            throw .incompatibleState(
                "it was saved on version \(state.surveyVersion.map { "'\($0)'" } ?? "(none)") of the survey, "
                    + "which is now \(survey.definition.version.map { "'\($0)'" } ?? "(none)")")
        }
        guard state.status == .inProgress else {
            throw .incompatibleState("the session is already \(state.status.rawValue) and cannot continue")
        }
        let declared = Set(survey.definition.variables.map(\.name))
        if let unknown = state.variables.keys.sorted().first(where: { !declared.contains($0) }) {
            throw .incompatibleState("it gives the variable '\(unknown)', which the survey does not declare")
        }
        self.init(
            survey: survey, seed: state.seed, locale: state.locale, today: state.today, variables: state.variables)
        for (number, action) in state.actions.enumerated() {
            let before = actionCount
            switch action {
            case .answer(let stepID, let value):
                do {
                    try answer(value, for: stepID)
                } catch {
                    // Logs written before only accepted actions were kept may hold refused answers;
                    // they changed nothing then and change nothing now.
                    if case .invalidAnswer = error { continue }
                    throw .incompatibleState("its action \(number + 1) (answer for '\(stepID)') is refused: \(error)")
                }
            case .next:
                if case .blocked(let errors) = next() {
                    if before == actionCount, !errors.isEmpty { continue }
                }
            case .back:
                do {
                    try back()
                } catch {
                    throw .incompatibleState("its action \(number + 1) (back) is refused: \(error)")
                }
            case .dismiss:
                throw .incompatibleState("its action \(number + 1) dismisses the survey, yet it is in progress")
            }
            if status != .inProgress {
                throw .incompatibleState(
                    "its actions finish the survey at action \(number + 1) of \(state.actions.count), yet it is in progress"
                )
            }
        }
        lastErrors = []
        if pathIDs != state.path {
            throw .incompatibleState(
                "its path \(state.path.joined(separator: " → ")) does not follow from its actions, which lead along "
                    + pathIDs.joined(separator: " → "))
        }
        let replayed = self.state.answers
        if replayed != state.answers {
            let keys = Set(replayed.keys).union(state.answers.keys).sorted()
            let first = keys.first { replayed[$0] != state.answers[$0] } ?? "?"
            throw .incompatibleState(
                "its answer for '\(first)' (\(state.answers[first].map { JSONWriter.string(from: $0) } ?? "none")) "
                    + "does not follow from its actions (\(replayed[first].map { JSONWriter.string(from: $0) } ?? "none"))"
            )
        }
    }
}

extension SessionState {
    /// The state as JSON.
    public var jsonValue: JSONValue {
        var members: [String: JSONValue] = [
            "stateVersion": .number(Double(Self.formatVersion)),
            "surveyId": .string(surveyID),
            "seed": .string(String(seed)),
            "locale": .string(locale),
            "today": .string(today),
            "status": .string(status.rawValue),
            "path": .array(path.map { .string($0) }),
            "answers": .object(answers),
            "actions": .array(actions.map(\.jsonValue)),
        ]
        if let surveyVersion { members["surveyVersion"] = .string(surveyVersion) }
        if !variables.isEmpty { members["variables"] = .object(variables) }
        return .object(members)
    }

    /// Reads a state from JSON.
    public init(json: JSONValue) throws(SurveyError) {
        var reader = try OptionsReader(json, path: .root)
        let version = try reader.int("stateVersion", default: 1)
        guard version == Self.formatVersion else {
            throw reader.error(
                "stateVersion", "unsupported session state version \(version)", kind: .unsupportedFormatVersion)
        }
        surveyID = try reader.string("surveyId")
        surveyVersion = try reader.optionalString("surveyVersion")
        let seedText = try reader.string("seed")
        guard let seed = UInt64(seedText) else {
            throw reader.error("seed", "'seed' must be a decimal string, got '\(seedText)'")
        }
        self.seed = seed
        locale = try reader.string("locale")
        today = try reader.string("today")
        guard CivilDate(exactly: today) != nil else {
            throw reader.error("today", "'today' must be a real date written YYYY-MM-DD, got '\(today)'")
        }
        let statusText = try reader.string(
            "status", default: "in-progress", oneOf: ["in-progress", "completed", "dismissed", "empty"])
        status = SessionStatus(rawValue: statusText) ?? .inProgress
        path = try reader.optionalStringArray("path") ?? []
        guard case .object(let stored) = reader.value("answers") ?? .object([:]) else {
            throw reader.error("answers", "'answers' must be an object")
        }
        answers = stored
        actions =
            try reader.optionalArray("actions") { (value, path) throws(SurveyError) in
                try SessionAction(json: value, path: path)
            } ?? []
        guard case .object(let given) = reader.value("variables") ?? .object([:]) else {
            throw reader.error("variables", "'variables' must be an object (variable name → value)")
        }
        variables = given
        try reader.finish()
    }
}

extension SessionAction {
    /// `{"action":"answer","stepId":…,"value":…}`, `{"action":"next"}`, `{"action":"back"}`, `{"action":"dismiss"}`.
    public var jsonValue: JSONValue {
        switch self {
        case .answer(let stepID, let value): return ["action": "answer", "stepId": .string(stepID), "value": value]
        case .next: return ["action": "next"]
        case .back: return ["action": "back"]
        case .dismiss: return ["action": "dismiss"]
        }
    }

    /// Reads an action from JSON.
    public init(json: JSONValue, path: JSONPath) throws(SurveyError) {
        // The shapes ``jsonValue`` writes, read directly (a replay reads many); anything else goes
        // through the reader, which names what is wrong.
        if case .object(let members) = json, case .string(let name)? = members["action"] {
            switch name {
            case "answer":
                if case .string(let stepID)? = members["stepId"], members.count == (members["value"] == nil ? 2 : 3) {
                    self = .answer(stepID: stepID, value: members["value"] ?? .null)
                    return
                }
            case "next" where members.count == 1:
                self = .next
                return
            case "back" where members.count == 1:
                self = .back
                return
            case "dismiss" where members.count == 1:
                self = .dismiss
                return
            default: break
            }
        }
        var reader = try OptionsReader(json, path: path)
        switch try reader.string("action", default: "", oneOf: ["answer", "next", "back", "dismiss"]) {
        case "answer":
            self = .answer(stepID: try reader.string("stepId"), value: reader.value("value") ?? .null)
        case "back": self = .back
        case "dismiss": self = .dismiss
        default: self = .next
        }
        try reader.finish()
    }
}

extension SurveySession {
    /// Replays recorded actions on a fresh session; the same survey, seed and actions give the same state.
    public static func replay(
        survey: Survey, seed: UInt64, locale: String? = nil, today: String? = nil, actions: [SessionAction]
    ) -> SurveySession {
        var session = SurveySession(survey: survey, seed: seed, locale: locale, today: today)
        for action in actions { session.apply(action) }
        return session
    }

    /// Carries out one recorded action as the respondent did.
    /// - Returns: whether the session accepted it (it is then the last entry of ``actions``, unless it
    ///   was a Next that undid the Back before it: then both left the log; an answer that replaced
    ///   the answer just given to its step takes that one's entry).
    @discardableResult
    public mutating func apply(_ action: SessionAction) -> Bool {
        let edits = logEdits
        switch action {
        case .answer(let stepID, let value): _ = try? answer(value, for: stepID)
        case .next: next()
        case .back: try? back()
        case .dismiss: dismiss()
        }
        return logEdits != edits
    }
}

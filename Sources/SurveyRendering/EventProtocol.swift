import SurveyCore

/// The JSON Lines protocol spoken by the JSON-event front end and printed by the headless test
/// front end: one JSON object per line, events out, commands in. See `docs/json-event-protocol.md`.
public enum EventProtocol {
    /// The protocol version, sent as `"protocol"` in the `started` event. Commands may carry
    /// `"protocol"` too; any other version is refused with an `unsupportedProtocol` error.
    public static let version = 1

    /// The error for a command line longer than `limit` bytes (code `lineTooLong`); the line was
    /// dropped and the session goes on.
    public static func lineTooLong(byteCount: Int, limit: Int) -> RendererError {
        RendererError(
            code: "lineTooLong",
            message:
                "the line is \(byteCount) bytes, longer than the limit of \(limit >> 20) MiB (\(limit) bytes) "
                + "per line; it was ignored")
    }

    /// The `failed` event: the run ended early, before or instead of `completed`, `dismissed` or
    /// `quit` (the survey could not be loaded, the response store could not be opened, a file named on
    /// the command line cannot be used). `message` is the one written to stderr; `exitCode` is the
    /// process's exit status, which follows.
    ///
    /// ```json
    /// {"event":"failed","code":"surveyNotLoaded","exitCode":1,"message":"survey.json:3:7: …"}
    /// ```
    public static func failed(code: String, message: String, exitCode: Int32) -> JSONValue {
        .object([
            "event": .string("failed"), "code": .string(code), "message": .string(message),
            "exitCode": .number(Double(exitCode)),
        ])
    }

    /// Reads one command line.
    /// - Throws: ``RendererError`` with code `invalidJSON`, `notAnObject`, `missingCommand`,
    ///   `unknownCommand`, `unsupportedProtocol`, `missingField`, `wrongType` or `invalidState`.
    public static func command(fromLine line: String) throws(RendererError) -> RendererAction {
        let json: JSONValue
        do {
            json = try JSONParser.parse(line)
        } catch {
            throw RendererError(code: "invalidJSON", message: "invalid JSON at \(error.position): \(error.message)")
        }
        return try command(from: json)
    }

    /// Reads one command value: `{"command": "answer", "stepId": …, "value": …}`, `{"command": "next"}`,
    /// `back`, `dismiss`, `quit`, or `{"command": "resume", "state": {…}}`. A bare string
    /// (`"next"`) stands for a command without members.
    public static func command(from json: JSONValue) throws(RendererError) -> RendererAction {
        var members: [String: JSONValue]
        switch json {
        case .object(let object): members = object
        case .string(let name): members = ["command": .string(name)]
        default:
            throw RendererError(
                code: "notAnObject", message: "a command must be a JSON object, got \(json.kindDescription)")
        }
        if let version = members.removeValue(forKey: "protocol"), version.intValue != EventProtocol.version {
            throw RendererError(
                code: "unsupportedProtocol",
                message:
                    "protocol version \(version) is not supported; this engine speaks version \(EventProtocol.version)")
        }
        guard let nameValue = members.removeValue(forKey: "command") else {
            throw RendererError(code: "missingCommand", message: "a command needs a \"command\" member")
        }
        guard let name = nameValue.stringValue else {
            throw RendererError(
                code: "wrongType", message: "\"command\" must be a string, got \(nameValue.kindDescription)")
        }
        let action: RendererAction
        switch name {
        case "answer":
            guard let stepValue = members.removeValue(forKey: "stepId") else {
                throw RendererError(code: "missingField", message: "the answer command needs \"stepId\"")
            }
            guard let stepID = stepValue.stringValue else {
                throw RendererError(
                    code: "wrongType", message: "\"stepId\" must be a string, got \(stepValue.kindDescription)")
            }
            guard let value = members.removeValue(forKey: "value") else {
                throw RendererError(
                    code: "missingField", message: "the answer command needs \"value\" (null clears the answer)",
                    stepID: stepID)
            }
            action = .answer(stepID: stepID, value: value)
        case "next": action = .next
        case "back": action = .back
        case "dismiss": action = .dismiss
        case "quit": action = .quit
        case "resume":
            guard let stateValue = members.removeValue(forKey: "state") else {
                throw RendererError(code: "missingField", message: "the resume command needs \"state\"")
            }
            do {
                action = .resume(try SessionState(json: stateValue))
            } catch {
                throw RendererError(code: "invalidState", message: "the state cannot be read: \(error)")
            }
        default:
            throw RendererError(
                code: "unknownCommand",
                message: "unknown command '\(name)'; expected answer, next, back, dismiss, quit or resume")
        }
        if let extra = members.keys.sorted().first {
            throw RendererError(code: "unknownField", message: "unknown member '\(extra)' in the \(name) command")
        }
        return action
    }

    /// The JSON of one command, as a client sends it.
    public static func json(of action: RendererAction) -> JSONValue {
        switch action {
        case .answer(let stepID, let value): return ["command": "answer", "stepId": .string(stepID), "value": value]
        case .next: return ["command": "next"]
        case .back: return ["command": "back"]
        case .dismiss: return ["command": "dismiss"]
        case .quit: return ["command": "quit"]
        case .resume(let state): return ["command": "resume", "state": state.jsonValue]
        }
    }

    /// The JSON of a renderer event.
    public static func json(of event: RendererEvent) -> JSONValue {
        switch event {
        case .started(let info):
            var members: [String: JSONValue] = [
                "event": "started", "protocol": .number(Double(version)), "surveyId": .string(info.surveyID),
                "title": .string(info.title), "locale": .string(info.locale), "seed": .string(String(info.seed)),
                "resumed": .bool(info.isResumed),
                "strings": .object((UIStrings.catalogue(for: info.strings.locale) ?? [:]).mapValues(JSONValue.string)),
            ]
            if let version = info.surveyVersion { members["surveyVersion"] = .string(version) }
            if let description = info.description { members["description"] = .string(description) }
            return .object(members)
        case .answered(let stepID, let value):
            return ["event": "answered", "stepId": .string(stepID), "value": value ?? .null]
        case .validationFailed(let errors):
            return ["event": "validation-error", "errors": .array(errors.map(\.eventJSON))]
        case .rejected(let error):
            return json(of: error)
        case .completed(let result):
            var members = result.jsonValue.objectValue ?? [:]
            members["event"] = "completed"
            if let quota = result.quota {
                // Over a full quota: the survey ended with the quota's message, not completed.
                members["event"] = "ended"
                members["reason"] = "quota"
                members["quota"] = quota.jsonValue
            }
            return .object(members)
        case .dismissed(let state):
            return ["event": "dismissed", "state": state.jsonValue]
        case .empty(let state):
            return ["event": "empty", "state": state.jsonValue]
        case .quit(let state, let location):
            var members: [String: JSONValue] = ["event": "quit", "state": state.jsonValue]
            if let location { members["stateFile"] = .string(location) }
            return .object(members)
        }
    }

    /// The JSON of an `error` event.
    public static func json(of error: RendererError) -> JSONValue {
        var members: [String: JSONValue] = [
            "event": "error", "code": .string(error.code), "message": .string(error.message),
        ]
        if let stepID = error.stepID { members["stepId"] = .string(stepID) }
        return .object(members)
    }

    /// The `step` event for a presentation; `visit` changes whenever another unit is entered.
    public static func stepEvent(_ presentation: StepPresentation, visit: Int) -> JSONValue {
        ["event": "step", "visit": .number(Double(visit)), "step": presentation.eventJSON]
    }

    /// The `progress` event for a presentation.
    public static func progressEvent(_ presentation: StepPresentation) -> JSONValue {
        var members = presentation.progress.eventJSON(strings: presentation.strings).objectValue ?? [:]
        members["event"] = "progress"
        members["unitId"] = .string(presentation.unitID)
        return .object(members)
    }

    /// One line of output: compact JSON with sorted keys.
    public static func line(_ value: JSONValue) -> String {
        JSONWriter.string(from: value, pretty: false)
    }
}

/// Writes the event stream of one session, deciding when `step` and `progress` are sent:
/// `step` whenever a unit is entered or what it shows changes, `progress` after each `step` and
/// whenever it changes.
struct EventTranscript {
    let write: (JSONValue) -> Void
    var lastVisit = -1
    var lastShown: StepPresentation?
    var lastProgress: Progress?
    /// The answers the last `step` event showed, and the step the respondent answered since.
    var lastAnswers: [String: JSONValue] = [:]
    var justAnswered: String?

    /// A transcript writing each event as one line.
    init(write: @escaping (String) -> Void) {
        self.write = { write(EventProtocol.line($0)) }
    }

    /// A transcript handing over each event as a value.
    init(values: @escaping (JSONValue) -> Void) {
        write = values
    }

    mutating func show(_ request: StepRequest) {
        let shown = request.presentation.shownContent
        var answers: [String: JSONValue] = [:]
        for question in request.presentation.questions { answers[question.id] = question.answer }
        // An answer other than the one just given changed (a trigger set it): show the unit again.
        var othersChanged = false
        for (id, value) in answers where id != justAnswered && lastAnswers[id] != value { othersChanged = true }
        for id in lastAnswers.keys where id != justAnswered && answers[id] == nil { othersChanged = true }
        justAnswered = nil
        var isNewStep = false
        if request.visit != lastVisit || shown != lastShown || othersChanged {
            lastVisit = request.visit
            lastShown = shown
            isNewStep = true
            emit(EventProtocol.stepEvent(request.presentation, visit: request.visit))
        }
        lastAnswers = answers
        if isNewStep || request.presentation.progress != lastProgress {
            lastProgress = request.presentation.progress
            emit(EventProtocol.progressEvent(request.presentation))
        }
    }

    mutating func record(_ event: RendererEvent) {
        if case .started = event {
            lastVisit = -1
            lastShown = nil
            lastProgress = nil
            lastAnswers = [:]
        }
        if case .answered(let key, _) = event {
            // An entry (`kids[1]`) was answered: its step's answer changed.
            justAnswered = key.hasSuffix("]") ? key.lastIndex(of: "[").map { String(key[..<$0]) } ?? key : key
        }
        emit(EventProtocol.json(of: event))
    }

    func emit(_ value: JSONValue) {
        write(value)
    }
}

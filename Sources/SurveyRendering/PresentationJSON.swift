import SurveyCore

// JSON forms of the presentation values, as sent in `step` events. Input primitives use
// SurveyCore's own JSON form (`InputPrimitive.jsonValue`), shared with the plugin ABI.

extension StepError {
    /// `{"stepId", "code", "message", "field"?, "arguments"?, "validator"?, "severity"?}`.
    var eventJSON: JSONValue {
        var members: [String: JSONValue] = [
            "stepId": .string(stepID), "code": .string(error.code), "message": .string(message),
        ]
        if let field = error.field { members["field"] = .string(field) }
        if let validator { members["validator"] = .string(validator) }
        if severity != .error { members["severity"] = .string(severity.rawValue) }
        if !error.arguments.isEmpty { members["arguments"] = .object(error.arguments.mapValues(JSONValue.string)) }
        return .object(members)
    }
}

extension Progress {
    /// `{"current", "total", "isCounted", "text"}`, the text in the given strings' locale.
    func eventJSON(strings: UIStrings) -> JSONValue {
        [
            "current": .number(Double(current)), "total": .number(Double(total)), "isCounted": .bool(isCounted),
            "text": .string(strings.format(.progress, ["current": String(current), "total": String(total)])),
        ]
    }
}

extension QuestionPresentation {
    var eventJSON: JSONValue {
        var members: [String: JSONValue] = [
            "id": .string(id), "type": .string(typeID), "title": .string(title), "required": .bool(isRequired),
            "collectsAnswer": .bool(collectsAnswer), "input": input.jsonValue,
        ]
        if let description { members["description"] = .string(description) }
        if let answer { members["answer"] = answer }
        if isReadOnly { members["readOnly"] = true }
        if let panel { members["panel"] = .string(panel) }
        if !notices.isEmpty { members["notices"] = .array(notices.map(\.eventJSON)) }
        if let commentArea {
            var area: [String: JSONValue] = ["label": .string(commentArea.label), "key": .string(commentArea.key)]
            if let text = commentArea.text { area["text"] = .string(text) }
            members["commentArea"] = .object(area)
        }
        if let error { members["error"] = error.eventJSON }
        if let content, content.body != nil || content.media != nil { members["content"] = content.jsonValue }
        return .object(members)
    }
}

extension StepPresentation {
    /// The full presentation value of a `step` event.
    var eventJSON: JSONValue {
        var members: [String: JSONValue] = [
            "unitId": .string(unitID), "isPage": .bool(isPage), "questions": .array(questions.map(\.eventJSON)),
            "progress": progress.eventJSON(strings: strings), "canGoBack": .bool(canGoBack),
            "isLastStep": .bool(isLastStep), "errors": .array(errors.map(\.eventJSON)), "locale": .string(locale),
        ]
        if let title { members["title"] = .string(title) }
        if let description { members["description"] = .string(description) }
        if !panels.isEmpty { members["panels"] = .array(panels.map(\.eventJSON)) }
        return .object(members)
    }

    /// What is shown, without answers and errors: a change means the `step` event is sent again.
    var shownContent: StepPresentation {
        var copy = self
        copy.errors = []
        copy.progress = Progress(current: 0, total: 0, isCounted: false)
        copy.panels = panels.map { panel in
            var panel = panel
            panel.error = nil
            return panel
        }
        copy.questions = questions.map { question in
            var question = question
            question.answer = nil
            question.error = nil
            return question
        }
        return copy
    }
}

extension PanelPresentation {
    /// `{"id", "parent"?, "title"?, "description"?, "required", "error"?}`.
    var eventJSON: JSONValue {
        var members: [String: JSONValue] = ["id": .string(id), "required": .bool(isRequired)]
        if let parent { members["parent"] = .string(parent) }
        if let title { members["title"] = .string(title) }
        if let description { members["description"] = .string(description) }
        if let error { members["error"] = error.eventJSON }
        return .object(members)
    }
}

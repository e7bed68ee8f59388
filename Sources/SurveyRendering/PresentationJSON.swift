import SurveyCore

// JSON forms of the presentation values, as sent in `step` events.
//
// `InputPrimitive.eventJSON` follows the shape SurveyCore's own JSON form of input primitives
// uses; once that lands in SurveyCore this helper can forward to it.

extension InputPrimitive {
    /// `{"kind": "single-choice", "choices": [...], ...}`; absent optional members are left out.
    var eventJSON: JSONValue {
        var members: [String: JSONValue] = ["kind": .string(kindName)]
        switch self {
        case .none:
            break
        case .freeText(let input):
            members["multiline"] = .bool(input.isMultiline)
            members["minLength"] = input.minimumLength.map { .number(Double($0)) }
            members["maxLength"] = input.maximumLength.map { .number(Double($0)) }
            members["placeholder"] = input.placeholder.map(JSONValue.string)
            members["presentation"] = input.presentation.map(JSONValue.string)
        case .singleChoice(let input), .multipleChoice(let input):
            members["choices"] = .array(input.choices.map(\.eventJSON))
            members["minSelections"] = input.minimumSelections.map { .number(Double($0)) }
            members["maxSelections"] = input.maximumSelections.map { .number(Double($0)) }
            members["shuffle"] = .bool(input.isShuffled)
            members["ordered"] = .bool(input.isOrdered)
            members["presentation"] = input.presentation.map(JSONValue.string)
        case .number(let input):
            members["min"] = input.minimum.map(JSONValue.number)
            members["max"] = input.maximum.map(JSONValue.number)
            members["step"] = input.step.map(JSONValue.number)
            members["integer"] = .bool(input.isInteger)
            members["minLabel"] = input.minimumLabel.map(JSONValue.string)
            members["maxLabel"] = input.maximumLabel.map(JSONValue.string)
            members["presentation"] = input.presentation.map(JSONValue.string)
        case .boolean(let input):
            members["trueLabel"] = .string(input.trueLabel)
            members["falseLabel"] = .string(input.falseLabel)
            members["presentation"] = input.presentation.map(JSONValue.string)
        case .date(let input):
            members["earliest"] = input.earliest.map(JSONValue.string)
            members["latest"] = input.latest.map(JSONValue.string)
        case .composite(let input):
            members["fields"] = .array(
                input.fields.map { field in
                    [
                        "name": .string(field.name), "label": .string(field.label), "required": .bool(field.isRequired),
                        "input": field.input.eventJSON,
                    ]
                })
            members["presentation"] = input.presentation.map(JSONValue.string)
        case .fileReference(let input):
            members["formats"] = .array(input.allowedFormats.map(JSONValue.string))
            members["maxDurationSeconds"] = input.maximumDurationSeconds.map(JSONValue.number)
            members["presentation"] = input.presentation.map(JSONValue.string)
        }
        return .object(members.compactMapValues { $0 })
    }
}

extension Choice {
    var eventJSON: JSONValue {
        var members: [String: JSONValue] = ["value": .string(value), "label": .string(label), "isOther": .bool(isOther)]
        if let iconName { members["icon"] = .string(iconName) }
        if let visibleIf { members["visibleIf"] = .string(visibleIf) }
        return .object(members)
    }
}

extension StepError {
    /// `{"stepId", "code", "message", "field"?, "arguments"?}`.
    var eventJSON: JSONValue {
        var members: [String: JSONValue] = [
            "stepId": .string(stepID), "code": .string(error.code), "message": .string(message),
        ]
        if let field = error.field { members["field"] = .string(field) }
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
            "collectsAnswer": .bool(collectsAnswer), "input": input.eventJSON,
        ]
        if let description { members["description"] = .string(description) }
        if let answer { members["answer"] = answer }
        if let error { members["error"] = error.eventJSON }
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
        return .object(members)
    }

    /// What is shown, without answers and errors: a change means the `step` event is sent again.
    var shownContent: StepPresentation {
        var copy = self
        copy.errors = []
        copy.progress = Progress(current: 0, total: 0, isCounted: false)
        copy.questions = questions.map { question in
            var question = question
            question.answer = nil
            question.error = nil
            return question
        }
        return copy
    }
}

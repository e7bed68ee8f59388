// Encoding: SurveyDefinition → JSON, deterministic (sorted keys), so a load/save round trip is
// byte-stable.

extension SurveyDefinition {
    /// The definition as JSON, omitting members that have their default value.
    public var jsonValue: JSONValue {
        var members: [String: JSONValue] = [
            "formatVersion": .number(Double(formatVersion)),
            "id": .string(id),
            "title": title.jsonValue,
            "defaultLocale": .string(defaultLocale),
            "steps": .array(steps.map(\.jsonValue)),
        ]
        if let version { members["version"] = .string(version) }
        if let schema { members["$schema"] = .string(schema) }
        for (key, value) in extensions { members[key] = value }
        if let description { members["description"] = description.jsonValue }
        if let locales { members["locales"] = .array(locales.map { .string($0) }) }
        if settings != SurveySettings() {
            var settingsMembers: [String: JSONValue] = [
                "progressCountsContent": .bool(settings.progressCountsContent)
            ]
            if settings.askAgain != .never { settingsMembers["askAgain"] = .string(settings.askAgain.description) }
            if settings.clearInvisibleValues != .onComplete {
                settingsMembers["clearInvisibleValues"] = .string(settings.clearInvisibleValues.rawValue)
            }
            Targeting.write(settings, to: &settingsMembers)
            members["settings"] = .object(settingsMembers)
        }
        if !calculatedValues.isEmpty {
            members["calculatedValues"] = .array(
                calculatedValues.map { value in
                    var members: [String: JSONValue] = [
                        "name": .string(value.name), "expression": .string(value.expression),
                    ]
                    if value.includeIntoResult { members["includeIntoResult"] = .bool(true) }
                    return .object(members)
                })
        }
        if !triggers.isEmpty { members["triggers"] = .array(triggers.map(\.jsonValue)) }
        if !variables.isEmpty {
            members["variables"] = .array(
                variables.map { variable in
                    var members: [String: JSONValue] = ["name": .string(variable.name)]
                    if let value = variable.defaultValue { members["default"] = value }
                    return .object(members)
                })
        }
        if !completionMessages.isEmpty {
            members["completionMessages"] = .array(
                completionMessages.map { message in
                    var members: [String: JSONValue] = ["text": message.text.jsonValue]
                    if let condition = message.condition { members["if"] = .string(condition) }
                    return .object(members)
                })
        }
        if !completionRedirects.isEmpty {
            members["completionRedirects"] = .array(
                completionRedirects.map { redirect in
                    var members: [String: JSONValue] = ["url": .string(redirect.url)]
                    if let condition = redirect.condition { members["if"] = .string(condition) }
                    return .object(members)
                })
        }
        if !quotas.isEmpty { members["quotas"] = .array(quotas.map(\.jsonValue)) }
        return .object(members)
    }

    /// Pretty, deterministic JSON text (sorted keys, two-space indent, trailing newline).
    public func jsonText() -> String {
        JSONWriter.string(from: jsonValue, pretty: true) + "\n"
    }
}

extension StepDefinition {
    /// The step as JSON, omitting members that have their default value.
    public var jsonValue: JSONValue {
        var members: [String: JSONValue] = ["id": .string(id), "type": .string(type)]
        if let title { members["title"] = title.jsonValue }
        if let description { members["description"] = description.jsonValue }
        if isRequired { members["required"] = .bool(true) }
        if !isEnabled { members["enabled"] = .bool(false) }
        if let visibleIf { members["visibleIf"] = .string(visibleIf) }
        if let requiredIf { members["requiredIf"] = .string(requiredIf) }
        if !branches.isEmpty {
            members["branches"] = .array(
                branches.map { rule in
                    var rule_: [String: JSONValue] = [:]
                    if let condition = rule.condition { rule_["if"] = .string(condition) }
                    switch rule.target {
                    case .step(let id): rule_["goto"] = .string(id)
                    case .complete: rule_["complete"] = .bool(true)
                    }
                    return .object(rule_)
                })
        }
        if let options = options.objectValue, !options.isEmpty { members["options"] = .object(options) }
        if !tags.isEmpty { members["tags"] = .array(tags.map { .string($0) }) }
        if !validators.isEmpty { members["validators"] = .array(validators.map(\.jsonValue)) }
        if isPage {
            members["steps"] = .array(encodedChildren())
            if isShuffled { members["shuffle"] = .bool(true) }
        }
        if let defaultValue { members["defaultValue"] = defaultValue }
        if isReadOnly { members["readOnly"] = .bool(true) }
        if let choicesFromQuestion { members["choicesFromQuestion"] = .string(choicesFromQuestion) }
        if let choicesFromQuestionMode { members["choicesFromQuestionMode"] = .string(choicesFromQuestionMode) }
        if let choicesVisibleIf { members["choicesVisibleIf"] = .string(choicesVisibleIf) }
        if let enableIf { members["enableIf"] = .string(enableIf) }
        if let defaultValueExpression { members["defaultValueExpression"] = .string(defaultValueExpression) }
        if let setValueIf { members["setValueIf"] = .string(setValueIf) }
        if let setValueExpression { members["setValueExpression"] = .string(setValueExpression) }
        if let resetValueIf { members["resetValueIf"] = .string(resetValueIf) }
        if showCommentArea { members["showCommentArea"] = .bool(true) }
        if let commentText { members["commentText"] = commentText.jsonValue }
        if let requiredMessage { members["requiredMessage"] = requiredMessage.jsonValue }
        return .object(members)
    }
}

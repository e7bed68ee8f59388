/// Where a step sits in a survey file: `$.steps[unit]` or `$.steps[unit].steps[child]`.
struct StepLocation {
    var unit: Int
    /// Position inside its page, or -1 for a top-level step.
    var child: Int

    var path: JSONPath {
        child < 0
            ? JSONPath([.key("steps"), .index(unit)])
            : JSONPath([.key("steps"), .index(unit), .key("steps"), .index(child)])
    }

    func child(_ index: Int) -> StepLocation { StepLocation(unit: unit, child: index) }
}

/// Builds one ``StepDefinition`` from its members, one member at a time, so that the same rules
/// serve a parsed JSON object and the streaming decoder (which never builds the object).
struct StepBuilder {
    static let memberNames = [
        "id", "type", "title", "description", "required", "enabled", "visibleIf", "requiredIf", "branches", "options",
        "tags", "steps", "shuffle", "defaultValue", "defaultValueExpression", "readOnly", "enableIf",
        "choicesFromQuestion", "choicesFromQuestionMode", "validators",
    ]

    let location: StepLocation
    let allowsPages: Bool
    var step = StepDefinition(id: "", type: "")
    var errors: [SurveyError] = []
    /// For pages: the position in the file of each kept child (children with problems are left out).
    var childSourceIndices: [Int] = []
    private var hasID = false
    private var hasType = false
    private var hasShuffle = false
    /// The `steps` member as JSON (decoded at the end, once the type is known).
    private var childrenJSON: JSONValue?
    /// Children already decoded by the streaming decoder.
    private var streamedChildren: [StepDefinition]?
    private var streamedChildCount = 0

    init(location: StepLocation, allowsPages: Bool) {
        self.location = location
        self.allowsPages = allowsPages
    }

    private mutating func fail(_ key: String?, _ message: String, kind: SurveyError.Kind = .invalidValue) {
        errors.append(SurveyError(kind, message, path: key.map { location.path.appending($0) } ?? location.path))
    }

    private mutating func mismatch(_ key: String, _ expected: String, _ value: JSONValue) {
        fail(key, "'\(key)' must be \(expected), got \(value.kindDescription)")
    }

    /// Whether `key` is a member a step may have (the streaming decoder rejects repeats of these).
    static func memberIndex(_ key: String) -> Int? {
        memberNames.firstIndex(of: key)
    }

    /// Applies one member.
    mutating func apply(_ key: String, _ value: JSONValue) {
        switch key {
        case "id":
            guard case .string(let id) = value else { return mismatch(key, "a string", value) }
            if id.isEmpty { fail(key, "a step id must not be empty") }
            step.id = id
            hasID = true
        case "type":
            guard case .string(let type) = value else { return mismatch(key, "a string", value) }
            step.type = type
            hasType = true
        case "title", "description":
            if value.isNull { return }
            do {
                let text = try LocalizedText(json: value, path: location.path.appending(key))
                if key == "title" { step.title = text } else { step.description = text }
            } catch {
                errors.append(error)
            }
        case "required", "enabled", "shuffle", "readOnly":
            if key == "shuffle" { hasShuffle = true }
            if value.isNull { return }
            guard case .bool(let flag) = value else { return mismatch(key, "true or false", value) }
            switch key {
            case "required": step.isRequired = flag
            case "enabled": step.isEnabled = flag
            case "readOnly": step.isReadOnly = flag
            default: step.isShuffled = flag
            }
        case "visibleIf", "requiredIf", "defaultValueExpression", "enableIf":
            if value.isNull { return }
            guard case .string(let expression) = value else { return mismatch(key, "a string (an expression)", value) }
            switch key {
            case "visibleIf": step.visibleIf = expression
            case "requiredIf": step.requiredIf = expression
            case "enableIf": step.enableIf = expression
            default: step.defaultValueExpression = expression
            }
        case "defaultValue":
            if value.isNull { return }
            step.defaultValue = value
        case "choicesFromQuestion":
            if value.isNull { return }
            guard case .string(let source) = value else { return mismatch(key, "a step id", value) }
            step.choicesFromQuestion = source
        case "choicesFromQuestionMode":
            if value.isNull { return }
            guard case .string(let mode) = value, ["all", "selected", "unselected"].contains(mode) else {
                return fail(
                    key, "'choicesFromQuestionMode' must be \"all\", \"selected\" or \"unselected\", got \(value)")
            }
            step.choicesFromQuestionMode = mode
        case "tags":
            guard case .array(let elements) = value, elements.allSatisfy({ $0.stringValue != nil }) else {
                if !value.isNull { mismatch(key, "an array of strings", value) }
                return
            }
            step.tags = elements.compactMap(\.stringValue)
        case "options":
            if value.isNull { return }
            guard case .object = value else { return mismatch(key, "an object", value) }
            step.options = value
        case "branches":
            if value.isNull { return }
            guard case .array(let elements) = value else { return mismatch(key, "an array", value) }
            for (offset, element) in elements.enumerated() {
                do {
                    step.branches.append(
                        try StepDefinition.decodeBranch(
                            element, path: location.path.appending(key).appending(offset), stepID: nil))
                } catch {
                    errors.append(error)
                }
            }
        case "steps":
            childrenJSON = value
        case "validators":
            if value.isNull { return }
            step.validators = ValidatorDefinition.decodeList(value, path: location.path.appending(key), errors: &errors)
        default:
            var message = "unknown member '\(key)'"
            if let suggestion = closestMatch(to: key, in: Self.memberNames) {
                message += " (did you mean '\(suggestion)'?)"
            }
            fail(key, message, kind: .unknownField)
        }
    }

    /// Children decoded elsewhere (by the streaming decoder), with their problems.
    mutating func setChildren(_ children: [StepDefinition], count: Int, errors childErrors: [SurveyError]) {
        streamedChildren = children
        streamedChildCount = count
        errors += childErrors
    }

    /// The step, or `nil` when it has problems (appended to `allErrors`, with the step id).
    mutating func finish(into allErrors: inout [SurveyError]) -> StepDefinition? {
        if !hasID { fail(nil, "missing required member 'id' (a string)", kind: .missingField) }
        if !hasType { fail(nil, "missing required member 'type' (a string)", kind: .missingField) }
        let hasChildren = childrenJSON != nil || streamedChildren != nil
        if step.isPage {
            if !allowsPages { fail("type", "pages cannot be nested inside pages") }
            if let streamedChildren {
                step.steps = streamedChildren
                if streamedChildCount == 0 { fail("steps", "a page needs at least one step") }
            } else if let childrenJSON {
                if case .array(let elements) = childrenJSON {
                    for (index, element) in elements.enumerated() {
                        if let child = StepDefinition.decode(
                            element, location: location.child(index), allowsPages: false, errors: &errors)
                        {
                            step.steps.append(child)
                            childSourceIndices.append(index)
                        }
                    }
                    if elements.isEmpty { fail("steps", "a page needs at least one step") }
                } else {
                    mismatch("steps", "an array", childrenJSON)
                }
            } else {
                fail(nil, "a page needs 'steps' (an array of steps)", kind: .missingField)
            }
        } else {
            if hasChildren { fail("steps", "only pages (\"type\": \"page\") have 'steps'") }
            if hasShuffle {
                fail(
                    "shuffle", "only pages (\"type\": \"page\") have 'shuffle'; choice questions take 'options.shuffle'"
                )
            }
        }
        guard errors.isEmpty else {
            let stepID = hasID ? step.id : nil
            if errors.count > 1 {
                errors.sort { ($0.path?.description ?? "") < ($1.path?.description ?? "") }
            }
            for index in errors.indices where errors[index].stepID == nil { errors[index].stepID = stepID }
            allErrors += errors
            // A question whose only problems are misspelt or mistyped members (left at their defaults)
            // still goes to the compiler, so its options and expressions are checked in the same run
            // instead of being hidden until the first problems are fixed.
            let isStillCheckable =
                hasID && hasType && !step.isPage
                && errors.allSatisfy { $0.kind == .unknownField || $0.kind == .invalidValue }
            return isStillCheckable ? step : nil
        }
        return step
    }
}

extension StepDefinition {
    /// Decodes one step from parsed JSON.
    static func decode(
        _ json: JSONValue, location: StepLocation, allowsPages: Bool, errors: inout [SurveyError]
    ) -> StepDefinition? {
        decodeWithChildIndices(json, location: location, allowsPages: allowsPages, errors: &errors).step
    }

    /// Decodes one step; for a page, also the file positions of the children that were kept.
    static func decodeWithChildIndices(
        _ json: JSONValue, location: StepLocation, allowsPages: Bool, errors: inout [SurveyError]
    ) -> (step: StepDefinition?, childSourceIndices: [Int]) {
        guard case .object(let members) = json else {
            errors.append(
                SurveyError(
                    .invalidValue, "a step must be a JSON object, got \(json.kindDescription)", path: location.path))
            return (nil, [])
        }
        var builder = StepBuilder(location: location, allowsPages: allowsPages)
        for (key, value) in members { builder.apply(key, value) }
        let step = builder.finish(into: &errors)
        return (step, builder.childSourceIndices)
    }

    static func decodeBranch(_ value: JSONValue, path: JSONPath, stepID: String?) throws(SurveyError) -> BranchRule {
        var rule = try OptionsReader(value, path: path, stepID: stepID)
        let condition = try rule.optionalString("if")
        let target = try rule.optionalString("goto")
        let complete = try rule.bool("complete", default: false)
        try rule.finish()
        switch (target, complete) {
        case (let target?, false): return BranchRule(condition: condition, target: .step(target))
        case (nil, true): return BranchRule(condition: condition, target: .complete)
        case (_?, true): throw rule.error(nil, "a branch has either 'goto' or 'complete': true, not both")
        case (nil, false):
            throw rule.error(nil, "a branch needs 'goto' (a step id) or 'complete': true", kind: .missingField)
        }
    }
}

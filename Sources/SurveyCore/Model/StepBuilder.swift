/// Where a step sits in a survey file: `$.steps[unit]`, `$.steps[unit].steps[child]`, or deeper
/// inside panels (`inner` holds the indices below `child`).
struct StepLocation {
    var unit: Int
    /// Position inside its page, or -1 for a top-level step.
    var child: Int
    /// Positions inside nested panels, below `child` (empty outside panels).
    var inner: [Int] = []

    var path: JSONPath {
        guard child >= 0 else { return JSONPath([.key("steps"), .index(unit)]) }
        var components: [JSONPath.Component] = [.key("steps"), .index(unit), .key("steps"), .index(child)]
        for index in inner { components += [.key("steps"), .index(index)] }
        return JSONPath(components)
    }

    func child(_ index: Int) -> StepLocation {
        child < 0
            ? StepLocation(unit: unit, child: index)
            : StepLocation(unit: unit, child: child, inner: inner + [index])
    }
}

/// A decoded step, with where its children (for pages and panels) are in the file.
struct DecodedStep {
    var step: StepDefinition?
    /// For each of `step.steps`: its index in the container's own `steps` array in the file (for a
    /// step inside a panel, the panel's index); `nil` when child `i` is at index `i` (no child was
    /// left out and none is in a panel), which most pages are: no list is made for them.
    var childSourceIndices: [Int]?
    /// For each of `step.steps`, its full index path below the container (see
    /// ``StepDefinition/childIndexPaths()``); `nil` when no child is in a panel (then it is
    /// `[childSourceIndices[i]]`).
    var childSourcePaths: [[Int]]?
    /// Whether children with problems were left out.
    var droppedChildren = false

    /// The index path of child `position`.
    func sourcePath(of position: Int) -> [Int] {
        SourceMap.ChildSources(indices: childSourceIndices, paths: childSourcePaths).path(of: position)
    }
}

/// Builds one ``StepDefinition`` from its members, one member at a time, so that the same rules
/// serve a parsed JSON object and the streaming decoder (which never builds the object).
struct StepBuilder {
    static let memberNames = StepMember.allCases.map(\.name)

    let location: StepLocation
    let allowsPages: Bool
    var step: StepDefinition
    var errors: [SurveyError] = []
    /// For pages and panels: the kept children, flattened, and where they are in the file.
    private(set) var decoded = DecodedStep()
    private var hasID = false
    private var hasType = false
    private var hasShuffle = false
    /// The `steps` member as JSON (decoded at the end, once the type is known).
    private var childrenJSON: JSONValue?
    /// Children already decoded by the streaming decoder, with their positions in the file.
    private var streamedChildren: [(child: DecodedStep, index: Int)]?
    private var streamedChildCount = 0

    /// Panels go inside pages (and inside other panels), never at the top level.
    private var allowsPanels: Bool { location.child >= 0 }
    private var isPanel: Bool { step.type == PanelDefinition.typeID }

    init(location: StepLocation, allowsPages: Bool) {
        self.location = location
        self.allowsPages = allowsPages
        step = Self.blank
    }

    private mutating func fail(_ key: String?, _ message: String, kind: SurveyError.Kind = .invalidValue) {
        errors.append(SurveyError(kind, message, path: key.map { location.path.appending($0) } ?? location.path))
    }

    /// Panels take only grouping members (see ``PanelDefinition``).
    private mutating func checkPanelMembers() {
        var extra: [String] = []
        if step.options.objectValue?.isEmpty == false { extra.append("options") }
        if !step.branches.isEmpty { extra.append("branches") }
        if !step.tags.isEmpty { extra.append("tags") }
        if hasShuffle { extra.append("shuffle") }
        if step.defaultValue != nil { extra.append("defaultValue") }
        if step.defaultValueExpression != nil { extra.append("defaultValueExpression") }
        if step.setValueIf != nil { extra.append("setValueIf") }
        if step.setValueExpression != nil { extra.append("setValueExpression") }
        if step.resetValueIf != nil { extra.append("resetValueIf") }
        if step.choicesFromQuestion != nil { extra.append("choicesFromQuestion") }
        if step.choicesFromQuestionMode != nil { extra.append("choicesFromQuestionMode") }
        if step.choicesVisibleIf != nil { extra.append("choicesVisibleIf") }
        if !step.validators.isEmpty { extra.append("validators") }
        if step.showCommentArea { extra.append("showCommentArea") }
        if step.commentText != nil { extra.append("commentText") }
        if step.requiredMessage != nil { extra.append("requiredMessage") }
        for key in extra { fail(key, "panels do not have '\(key)'; put it on the panel's questions") }
    }

    private mutating func mismatch(_ key: String, _ expected: String, _ value: JSONValue) {
        fail(key, "'\(key)' must be \(expected), got \(value.kindDescription)")
    }

    /// Applies one member.
    mutating func apply(_ key: String, _ value: JSONValue) {
        guard let member = StepMember(name: key) else { return applyUnknown(key) }
        apply(member, value)
    }

    /// Reports a member steps do not have.
    mutating func applyUnknown(_ key: String) {
        var message = "unknown member '\(key)'"
        if let suggestion = closestMatch(to: key, in: Self.memberNames) {
            message += " (did you mean '\(suggestion)'?)"
        }
        fail(key, message, kind: .unknownField)
    }

    /// Applies one member, already matched to its name.
    mutating func apply(_ member: StepMember, _ value: JSONValue) {
        let key = member.name
        switch member {
        case .id:
            guard case .string(let id) = value else { return mismatch(key, "a string", value) }
            if id.isEmpty { fail(key, "a step id must not be empty") }
            step.id = id
            hasID = true
        case .type:
            guard case .string(let type) = value else { return mismatch(key, "a string", value) }
            step.type = type
            hasType = true
        case .title, .description, .commentText, .requiredMessage:
            if value.isNull { return }
            do {
                let text = try LocalizedText(json: value, path: location.path.appending(key))
                switch member {
                case .title: step.title = text
                case .description: step.description = text
                case .requiredMessage: step.requiredMessage = text
                default: step.commentText = text
                }
            } catch {
                errors.append(error)
            }
        case .required, .enabled, .shuffle, .readOnly, .showCommentArea:
            if member == .shuffle { hasShuffle = true }
            if value.isNull { return }
            guard case .bool(let flag) = value else { return mismatch(key, "true or false", value) }
            switch member {
            case .required: step.isRequired = flag
            case .enabled: step.isEnabled = flag
            case .readOnly: step.isReadOnly = flag
            case .showCommentArea: step.showCommentArea = flag
            default: step.isShuffled = flag
            }
        case .visibleIf, .requiredIf, .defaultValueExpression, .enableIf, .setValueIf, .setValueExpression,
            .resetValueIf, .choicesVisibleIf:
            if value.isNull { return }
            guard case .string(let expression) = value else { return mismatch(key, "a string (an expression)", value) }
            switch member {
            case .visibleIf: step.visibleIf = expression
            case .requiredIf: step.requiredIf = expression
            case .enableIf: step.enableIf = expression
            case .setValueIf: step.setValueIf = expression
            case .setValueExpression: step.setValueExpression = expression
            case .resetValueIf: step.resetValueIf = expression
            case .choicesVisibleIf: step.choicesVisibleIf = expression
            default: step.defaultValueExpression = expression
            }
        case .defaultValue:
            if value.isNull { return }
            step.defaultValue = value
        case .choicesFromQuestion:
            if value.isNull { return }
            guard case .string(let source) = value else { return mismatch(key, "a step id", value) }
            step.choicesFromQuestion = source
        case .choicesFromQuestionMode:
            if value.isNull { return }
            guard case .string(let mode) = value, ["all", "selected", "unselected"].contains(mode) else {
                return fail(
                    key, "'choicesFromQuestionMode' must be \"all\", \"selected\" or \"unselected\", got \(value)")
            }
            step.choicesFromQuestionMode = mode
        case .tags:
            guard case .array(let elements) = value, elements.allSatisfy({ $0.stringValue != nil }) else {
                if !value.isNull { mismatch(key, "an array of strings", value) }
                return
            }
            step.tags = elements.compactMap(\.stringValue)
        case .options:
            if value.isNull { return }
            guard case .object = value else { return mismatch(key, "an object", value) }
            step.options = value
        case .branches:
            if value.isNull { return }
            guard case .array(let elements) = value else { return mismatch(key, "an array", value) }
            // Collected first and set once: the branches are kept with the step's rare members, which
            // are replaced whole on each change.
            var branches = step.branches
            for (offset, element) in elements.enumerated() {
                do {
                    branches.append(
                        try StepDefinition.decodeBranch(
                            element, path: location.path.appending(key).appending(offset), stepID: nil))
                } catch {
                    errors.append(error)
                }
            }
            step.branches = branches
        case .steps:
            childrenJSON = value
        case .validators:
            if value.isNull { return }
            step.validators = ValidatorDefinition.decodeList(value, path: location.path.appending(key), errors: &errors)
        }
    }

    /// Children decoded elsewhere (by the streaming decoder), with their problems. They are moved
    /// here (`children` is left empty), so that ``finish(into:)`` can move them on without copying.
    mutating func setChildren(
        _ children: inout [(child: DecodedStep, index: Int)], count: Int, errors childErrors: [SurveyError]
    ) {
        var taken: [(child: DecodedStep, index: Int)] = []
        swap(&taken, &children)
        streamedChildren = taken
        streamedChildCount = count
        errors += childErrors
    }

    /// Keeps the decoded children of a page or panel, moving the steps of panels among them into
    /// this container (see ``PanelDefinition``).
    ///
    /// The children's definitions are moved out of `children`, not copied: a copy retains each of a
    /// step's members, once per question of a large survey.
    private mutating func collect(_ children: inout [(child: DecodedStep, index: Int)]) {
        var steps: [StepDefinition] = []
        steps.reserveCapacity(children.count)
        // Made only once a child is not at its own position (see ``DecodedStep/childSourceIndices``).
        var indices: [Int]?
        func record(_ index: Int) {
            if indices == nil {
                if index == steps.count { return }
                indices = Array(0..<steps.count)
                indices?.reserveCapacity(children.count)
            }
            indices?.append(index)
        }
        var paths: [[Int]]?
        var panels: [PanelDefinition] = []
        var dropped = false
        for position in children.indices {
            let index = children[position].index
            dropped = dropped || children[position].child.droppedChildren
            // Moved out of the child, and into the list: no copy of its members.
            guard let childStep = children[position].child.step.take() else {
                dropped = true
                continue
            }
            guard childStep.type == PanelDefinition.typeID else {
                record(index)
                steps.append(consume childStep)
                paths?.append([index])
                continue
            }
            if paths == nil { paths = (indices ?? Array(0..<steps.count)).map { [$0] } }
            panels.append(
                PanelDefinition(
                    id: childStep.id, title: childStep.title, description: childStep.description,
                    visibleIf: childStep.visibleIf, enableIf: childStep.enableIf, requiredIf: childStep.requiredIf,
                    isRequired: childStep.isRequired, isReadOnly: childStep.isReadOnly, isEnabled: childStep.isEnabled,
                    parent: isPanel ? step.id : nil))
            panels += childStep.panels
            for (innerPosition, var inner) in childStep.steps.enumerated() {
                if inner.panel == nil { inner.panel = childStep.id }
                record(index)
                steps.append(inner)
                paths?.append([index] + children[position].child.sourcePath(of: innerPosition))
            }
        }
        step.steps = steps
        step.panels = panels
        decoded.childSourceIndices = indices
        decoded.childSourcePaths = paths
        decoded.droppedChildren = dropped
    }

    /// The step, or `nil` when it has problems (appended to `allErrors`, with the step id); the step is
    /// moved out, so the builder is spent (``finishDecoded(into:)`` is what callers use).
    private mutating func finish(into allErrors: inout [SurveyError]) -> StepDefinition? {
        if !hasID { fail(nil, "missing required member 'id' (a string)", kind: .missingField) }
        if !hasType { fail(nil, "missing required member 'type' (a string)", kind: .missingField) }
        let hasChildren = childrenJSON != nil || streamedChildren != nil
        if step.isPage || isPanel {
            let kind = isPanel ? "panel" : "page"
            if step.isPage, !allowsPages { fail("type", "pages cannot be nested inside pages") }
            if isPanel, !allowsPanels {
                fail(
                    "type",
                    "a panel groups questions inside a page: put it in a page's 'steps' (or make it a page, \"type\": \"page\")"
                )
            }
            if isPanel { checkPanelMembers() }
            if streamedChildren != nil {
                // Taken out of the builder, so that `collect` holds the only reference and can move.
                var children = streamedChildren ?? []
                streamedChildren = nil
                collect(&children)
                if streamedChildCount == 0 { fail("steps", "a \(kind) needs at least one step") }
            } else if let childrenJSON {
                if case .array(let elements) = childrenJSON {
                    var children: [(child: DecodedStep, index: Int)] = []
                    children.reserveCapacity(elements.count)
                    for (index, element) in elements.enumerated() {
                        let child = StepDefinition.decodeWithChildIndices(
                            element, location: location.child(index), allowsPages: false, errors: &errors)
                        children.append((child, index))
                    }
                    collect(&children)
                    if elements.isEmpty { fail("steps", "a \(kind) needs at least one step") }
                } else {
                    mismatch("steps", "an array", childrenJSON)
                }
            } else {
                fail(nil, "a \(kind) needs 'steps' (an array of steps)", kind: .missingField)
            }
        } else {
            if hasChildren { fail("steps", "only pages and panels (\"type\": \"page\" or \"panel\") have 'steps'") }
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
                hasID && hasType && !step.isPage && !isPanel
                && errors.allSatisfy { $0.kind == .unknownField || $0.kind == .invalidValue }
            return isStillCheckable ? takeStep() : nil
        }
        return takeStep()
    }

    /// Finishes the step (see ``finish(into:)``) and hands it over with where its children are in
    /// the file. The builder is spent afterwards.
    mutating func finishDecoded(into allErrors: inout [SurveyError]) -> DecodedStep {
        let step = finish(into: &allErrors)
        // Made whole from its parts: filling a swapped-out one copied it on the way out.
        return DecodedStep(
            step: step, childSourceIndices: decoded.childSourceIndices, childSourcePaths: decoded.childSourcePaths,
            droppedChildren: decoded.droppedChildren)
    }

    /// The step, moved out of the builder: returning `step` copied it, retaining each of its strings and
    /// arrays, and the builder's end released them again (two of the copies a step cost).
    private mutating func takeStep() -> StepDefinition {
        withUnsafeMutablePointer(to: &step) { pointer in
            let taken = pointer.move()
            pointer.initialize(to: Self.blank)
            return taken
        }
    }

    /// An empty step, copied where a builder needs one: `StepDefinition(id:type:)` built it, copied it
    /// and destroyed the first (some 300 instructions).
    private static let blank = StepDefinition(id: "", type: "")
}

extension StepDefinition {
    /// Decodes one step; for a page or panel, also the file positions of the children that were kept.
    static func decodeWithChildIndices(
        _ json: JSONValue, location: StepLocation, allowsPages: Bool, errors: inout [SurveyError]
    ) -> DecodedStep {
        guard case .object(let members) = json else {
            errors.append(
                SurveyError(
                    .invalidValue, "a step must be a JSON object, got \(json.kindDescription)", path: location.path))
            return DecodedStep()
        }
        var builder = StepBuilder(location: location, allowsPages: allowsPages)
        for (key, value) in members { builder.apply(key, value) }
        return builder.finishDecoded(into: &errors)
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

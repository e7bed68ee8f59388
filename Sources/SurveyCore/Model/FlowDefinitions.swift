// The flow rules of a survey definition: triggers, branches and panels, as authored.

/// A survey-level rule that acts when its condition holds, as SurveyJS's triggers do.
///
/// `setvalue`, `copyvalue`, `runexpression` and `skip` act as soon as an answer their condition reads
/// changes and the condition then holds; `complete` acts on Next.
///
/// ```json
/// {"type": "setvalue", "if": "{plan} = 'free'", "target": "seats", "value": 1}
/// {"type": "copyvalue", "if": "{same} = true", "from": "billing", "target": "shipping"}
/// {"type": "runexpression", "if": "{price} notempty", "run": "{price} * 1.2", "target": "gross"}
/// {"type": "skip", "if": "{age} < 18", "goto": "thanks"}
/// {"type": "complete", "if": "{consent} = false"}
/// ```
public struct TriggerDefinition: Sendable, Hashable {
    /// What a trigger does.
    public enum Action: Sendable, Hashable {
        /// Answer step `target` with `value`.
        case setValue(target: String, value: JSONValue)
        /// Answer step `target` with the value of step or calculated value `from`.
        case copyValue(from: String, target: String)
        /// Evaluate `expression`; answer step `target` with the result when there is one.
        case runExpression(expression: String, target: String?)
        /// Go to step or page `target` at once.
        case skip(target: String)
        /// Complete the survey on Next.
        case complete
    }

    /// The condition (`if`).
    public var condition: String
    public var action: Action

    public init(condition: String, action: Action) {
        self.condition = condition
        self.action = action
    }

    /// The SurveyJS type name.
    public var typeName: String {
        switch action {
        case .setValue: return "setvalue"
        case .copyValue: return "copyvalue"
        case .runExpression: return "runexpression"
        case .skip: return "skip"
        case .complete: return "complete"
        }
    }

    init(reading reader: inout OptionsReader) throws(SurveyError) {
        let type = try reader.string("type")
        condition = try reader.string("if")
        switch type.lowercased() {
        case "setvalue":
            // `"value": null` clears the target, as a SurveyJS setvalue trigger without `setValue` does.
            guard reader.contains("value") else {
                throw reader.error(
                    nil, "a setvalue trigger needs a 'value' (null clears the target)", kind: .missingField)
            }
            action = .setValue(target: try reader.string("target"), value: reader.members["value"] ?? .null)
        case "copyvalue":
            action = .copyValue(from: try reader.string("from"), target: try reader.string("target"))
        case "runexpression":
            action = .runExpression(expression: try reader.string("run"), target: try reader.optionalString("target"))
        case "skip":
            action = .skip(target: try reader.string("goto"))
        case "complete":
            action = .complete
        default:
            throw reader.error(
                "type",
                "unknown trigger type '\(type)'; the types are setvalue, copyvalue, runexpression, skip and complete")
        }
        try reader.finish()
    }

    var jsonValue: JSONValue {
        var members: [String: JSONValue] = ["type": .string(typeName), "if": .string(condition)]
        switch action {
        case .setValue(let target, let value):
            members["target"] = .string(target)
            members["value"] = value
        case .copyValue(let from, let target):
            members["from"] = .string(from)
            members["target"] = .string(target)
        case .runExpression(let expression, let target):
            members["run"] = .string(expression)
            if let target { members["target"] = .string(target) }
        case .skip(let target):
            members["goto"] = .string(target)
        case .complete:
            break
        }
        return .object(members)
    }
}

/// One rule of a step's branching: when `condition` holds (or always, when it is `nil`), go to
/// `target`.
public struct BranchRule: Sendable, Hashable {
    /// Where a branch leads.
    public enum Target: Sendable, Hashable {
        /// The step or page with this id.
        case step(String)
        /// Finish the survey.
        case complete
    }

    /// The expression that must hold; `nil` means always.
    public var condition: String?
    public var target: Target

    public init(condition: String?, target: Target) {
        self.condition = condition
        self.target = target
    }
}

/// A group of questions inside a page, with its own title and conditions (SurveyJS's panel).
///
/// In the file a panel is a step of `"type": "panel"` among a page's steps, with `steps` of its own
/// (questions, content steps or other panels). Decoding moves its questions into the page's
/// ``StepDefinition/steps``, each naming its innermost panel in ``StepDefinition/panel``, and lists
/// the panel in the page's ``StepDefinition/panels``; encoding puts them back in their panels.
///
/// - `visibleIf`, `enableIf`, `readOnly` and `enabled` apply to every question in the panel (and in
///   its nested panels), on top of the question's own;
/// - `required` / `requiredIf`: at least one of the panel's visible questions must be answered
///   before Next (the error names the panel);
/// - a panel with no visible question is not shown.
public struct PanelDefinition: Sendable, Hashable {
    /// The type id panels have in the file.
    public static let typeID = "panel"

    /// Unique among step, page, panel and calculated-value ids.
    public var id: String
    public var title: LocalizedText?
    public var description: LocalizedText?
    public var visibleIf: String?
    public var enableIf: String?
    public var requiredIf: String?
    /// At least one of the panel's visible questions must be answered.
    public var isRequired: Bool
    /// Every question in the panel is shown but not editable.
    public var isReadOnly: Bool
    /// The on/off switch: a disabled panel's questions are left out as if they were not there.
    public var isEnabled: Bool
    /// The id of the panel this one is nested in, `nil` for a panel directly in its page.
    public var parent: String?

    public init(
        id: String, title: LocalizedText? = nil, description: LocalizedText? = nil, visibleIf: String? = nil,
        enableIf: String? = nil, requiredIf: String? = nil, isRequired: Bool = false, isReadOnly: Bool = false,
        isEnabled: Bool = true, parent: String? = nil
    ) {
        self.id = id
        self.title = title
        self.description = description
        self.visibleIf = visibleIf
        self.enableIf = enableIf
        self.requiredIf = requiredIf
        self.isRequired = isRequired
        self.isReadOnly = isReadOnly
        self.isEnabled = isEnabled
        self.parent = parent
    }

    /// The panel's own members as JSON (without `steps`).
    var jsonMembers: [String: JSONValue] {
        var members: [String: JSONValue] = ["id": .string(id), "type": .string(Self.typeID)]
        if let title { members["title"] = title.jsonValue }
        if let description { members["description"] = description.jsonValue }
        if let visibleIf { members["visibleIf"] = .string(visibleIf) }
        if let enableIf { members["enableIf"] = .string(enableIf) }
        if let requiredIf { members["requiredIf"] = .string(requiredIf) }
        if isRequired { members["required"] = .bool(true) }
        if isReadOnly { members["readOnly"] = .bool(true) }
        if !isEnabled { members["enabled"] = .bool(false) }
        return members
    }
}

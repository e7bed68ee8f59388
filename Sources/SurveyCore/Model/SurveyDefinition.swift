/// A survey as its author wrote it: the JSON format, decoded but not yet compiled.
///
/// Compile it with ``SurveyLoader`` (which checks question types, options and expressions) to get
/// a ``Survey`` that sessions can run. Encoding is deterministic (sorted keys), so a load/save
/// round trip is byte-stable.
///
/// ```json
/// { "formatVersion": 1, "id": "feedback", "title": "Feedback", "defaultLocale": "en",
///   "steps": [ { "id": "rating", "type": "rating", "title": "How was it?", "required": true } ] }
/// ```
public struct SurveyDefinition: Sendable, Hashable {
    /// The format versions this engine reads.
    public static let supportedFormatVersions: ClosedRange<Int> = 1...1
    /// The format version this engine writes.
    public static let currentFormatVersion = 1

    public var formatVersion: Int
    /// Stable survey id, chosen by the author.
    public var id: String
    /// The author's version of this survey ("2024-06-01", "3").
    public var version: String?
    public var title: LocalizedText
    public var description: LocalizedText?
    /// The locale texts fall back to.
    public var defaultLocale: String
    /// The locales the author translated the survey into (informational).
    public var locales: [String]?
    public var settings: SurveySettings
    /// Named expressions that other expressions can use as `{name}`.
    public var calculatedValues: [CalculatedValue]
    /// Rules that act when their condition holds (SurveyJS's triggers): set, copy or compute an
    /// answer, skip to a step, complete the survey.
    public var triggers: [TriggerDefinition] = []
    /// Values the host app passes when a session starts (`{plan}`, `{lang}`), declared so that
    /// expressions can use them and an unknown name stays a load error.
    public var variables: [VariableDefinition] = []
    /// What respondents read when they complete the survey: the first message whose condition holds
    /// (one without `if` always does), as SurveyJS's `completedHtmlOnCondition` and `completedHtml`.
    public var completionMessages: [CompletionMessage] = []
    /// The steps in order: questions, content steps and pages.
    public var steps: [StepDefinition]
    /// The JSON Schema reference (`$schema`) the file declares for editors, kept on save.
    public var schema: String?
    /// Where the steps are in the file, when some were left out because of problems.
    var sourceMap: SourceMap?

    public init(
        formatVersion: Int = SurveyDefinition.currentFormatVersion, id: String, version: String? = nil,
        title: LocalizedText, description: LocalizedText? = nil, defaultLocale: String = "en", locales: [String]? = nil,
        settings: SurveySettings = SurveySettings(), calculatedValues: [CalculatedValue] = [], steps: [StepDefinition]
    ) {
        self.formatVersion = formatVersion
        self.id = id
        self.version = version
        self.title = title
        self.description = description
        self.defaultLocale = defaultLocale
        self.locales = locales
        self.settings = settings
        self.calculatedValues = calculatedValues
        self.steps = steps
    }
}

/// File positions of decoded steps: `units[i]` is the index in `$.steps` of `steps[i]`, and
/// `children[i][j]` the index path below its page of `steps[i].steps[j]` (see
/// ``StepDefinition/childIndexPaths()``).
struct SourceMap: Sendable, Hashable {
    var units: [Int] = []
    /// Where the children of a unit are in the file, kept only for the units whose children are not
    /// simply `0..<count` (a child was left out, or panels are involved), by position in ``units``:
    /// most pages have none, and a list for each of a large survey's pages was 100,000 allocations
    /// made and freed on every load (the map is kept only when a step was left out).
    private var irregular: [Int: ChildSources] = [:]

    /// Where a container's children are in the file (see ``DecodedStep``).
    struct ChildSources: Sendable, Hashable {
        var indices: [Int]?
        var paths: [[Int]]?

        /// The index path of child `position` below its container.
        func path(of position: Int) -> [Int] {
            paths?[position] ?? [indices?[position] ?? position]
        }
    }

    mutating func add(_ decoded: DecodedStep, unit: Int) {
        if decoded.childSourceIndices != nil || decoded.childSourcePaths != nil {
            irregular[units.count] = ChildSources(
                indices: decoded.childSourceIndices, paths: decoded.childSourcePaths)
        }
        units.append(unit)
    }

    /// Numbers the units from `offset` instead of 0 (a piece of the steps array parsed on its own).
    mutating func shiftUnits(by offset: Int) {
        guard offset != 0 else { return }
        for index in units.indices { units[index] += offset }
    }

    /// Adds the map of the steps that follow in the document.
    mutating func append(_ next: SourceMap) {
        let base = units.count
        units += next.units
        for (position, sources) in next.irregular { irregular[base + position] = sources }
    }

    /// The index path below its page of `steps[unit].steps[child]`.
    func childPath(unit: Int, child: Int) -> [Int] {
        irregular[unit]?.path(of: child) ?? [child]
    }

    static func == (lhs: SourceMap, rhs: SourceMap) -> Bool {
        lhs.units == rhs.units && lhs.irregular == rhs.irregular
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(units)
    }
}

/// Survey-wide behaviour.
public struct SurveySettings: Sendable, Hashable {
    /// Whether content steps count in "Question k of n". Default `false`.
    public var progressCountsContent: Bool
    /// Whether a respondent who completed or dismissed the survey is asked again. Default ``AskAgainPolicy/never``.
    public var askAgain: AskAgainPolicy
    /// What happens to the answers of questions that are hidden (SurveyJS's `clearInvisibleValues`).
    public var clearInvisibleValues: ClearInvisibleValues

    public init(
        progressCountsContent: Bool = false, askAgain: AskAgainPolicy = .never,
        clearInvisibleValues: ClearInvisibleValues = .onComplete
    ) {
        self.progressCountsContent = progressCountsContent
        self.askAgain = askAgain
        self.clearInvisibleValues = clearInvisibleValues
    }
}

/// What happens to the answer of a question that is hidden, with SurveyJS's names and meaning.
public enum ClearInvisibleValues: String, Sendable, Hashable, CaseIterable {
    /// Kept while the respondent answers (a condition still reads it), left out of the completed
    /// answers when the question is hidden at the end. The default.
    case onComplete
    /// Cleared as soon as the question is hidden.
    case onHidden
    /// Kept, and reported with the completed answers even when the question is hidden.
    case none
}

/// A named expression, usable as `{name}` in other expressions and in piped texts.
public struct CalculatedValue: Sendable, Hashable {
    public var name: String
    public var expression: String
    /// Whether the completed answers report its value under its name (SurveyJS's `includeIntoResult`).
    public var includeIntoResult: Bool

    public init(name: String, expression: String, includeIntoResult: Bool = false) {
        self.name = name
        self.expression = expression
        self.includeIntoResult = includeIntoResult
    }
}

/// A host variable: `{name}` in expressions and piped texts reads the value the host gave it when the
/// session started (`survey run --var name=value`), else `default` (else empty).
public struct VariableDefinition: Sendable, Hashable {
    public var name: String
    public var defaultValue: JSONValue?

    public init(name: String, defaultValue: JSONValue? = nil) {
        self.name = name
        self.defaultValue = defaultValue
    }
}

/// One completion message: shown when `condition` holds (always, when it is `nil`).
public struct CompletionMessage: Sendable, Hashable {
    public var condition: String?
    public var text: LocalizedText

    public init(condition: String? = nil, text: LocalizedText) {
        self.condition = condition
        self.text = text
    }
}

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
            guard let value = reader.value("value") else {
                throw reader.error(nil, "a setvalue trigger needs a 'value'", kind: .missingField)
            }
            action = .setValue(target: try reader.string("target"), value: value)
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

/// The members of a ``StepDefinition`` that most steps leave at their defaults: an immutable box,
/// replaced whole when one of them changes (they are set while a survey is read, rarely after).
private final class RareMembers: Sendable, Hashable {
    struct Members: Sendable, Hashable {
        var description: LocalizedText?
        var branches: [BranchRule] = []
        var tags: [String] = []
        var isShuffled = false
        var requiredIf: String?
        var defaultValue: JSONValue?
        var isReadOnly = false
        var enableIf: String?
        var choicesFromQuestion: String?
        var choicesFromQuestionMode: String?
        var defaultValueExpression: String?
        var validators: [ValidatorDefinition] = []
        var panels: [PanelDefinition] = []
        var showCommentArea = false
        var commentText: LocalizedText?
        var panel: String?
    }

    let members: Members

    init(_ members: Members) { self.members = members }

    /// The box for `members`, or `nil` when all of them are at their defaults.
    static func box(_ members: Members) -> RareMembers? {
        members == Members() ? nil : RareMembers(members)
    }

    static func == (lhs: RareMembers, rhs: RareMembers) -> Bool { lhs === rhs || lhs.members == rhs.members }
    func hash(into hasher: inout Hasher) { hasher.combine(members) }
}

/// A step: a question, a content step, or a page that groups questions.
public struct StepDefinition: Sendable, Hashable {
    /// The type id of pages, which group other steps.
    public static let pageTypeID = "page"

    /// Stable id chosen by the author; answers and reports are keyed by it.
    public var id: String
    /// The question type id, or `"page"`.
    public var type: String
    public var title: LocalizedText?
    public var description: LocalizedText? {
        get { rare?.members.description }
        set { updateRare { $0.description = newValue } }
    }
    public var isRequired: Bool
    /// The per-step on/off switch: a disabled step is left out as if it were not there.
    public var isEnabled: Bool
    public var visibleIf: String?
    public var requiredIf: String? {
        get { rare?.members.requiredIf }
        set { updateRare { $0.requiredIf = newValue } }
    }
    /// Rules evaluated in order after the step; the first that holds decides where to go.
    public var branches: [BranchRule] {
        get { rare?.members.branches ?? [] }
        set { updateRare { $0.branches = newValue } }
    }
    /// Type-specific options, read by the question type.
    public var options: JSONValue
    /// Stable tags for reports.
    public var tags: [String] {
        get { rare?.members.tags ?? [] }
        set { updateRare { $0.tags = newValue } }
    }
    /// For pages: the grouped steps.
    public var steps: [StepDefinition]
    /// For pages: present the questions in a seeded shuffled order.
    public var isShuffled: Bool {
        get { rare?.members.isShuffled ?? false }
        set { updateRare { $0.isShuffled = newValue } }
    }
    /// The answer the question starts with (SurveyJS's `defaultValue`); the question type must accept it.
    public var defaultValue: JSONValue? {
        get { rare?.members.defaultValue }
        set { updateRare { $0.defaultValue = newValue } }
    }
    /// Shown but not editable (SurveyJS's `readOnly`); not checked for `required`.
    public var isReadOnly: Bool {
        get { rare?.members.isReadOnly ?? false }
        set { updateRare { $0.isReadOnly = newValue } }
    }
    /// Editable only while this condition holds (SurveyJS's `enableIf`); read-only otherwise.
    public var enableIf: String? {
        get { rare?.members.enableIf }
        set { updateRare { $0.enableIf = newValue } }
    }
    /// The step whose choices this question offers (SurveyJS's `choicesFromQuestion`).
    public var choicesFromQuestion: String? {
        get { rare?.members.choicesFromQuestion }
        set { updateRare { $0.choicesFromQuestion = newValue } }
    }
    /// Which of them: `all`, or those the respondent `selected` or left `unselected` there.
    public var choicesFromQuestionMode: String? {
        get { rare?.members.choicesFromQuestionMode }
        set { updateRare { $0.choicesFromQuestionMode = newValue } }
    }
    /// An expression whose value is the question's answer until the respondent answers it
    /// (SurveyJS's `defaultValueExpression`): evaluated at the start and whenever what it reads changes.
    public var defaultValueExpression: String? {
        get { rare?.members.defaultValueExpression }
        set { updateRare { $0.defaultValueExpression = newValue } }
    }
    /// Checks the answer must pass before the respondent moves on (see ``ValidatorDefinition``).
    public var validators: [ValidatorDefinition] {
        get { rare?.members.validators ?? [] }
        set { updateRare { $0.validators = newValue } }
    }
    /// For pages: the panels among its steps, outer before inner, in file order.
    public var panels: [PanelDefinition] {
        get { rare?.members.panels ?? [] }
        set { updateRare { $0.panels = newValue } }
    }
    /// A comment box beside the question (SurveyJS's `showCommentArea`): its text is answered as
    /// `<id>-Comment`, read as `{<id>-Comment}` and reported under that key.
    public var showCommentArea: Bool {
        get { rare?.members.showCommentArea ?? false }
        set { updateRare { $0.showCommentArea = newValue } }
    }
    /// The comment box's label (SurveyJS's `commentText`); the built-in "Comment" when `nil`.
    public var commentText: LocalizedText? {
        get { rare?.members.commentText }
        set { updateRare { $0.commentText = newValue } }
    }
    /// For a page's step: the id of the innermost panel it is in (one of the page's ``panels``).
    /// A panel's steps are consecutive in the page's ``steps``.
    public var panel: String? {
        get { rare?.members.panel }
        set { updateRare { $0.panel = newValue } }
    }

    /// The members above that most steps leave at their defaults (the description, branches, tags,
    /// shuffling and the rest), kept apart so that a step in a large survey costs about half the
    /// memory: `nil` while all of them are at their defaults.
    private var rare: RareMembers?

    private mutating func updateRare(_ change: (inout RareMembers.Members) -> Void) {
        var members = rare?.members ?? RareMembers.Members()
        change(&members)
        rare = RareMembers.box(members)
    }

    public init(
        id: String, type: String, title: LocalizedText? = nil, description: LocalizedText? = nil,
        isRequired: Bool = false, isEnabled: Bool = true, visibleIf: String? = nil, requiredIf: String? = nil,
        branches: [BranchRule] = [], options: JSONValue = .object([:]), tags: [String] = [],
        steps: [StepDefinition] = [], isShuffled: Bool = false
    ) {
        self.id = id
        self.type = type
        self.title = title
        self.isRequired = isRequired
        self.isEnabled = isEnabled
        self.visibleIf = visibleIf
        self.options = options
        self.steps = steps
        // Set here, not through the setters: calling a mutating accessor from the initializer made
        // every `StepDefinition(id:type:)` build the step twice (a copy and a destroy of each member).
        var members = RareMembers.Members()
        members.requiredIf = requiredIf
        members.description = description
        members.branches = branches
        members.tags = tags
        members.isShuffled = isShuffled
        rare = RareMembers.box(members)
    }

    /// Whether this step is a page.
    public var isPage: Bool { type == Self.pageTypeID }

    /// Whether any of the members most steps leave at their defaults is set (the description,
    /// branches, tags, `choicesFromQuestion`, `showCommentArea` and the rest): a quick test before
    /// reading them.
    var hasRareMembers: Bool { rare != nil }

    /// For a page: the panel chain of each step, outer first (empty outside panels); `nil` when a
    /// step names a panel the page does not list, or a panel's parents form a cycle.
    func panelChains() -> [[String]]? {
        var parentByID: [String: String?] = [:]
        for panel in panels { parentByID[panel.id] = panel.parent }
        var result: [[String]] = []
        result.reserveCapacity(steps.count)
        for step in steps {
            var chain: [String] = []
            var current = step.panel
            while let id = current {
                guard let parent = parentByID[id], chain.count <= panels.count else { return nil }
                chain.append(id)
                current = parent
            }
            result.append(chain.reversed())
        }
        return result
    }

    /// For a page: where each of ``steps`` sits in the file, as indices into successive `steps`
    /// arrays (`[2]` for the page's third entry, `[2, 0]` for the first step of the panel that is its
    /// third entry). `nil` when the panels are inconsistent (see ``panelChains()``).
    func childIndexPaths() -> [[Int]]? {
        guard !panels.isEmpty else { return steps.indices.map { [$0] } }
        guard let chains = panelChains() else { return nil }
        var result: [[Int]] = []
        // The open panels, outer first: id, path, and the index of its next entry.
        var open: [(id: String, path: [Int], next: Int)] = []
        var nextTop = 0
        func nextIndex() -> Int {
            if open.isEmpty {
                nextTop += 1
                return nextTop - 1
            }
            open[open.count - 1].next += 1
            return open[open.count - 1].next - 1
        }
        for chain in chains {
            var common = 0
            while common < open.count, common < chain.count, open[common].id == chain[common] { common += 1 }
            open.removeLast(open.count - common)
            for id in chain[common...] {
                let path = (open.last?.path ?? []) + [nextIndex()]
                open.append((id, path, 0))
            }
            result.append((open.last?.path ?? []) + [nextIndex()])
        }
        return result
    }

    /// For a page: its steps as JSON, back inside their panels.
    func encodedChildren() -> [JSONValue] {
        guard !panels.isEmpty, let chains = panelChains() else { return steps.map(\.jsonValue) }
        let panelByID = Dictionary(panels.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        // The open panels, outer first, each with its entries so far; `top` holds the page's entries.
        var top: [JSONValue] = []
        var open: [(id: String, entries: [JSONValue])] = []
        func close() {
            let panel = open.removeLast()
            var members = panelByID[panel.id]?.jsonMembers ?? [:]
            members["steps"] = .array(panel.entries)
            if open.isEmpty {
                top.append(.object(members))
            } else {
                open[open.count - 1].entries.append(.object(members))
            }
        }
        for (step, chain) in zip(steps, chains) {
            var common = 0
            while common < open.count, common < chain.count, open[common].id == chain[common] { common += 1 }
            while open.count > common { close() }
            for id in chain[common...] { open.append((id, [])) }
            if open.isEmpty { top.append(step.jsonValue) } else { open[open.count - 1].entries.append(step.jsonValue) }
        }
        while !open.isEmpty { close() }
        return top
    }
}

// MARK: - Decoding

extension SurveyDefinition {
    /// Decodes a definition from parsed JSON, collecting every structural problem.
    /// - Throws: ``SurveyLoadError`` listing each problem with its JSON path.
    public init(json: JSONValue) throws(SurveyLoadError) {
        var errors: [SurveyError] = []
        try self.init(json: json, errors: &errors)
        if !errors.isEmpty { throw SurveyLoadError(errors: errors) }
    }

    /// Decodes as much as possible, appending problems to `errors`; steps with problems are left out.
    /// Throws only when nothing sensible can be decoded (not an object, wrong format version).
    /// - Parameter preDecodedSteps: the steps when the streaming decoder already read them (then
    ///   `json` has no `steps` member).
    init(
        json: JSONValue, errors: inout [SurveyError],
        preDecodedSteps: (steps: [StepDefinition], count: Int)? = nil
    ) throws(SurveyLoadError) {
        var reader: OptionsReader
        do {
            reader = try OptionsReader(json, path: .root)
        } catch {
            throw SurveyLoadError(errors: [
                SurveyError(.invalidValue, "a survey must be a JSON object, got \(json.kindDescription)", path: .root)
            ])
        }
        func attempt<T>(_ body: () throws(SurveyError) -> T) -> T? {
            do { return try body() } catch {
                errors.append(error)
                return nil
            }
        }
        guard reader.members["formatVersion"] != nil else {
            throw SurveyLoadError(errors: [
                SurveyError(
                    .unsupportedFormatVersion,
                    "missing 'formatVersion' (this engine reads version \(SurveyDefinition.currentFormatVersion))",
                    path: .root)
            ])
        }
        let version = attempt { () throws(SurveyError) in try reader.optionalInt("formatVersion") } ?? nil
        guard let version, Self.supportedFormatVersions.contains(version) else {
            let got = reader.members["formatVersion"].map { $0.description } ?? "nothing"
            throw SurveyLoadError(errors: [
                SurveyError(
                    .unsupportedFormatVersion,
                    "unsupported formatVersion \(got); this engine reads \(Self.supportedFormatVersions.map(String.init).joined(separator: ", "))",
                    path: JSONPath.root.appending("formatVersion"))
            ])
        }
        formatVersion = version
        id = attempt { () throws(SurveyError) in try reader.string("id") } ?? ""
        self.version =
            attempt { () throws(SurveyError) in
                if let number = reader.members["version"]?.numberValue {
                    _ = reader.value("version")
                    return JSONValue.format(number: number)
                }
                return try reader.optionalString("version")
            } ?? nil
        title =
            attempt { () throws(SurveyError) in
                guard let title = try reader.optionalText("title") else {
                    throw reader.error(nil, "missing required member 'title'", kind: .missingField)
                }
                return title
            } ?? LocalizedText("")
        description = attempt { () throws(SurveyError) in try reader.optionalText("description") } ?? nil
        defaultLocale = attempt { () throws(SurveyError) in try reader.string("defaultLocale", default: "en") } ?? "en"
        locales = attempt { () throws(SurveyError) in try reader.optionalStringArray("locales") } ?? nil
        settings =
            attempt { () throws(SurveyError) in
                var settingsReader = try reader.object("settings")
                let progressCountsContent = try settingsReader.bool("progressCountsContent", default: false)
                var askAgain = AskAgainPolicy.never
                if let text = try settingsReader.optionalString("askAgain") {
                    guard let policy = AskAgainPolicy(text) else {
                        throw settingsReader.error(
                            "askAgain",
                            "'askAgain' must be \"never\", \"always\" or an ISO-8601 duration such as \"P30D\", got '\(text)'"
                        )
                    }
                    askAgain = policy
                }
                var clear = ClearInvisibleValues.onComplete
                if let text = try settingsReader.optionalString("clearInvisibleValues") {
                    guard let mode = ClearInvisibleValues(rawValue: text) else {
                        throw settingsReader.error(
                            "clearInvisibleValues",
                            "'clearInvisibleValues' must be \"onComplete\", \"onHidden\" or \"none\", got '\(text)'")
                    }
                    clear = mode
                }
                let settings = SurveySettings(
                    progressCountsContent: progressCountsContent, askAgain: askAgain, clearInvisibleValues: clear)
                try settingsReader.finish()
                return settings
            } ?? SurveySettings()
        calculatedValues =
            attempt { () throws(SurveyError) in
                try reader.optionalArray("calculatedValues") { (value, path) throws(SurveyError) in
                    var item = try OptionsReader(value, path: path)
                    let calculated = CalculatedValue(
                        name: try item.string("name"), expression: try item.string("expression"),
                        includeIntoResult: try item.bool("includeIntoResult", default: false))
                    try item.finish()
                    return calculated
                }
            }.flatMap { $0 } ?? []
        triggers =
            attempt { () throws(SurveyError) in
                try reader.optionalArray("triggers") { (value, path) throws(SurveyError) in
                    var item = try OptionsReader(value, path: path)
                    return try TriggerDefinition(reading: &item)
                }
            }.flatMap { $0 } ?? []
        variables =
            attempt { () throws(SurveyError) in
                try reader.optionalArray("variables") { (value, path) throws(SurveyError) in
                    var item = try OptionsReader(value, path: path)
                    let variable = VariableDefinition(
                        name: try item.string("name"), defaultValue: item.value("default"))
                    try item.finish()
                    return variable
                }
            }.flatMap { $0 } ?? []
        completionMessages =
            attempt { () throws(SurveyError) in
                try reader.optionalArray("completionMessages") { (value, path) throws(SurveyError) in
                    var item = try OptionsReader(value, path: path)
                    let condition = try item.optionalString("if")
                    guard let text = try item.optionalText("text") else {
                        throw item.error(nil, "a completion message needs a 'text'", kind: .missingField)
                    }
                    try item.finish()
                    return CompletionMessage(condition: condition, text: text)
                }
            }.flatMap { $0 } ?? []
        var steps: [StepDefinition] = []
        if let decoded = preDecodedSteps {
            steps = decoded.steps
            _ = reader.contains("steps")
            if decoded.count == 0 {
                errors.append(
                    SurveyError(
                        .invalidValue, "a survey needs at least one step", path: JSONPath.root.appending("steps")))
            }
        } else if let stepsValue = reader.value("steps") {
            if case .array(let elements) = stepsValue {
                var run = StepRun()
                for (index, element) in elements.enumerated() {
                    let decoded = StepDefinition.decodeWithChildIndices(
                        element, location: StepLocation(unit: index, child: -1), allowsPages: true, errors: &errors)
                    run.add(decoded, unit: index)
                }
                steps = run.steps
                // Steps with problems were left out; remember where the kept ones are in the file so
                // that the compiler's messages still point at the right places.
                if run.dropped { sourceMap = run.map }
                if elements.isEmpty {
                    errors.append(
                        SurveyError(
                            .invalidValue, "a survey needs at least one step", path: JSONPath.root.appending("steps")))
                }
            } else {
                errors.append(
                    SurveyError(
                        .invalidValue, "'steps' must be an array, got \(stepsValue.kindDescription)",
                        path: JSONPath.root.appending("steps")))
            }
        } else {
            errors.append(
                SurveyError(.missingField, "missing required member 'steps' (an array of steps)", path: .root))
        }
        self.steps = steps
        schema = attempt { () throws(SurveyError) in try reader.optionalString("$schema") } ?? nil
        _ = attempt { () throws(SurveyError) in try reader.finish() }
    }
}

// MARK: - Encoding

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
        if let enableIf { members["enableIf"] = .string(enableIf) }
        if let defaultValueExpression { members["defaultValueExpression"] = .string(defaultValueExpression) }
        if showCommentArea { members["showCommentArea"] = .bool(true) }
        if let commentText { members["commentText"] = commentText.jsonValue }
        return .object(members)
    }
}

extension SurveyDefinition {
    /// The step at `unitOffset` in ``steps``, or, when `childOffset` is not negative, the step at
    /// `childOffset` in that page's steps (where a compiled step's definition is).
    func step(unitOffset: Int32, childOffset: Int32) -> StepDefinition {
        let unit = steps[Int(unitOffset)]
        return childOffset < 0 ? unit : unit.steps[Int(childOffset)]
    }
}

extension SurveyDefinition: Codable {
    public init(from decoder: any Decoder) throws {
        try self.init(json: JSONValue(from: decoder))
    }

    public func encode(to encoder: any Encoder) throws {
        try jsonValue.encode(to: encoder)
    }
}

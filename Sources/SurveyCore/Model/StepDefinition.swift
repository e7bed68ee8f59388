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
        var choicesVisibleIf: String?
        var defaultValueExpression: String?
        var setValueIf: String?
        var setValueExpression: String?
        var resetValueIf: String?
        var validators: [ValidatorDefinition] = []
        var panels: [PanelDefinition] = []
        var showCommentArea = false
        var commentText: LocalizedText?
        var requiredMessage: LocalizedText?
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
    /// A condition each of the question's choices must meet to be offered (SurveyJS's
    /// `choicesVisibleIf`), read with `{$item.value}` and `{$item.text}` as that choice; it applies to
    /// choices carried forward (`choicesFromQuestion`) as to listed ones, not to Other or None.
    public var choicesVisibleIf: String? {
        get { rare?.members.choicesVisibleIf }
        set { updateRare { $0.choicesVisibleIf = newValue } }
    }
    /// An expression whose value is the question's answer until the respondent answers it
    /// (SurveyJS's `defaultValueExpression`): evaluated at the start and whenever what it reads changes.
    public var defaultValueExpression: String? {
        get { rare?.members.defaultValueExpression }
        set { updateRare { $0.defaultValueExpression = newValue } }
    }
    /// A condition that sets the answer (SurveyJS's `setValueIf`): each time a value it or
    /// ``setValueExpression`` reads changes and it holds, the answer becomes ``setValueExpression``'s
    /// value, or is cleared when there is none.
    ///
    /// ```json
    /// {"id": "total", "type": "number", "setValueIf": "{mode} = 'auto'", "setValueExpression": "{a} + {b}"}
    /// ```
    public var setValueIf: String? {
        get { rare?.members.setValueIf }
        set { updateRare { $0.setValueIf = newValue } }
    }
    /// The value ``setValueIf`` sets (SurveyJS's `setValueExpression`). Without a `setValueIf` it is
    /// evaluated whenever a value it reads changes and becomes the answer then, also over an answer
    /// the respondent gave (unlike ``defaultValueExpression``).
    public var setValueExpression: String? {
        get { rare?.members.setValueExpression }
        set { updateRare { $0.setValueExpression = newValue } }
    }
    /// A condition that clears the answer (SurveyJS's `resetValueIf`): when a value it reads changes,
    /// the answer is not empty and the condition holds, the answer goes back to the question's
    /// default (``defaultValue`` or ``defaultValueExpression``), or is cleared when it has none.
    public var resetValueIf: String? {
        get { rare?.members.resetValueIf }
        set { updateRare { $0.resetValueIf = newValue } }
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
    /// What the respondent is told when this required question is left unanswered (SurveyJS's
    /// `requiredErrorText`); the built-in "Please answer this question." when `nil`. Piped, like a title.
    public var requiredMessage: LocalizedText? {
        get { rare?.members.requiredMessage }
        set { updateRare { $0.requiredMessage = newValue } }
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

/// A compiled survey, ready to run: question types configured, expressions parsed once with every
/// reference resolved, and the dependency graph built.
///
/// Create one with ``SurveyLoader``. A `Survey` is immutable and `Sendable`; any number of
/// ``SurveySession``s (one per respondent) can share it, on any threads.
public struct Survey: Sendable {
    /// Everything compiled, behind one reference: a session holds the survey, and copying a struct
    /// of some thirty references would retain each of them (and copy them, on every mutating call
    /// that reads the survey) where one reference costs one retain.
    @usableFromInline let storage: CompiledSurvey

    /// The definition it was compiled from.
    public var definition: SurveyDefinition { storage.definition }
    /// The function registry expressions were compiled against.
    public var functions: ExpressionFunctionRegistry { storage.functions }

    var units: [CompiledUnit] { storage.units }
    var steps: StepTable { storage.steps }
    /// ``steps`` without a counted reference: the session's answer path reads the table through it
    /// (``Unmanaged/_withUnsafeGuaranteedRef(_:)``), so that a call it makes with the table in hand
    /// does not retain and release the table around it (sessions on several threads would update the
    /// same reference count). Valid while the survey is.
    var unretainedSteps: Unmanaged<StepTable> { .passUnretained(storage.steps) }
    /// ``storage`` without a counted reference, like ``unretainedSteps``.
    var unretainedStorage: Unmanaged<CompiledSurvey> { .passUnretained(storage) }
    var calculated: [CompiledCalculated] { storage.calculated }
    /// Leaf step id → step index (which is also its value slot).
    var stepIndexByID: IDTable { storage.stepIndexByID }
    /// Unit (page or top-level step) id → unit index.
    var unitIndexByID: IDTable { storage.unitIndexByID }
    /// Calculated value name → calculated index (slot = steps.count + index).
    var calculatedIndexByName: [String: Int] { storage.calculatedIndexByName }
    /// For each slot, what must be re-evaluated when its value changes.
    var watchers: WatcherTable { storage.watchers }
    /// Calculated values in an order where each comes after those it depends on.
    var calculatedOrder: [Int] { storage.calculatedOrder }
    /// `calculatedRank[i]` is the position of calculated value `i` in ``calculatedOrder``.
    var calculatedRank: [Int] { storage.calculatedRank }
    /// Steps whose question has an Other choice (see ``OtherChoices``), by step index.
    var otherChoices: [Int: OtherChoices] { storage.otherChoices }
    /// The survey's triggers, in document order.
    var triggers: [CompiledTrigger] { storage.triggers }
    /// The `complete` triggers, checked on Next.
    var completeTriggers: [Int] { storage.completeTriggers }
    /// The steps with a `defaultValue` or `defaultValueExpression`, applied when a session starts.
    var defaultSteps: [Int] { storage.defaultSteps }
    /// `completionMessages`, compiled: the first whose condition holds is the completion message.
    var completionMessages: [(condition: Expression?, text: LocalizedText)] { storage.completionMessages }
    /// `settings.clearInvisibleValues`.
    var clearInvisibleValues: ClearInvisibleValues { storage.clearInvisibleValues }
    /// The steps with an `enableIf`.
    var conditionallyEnabledSteps: [Int] { storage.conditionallyEnabledSteps }
    /// Steps with `validators`, by step index (run on Next; see ``CompiledValidator``).
    var validators: [Int: [CompiledValidator]] { storage.validators }
    /// The panels (``PanelDefinition``), in document order, outer before inner.
    var panels: [CompiledPanel] { storage.panels }
    /// For each unit with panels, the range of its panels in ``panels``.
    var panelsByUnit: [Int: Range<Int>] { storage.panelsByUnit }
    /// Steps with a comment box (`showCommentArea`), by step index: the value slot of `<id>-Comment`.
    var commentSlots: [Int: Int] { storage.commentSlots }
    /// The steps that count for progress and may count as more than one question (a repeat's
    /// instances, ``QuestionType/progressCount(for:in:)``), by unit.
    var multipleCountSteps: [Int: [Int]] { storage.multipleCountSteps }
    /// What Next reads of every step of a unit, a byte a step (see ``StepFlags``).
    var stepFlags: [StepFlags] { storage.steps.flags }

    /// The survey id.
    public var id: String { definition.id }
    /// The number of leaf steps (questions and content steps, pages not counted).
    public var stepCount: Int { steps.count }
    /// The number of top-level units: pages and steps outside pages.
    public var unitCount: Int { units.count }
    /// The total number of compiled expressions (visibility, requirement, branches, calculated values, choices).
    public var expressionCount: Int { storage.expressionCount }
    /// Whether any expression reads the session: a date function (`today()`, `age()`), a host
    /// variable, or the locale (`displayValue()`).
    var usesDateFunctions: Bool { storage.usesDateFunctions }
    /// The state every session starts from (all conditions evaluated with no answers).
    var initialState: InitialState? { storage.initialState }

    init(
        definition: SurveyDefinition, functions: ExpressionFunctionRegistry, units: [CompiledUnit],
        steps: StepTable, calculated: [CompiledCalculated], stepIndexByID: IDTable,
        unitIndexByID: IDTable, calculatedIndexByName: [String: Int], watchers: WatcherTable,
        calculatedOrder: [Int], expressionCount: Int, usesDateFunctions: Bool, otherChoices: [Int: OtherChoices] = [:],
        triggers: [CompiledTrigger] = [], completionMessages: [(condition: Expression?, text: LocalizedText)] = [],
        validators: [Int: [CompiledValidator]] = [:], panels: [CompiledPanel] = [], commentSlots: [Int: Int] = [:]
    ) {
        storage = CompiledSurvey(
            definition: definition, functions: functions, units: units, steps: steps, calculated: calculated,
            stepIndexByID: stepIndexByID, unitIndexByID: unitIndexByID, calculatedIndexByName: calculatedIndexByName,
            watchers: watchers, calculatedOrder: calculatedOrder, expressionCount: expressionCount,
            usesDateFunctions: usesDateFunctions, otherChoices: otherChoices, triggers: triggers,
            completionMessages: completionMessages, validators: validators, panels: panels,
            commentSlots: commentSlots)
        var today = FunctionContext.current()
        today.locale = definition.defaultLocale
        today.defaultLocale = definition.defaultLocale
        let initial = DerivedState.compute(survey: self, context: today)
        storage.initialState = InitialState(today: today.today, values: initial.values, derived: initial.derived)
    }

    /// The ids of every leaf step, in document order.
    public var stepIDs: [String] { steps.ids }

    /// The position of step `id` in this survey, for the index-keyed session API hot loops use
    /// (``SurveySession/answer(_:at:)``, ``SurveySession/isVisible(at:)``): one hash here instead of
    /// one per call.
    public func stepIndex(of id: String) -> StepIndex? { stepIndexByID[id].map(StepIndex.init) }

    /// The id of the step at `index`; `nil` when this survey has no such position.
    public func stepID(at index: StepIndex) -> String? {
        steps.indices.contains(index.rawValue) ? steps.ids[index.rawValue] : nil
    }

    /// The configured question of step `id`, e.g. to summarise answers in a report.
    public func question(forStep id: String) -> ConfiguredQuestion? {
        stepIndexByID[id].map { steps.questions[$0] }
    }

    /// Whether step `id`'s question offers an Other choice, whose text expressions read as
    /// `{id-Comment}` (and `{id}` as `'other'`), as in SurveyJS.
    public func hasOtherChoice(step id: String) -> Bool {
        stepIndexByID[id].map { otherChoices[$0] != nil } ?? false
    }

    /// The definition of the step at `index` (compiled steps do not copy its title and description).
    func definition(ofStep index: Int) -> StepDefinition {
        definition.step(unitOffset: steps.unitOffsets[index], childOffset: steps.childOffsets[index])
    }

    /// The definition of leaf step `id`.
    public func stepDefinition(_ id: String) -> StepDefinition? {
        stepIndexByID[id].map(definition(ofStep:))
    }

    /// Whether `key` is the comment of a step with a comment box (`showCommentArea`): `"<id>-Comment"`.
    /// Answers to it set the comment; results report it under that key.
    public func isComment(_ key: String) -> Bool {
        commentStep(key) != nil
    }

    /// Whether `key` can be answered in a session: a leaf step id, a comment key (`<id>-Comment`) or an
    /// entry of a list answer (`<id>[k]`, see ``SurveySession/answer(_:for:)``).
    public func isAnswerKey(_ key: String) -> Bool {
        stepIndexByID[key] != nil || commentStep(key) != nil || entryKey(key) != nil
    }

    /// The id of the step that answer key `key` belongs to: the step itself, the step of a comment
    /// (`<id>-Comment`) or of an entry (`<id>[k]`); `nil` for a key that names no step.
    public func stepID(forAnswerKey key: String) -> String? {
        if stepIndexByID[key] != nil { return key }
        guard let index = commentStep(key) ?? entryKey(key)?.step else { return nil }
        return steps.ids[index]
    }

    /// The step and the entry (from 0) that `key` names as `<id>[k]`, when `<id>` is a step id that is
    /// not itself `key` and `k` is a decimal index.
    func entryKey(_ key: String) -> (step: Int, entry: Int)? {
        guard key.utf8.last == UInt8(ascii: "]"), let open = key.utf8.lastIndex(of: UInt8(ascii: "[")) else {
            return nil
        }
        let digits = key.utf8[key.utf8.index(after: open)..<key.utf8.index(before: key.utf8.endIndex)]
        guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy({ (48...57).contains($0) }),
            let entry = Int(Substring(digits)), let step = stepIndexByID[String(key[..<open])]
        else { return nil }
        return (step, entry)
    }

    /// The step index whose comment `key` is.
    func commentStep(_ key: String) -> Int? {
        guard !commentSlots.isEmpty, key.hasSuffix("-Comment"), let index = stepIndexByID[String(key.dropLast(8))],
            commentSlots[index] != nil
        else { return nil }
        return index
    }

    /// Whether `id` names a page or top-level step (a unit that can be on a path).
    public func isUnit(_ id: String) -> Bool { unitIndexByID[id] != nil }

    /// The ids of the units (pages and top-level steps), in document order.
    public var unitIDs: [String] { units.map(\.id) }

    /// The position of unit `id` (a page or top-level step), for the index-keyed API.
    public func unitIndex(of id: String) -> UnitIndex? { unitIndexByID[id].map(UnitIndex.init) }

    /// The id of the unit at `index`; `nil` when this survey has no such position.
    public func unitID(at index: UnitIndex) -> String? {
        units.indices.contains(index.rawValue) ? units[index.rawValue].id : nil
    }

    /// The positions of the leaf steps of the unit at `index`, in document order (empty for a
    /// position this survey does not have).
    public func steps(inUnit index: UnitIndex) -> [StepIndex] {
        guard units.indices.contains(index.rawValue) else { return [] }
        return units[index.rawValue].steps.map(StepIndex.init)
    }

    /// Whether leaf step `id` is switched on (`enabled`, and its page too): a switched-off question is
    /// never shown, never counted and absent from results and reports.
    public func isSwitchedOn(_ stepID: String) -> Bool {
        guard let index = stepIndexByID[stepID] else { return false }
        return steps.flags[index].contains(.isEnabled) && units[Int(steps.units[index])].isEnabled
    }

    /// The ids of the leaf steps of unit `id` in document order (a top-level step is its own only step).
    public func stepIDs(inUnit id: String) -> [String] {
        guard let index = unitIndexByID[id] else { return [] }
        return units[index].steps.map { steps.ids[$0] }
    }
}

/// The compiled survey's parts (``Survey`` is one reference to this): immutable once
/// ``Survey/init`` has set ``initialState``, before the survey is shared.
@usableFromInline
final class CompiledSurvey: Sendable {
    let definition: SurveyDefinition
    let functions: ExpressionFunctionRegistry
    let units: [CompiledUnit]
    /// `units[i].isEnabled`, read on every change of a unit's visibility without retaining the unit.
    let unitIsEnabled: [Bool]
    @usableFromInline let steps: StepTable
    let calculated: [CompiledCalculated]
    let stepIndexByID: IDTable
    let unitIndexByID: IDTable
    let calculatedIndexByName: [String: Int]
    let watchers: WatcherTable
    let calculatedOrder: [Int]
    let calculatedRank: [Int]
    let otherChoices: [Int: OtherChoices]
    let triggers: [CompiledTrigger]
    let completeTriggers: [Int]
    let defaultSteps: [Int]
    let completionMessages: [(condition: Expression?, text: LocalizedText)]
    let clearInvisibleValues: ClearInvisibleValues
    let conditionallyEnabledSteps: [Int]
    let validators: [Int: [CompiledValidator]]
    let panels: [CompiledPanel]
    let panelsByUnit: [Int: Range<Int>]
    let commentSlots: [Int: Int]
    let multipleCountSteps: [Int: [Int]]
    let expressionCount: Int
    let usesDateFunctions: Bool
    /// The UI strings of the default locale, which most sessions use (one lookup per survey, not per session).
    let defaultStrings: UIStrings
    /// Written once, by ``Survey/init``, before any other thread can see the survey.
    nonisolated(unsafe) var initialState: InitialState?

    init(
        definition: SurveyDefinition, functions: ExpressionFunctionRegistry, units: [CompiledUnit],
        steps: StepTable, calculated: [CompiledCalculated], stepIndexByID: IDTable,
        unitIndexByID: IDTable, calculatedIndexByName: [String: Int], watchers: WatcherTable,
        calculatedOrder: [Int], expressionCount: Int, usesDateFunctions: Bool, otherChoices: [Int: OtherChoices],
        triggers: [CompiledTrigger], completionMessages: [(condition: Expression?, text: LocalizedText)],
        validators: [Int: [CompiledValidator]], panels: [CompiledPanel], commentSlots: [Int: Int]
    ) {
        self.commentSlots = commentSlots
        self.panels = panels
        var panelsByUnit: [Int: Range<Int>] = [:]
        for (index, panel) in panels.enumerated() {
            let range = panelsByUnit[panel.unit] ?? index..<index
            panelsByUnit[panel.unit] = range.lowerBound..<(index + 1)
        }
        self.panelsByUnit = panelsByUnit
        self.completionMessages = completionMessages
        clearInvisibleValues = definition.settings.clearInvisibleValues
        self.otherChoices = otherChoices
        self.triggers = triggers
        completeTriggers = triggers.indices.filter {
            if case .complete = triggers[$0].action { return true }
            return false
        }
        // The steps with extras are listed in the table; only counting steps' questions are read.
        var defaultSteps: [Int] = []
        var conditionallyEnabledSteps: [Int] = []
        for (index, extras) in steps.extras {
            if extras.defaultValue != nil || extras.defaultExpression != nil { defaultSteps.append(index) }
            if extras.enableIf != nil { conditionallyEnabledSteps.append(index) }
        }
        var multipleCountSteps: [Int: [Int]] = [:]
        for index in steps.indices
        where steps.flags[index].contains(.countsForProgress) && steps.questions.countsAsSeveral(at: index) {
            multipleCountSteps[Int(steps.units[index]), default: []].append(index)
        }
        self.defaultSteps = defaultSteps.sorted()
        self.conditionallyEnabledSteps = conditionallyEnabledSteps.sorted()
        self.multipleCountSteps = multipleCountSteps
        self.validators = validators
        self.definition = definition
        self.functions = functions
        self.units = units
        unitIsEnabled = units.map(\.isEnabled)
        self.steps = steps
        self.calculated = calculated
        self.stepIndexByID = stepIndexByID
        self.unitIndexByID = unitIndexByID
        self.calculatedIndexByName = calculatedIndexByName
        self.watchers = watchers
        self.calculatedOrder = calculatedOrder
        var rank = [Int](repeating: 0, count: calculated.count)
        for (position, index) in calculatedOrder.enumerated() { rank[index] = position }
        calculatedRank = rank
        self.expressionCount = expressionCount
        self.usesDateFunctions = usesDateFunctions
        defaultStrings = UIStrings(locale: definition.defaultLocale)
    }
}

/// The facts about a step that Next checks for each step of the unit it leaves.
struct StepFlags: OptionSet, Sendable {
    let rawValue: UInt8

    /// It takes an answer (content steps do not).
    static let collectsAnswer = StepFlags(rawValue: 1)
    /// `required`, or a `requiredIf` that may hold.
    static let mayBeRequired = StepFlags(rawValue: 2)
    /// Its type checks the answer once more on Next (``AnyQuestionBox/checksAgainOnNext``).
    static let checksAgainOnNext = StepFlags(rawValue: 4)
    /// It has branches of its own.
    static let hasBranches = StepFlags(rawValue: 8)
    /// `required`.
    static let isRequired = StepFlags(rawValue: 16)
    /// Switched on (`enabled`, and its panels too).
    static let isEnabled = StepFlags(rawValue: 32)
    /// It counts for progress.
    static let countsForProgress = StepFlags(rawValue: 64)
    /// It has ``StepExtras``.
    static let hasExtras = StepFlags(rawValue: 128)

    init(rawValue: UInt8) { self.rawValue = rawValue }

    init(of step: CompiledStep) {
        var flags: StepFlags = []
        if step.collectsAnswer { flags.insert(.collectsAnswer) }
        if step.isRequired || step.requiredIf != nil { flags.insert(.mayBeRequired) }
        if step.question.checksAgainOnNext { flags.insert(.checksAgainOnNext) }
        if !step.branches.isEmpty { flags.insert(.hasBranches) }
        if step.isRequired { flags.insert(.isRequired) }
        if step.isEnabled { flags.insert(.isEnabled) }
        if step.countsForProgress { flags.insert(.countsForProgress) }
        if step.hasExtras { flags.insert(.hasExtras) }
        self = flags
    }
}

/// A panel: its texts, where it is, and its requirement (its conditions are folded into its steps').
struct CompiledPanel: Sendable {
    let id: String
    let unit: Int
    /// The index in ``Survey/panels`` of the panel it is nested in.
    let parent: Int?
    /// Every step inside it (nested panels' too), in document order.
    let steps: [Int]
    let title: LocalizedText?
    let description: LocalizedText?
    let isRequired: Bool
    let requiredIf: Expression?
}

/// A reference type: sessions read it on every answer, and copying a struct this size
/// would retain each of its fields.
final class CompiledUnit: Sendable {
    let id: String
    let isPage: Bool
    let steps: Range<Int>
    /// The page's own condition (for a top-level step, `nil`: the step's own condition applies).
    let visibleIf: Expression?
    let branches: [CompiledBranch]
    let title: LocalizedText?
    let description: LocalizedText?
    let isShuffled: Bool
    let isEnabled: Bool

    init(
        id: String,
        isPage: Bool,
        steps: Range<Int>,
        visibleIf: Expression?,
        branches: [CompiledBranch],
        title: LocalizedText?,
        description: LocalizedText?,
        isShuffled: Bool,
        isEnabled: Bool
    ) {
        self.id = id
        self.isPage = isPage
        self.steps = steps
        self.visibleIf = visibleIf
        self.branches = branches
        self.title = title
        self.description = description
        self.isShuffled = isShuffled
        self.isEnabled = isEnabled
    }
}

/// One compiled step, as the compiler makes it and as ``StepTable``'s subscript gives it back: a
/// value put together from the table's columns on each read (retaining each of its references).
/// Code that runs on every answer reads only the columns it needs instead (``StepTable/units``,
/// ``StepTable/flags``, …).
///
/// The title and description are read from the definition (``Survey/definition(ofStep:)``), and the
/// members most steps do without live in one optional ``StepExtras``.
@usableFromInline
struct CompiledStep {
    let id: String
    let unit: Int
    let question: ConfiguredQuestion
    /// Where the step is in the definition (its page's position, and its position in the page or -1).
    let unitOffset: Int32
    let childOffset: Int32
    let visibleIf: Expression?
    /// A `visibleIf` that is a simple comparison, compiled straight to its cell (``visibleIf`` is then
    /// `nil`): the compiler makes no expression for it, and the step table keeps only the cell.
    let visibleIfCell: StepCondition?
    let branches: [CompiledBranch]
    let isRequired: Bool
    let isEnabled: Bool
    let collectsAnswer: Bool
    let countsForProgress: Bool
    let extras: StepExtras?

    /// Whether any of the members kept in ``StepExtras`` is set (most steps have none).
    var hasExtras: Bool { extras != nil }
    var requiredIf: Expression? { extras?.requiredIf }
    /// Conditions on individual choices: choice value → condition.
    var choiceConditions: [String: Expression] { extras?.choiceConditions ?? StepExtras.none }
    /// The answer it starts with (already normalised), if any.
    var defaultValue: JSONValue? { extras?.defaultValue }
    /// The expression whose value is its answer until the respondent answers it.
    var defaultExpression: Expression? { extras?.defaultExpression }
    /// Shown but never editable.
    var isReadOnly: Bool { extras?.isReadOnly ?? false }
    /// Editable only while this holds.
    var enableIf: Expression? { extras?.enableIf }
    /// The question type's own expressions (``QuestionType/expressions(for:)``), by name.
    var typeExpressions: [String: Expression] { extras?.typeExpressions ?? StepExtras.none }

    init(
        id: String,
        unit: Int,
        question: ConfiguredQuestion,
        unitOffset: Int32,
        childOffset: Int32,
        visibleIf: Expression?,
        requiredIf: Expression?,
        branches: [CompiledBranch],
        choiceConditions: [String: Expression],
        isRequired: Bool,
        isEnabled: Bool,
        collectsAnswer: Bool,
        countsForProgress: Bool,
        defaultValue: JSONValue? = nil,
        defaultExpression: Expression? = nil,
        isReadOnly: Bool = false,
        enableIf: Expression? = nil,
        typeExpressions: [String: Expression] = [:],
        visibleIfCell: StepCondition? = nil
    ) {
        let hasExtras =
            requiredIf != nil || !choiceConditions.isEmpty || defaultValue != nil || defaultExpression != nil
            || isReadOnly || enableIf != nil || !typeExpressions.isEmpty
        self.init(
            id: id, unit: unit, question: question, unitOffset: unitOffset, childOffset: childOffset,
            visibleIf: visibleIf, visibleIfCell: visibleIfCell, branches: branches, isRequired: isRequired,
            isEnabled: isEnabled, collectsAnswer: collectsAnswer, countsForProgress: countsForProgress,
            extras: hasExtras
                ? StepExtras(
                    requiredIf: requiredIf, choiceConditions: choiceConditions, defaultValue: defaultValue,
                    defaultExpression: defaultExpression, isReadOnly: isReadOnly, enableIf: enableIf,
                    typeExpressions: typeExpressions) : nil)
    }

    /// A step put together from its parts (``StepTable``'s subscript).
    init(
        id: String, unit: Int, question: ConfiguredQuestion, unitOffset: Int32, childOffset: Int32,
        visibleIf: Expression?, visibleIfCell: StepCondition? = nil, branches: [CompiledBranch], isRequired: Bool,
        isEnabled: Bool, collectsAnswer: Bool, countsForProgress: Bool, extras: StepExtras?
    ) {
        self.id = id
        self.unit = unit
        self.question = question
        self.unitOffset = unitOffset
        self.childOffset = childOffset
        self.visibleIf = visibleIf
        self.visibleIfCell = visibleIfCell
        self.branches = branches
        self.isRequired = isRequired
        self.isEnabled = isEnabled
        self.collectsAnswer = collectsAnswer
        self.countsForProgress = countsForProgress
        self.extras = extras
    }
}

/// The members of a step that most steps do without, for the steps that have any of them.
final class StepExtras: Sendable {
    let requiredIf: Expression?
    let choiceConditions: [String: Expression]
    let defaultValue: JSONValue?
    let defaultExpression: Expression?
    let isReadOnly: Bool
    let enableIf: Expression?
    let typeExpressions: [String: Expression]

    /// Made once: `[:]` in the accessors built an empty dictionary on every read.
    static let none: [String: Expression] = [:]

    init(
        requiredIf: Expression?, choiceConditions: [String: Expression], defaultValue: JSONValue?,
        defaultExpression: Expression?, isReadOnly: Bool, enableIf: Expression?,
        typeExpressions: [String: Expression]
    ) {
        self.requiredIf = requiredIf
        self.choiceConditions = choiceConditions
        self.defaultValue = defaultValue
        self.defaultExpression = defaultExpression
        self.isReadOnly = isReadOnly
        self.enableIf = enableIf
        self.typeExpressions = typeExpressions
    }
}

/// The compiled steps as columns, one array per member (a struct of arrays): a step has no
/// allocation of its own, reading one member of it touches nothing else, and the members most steps
/// leave empty (branches, ``StepExtras``) are kept only for the steps that have them.
///
/// A reference, made once from the ``StepColumns`` the compiler filled: a session reads it on every
/// answer, and a struct of nine arrays would be retained nine times for each read of the survey's steps.
/// ``subscript(_:)`` puts a step back together as a ``CompiledStep``.
@usableFromInline
final class StepTable: RandomAccessCollection, Sendable {
    let ids: [String]
    /// Each step's unit.
    @usableFromInline let units: [Int32]
    /// Each step's configured question (``QuestionColumn``).
    let questions: QuestionColumn
    let unitOffsets: [Int32]
    let childOffsets: [Int32]
    /// Each step's `visibleIf` as the session evaluates it (``StepCondition``); ``visibleIf(of:)``
    /// gives it as an expression.
    private let conditions: [StepCondition]
    /// The conditions that are not simple comparisons, as handles (``StepCondition/Kind/expression``).
    private let expressionHandles: [ExpressionHandle]
    /// Those conditions' expressions, which the handles do not keep alive.
    private let conditionOwners: [Expression]
    /// The survey's steps as written, where a comparison's text is (its step's own `visibleIf`).
    private let definitionSteps: [StepDefinition]
    /// What the session reads of every step without the step itself (see ``StepFlags``).
    let flags: [StepFlags]
    /// The branches of the steps that have any (``StepFlags/hasBranches``), by step index.
    let branches: [Int: [CompiledBranch]]
    /// The extras of the steps that have any (``StepFlags/hasExtras``), by step index.
    let extras: [Int: StepExtras]

    init(_ columns: StepColumns, definition: SurveyDefinition) {
        ids = columns.ids
        units = columns.units
        questions = QuestionColumn(boxes: columns.questions, owners: columns.questionOwners)
        unitOffsets = columns.unitOffsets
        childOffsets = columns.childOffsets
        conditions = columns.conditions
        expressionHandles = columns.conditionOwners.map(ExpressionHandle.init)
        conditionOwners = columns.conditionOwners
        definitionSteps = definition.steps
        flags = columns.flags
        branches = columns.branches
        extras = columns.extras
    }

    /// ``ConfiguredQuestion/normalize(_:in:)`` of step `index`'s question, without retaining and
    /// releasing the question (see ``QuestionColumn``).
    @inline(__always)
    func normalize(_ value: JSONValue, at index: Int, in context: PresentationContext) throws(AnswerError)
        -> JSONValue
    {
        let result: Result<JSONValue, AnswerError> = questions.boxes[index]._withUnsafeGuaranteedRef { box in
            do throws(AnswerError) { return .success(try box.normalize(value, in: context)) } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Step `index`'s `visibleIf`, if it has one.
    func visibleIf(of index: Int) -> Expression? {
        let condition = conditions[index]
        switch condition.kind {
        case .always: return nil
        case .comparison:
            let unit = definitionSteps[Int(unitOffsets[index])]
            let step = childOffsets[index] < 0 ? unit : unit.steps[Int(childOffsets[index])]
            return Expression(
                comparison: condition.op, slot: condition.slot, literal: condition.literal,
                source: step.visibleIf ?? "")
        case .expression: return conditionOwners[Int(condition.slot)]
        }
    }

    @usableFromInline var startIndex: Int { 0 }
    @usableFromInline var endIndex: Int { ids.count }

    /// Step `index`, put together from the columns (each of its references retained: hot code reads
    /// the columns it needs instead).
    @usableFromInline subscript(index: Int) -> CompiledStep {
        let flags = flags[index]
        return CompiledStep(
            id: ids[index], unit: Int(units[index]), question: questions[index], unitOffset: unitOffsets[index],
            childOffset: childOffsets[index], visibleIf: visibleIf(of: index),
            branches: flags.contains(.hasBranches) ? branches[index] ?? [] : [],
            isRequired: flags.contains(.isRequired), isEnabled: flags.contains(.isEnabled),
            collectsAnswer: flags.contains(.collectsAnswer), countsForProgress: flags.contains(.countsForProgress),
            extras: flags.contains(.hasExtras) ? extras[index] : nil)
    }

    /// Step `index`'s extras, if it has any.
    @inline(__always)
    func extras(of index: Int) -> StepExtras? {
        flags[index].contains(.hasExtras) ? extras[index] : nil
    }

    /// Whether step `index` is shown now: it is switched on and its `visibleIf`, if any, holds for
    /// `values`.
    @inline(__always)
    func isShown(_ index: Int, values: [JSONValue], context: FunctionContext) -> Bool {
        guard flags[index].contains(.isEnabled) else { return false }
        // Read in place: a copy of the cell would copy its constant.
        return conditions.withUnsafeBufferPointer { cells in
            let cell = cells.baseAddress.unsafelyUnwrapped + index
            switch cell.pointee.kind {
            case .always: return true
            case .comparison:
                let literal = UnsafeRawPointer(cell).assumingMemoryBound(to: JSONValue.self)
                return values.withUnsafeBufferPointer { values in
                    Evaluator.compare(cell.pointee.op, slot: cell.pointee.slot, of: values, with: literal)
                }
            case .expression:
                return expressionHandles[Int(cell.pointee.slot)].isTrue(values, context: context)
            }
        }
    }

    /// ``isShown(_:values:context:)`` of `table`, read without retaining it.
    @inline(__always)
    static func isShown(
        _ index: Int, in table: Unmanaged<StepTable>, values: [JSONValue], context: FunctionContext
    ) -> Bool {
        table._withUnsafeGuaranteedRef { $0.isShown(index, values: values, context: context) }
    }

    /// Whether step `index` is shown but never editable.
    @inline(__always)
    func isReadOnly(_ index: Int) -> Bool {
        flags[index].contains(.hasExtras) && (extras[index]?.isReadOnly ?? false)
    }

    /// Step `index`'s branches (empty for most steps).
    @inline(__always)
    func branches(of index: Int) -> [CompiledBranch] {
        flags[index].contains(.hasBranches) ? branches[index] ?? [] : []
    }
}

/// The steps' configured questions: an unretained reference a step, and each distinct question held
/// once (``owners``: a survey's steps share a handful), so that neither making nor freeing the
/// column counts references a step. Reading one (``subscript(_:)``) retains it like any copy; the
/// session's answer path normalizes through ``StepTable/normalize(_:at:in:)`` instead, which does
/// not: sessions on several threads answering the same survey would otherwise update the same
/// reference counts, an atomic operation on a cache line the cores take from each other.
struct QuestionColumn: Sendable {
    fileprivate let boxes: [Unmanaged<AnyQuestionBox>]
    /// Every question in ``boxes``, once: what keeps them alive.
    private let owners: [AnyQuestionBox]

    init(boxes: [Unmanaged<AnyQuestionBox>], owners: [AnyQuestionBox]) {
        self.boxes = boxes
        self.owners = owners
    }

    subscript(index: Int) -> ConfiguredQuestion {
        ConfiguredQuestion(box: boxes[index].takeUnretainedValue())
    }

    /// ``ConfiguredQuestion/countsAsSeveral`` of question `index`, read without retaining it (the
    /// survey reads it for every step when it is assembled).
    func countsAsSeveral(at index: Int) -> Bool {
        boxes[index]._withUnsafeGuaranteedRef { $0.countsAsSeveral }
    }
}

/// The columns of ``StepTable`` while the compiler fills them: steps are appended in order, one
/// chunk's after another's. The ids are set at the end, from the step-id table's keys: the same
/// array then serves both (a survey's ids are not held twice).
struct StepColumns {
    fileprivate(set) var ids: [String] = []
    fileprivate(set) var units: [Int32] = []
    /// Each step's question, unretained: ``questionOwners`` holds each distinct one.
    fileprivate(set) var questions: [Unmanaged<AnyQuestionBox>] = []
    /// The questions of ``questions``, each once (in the order first met).
    fileprivate(set) var questionOwners: [AnyQuestionBox] = []
    /// Where each of ``questionOwners`` is in it.
    private var ownerPositions: [ObjectIdentifier: Int] = [:]
    fileprivate(set) var unitOffsets: [Int32] = []
    fileprivate(set) var childOffsets: [Int32] = []
    fileprivate(set) var conditions: [StepCondition] = []
    /// The conditions that are not simple comparisons, in step order.
    fileprivate(set) var conditionOwners: [Expression] = []
    fileprivate(set) var flags: [StepFlags] = []
    fileprivate(set) var branches: [Int: [CompiledBranch]] = [:]
    fileprivate(set) var extras: [Int: StepExtras] = [:]

    var count: Int { units.count }

    mutating func reserveCapacity(_ count: Int, conditions reservesConditions: Bool = true) {
        units.reserveCapacity(count)
        questions.reserveCapacity(count)
        unitOffsets.reserveCapacity(count)
        childOffsets.reserveCapacity(count)
        if reservesConditions { conditions.reserveCapacity(count) }
        flags.reserveCapacity(count)
    }

    /// Adds `step` as step ``count`` (but not its id: see ``setIDs(_:)``). `visibleIfIsOwn`: its
    /// condition is its own `visibleIf` as written (no panel's folded into it), so that a simple
    /// comparison can be kept as parts and made again from that text.
    mutating func append(_ step: CompiledStep, visibleIfIsOwn: Bool) {
        let index = units.count
        units.append(Int32(truncatingIfNeeded: step.unit))
        questions.append(Unmanaged.passUnretained(step.question.box))
        own(step.question.box)
        unitOffsets.append(step.unitOffset)
        childOffsets.append(step.childOffset)
        if let cell = step.visibleIfCell {
            conditions.append(cell)
        } else if let visibleIf = step.visibleIf {
            if visibleIfIsOwn, let parts = visibleIf.comparisonParts {
                conditions.append(
                    StepCondition(literal: parts.literal, op: parts.op, kind: .comparison, slot: parts.slot))
            } else {
                conditions.append(
                    StepCondition(
                        literal: .null, op: .equal, kind: .expression,
                        slot: Int32(truncatingIfNeeded: conditionOwners.count)))
                conditionOwners.append(visibleIf)
            }
        } else {
            conditions.append(.always)
        }
        flags.append(StepFlags(of: step))
        if !step.branches.isEmpty { branches[index] = step.branches }
        if let extras = step.extras { self.extras[index] = extras }
    }

    /// Adds `box` to ``questionOwners`` unless it is there: most steps have the question of the step
    /// before them, or of one of the last few.
    private mutating func own(_ box: AnyQuestionBox) {
        for owner in questionOwners.suffix(4).reversed() where owner === box { return }
        let identifier = ObjectIdentifier(box)
        guard ownerPositions[identifier] == nil else { return }
        ownerPositions[identifier] = questionOwners.count
        questionOwners.append(box)
    }

    /// The steps of `parts`, one part's after another's; `parts` are left empty (each part's storage is
    /// freed as soon as it is moved or copied, so that a survey's steps are not held twice while the
    /// chunks are joined). The condition cells are moved, not copied: copying a quarter of a million
    /// cells (retaining their constants) and freeing them (releasing them) took 10–20 ms.
    static func joining(_ parts: inout [StepColumns]) -> StepColumns {
        guard !parts.isEmpty else { return StepColumns() }
        let total = parts.reduce(0) { $0 + $1.count }
        var conditions = [StepCondition](unsafeUninitializedCapacity: total) { target, initialized in
            guard let start = target.baseAddress else { return }
            // The later parts' expression conditions are numbered after the earlier parts'.
            var ownersBase: Int32 = 0
            for part in parts.indices {
                let base = ownersBase
                parts[part].conditions.withUnsafeMutableBufferPointer { source in
                    guard let from = source.baseAddress else { return }
                    (start + initialized).moveInitialize(from: from, count: source.count)
                    // What is left behind owns nothing: freeing it releases nothing.
                    from.initialize(repeating: .always, count: source.count)
                    if base != 0 {
                        for index in initialized..<(initialized + source.count) where target[index].kind == .expression
                        {
                            target[index] = StepCondition(
                                literal: .null, op: .equal, kind: .expression, slot: base + target[index].slot)
                        }
                    }
                    initialized += source.count
                }
                parts[part].conditions = []
                ownersBase += Int32(truncatingIfNeeded: parts[part].conditionOwners.count)
            }
        }
        var joined = StepColumns()
        swap(&joined, &parts[0])
        joined.reserveCapacity(total, conditions: false)
        for part in parts.indices.dropFirst() { joined.append(contentsOf: &parts[part]) }
        swap(&joined.conditions, &conditions)
        return joined
    }

    /// Adds `other`'s steps, all but their condition cells (``joining(_:)`` moves those), after these,
    /// and empties `other`.
    private mutating func append(contentsOf other: inout StepColumns) {
        let base = units.count
        units.append(contentsOf: other.units)
        other.units = []
        questions.append(contentsOf: other.questions)
        other.questions = []
        for owner in other.questionOwners { own(owner) }
        other.questionOwners = []
        other.ownerPositions = [:]
        unitOffsets.append(contentsOf: other.unitOffsets)
        other.unitOffsets = []
        childOffsets.append(contentsOf: other.childOffsets)
        other.childOffsets = []
        // (``joining(_:)`` numbers the other part's expression conditions after these.)
        conditionOwners.append(contentsOf: other.conditionOwners)
        other.conditionOwners = []
        flags.append(contentsOf: other.flags)
        other.flags = []
        for (index, list) in other.branches { branches[base + index] = list }
        other.branches = [:]
        for (index, value) in other.extras { extras[base + index] = value }
        other.extras = [:]
    }

    /// Sets the steps' ids, in step order: the keys of the step-id table, so that the table and the
    /// steps share one array. Returns `false`, and sets nothing, unless there is one id per step.
    mutating func setIDs(_ ids: [String]) -> Bool {
        guard ids.count == units.count else { return false }
        self.ids = ids
        return true
    }
}

/// A step's `visibleIf` as the session evaluates it, 24 bytes in the step table. A simple comparison
/// (`{q1} = 'yes'`, most conditions of a large survey) is held here whole: evaluating it reaches no
/// other object and retains nothing, and no object is kept for it (``StepTable/visibleIf(of:)``
/// makes its expression again from these parts and the step's text). Any other condition is a
/// handle on its compiled expression (``StepTable``'s `expressionHandles`).
struct StepCondition: Sendable {
    enum Kind: UInt8, Sendable {
        /// No `visibleIf`.
        case always
        /// Value ``slot`` compared by ``op`` with ``literal``.
        case comparison
        /// Another expression: ``slot`` is its position among the table's expression handles.
        case expression
    }

    // In this order, so that the 17-byte constant and the rest fit in 24 bytes.
    let literal: JSONValue
    let op: BinaryOperator
    let kind: Kind
    let slot: Int32

    static let always = StepCondition(literal: .null, op: .equal, kind: .always, slot: 0)
}

struct CompiledBranch: Sendable {
    let condition: Expression?
    /// Unit index to go to, or `nil` to complete.
    let targetUnit: Int?
}

/// A trigger with its references resolved.
struct CompiledTrigger: Sendable {
    enum Action: Sendable {
        /// The value is already normalised by the target's question type.
        case setValue(target: Int, value: JSONValue)
        /// `from` is a slot (a step or a calculated value).
        case copyValue(from: Int, target: Int)
        case runExpression(Expression, target: Int?)
        case skip(unit: Int)
        case complete
    }

    let condition: Expression
    let action: Action
}

struct CompiledCalculated: Sendable {
    let name: String
    let expression: Expression
}

/// Slot → watchers, stored flat (compressed rows) instead of one array per slot.
struct WatcherTable: Sendable {
    private let offsets: [Int32]
    private let entries: [Watcher]

    /// The table of the pairs `forEachPair` gives (it is called twice: to count each slot's watchers,
    /// then to place them, so that no list of the pairs is built). Each slot keeps its watchers in
    /// the order they are given.
    init(slotCount: Int, forEachPair: ((_ slot: Int, _ watcher: Watcher) -> Void) -> Void) {
        var counts = [Int32](repeating: 0, count: slotCount + 1)
        forEachPair { slot, _ in counts[slot + 1] += 1 }
        for index in 1..<counts.count { counts[index] += counts[index - 1] }
        var next = counts
        var entries = [Watcher](repeating: .calculated(0), count: Int(counts[slotCount]))
        forEachPair { slot, watcher in
            entries[Int(next[slot])] = watcher
            next[slot] += 1
        }
        offsets = counts
        self.entries = entries
    }

    /// The watchers of `slot`.
    subscript(slot: Int) -> ArraySlice<Watcher> {
        entries[Int(offsets[slot])..<Int(offsets[slot + 1])]
    }

    /// The positions of `slot`'s watchers, for ``entry(_:)``.
    @inline(__always)
    func positions(of slot: Int) -> Range<Int> {
        Int(offsets[slot])..<Int(offsets[slot + 1])
    }

    /// The watcher at `position` (one of ``positions(of:)``).
    @inline(__always)
    func entry(_ position: Int) -> Watcher {
        entries[position]
    }
}

/// What to re-evaluate when a value changes. Positions are 32 bits wide, so that an entry takes 8
/// bytes (a large survey has about one per question).
enum Watcher: Sendable, Hashable {
    case stepVisibility(Int32)
    case unitVisibility(Int32)
    case calculated(Int32)
    /// A step whose choices have `visibleIf` conditions reading this slot: an answered choice that
    /// becomes hidden is cleared at once (as SurveyJS does), so no later condition sees it.
    case choices(Int32)
    /// A trigger whose condition reads this slot: checked after the answer that changed it.
    case trigger(Int32)
    /// A step whose `defaultValueExpression` reads this slot: its answer follows until the respondent answers it.
    case defaultValue(Int32)
    /// A step whose `enableIf` reads this slot.
    case enabled(Int32)
}

/// A step's position in its compiled survey (document order, from 0), from
/// ``Survey/stepIndex(of:)``: the key of the session's index-keyed API. It means something only for
/// the survey that gave it; another survey's index names another step or none.
public struct StepIndex: Hashable, Comparable, Sendable {
    public let rawValue: Int

    public init(_ rawValue: Int) { self.rawValue = rawValue }

    public static func < (lhs: StepIndex, rhs: StepIndex) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A unit's position in its compiled survey (pages and top-level steps in document order, from 0),
/// from ``Survey/unitIndex(of:)`` or ``SurveySession/currentUnit``: the unit key of the index-keyed
/// API (``SurveySession/advance()``). Like ``StepIndex``, it means something only for the survey
/// that gave it.
public struct UnitIndex: Hashable, Comparable, Sendable {
    public let rawValue: Int

    public init(_ rawValue: Int) { self.rawValue = rawValue }

    public static func < (lhs: UnitIndex, rhs: UnitIndex) -> Bool { lhs.rawValue < rhs.rawValue }
}

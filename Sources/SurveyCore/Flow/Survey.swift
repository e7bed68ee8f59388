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

    /// The data shape of completion results (``ResultShape``); `nil`: the engine's own, answers by step id.
    public var resultShape: (any ResultShape)?

    /// The definition it was compiled from.
    public var definition: SurveyDefinition { storage.definition }
    /// The function registry expressions were compiled against.
    public var functions: ExpressionFunctionRegistry { storage.functions }

    var units: [CompiledUnit] { storage.units }
    var steps: StepTable { storage.steps }
    /// ``steps`` without a counted reference (``Unretained``): the session's answer path reads the
    /// table through it, so that a call it makes with the table in hand does not retain and release
    /// the table around it. Valid while the survey is.
    var unretainedSteps: Unretained<StepTable> { Unretained(storage.steps) }
    /// ``storage`` without a counted reference, like ``unretainedSteps``.
    var unretainedStorage: Unretained<CompiledSurvey> { Unretained(storage) }
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
    /// `{$name.property}` in texts, compiled, by the text between the braces.
    var pipedProperties: [String: Expression] { storage.pipedProperties }
    /// Whether some trigger's condition reads a value only through members (``CompiledTrigger/memberReads``).
    var triggersReadMembers: Bool { storage.triggersReadMembers }
    /// The values some trigger's condition reads only through members.
    var triggerMemberSlots: Set<Int> { storage.triggerMemberSlots }
    /// The `complete` triggers, checked on Next.
    var completeTriggers: [Int] { storage.completeTriggers }
    /// The steps with a `defaultValue` or `defaultValueExpression`, applied when a session starts.
    var defaultSteps: [Int] { storage.defaultSteps }
    /// `completionMessages`, compiled: the first whose condition holds is the completion message.
    var completionMessages: [(condition: Expression?, text: LocalizedText)] { storage.completionMessages }
    /// `quotas`, compiled, in the survey's order.
    var quotas: [CompiledQuota] { storage.quotas }
    /// `completionRedirects`, compiled: the first whose condition holds is where the respondent goes.
    var completionRedirects: [(condition: Expression?, url: String)] { storage.completionRedirects }
    /// `settings.clearInvisibleValues`.
    var clearInvisibleValues: ClearInvisibleValues { storage.clearInvisibleValues }
    /// The steps with an `enableIf`.
    var conditionallyEnabledSteps: [Int] { storage.conditionallyEnabledSteps }
    var everyChangeRuleSteps: [Int] { storage.everyChangeRuleSteps }
    var hasEveryChangeRules: Bool { storage.hasEveryChangeRules }
    var replaceableAnswers: [Bool] { storage.replaceableAnswers }
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
    var typeExpressionSteps: [Int] { storage.typeExpressionSteps }
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
        completionRedirects: [(condition: Expression?, url: String)] = [],
        validators: [Int: [CompiledValidator]] = [:], panels: [CompiledPanel] = [], commentSlots: [Int: Int] = [:],
        pipedProperties: [String: Expression] = [:], quotas: [CompiledQuota] = []
    ) {
        storage = CompiledSurvey(
            definition: definition, functions: functions, units: units, steps: steps, calculated: calculated,
            stepIndexByID: stepIndexByID, unitIndexByID: unitIndexByID, calculatedIndexByName: calculatedIndexByName,
            watchers: watchers, calculatedOrder: calculatedOrder, expressionCount: expressionCount,
            usesDateFunctions: usesDateFunctions, otherChoices: otherChoices, triggers: triggers,
            completionMessages: completionMessages, validators: validators, panels: panels,
            commentSlots: commentSlots, pipedProperties: pipedProperties)
        storage.quotas = quotas
        storage.completionRedirects = completionRedirects
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

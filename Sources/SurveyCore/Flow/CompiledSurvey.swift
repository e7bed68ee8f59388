// What a compiled survey holds besides its steps: its parts behind one reference, units (pages and
// top-level steps), panels, branches, triggers and calculated values.

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
    /// `{$name.property}` in texts, compiled, by the text between the braces.
    let pipedProperties: [String: Expression]
    /// The values some trigger's condition reads only through members (``CompiledTrigger/memberReads``).
    let triggerMemberSlots: Set<Int>
    /// Whether ``triggerMemberSlots`` has any (read on every change of a value: a Boolean, no set).
    let triggersReadMembers: Bool
    let completeTriggers: [Int]
    let defaultSteps: [Int]
    let completionMessages: [(condition: Expression?, text: LocalizedText)]
    let clearInvisibleValues: ClearInvisibleValues
    let conditionallyEnabledSteps: [Int]
    /// Steps with a `setValueIf`/`setValueExpression` or `resetValueIf` that survey-core runs after
    /// every change of any value (see ``ValueRules``), in order.
    let everyChangeRuleSteps: [Int]
    /// Whether ``everyChangeRuleSteps`` has any (read on every change of a value: a Boolean).
    let hasEveryChangeRules: Bool
    /// By step: whether an answer to it that replaces the one just given to it can replace that one in
    /// the log (see ``SurveySession/canReplaceLastAnswer(of:)``).
    let replaceableAnswers: [Bool]
    let validators: [Int: [CompiledValidator]]
    let panels: [CompiledPanel]
    let panelsByUnit: [Int: Range<Int>]
    let commentSlots: [Int: Int]
    let multipleCountSteps: [Int: [Int]]
    /// Steps whose question type has expressions of its own: their answers pass through
    /// ``ConfiguredQuestion/completedAnswer(_:in:)`` on completion.
    let typeExpressionSteps: [Int]
    let expressionCount: Int
    let usesDateFunctions: Bool
    /// The UI strings of the default locale, which most sessions use (one lookup per survey, not per session).
    let defaultStrings: UIStrings
    /// Written once, by ``Survey/init``, before any other thread can see the survey.
    nonisolated(unsafe) var initialState: InitialState?
    /// `quotas`, compiled. Written once, by ``Survey/init``, before any other thread can see the survey.
    nonisolated(unsafe) var quotas: [CompiledQuota] = []
    /// `completionRedirects`, compiled. Written once, by ``Survey/init``, like ``quotas``.
    nonisolated(unsafe) var completionRedirects: [(condition: Expression?, url: String)] = []

    init(
        definition: SurveyDefinition, functions: ExpressionFunctionRegistry, units: [CompiledUnit],
        steps: StepTable, calculated: [CompiledCalculated], stepIndexByID: IDTable,
        unitIndexByID: IDTable, calculatedIndexByName: [String: Int], watchers: WatcherTable,
        calculatedOrder: [Int], expressionCount: Int, usesDateFunctions: Bool, otherChoices: [Int: OtherChoices],
        triggers: [CompiledTrigger], completionMessages: [(condition: Expression?, text: LocalizedText)],
        validators: [Int: [CompiledValidator]], panels: [CompiledPanel], commentSlots: [Int: Int],
        pipedProperties: [String: Expression] = [:]
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
        self.pipedProperties = pipedProperties
        triggerMemberSlots = Set(triggers.flatMap(\.memberReads.keys))
        triggersReadMembers = !triggerMemberSlots.isEmpty
        completeTriggers = triggers.indices.filter {
            if case .complete = triggers[$0].action { return true }
            return false
        }
        // The steps with extras are listed in the table; only counting steps' questions are read.
        var defaultSteps: [Int] = []
        var conditionallyEnabledSteps: [Int] = []
        var everyChangeRuleSteps: [Int] = []
        var typeExpressionSteps: [Int] = []
        for (index, extras) in steps.extras {
            if !extras.typeExpressions.isEmpty { typeExpressionSteps.append(index) }
            if extras.defaultValue != nil || extras.defaultExpression != nil || extras.hasTypeDefault {
                defaultSteps.append(index)
            }
            if extras.enableIf != nil { conditionallyEnabledSteps.append(index) }
            if let rules = extras.valueRules, rules.setsOnEveryChange || rules.resetsOnEveryChange {
                everyChangeRuleSteps.append(index)
            }
        }
        self.everyChangeRuleSteps = everyChangeRuleSteps.sorted()
        self.typeExpressionSteps = typeExpressionSteps.sorted()
        hasEveryChangeRules = !everyChangeRuleSteps.isEmpty
        replaceableAnswers = Self.replaceableAnswers(
            stepCount: steps.count, calculatedOrder: calculatedOrder, watchers: watchers,
            unobserved: definition.settings.clearInvisibleValues != .onHidden && everyChangeRuleSteps.isEmpty,
            memberSlots: triggerMemberSlots)
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

extension CompiledSurvey {
    /// By step: whether only what a value determines reads it — visibility, `enableIf` and calculated
    /// values that are themselves read only so, followed to the end — so that an intermediate answer
    /// leaves no trace once replaced: no trigger, value rule, default value or choice condition reads
    /// it (each of those acts on a change, so what it did stays), answers are not cleared when hidden
    /// (`clearInvisibleValues: "onHidden"` clears on a change too) and no rule runs after every change.
    /// One pass over the watchers: calculated values last to first in dependency order, then steps.
    static func replaceableAnswers(
        stepCount: Int, calculatedOrder: [Int], watchers: WatcherTable, unobserved: Bool, memberSlots: Set<Int>
    ) -> [Bool] {
        guard unobserved else { return [Bool](repeating: false, count: stepCount) }
        var calculatedPure = [Bool](repeating: false, count: calculatedOrder.count)
        func isPure(_ slot: Int) -> Bool {
            if memberSlots.contains(slot) { return false }
            for watcher in watchers[slot] {
                switch watcher {
                case .stepVisibility, .unitVisibility, .enabled: continue
                case .calculated(let index):
                    guard calculatedPure[Int(index)] else { return false }
                case .choices, .trigger, .defaultValue, .valueRules: return false
                }
            }
            return true
        }
        // A calculated value's watchers that are calculated values come after it in dependency order.
        for index in calculatedOrder.reversed() { calculatedPure[index] = isPure(stepCount + index) }
        return (0..<stepCount).map(isPure)
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
    /// The values the condition reads only through members (`{m.r1}`, a matrix cell), with those
    /// members' key paths: a change of such a value checks the trigger only when one of those members
    /// changed, as survey-core compares the old and new value of each name it reads.
    let memberReads: [Int: [[String]]]

    init(condition: Expression, action: Action) {
        self.condition = condition
        self.action = action
        memberReads = condition.memberOnlyReads
    }
}

struct CompiledCalculated: Sendable {
    let name: String
    let expression: Expression
}

/// A quota with its condition compiled and its skip target resolved.
struct CompiledQuota: Sendable {
    enum Action: Sendable {
        case end(message: LocalizedText?)
        case skip(unit: Int)
        case flag
    }

    let definition: QuotaDefinition
    let condition: Expression
    let action: Action
}

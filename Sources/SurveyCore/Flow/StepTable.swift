// A compiled survey's steps: one step as the compiler makes it (CompiledStep), the columns the
// compiler builds (StepColumns) and the table sessions read (StepTable), a column per field.

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
    /// Its `setValueIf`, `setValueExpression` and `resetValueIf`, if it has any.
    var valueRules: ValueRules? { extras?.valueRules }
    /// Whether its question type gives it a default answer (``ConfiguredQuestion/hasDefaultAnswer``).
    var hasTypeDefault: Bool { extras?.hasTypeDefault ?? false }

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
        visibleIfCell: StepCondition? = nil,
        valueRules: ValueRules? = nil,
        hasTypeDefault: Bool = false
    ) {
        let hasExtras =
            requiredIf != nil || !choiceConditions.isEmpty || defaultValue != nil || defaultExpression != nil
            || isReadOnly || enableIf != nil || !typeExpressions.isEmpty || valueRules != nil || hasTypeDefault
        self.init(
            id: id, unit: unit, question: question, unitOffset: unitOffset, childOffset: childOffset,
            visibleIf: visibleIf, visibleIfCell: visibleIfCell, branches: branches, isRequired: isRequired,
            isEnabled: isEnabled, collectsAnswer: collectsAnswer, countsForProgress: countsForProgress,
            extras: hasExtras
                ? StepExtras(
                    requiredIf: requiredIf, choiceConditions: choiceConditions, defaultValue: defaultValue,
                    defaultExpression: defaultExpression, isReadOnly: isReadOnly, enableIf: enableIf,
                    typeExpressions: typeExpressions, valueRules: valueRules, hasTypeDefault: hasTypeDefault) : nil)
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
    let valueRules: ValueRules?
    let hasTypeDefault: Bool

    /// Made once: `[:]` in the accessors built an empty dictionary on every read.
    static let none: [String: Expression] = [:]

    init(
        requiredIf: Expression?, choiceConditions: [String: Expression], defaultValue: JSONValue?,
        defaultExpression: Expression?, isReadOnly: Bool, enableIf: Expression?,
        typeExpressions: [String: Expression], valueRules: ValueRules? = nil, hasTypeDefault: Bool = false
    ) {
        self.requiredIf = requiredIf
        self.choiceConditions = choiceConditions
        self.defaultValue = defaultValue
        self.defaultExpression = defaultExpression
        self.isReadOnly = isReadOnly
        self.enableIf = enableIf
        self.typeExpressions = typeExpressions
        self.valueRules = valueRules
        self.hasTypeDefault = hasTypeDefault
    }
}

/// A step's rules that set or clear its answer when other values change, as survey-core runs them
/// (its question "triggers"): `setValueIf` with `setValueExpression`, `setValueExpression` alone, and
/// `resetValueIf`.
struct ValueRules: Sendable {
    let setValueIf: Expression?
    let setValueExpression: Expression?
    let resetValueIf: Expression?

    /// Whether survey-core runs the set rule after every change of any value, not only of a value it
    /// reads: when the expression deciding it calls a function or reads nothing.
    let setsOnEveryChange: Bool
    /// The same for `resetValueIf`.
    let resetsOnEveryChange: Bool

    init(setValueIf: Expression?, setValueExpression: Expression?, resetValueIf: Expression?) {
        self.setValueIf = setValueIf
        self.setValueExpression = setValueExpression
        self.resetValueIf = resetValueIf
        func runsAlways(_ expression: Expression?) -> Bool {
            guard let expression else { return false }
            return expression.slots.isEmpty || expression.callsFunction
        }
        // survey-core: `setValueIf` runs when a name it reads changed; failing that, when
        // `setValueExpression` would run (it calls a function, reads nothing, or a name it reads changed);
        // alone, `setValueIf` runs always when it calls a function or reads nothing.
        if setValueIf != nil {
            setsOnEveryChange = setValueExpression.map { runsAlways($0) } ?? runsAlways(setValueIf)
        } else {
            setsOnEveryChange = runsAlways(setValueExpression)
        }
        resetsOnEveryChange = runsAlways(resetValueIf)
    }

    /// Whether the set rule runs after a change of value `slot`.
    func setRuns(after slot: Int) -> Bool {
        if setsOnEveryChange { return true }
        if let setValueIf, setValueIf.slots.contains(slot) { return true }
        return setValueExpression?.slots.contains(slot) ?? false
    }

    /// Whether `resetValueIf` runs after a change of value `slot`.
    func resetRuns(after slot: Int) -> Bool {
        resetsOnEveryChange || (resetValueIf?.slots.contains(slot) ?? false)
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
        let result: Result<JSONValue, AnswerError> = questions.boxes[index].read { box in
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
        _ index: Int, in table: Unretained<StepTable>, values: [JSONValue], context: FunctionContext
    ) -> Bool {
        table.read { $0.isShown(index, values: values, context: context) }
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
    fileprivate let boxes: [Unretained<AnyQuestionBox>]
    /// Every question in ``boxes``, once: what keeps them alive.
    private let owners: [AnyQuestionBox]

    init(boxes: [Unretained<AnyQuestionBox>], owners: [AnyQuestionBox]) {
        self.boxes = boxes
        self.owners = owners
    }

    subscript(index: Int) -> ConfiguredQuestion {
        ConfiguredQuestion(box: boxes[index].object)
    }

    /// ``ConfiguredQuestion/countsAsSeveral`` of question `index`, read without retaining it (the
    /// survey reads it for every step when it is assembled).
    func countsAsSeveral(at index: Int) -> Bool {
        boxes[index].read { $0.countsAsSeveral }
    }
}

/// The columns of ``StepTable`` while the compiler fills them: steps are appended in order, one
/// chunk's after another's. The ids are set at the end, from the step-id table's keys: the same
/// array then serves both (a survey's ids are not held twice).
struct StepColumns {
    fileprivate(set) var ids: [String] = []
    fileprivate(set) var units: [Int32] = []
    /// Each step's question, unretained: ``questionOwners`` holds each distinct one.
    fileprivate(set) var questions: [Unretained<AnyQuestionBox>] = []
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
        questions.append(Unretained(step.question.box))
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

/// One respondent's run through a survey: the state machine every front end drives.
///
/// The session decides the flow (visibility, branching, Back along the path actually taken,
/// validation, progress); a renderer only shows ``currentStep`` and reports what the respondent
/// did. Work per call is proportional to what changed: answering re-evaluates only the
/// expressions that reference that answer, and moving on uses O(log n) queries, never a scan.
///
/// ```swift
/// var session = SurveySession(survey: survey, locale: "en")
/// try session.answer(.string("yes"), for: "contact-me")
/// switch session.next() {
/// case .moved(let unit): print("now on", unit)
/// case .completed(let result): print(result.answers)
/// case .blocked(let errors): print(errors)
/// }
/// ```
public struct SurveySession {
    /// The survey being run.
    public let survey: Survey
    /// The seed of every shuffle in this session.
    public private(set) var seed: UInt64
    /// The respondent's locale.
    public let locale: String
    /// The date `today()` and `age()` use, `YYYY-MM-DD`.
    public let today: String
    /// The values the host gave the survey's variables.
    public let variables: [String: JSONValue]
    /// Where the session stands.
    public internal(set) var status: SessionStatus = .inProgress
    /// Problems found by the last answer or Next on the current unit.
    public internal(set) var lastErrors: [StepError] = []
    /// How many expressions were evaluated so far (to check that work is incremental).
    public internal(set) var evaluationCount = 0
    /// The quotas the host's store says are full (``QuotaDefinition/id``): at each Next a quota of
    /// this set whose condition holds applies its action (`ResponseRecorder` sets it from the store
    /// before every action and before replaying a resumed response).
    public var fullQuotas: Set<String> = []
    /// The full quotas whose action this respondent got, in order (a flag, a skip, an end).
    public internal(set) var quotasReached: [QuotaReached] = []
    /// Every accepted action, in order (answers, Next, Back, dismiss): with the seed, enough to replay the
    /// run. Refused actions (an invalid answer, a blocked Next) change nothing and are not kept, so the log
    /// grows only with what the respondent actually did; nor is a Back followed by a Next that returns to
    /// the unit the Back left while no answer changed (the pair changed nothing: both are removed), so
    /// going back and forth leaves the log as it was; and an answer that replaces the answer just given
    /// to the same step takes its entry when that answer left no other trace (it wrote no other
    /// answer, and nothing that acts on a change reads the step: no trigger, value rule, default
    /// value or choice condition, no clearing on hide; unless ``keepsEveryAnswer``). At most
    /// ``actionLimit`` actions are kept.
    ///
    /// Made from the session's log on each read (O(number of actions)): to follow the log as it grows,
    /// read ``actionCount`` and ``action(at:)``.
    public var actions: [SessionAction] { log.map(action(from:)) }

    /// How many actions ``actions`` holds.
    public var actionCount: Int { log.count }

    /// Action `position` (from 0) of ``actions``.
    /// - Precondition: `position` is below ``actionCount``.
    public func action(at position: Int) -> SessionAction { action(from: log[position]) }

    /// The accepted actions (see ``actions``), an answer to a step under its id kept by the step's index:
    /// the answer path then never reads the step's id (at a million steps, one more array that misses
    /// the cache on every answer).
    var log: [LoggedAction] = []
    /// The Backs at the end of ``log`` that a Next may still undo (see ``BackMark``), the latest last.
    var backMarks: [BackMark] = []
    /// How many times an answer was written, by the respondent or not (a trigger, a default, a
    /// choice no longer offered): a Back and a Next that wrote none left the answers as they were.
    var answerWrites = 0
    /// Whether every answer stays in ``actions``, also one that replaces the answer just given to the
    /// same step (`false`: it takes that answer's entry when that answer left no other trace).
    /// `ResponseRecorder.resume` replays a stored response with it set, so the stored actions stay as
    /// they are. `SurveyDriver` sets it from its recorder
    /// (``SessionRecorder/keepsEveryAnswer``): a response delivered as each of its versions needs
    /// every answer to count.
    public var keepsEveryAnswer = false
    /// How many times ``log`` changed: grew, shrank, or had its last answer replaced.
    var logEdits = 0
    /// The answer just given, when nothing but its own answer was written (see
    /// ``canReplaceLastAnswer(of:)``).
    var lastAnswer: AnswerMark?

    /// The most actions ``actions`` keeps: 100,000 plus four per step and per unit of the survey (a
    /// respondent answers, changes and moves through every step a few times at most). Beyond it, an
    /// answer, Back or Next is refused with ``SessionError/tooManyActions(limit:)``; dismissing and
    /// quitting still work. A Back followed by a Next back to where the Back left, with no answer
    /// changed, is not kept (see ``actions``), so going back and forth never reaches the limit.
    public let actionLimit: Int

    let context: PresentationContext
    let functionContext: FunctionContext
    /// ``survey``'s compiled form and step table, which ``survey`` keeps alive, without counted
    /// references: the hot paths read the survey through these. Read from ``survey`` instead, in a
    /// mutating method, the survey is retained for as long as it is used (a mutating call could, for all
    /// the compiler knows, replace the session and release it): an atomic count, shared by the threads
    /// running respondents, on every answer.
    let compiled: Unretained<CompiledSurvey>
    let stepTable: Unretained<StepTable>
    @usableFromInline var answers: [JSONValue]
    var values: [JSONValue]
    @usableFromInline var derived: DerivedState
    var liveCount: [Int32]
    @usableFromInline var path: [Int] = []
    var pathCounted: [Bool] = []
    /// For each unit on the path, how many more questions than one it counted as when it was entered.
    var pathExtra: [Int] = []
    var countedOnPath = 0
    var observers: [(SessionEvent) -> Void] = []
    /// Triggers whose condition read a value that the current answer changed, to check after it.
    var pendingTriggers: [Int] = []
    /// Steps with a `defaultValueExpression` the respondent has answered: it no longer applies.
    var answeredByRespondent: Set<Int> = []
    /// Steps whose `enableIf` does not hold now: read-only.
    var disabledSteps: Set<Int> = []
    /// How deeply value rules (`setValueIf`, `resetValueIf`) are running inside one another: rules
    /// that set each other's values stop at ``SurveySession/maximumValueRuleDepth``.
    var valueRuleDepth = 0

    /// Starts a session on the first visible unit.
    /// - Parameters:
    ///   - survey: the compiled survey to take.
    ///   - seed: drives every shuffle; store it (it is part of ``state``) to replay the run.
    ///   - locale: the respondent's locale; texts fall back to the survey's default locale.
    ///   - today: the date for `today()`/`age()`, default the current UTC date.
    ///   - variables: values of the survey's declared `variables`, by name (others are ignored).
    public init(
        survey: Survey, seed: UInt64 = 0, locale: String? = nil, today: String? = nil,
        variables: [String: JSONValue] = [:]
    ) {
        let locale = locale ?? survey.definition.defaultLocale
        let today = today ?? FunctionContext.current().today
        var given: [String: JSONValue] = [:]
        if !variables.isEmpty {
            let declared = Set(survey.definition.variables.map(\.name))
            given = variables.filter { declared.contains($0.key) }
        }
        self.survey = survey
        compiled = survey.unretainedStorage
        stepTable = survey.unretainedSteps
        self.seed = seed
        self.locale = locale
        self.today = today
        self.variables = given
        context = PresentationContext(
            locale: locale, defaultLocale: survey.definition.defaultLocale,
            strings: locale == survey.definition.defaultLocale ? survey.storage.defaultStrings : nil)
        var functions = FunctionContext(today: today, variables: given)
        functions.locale = locale
        functions.defaultLocale = survey.definition.defaultLocale
        functionContext = functions
        let stepCount = survey.steps.count
        actionLimit = 100_000 + 4 * (stepCount + survey.units.count)
        answers = Self.empties(stepCount)
        liveCount = [Int32](repeating: 0, count: survey.units.count)
        // Room for a typical run at once, instead of growing 1, 2, 4, … as it goes (bounded: a huge
        // survey's respondent does not need room for every step up front).
        let units = min(survey.units.count, 32)
        path.reserveCapacity(units)
        pathCounted.reserveCapacity(units)
        pathExtra.reserveCapacity(units)
        log.reserveCapacity(min(stepCount + survey.units.count, 128))
        let start = Self.start(of: survey, locale: locale, today: today, given: given, functions: functions)
        // An empty start means every value starts empty (``DerivedState/compute(survey:context:)``).
        values = start.values.isEmpty ? Self.empties(survey.analysisSlotCount) : start.values
        derived = start.derived
        if start.isComputed { evaluationCount += survey.expressionCount }
        begin()
    }

    /// `count` empty values, filled in place (`Array(repeating:count:)` copies the element one generic
    /// call at a time).
    static func empties(_ count: Int) -> [JSONValue] {
        [JSONValue](unsafeUninitializedCapacity: count) { buffer, initialized in
            buffer.initialize(repeating: .null)
            initialized = count
        }
    }

    /// The values and derived state before any answer: the survey's precomputed start unless an
    /// expression reads the session (the date, the locale, variables); `isComputed` when evaluated here.
    static func start(
        of survey: Survey, locale: String, today: String, given: [String: JSONValue], functions: FunctionContext
    ) -> (values: [JSONValue], derived: DerivedState, isComputed: Bool) {
        if let initial = precomputedStart(of: survey, locale: locale, today: today, given: given) {
            return (initial.values, initial.derived, false)
        }
        let initial = DerivedState.compute(survey: survey, context: functions)
        return (initial.values, initial.derived, true)
    }

    /// The survey's precomputed start, when it holds for this session (no expression reads the date,
    /// the locale or variables that differ from the survey's own).
    static func precomputedStart(
        of survey: Survey, locale: String, today: String, given: [String: JSONValue]
    ) -> InitialState? {
        guard let initial = survey.initialState, given.isEmpty,
            !survey.usesDateFunctions || (initial.today == today && locale == survey.definition.defaultLocale)
        else { return nil }
        return initial
    }

    /// The end of a start, once values and derived state are as before any answer: `enableIf`s,
    /// defaults, and the first visible unit; with none, the session is ``SessionStatus/empty``.
    mutating func begin() {
        for index in survey.conditionallyEnabledSteps { refreshEnabled(index) }
        for index in survey.defaultSteps { applyDefault(of: index) }
        if let first = derived.unitTree.firstNonzero(from: 0) {
            push(first)
        } else {
            status = .empty
        }
    }

    /// Starts over as a new respondent with seed `seed` (same survey, locale, date and variables):
    /// afterwards the session is what ``init(survey:seed:locale:today:variables:)`` gives, but it
    /// reuses this one's storage instead of allocating it again. For hot loops that run many
    /// respondents one after the other (the simulator, benchmarks). Observers are dropped: they
    /// listened to the previous respondent.
    public mutating func restart(seed: UInt64) {
        self.seed = seed
        status = .inProgress
        evaluationCount = 0
        lastErrors.removeAll(keepingCapacity: true)
        log.removeAll(keepingCapacity: true)
        logEdits &+= 1
        lastAnswer = nil
        backMarks.removeAll(keepingCapacity: true)
        observers.removeAll()
        pendingTriggers.removeAll(keepingCapacity: true)
        if !quotasReached.isEmpty { quotasReached.removeAll(keepingCapacity: true) }
        if !answeredByRespondent.isEmpty { answeredByRespondent.removeAll(keepingCapacity: true) }
        if !disabledSteps.isEmpty { disabledSteps.removeAll(keepingCapacity: true) }
        path.removeAll(keepingCapacity: true)
        pathCounted.removeAll(keepingCapacity: true)
        pathExtra.removeAll(keepingCapacity: true)
        countedOnPath = 0
        liveCount.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
        Self.empty(&answers)
        if let initial = Self.precomputedStart(of: survey, locale: locale, today: today, given: variables) {
            resetValues(toStartOf: initial)
        } else {
            let start = DerivedState.compute(survey: survey, context: functionContext)
            resetValues(toStartOf: InitialState(today: today, values: start.values, derived: start.derived))
            evaluationCount += survey.expressionCount
        }
        begin()
    }

    /// Makes the values and derived state `initial`'s, in this session's storage (an empty list of
    /// start values means every value starts empty: ``DerivedState/compute(survey:context:)``). The
    /// start's parts are read where they are: passed as arguments, they would be copied first (every
    /// array of the derived state retained and released).
    mutating func resetValues(toStartOf initial: InitialState) {
        if initial.values.isEmpty {
            Self.empty(&values)
        } else {
            values.assign(from: initial.values)
        }
        derived.assign(fromStartOf: initial)
    }

    /// Empties every one of `values` in place.
    static func empty(_ values: inout [JSONValue]) {
        values.withUnsafeMutableBufferPointer { values in
            for index in values.indices where !values[index].isNull { values[index] = .null }
        }
    }

    /// Whether step `index` is shown but not editable now (`readOnly`, or an `enableIf` that does not hold).
    @inline(__always)  // called from mutating methods: out of line, it copies the whole session
    func isReadOnly(_ index: Int) -> Bool {
        survey.storage.steps.isReadOnly(index) || (!disabledSteps.isEmpty && disabledSteps.contains(index))
    }

    /// Re-evaluates step `index`'s `enableIf`.
    mutating func refreshEnabled(_ index: Int) {
        guard let condition = survey.steps.extras(of: index)?.enableIf else { return }
        if condition.isTrue(values, context: functionContext) {
            disabledSteps.remove(index)
        } else {
            disabledSteps.insert(index)
        }
    }

    /// Sets step `index`'s `defaultValue`, or its `defaultValueExpression`'s value when the type
    /// accepts it, or the default answer its type gives; it counts at once, wherever the step is. Returns whether the answer changed.
    @discardableResult
    mutating func applyDefault(of index: Int) -> Bool {
        let step = survey.steps[index]
        var value: JSONValue
        if let expression = step.defaultExpression {
            evaluationCount += 1
            let result = expression.evaluate(values, context: functionContext)
            if result.isEmptyAnswer {
                value = .null
            } else {
                guard let accepted = try? step.question.normalize(result, in: context) else { return false }
                value = accepted
            }
        } else if step.hasTypeDefault {
            value = step.question.defaultAnswer(in: questionContext(for: step)) ?? .null
        } else {
            value = step.defaultValue ?? .null
        }
        // A hidden question starts without its default when hidden answers are cleared at once.
        if survey.clearInvisibleValues == .onHidden, !derived.stepVisible[index] { value = .null }
        return setAnswer(value, at: index)
    }

    /// Stores an answer the respondent did not type (a default, a trigger's, a hidden one cleared):
    /// it counts at once and observers hear of it. Returns whether it changed.
    @discardableResult
    mutating func setAnswer(_ value: JSONValue, at index: Int) -> Bool {
        guard answers[index] != value else { return false }
        answers[index] = value
        answerWrites &+= 1
        setValue(index, value)
        emit(.answered(stepID: survey.steps.ids[index], value: value.isNull ? nil : value))
        return true
    }

    // MARK: Observing

    /// Calls `handler` for every event from now on.
    public mutating func observe(_ handler: @escaping (SessionEvent) -> Void) {
        observers.append(handler)
    }

    func emit(_ event: @autoclosure () -> SessionEvent) {
        guard !observers.isEmpty else { return }
        let value = event()
        for observer in observers { observer(value) }
    }

    // MARK: Queries

    /// The id of the current unit (page, or step outside a page); `nil` once finished.
    public var currentUnitID: String? {
        guard status == .inProgress, let unit = path.last else { return nil }
        return survey.units[unit].id
    }

    /// The position of the current unit (``currentUnitID`` without building the id); `nil` once finished.
    /// Inlinable, as the other hot queries: called out of line from another module, a method of a
    /// struct this size gets a copy of it (hundreds of bytes) on every call.
    @inlinable
    public var currentUnit: UnitIndex? {
        guard status == .inProgress, let unit = path.last else { return nil }
        return UnitIndex(unit)
    }

    /// The ids of the units on the path so far, the current one last.
    public var pathIDs: [String] { path.map { survey.units[$0].id } }

    /// Ids of the visible leaf steps of the current unit, in presentation order.
    public var currentStepIDs: [String] { currentSteps.map { survey.steps.ids[$0.rawValue] } }

    /// The positions of ``currentStepIDs`` (for the index-keyed API: no id built or hashed).
    public var currentSteps: [StepIndex] {
        guard status == .inProgress, let unit = path.last else { return [] }
        if survey.units[unit].isShuffled {
            return orderedSteps(of: unit).filter { derived.stepVisible[$0] }.map(StepIndex.init)
        }
        return survey.units[unit].steps.filter { derived.stepVisible[$0] }.map(StepIndex.init)
    }

    /// The answer currently stored for `stepID` (also answers kept from abandoned branches).
    public func answer(for stepID: String) -> JSONValue? {
        survey.stepIndexByID[stepID].flatMap { answer(at: StepIndex($0)) }
    }

    /// The answer currently stored for the step at `step` (``answer(for:)`` without the id lookup).
    @inlinable
    public func answer(at step: StepIndex) -> JSONValue? {
        guard answers.indices.contains(step.rawValue), !answers[step.rawValue].isNull else { return nil }
        return answers[step.rawValue]
    }

    /// Whether `stepID` is visible given the answers so far.
    public func isVisible(_ stepID: String) -> Bool {
        survey.stepIndexByID[stepID].map { isVisible(at: StepIndex($0)) } ?? false
    }

    /// Whether the step at `step` is visible (``isVisible(_:)`` without the id lookup; `false` for
    /// a position the survey does not have).
    @inlinable
    public func isVisible(at step: StepIndex) -> Bool {
        let index = step.rawValue
        let units = survey.storage.steps.units
        guard index >= 0, index < units.count else { return false }
        return derived.stepVisible[index] && derived.unitTree.values[Int(units[index])] != 0
    }

    /// The value of a calculated value.
    public func calculatedValue(_ name: String) -> JSONValue? {
        survey.calculatedIndexByName[name].map { values[survey.steps.count + $0] }
    }

    /// "Question k of n", counting only units this respondent sees; a step that counts as several
    /// questions (a repeat, one per instance it will show) adds them.
    public var progress: Progress {
        guard let unit = path.last else {
            return Progress(current: countedOnPath, total: countedOnPath, isCounted: false)
        }
        var ahead = derived.countTree.sum((unit + 1)..<survey.units.count)
        var current = countedOnPath
        if !survey.multipleCountSteps.isEmpty {
            for later in survey.multipleCountSteps.keys where later > unit && derived.countTree.values[later] != 0 {
                ahead += extraCount(ofUnit: later)
            }
            // The current unit is at its first question; its others (as it is now) are ahead.
            current -= pathExtra.last ?? 0
            ahead += extraCount(ofUnit: unit)
        }
        let isCounted = pathCounted.last ?? false
        return Progress(current: current, total: current + ahead, isCounted: isCounted)
    }

    /// How many more questions than one unit `unit`'s visible multiple-count steps count as now.
    func extraCount(ofUnit unit: Int) -> Int {
        guard let indices = survey.multipleCountSteps[unit] else { return 0 }
        var extra = 0
        for index in indices where derived.stepVisible[index] {
            let step = survey.steps[index]
            var context = questionContext(for: step)
            context.answer = answers[index].isNull ? nil : answers[index]
            extra += max(1, step.question.progressCount(in: context) ?? 1) - 1
        }
        return extra
    }

    /// Whether Back is possible.
    public var canGoBack: Bool { status == .inProgress && path.count > 1 }
}

/// One recorded action of a session.
public enum SessionAction: Sendable, Hashable {
    case answer(stepID: String, value: JSONValue)
    case next
    case back
    case dismiss
}

/// An entry of a session's action log: a ``SessionAction`` with an answer to a step under its id kept
/// by the step's index.
enum LoggedAction: Sendable {
    case answer(step: Int, value: JSONValue)
    /// An answer under a key of its own: an entry (`<id>[k]`) or a comment (`<id>-Comment`).
    case keyedAnswer(key: String, value: JSONValue)
    case next
    case back
    case dismiss
}

extension SurveySession {
    /// The ``SessionAction`` that `entry` of the log stands for.
    func action(from entry: LoggedAction) -> SessionAction {
        switch entry {
        case .answer(let step, let value): .answer(stepID: survey.steps.ids[step], value: value)
        case .keyedAnswer(let key, let value): .answer(stepID: key, value: value)
        case .next: .next
        case .back: .back
        case .dismiss: .dismiss
        }
    }
}

/// A Back in the log that the next Next may undo: where it is in the log, the unit it left and how
/// many answers had been written when it was taken.
/// An answer just given to `step` that wrote nothing but itself: when `logEdits` and `answerWrites`
/// are still these, nothing happened since.
struct AnswerMark: Sendable, Hashable {
    var step: Int
    var logEdits: Int
    var answerWrites: Int
}

struct BackMark: Sendable, Hashable {
    var logIndex: Int
    var unit: Int
    var answerWrites: Int
    /// The answer that a new answer to its step could replace when the Back was taken: again so once
    /// the Back and the Next that undoes it are removed (a replay never sees them).
    var lastAnswer: AnswerMark? = nil
}

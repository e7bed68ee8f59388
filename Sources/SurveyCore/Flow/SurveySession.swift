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
    /// Every accepted action, in order (answers, Next, Back, dismiss): with the seed, enough to replay the
    /// run. Refused actions (an invalid answer, a blocked Next) change nothing and are not kept, so the log
    /// grows only with what the respondent actually did.
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

    let context: PresentationContext
    let functionContext: FunctionContext
    /// ``survey``'s compiled form and step table, which ``survey`` keeps alive, without counted
    /// references: the hot paths read the survey through these. Read from ``survey`` instead, in a
    /// mutating method, the survey is retained for as long as it is used (a mutating call could, for all
    /// the compiler knows, replace the session and release it): an atomic count, shared by the threads
    /// running respondents, on every answer.
    let compiled: Unmanaged<CompiledSurvey>
    let stepTable: Unmanaged<StepTable>
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

    /// Starts a session on the first visible unit.
    /// - Parameters:
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
    /// defaults, and the first visible unit.
    mutating func begin() {
        for index in survey.conditionallyEnabledSteps { refreshEnabled(index) }
        for index in survey.defaultSteps { applyDefault(of: index) }
        if let first = derived.unitTree.firstNonzero(from: 0) {
            push(first)
        } else {
            status = .completed
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
        observers.removeAll()
        pendingTriggers.removeAll(keepingCapacity: true)
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
    /// accepts it; it counts at once, wherever the step is. Returns whether the answer changed.
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

    // MARK: Actions

    /// Stores an answer for a visible step of the current unit, after the question type validated
    /// and normalised it. `null` (or an empty answer) clears it.
    ///
    /// `stepID` may also name a comment box (`<id>-Comment`) or one entry of a list answer,
    /// `<id>[k]` with `k` from 0: one instance of a repeat, one choice of a multiple choice. Such an
    /// answer changes entry `k` only (`k` equal to the number of entries adds one; `null` removes
    /// entry `k`, later ones moving up), and the question type checks only what it changes, so
    /// answering instance by instance costs the same whatever the number of instances. A step id
    /// that is itself written `x[k]` is always the step.
    /// - Returns: the normalised answer (for `<id>[k]`, the normalised entry, `null` once removed).
    /// - Throws: ``SessionError``; an invalid answer leaves the previous answer in place.
    @discardableResult
    public mutating func answer(_ value: JSONValue, for stepID: String) throws(SessionError) -> JSONValue {
        guard status == .inProgress else { throw .finished(status) }
        guard let index = survey.stepIndexByID[stepID] else {
            if let base = survey.commentStep(stepID) { return try comment(value, for: base, key: stepID) }
            if let key = survey.entryKey(stepID) {
                return try answer(entry: value, at: key.entry, of: key.step, key: stepID)
            }
            throw .unknownStep(stepID)
        }
        return try answer(value, index: index)
    }

    /// Stores an answer for the step at `step`: ``answer(_:for:)`` without the id lookup, for hot
    /// loops (the simulator, batch tests, benchmarks) that look each id up once with
    /// ``Survey/stepIndex(of:)``.
    /// - Throws: ``SessionError``; ``SessionError/unknownStep(_:)`` (naming `#<index>`) for a
    ///   position the survey does not have.
    @discardableResult
    public mutating func answer(_ value: JSONValue, at step: StepIndex) throws(SessionError) -> JSONValue {
        guard status == .inProgress else { throw .finished(status) }
        guard survey.steps.indices.contains(step.rawValue) else { throw .unknownStep("#\(step.rawValue)") }
        return try answer(value, index: step.rawValue)
    }

    /// Stores a whole answer for step `index`, given under its id.
    mutating func answer(_ value: JSONValue, index: Int) throws(SessionError) -> JSONValue {
        try checkAnswerable(index, key: nil)
        let normalized: JSONValue
        if value.isNull || (value.stringValue?.isBlank ?? false) {
            normalized = .null
        } else {
            do {
                // The session's own context when the step adds nothing to it (no copy to make): read
                // from the columns, without putting the whole step together.
                // The table is read without retaining it (a counted reference on every answer).
                let table = stepTable
                let needsStep = table._withUnsafeGuaranteedRef { steps in
                    guard let extras = steps.extras(of: index) else { return false }
                    return !extras.choiceConditions.isEmpty || !extras.typeExpressions.isEmpty
                }
                if needsStep {
                    let step = survey.steps[index]
                    normalized = try step.question.normalize(value, in: questionContext(for: step))
                    try checkChoiceVisibility(normalized, step: step)
                } else {
                    let result: Result<JSONValue, AnswerError> = table._withUnsafeGuaranteedRef { steps in
                        do throws(AnswerError) {
                            return .success(try steps.normalize(value, at: index, in: context))
                        } catch {
                            return .failure(error)
                        }
                    }
                    normalized = try result.get()
                }
            } catch {
                throw refuse(error, key: survey.steps.ids[index])
            }
        }
        store(normalized, at: index, given: value, key: nil)
        announce(nil, of: index, stored: normalized)
        return normalized
    }

    /// Stores a change to entry `entry` of step `index`'s list answer (`key` is `<id>[entry]`).
    mutating func answer(entry value: JSONValue, at entry: Int, of index: Int, key: String) throws(SessionError)
        -> JSONValue
    {
        let step = try answerableStep(index, key: key)
        let stored: JSONValue
        switch try entryChange(value, at: entry, of: step, index: index, key: key) {
        case .whole(var normalized):
            if case .array(let list) = normalized, list.isEmpty { normalized = .null }
            if !step.choiceConditions.isEmpty, let list = normalized.arrayValue, entry < list.count {
                do { try checkChoiceVisibility(list[entry], step: step) } catch { throw refuse(error, key: key) }
            }
            store(normalized, at: index, given: value, key: key)
            let list = normalized.arrayValue ?? []
            stored = value.isNull || entry >= list.count ? JSONValue.null : list[entry]
        case .entry(let normal):
            do { try checkChoiceVisibility(normal, step: step) } catch { throw refuse(error, key: key) }
            store(entry: normal, at: entry, of: index, given: value, key: key)
            stored = normal
        }
        announce(key, of: index, stored: stored)
        return stored
    }

    /// What the question type makes of a change to entry `entry` (its locals, the session's list
    /// among them, are gone when it returns, so the list can then be changed in place).
    mutating func entryChange(_ value: JSONValue, at entry: Int, of step: CompiledStep, index: Int, key: String)
        throws(SessionError) -> EntryAnswer
    {
        let current: [JSONValue]
        switch answers[index] {
        case .null: current = []
        case .array(let list): current = list
        default:
            throw refuse(
                AnswerError(
                    code: "wrongShape",
                    message: "'\(key)' names an entry of a list, and the answer of '\(step.id)' is not a list."),
                key: key)
        }
        guard entry <= current.count else {
            throw refuse(
                AnswerError(
                    code: "noSuchEntry",
                    message: "'\(step.id)' has \(current.count) entries (from 0); '\(key)' can change one of them "
                        + "or, as '\(step.id)[\(current.count)]', add one.",
                    arguments: ["index": String(entry), "count": String(current.count)]),
                key: key)
        }
        do {
            return try step.question.normalize(entry: value, at: entry, of: current, in: questionContext(for: step))
        } catch {
            throw refuse(error, key: key)
        }
    }

    /// Stores entry `entry` of step `index`'s list answer, changing the list in place when nothing
    /// else holds it, and tells the watchers of the step only when the entry changed.
    mutating func store(entry normal: JSONValue, at entry: Int, of index: Int, given value: JSONValue, key: String) {
        accept(value, key: key, of: index)
        if case .array(let list) = answers[index], entry < list.count, list[entry] == normal { return }
        let shared = Self.isSameList(answers[index], values[index])
        var list = answers[index].arrayValue ?? []
        answers[index] = .null
        if shared { values[index] = .null }
        if entry < list.count { list[entry] = normal } else { list.append(normal) }
        answers[index] = .array(list)
        if shared {
            values[index] = answers[index]
            propagate(from: index)
        } else {
            setValue(index, answers[index])
        }
    }

    /// Whether `a` and `b` are the same stored list (no answer, or arrays sharing their storage).
    static func isSameList(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.array(let x), .array(let y)):
            return x.withUnsafeBufferPointer { p in y.withUnsafeBufferPointer { q in p.baseAddress == q.baseAddress } }
        default: return false
        }
    }

    /// Step `index`, when the respondent may answer it now (`key` names it in errors).
    mutating func answerableStep(_ index: Int, key: String) throws(SessionError) -> CompiledStep {
        try checkAnswerable(index, key: key)
        return survey.steps[index]
    }

    /// Checks that the respondent may answer step `index` now (`key` names it in errors; `nil`: the
    /// step's id), reading only the columns it needs.
    mutating func checkAnswerable(_ index: Int, key: String?) throws(SessionError) {
        // Read without retaining the table (a counted reference on every answer, shared by the threads).
        let (unit, flags) = stepTable._withUnsafeGuaranteedRef { ($0.units[index], $0.flags[index]) }
        // The name the refusal gives, read only when there is one (the id column is large).
        func refused() -> String { key ?? survey.steps.ids[index] }
        guard Int(unit) == path.last, derived.stepVisible[index] else {
            throw .stepNotCurrent(refused(), current: currentUnitID)
        }
        guard flags.contains(.collectsAnswer) else { throw .notAnswerable(refused()) }
        if isReadOnly(index) {
            throw refuse(AnswerError(code: "readOnly", message: "This answer cannot be changed."), key: refused())
        }
    }

    /// Records that the answer given as `key` was refused, and the error to throw.
    mutating func refuse(_ error: AnswerError, key: String) -> SessionError {
        let stepError = StepError(stepID: key, error: error, message: context.strings.message(for: error))
        if !lastErrors.isEmpty { lastErrors.removeAll { $0.stepID == key } }
        lastErrors.append(stepError)
        emit(.validationFailed([stepError]))
        return .invalidAnswer(stepError)
    }

    /// The bookkeeping of an accepted answer `value`, given as `key` (`nil`: the step's id), to step
    /// `index`.
    mutating func accept(_ value: JSONValue, key: String?, of index: Int) {
        // An accepted answer clears the step's errors (an entry's too: `kids[1]` answers `kids`).
        if !lastErrors.isEmpty {
            let stepID = survey.steps.ids[index]
            lastErrors.removeAll { $0.stepID == key || $0.stepID == stepID }
        }
        // Every accepted answer is logged, also one that replaces the answer just given: the response
        // recorder stores the log's new entries, so rewriting an entry would lose that answer.
        if let key {
            log.append(.keyedAnswer(key: key, value: value))
        } else {
            log.append(.answer(step: index, value: value))
        }
        if survey.steps.extras(of: index)?.defaultExpression != nil { answeredByRespondent.insert(index) }
        if !pendingTriggers.isEmpty { pendingTriggers.removeAll(keepingCapacity: true) }
    }

    /// Stores step `index`'s new normalised answer, given as `value` for `key` (`nil`: the step's id).
    mutating func store(_ normalized: JSONValue, at index: Int, given value: JSONValue, key: String?) {
        accept(value, key: key, of: index)
        answers[index] = normalized
        setValue(index, normalized)
    }

    /// Tells observers that `key` (`nil`: step `index`'s id) was answered (`stored` as it is kept) and
    /// runs the triggers it set off.
    mutating func announce(_ key: String?, of index: Int, stored: JSONValue) {
        emit(.answered(stepID: key ?? survey.steps.ids[index], value: stored.isNull ? JSONValue?.none : stored))
        if !pendingTriggers.isEmpty { runTriggers() }
    }

    /// Stores the comment of step `index` (its `showCommentArea` box, answered as `key`,
    /// `<id>-Comment`): a text, trimmed; empty or `null` clears it.
    mutating func comment(_ value: JSONValue, for index: Int, key: String) throws(SessionError) -> JSONValue {
        let step = survey.steps[index]
        guard step.unit == path.last, derived.stepVisible[index] else {
            throw .stepNotCurrent(key, current: currentUnitID)
        }
        var problem: AnswerError?
        var normalized = JSONValue.null
        if isReadOnly(index) {
            problem = AnswerError(code: "readOnly", message: "This answer cannot be changed.")
        } else if case .string(let text) = value {
            let trimmed = text.trimmingWhitespace()
            if !trimmed.isEmpty { normalized = .string(trimmed) }
        } else if !value.isNull {
            problem = .wrongShape(expected: "a text", got: value)
        }
        if let problem { throw refuse(problem, key: key) }
        guard let slot = survey.commentSlots[index] else { throw .unknownStep(key) }
        log.append(.keyedAnswer(key: key, value: value))
        pendingTriggers.removeAll(keepingCapacity: true)
        setValue(slot, normalized)
        announce(key, of: index, stored: normalized)
        return normalized
    }

    /// The comment of step `id` (its `showCommentArea` box), if any.
    public func comment(for stepID: String) -> String? {
        guard let index = survey.stepIndexByID[stepID], let slot = survey.commentSlots[index] else { return nil }
        return values[slot].stringValue
    }

    // MARK: Triggers

    /// The most trigger checks one answer may cause (triggers that set each other's conditions
    /// forever stop here).
    static let triggerChecksPerAnswer = 10_000

    /// Checks the triggers whose conditions read what the last answer changed, in document order,
    /// and acts on those that hold: an answer it sets is checked again in turn; a `skip` moves to its
    /// target once all are done.
    mutating func runTriggers() {
        var checks = 0
        var skipTo: Int?
        while !pendingTriggers.isEmpty, checks < Self.triggerChecksPerAnswer {
            checks += 1
            let index = pendingTriggers.min() ?? pendingTriggers[0]
            pendingTriggers.removeAll { $0 == index }
            let trigger = survey.triggers[index]
            evaluationCount += 1
            guard trigger.condition.isTrue(values, context: functionContext) else { continue }
            switch trigger.action {
            case .setValue(let target, let value):
                assign(value, to: target, normalized: true)
            case .copyValue(let from, let target):
                assign(values[from], to: target, normalized: false)
            case .runExpression(let expression, let target):
                evaluationCount += 1
                let result = expression.evaluate(values, context: functionContext)
                if let target { assign(result, to: target, normalized: false) }
            case .skip(let unit):
                skipTo = unit
            case .complete:
                break
            }
        }
        pendingTriggers.removeAll()
        guard let unit = skipTo, let current = path.last, unit != current,
            let destination = derived.unitTree.firstNonzero(from: unit), destination != current
        else { return }
        push(destination)
        let from = survey.units[current].id
        let to = survey.units[destination].id
        emit(.continued(from: from, to: to))
        emit(.stepEntered(unitID: to))
    }

    /// A trigger's answer for step `index`, through its question type (a value it refuses is not set);
    /// it counts at once, wherever the step is.
    mutating func assign(_ value: JSONValue, to index: Int, normalized isNormalized: Bool) {
        let step = survey.steps[index]
        var stored = value
        if value.isEmptyAnswer {
            stored = .null
        } else if !isNormalized {
            guard let accepted = try? step.question.normalize(value, in: context) else { return }
            stored = accepted
        }
        setAnswer(stored, at: index)
    }

    /// The presentation context for `step`: the choices it does not offer now, and the values of its
    /// type's own expressions.
    func questionContext(for step: CompiledStep) -> PresentationContext {
        guard !step.choiceConditions.isEmpty || !step.typeExpressions.isEmpty else { return context }
        var result = context
        for (choice, condition) in step.choiceConditions where !condition.isTrue(values, context: functionContext) {
            result.hiddenChoices.insert(choice)
        }
        for (name, expression) in step.typeExpressions {
            result.expressionValues[name] = expression.evaluate(values, context: functionContext)
        }
        return result
    }

    func checkChoiceVisibility(_ value: JSONValue, step: CompiledStep) throws(AnswerError) {
        guard !step.choiceConditions.isEmpty else { return }
        for element in value.arrayValue ?? [value] {
            guard let choice = element.choiceKey, let condition = step.choiceConditions[choice] else { continue }
            if !condition.isTrue(values, context: functionContext) {
                throw AnswerError(
                    code: "notAChoice", message: "'\(choice)' is not one of the choices.", arguments: ["value": choice])
            }
        }
    }

    /// Moves on: validates the current unit, follows the first matching branch or goes to the
    /// next visible unit, and completes the survey after the last one.
    @discardableResult
    public mutating func next() -> NextOutcome {
        var result: CompletionResult?
        switch proceed(reporting: &result) {
        case .moved(let unit): return .moved(to: survey.units[unit.rawValue].id)
        case .completed: return .completed(result ?? completionResult())
        case .blocked(let errors): return .blocked(errors)
        }
    }

    /// ``next()`` for hot loops (the simulator, batch tests, benchmarks): the same move, named by
    /// position, and the completion's answers are not collected unless an observer hears of it
    /// (``completionResult()`` gives them afterwards).
    @discardableResult
    public mutating func advance() -> Advance {
        var result: CompletionResult?
        return proceed(reporting: &result)
    }

    /// The move of ``next()`` and ``advance()``; `result` is the completion's when it was built
    /// (for observers).
    mutating func proceed(reporting result: inout CompletionResult?) -> Advance {
        guard status == .inProgress, let unitIndex = path.last else {
            return .blocked([])
        }
        // The unit and the step flags are read without retaining them (counted references shared by
        // the threads, on every Next).
        let table = compiled
        let unitSteps = table._withUnsafeGuaranteedRef { $0.units[unitIndex].steps }
        let flagTable = stepTable
        var errors: [StepError] = []
        let hasValidators = table._withUnsafeGuaranteedRef { !$0.validators.isEmpty }
        for index in unitSteps where derived.stepVisible[index] {
            // Most steps need no check at all: that is known from one byte, without the step itself.
            let stepFlags = flagTable._withUnsafeGuaranteedRef { $0.flags[index] }
            guard stepFlags.contains(.collectsAnswer),
                hasValidators || stepFlags.contains(.mayBeRequired) || stepFlags.contains(.checksAgainOnNext),
                !isReadOnly(index)
            else { continue }
            let step = survey.steps[index]
            var isRequired = stepFlags.contains(.isRequired)
            if !isRequired, let requiredIf = step.requiredIf {
                evaluationCount += 1
                isRequired = requiredIf.isTrue(values, context: functionContext)
            }
            if isRequired, step.question.isEmpty(answers[index]) {
                errors.append(
                    StepError(stepID: step.id, error: .required, message: context.strings.message(for: .required)))
                continue
            }
            // A kind whose answer is complete only now (a repeat) is checked once more.
            if step.question.checksAgainOnNext, !answers[index].isNull {
                var final = questionContext(for: step)
                final.isFinalCheck = true
                do {
                    _ = try step.question.normalize(answers[index], in: final)
                } catch {
                    errors.append(
                        StepError(stepID: step.id, error: error, message: context.strings.message(for: error)))
                    continue
                }
            }
            if hasValidators {
                appendValidatorErrors(ofStep: index, to: &errors)
            }
        }
        // A required panel needs one of its visible questions answered (unless none can be).
        for panelIndex in survey.panels.isEmpty ? 0..<0 : survey.panelsByUnit[unitIndex] ?? 0..<0 {
            let panel = survey.panels[panelIndex]
            let shown = panel.steps.filter {
                derived.stepVisible[$0] && survey.steps.flags[$0].contains(.collectsAnswer)
            }
            guard shown.contains(where: { !isReadOnly($0) }),
                shown.allSatisfy({ survey.steps.questions[$0].isEmpty(answers[$0]) })
            else { continue }
            evaluationCount += panel.requiredIf == nil ? 0 : 1
            guard isRequired(panel) else { continue }
            errors.append(
                StepError(
                    stepID: panel.id, error: .panelRequired, message: context.strings.message(for: .panelRequired)))
        }
        if !errors.isEmpty {
            lastErrors = errors
            emit(.validationFailed(errors))
            return .blocked(errors)
        }
        if !lastErrors.isEmpty { lastErrors = [] }
        log.append(.next)
        // `complete` triggers first, as in SurveyJS.
        if !table._withUnsafeGuaranteedRef({ $0.completeTriggers.isEmpty }) {
            for index in survey.completeTriggers {
                evaluationCount += 1
                if survey.triggers[index].condition.isTrue(values, context: functionContext) {
                    result = finish()
                    return .completed
                }
            }
        }
        // Branches: the unit's visible questions in order, then the page's own rules.
        var target: Int?? = nil
        branchSearch: for index in unitSteps where derived.stepVisible[index] {
            guard flagTable._withUnsafeGuaranteedRef({ $0.flags[index] }).contains(.hasBranches) else { continue }
            for branch in survey.steps.branches(of: index) where evaluateBranch(branch) {
                target = .some(branch.targetUnit)
                break branchSearch
            }
        }
        if target == nil, table._withUnsafeGuaranteedRef({ !$0.units[unitIndex].branches.isEmpty }) {
            for branch in survey.units[unitIndex].branches where evaluateBranch(branch) {
                target = .some(branch.targetUnit)
                break
            }
        }
        let destination: Int?
        switch target {
        case .some(.some(let jump)): destination = derived.unitTree.firstNonzero(from: jump)
        case .some(.none): destination = nil
        case .none: destination = derived.unitTree.firstNonzero(from: unitIndex + 1)
        }
        guard let destination else {
            result = finish()
            return .completed
        }
        push(destination)
        if !observers.isEmpty {
            let to = survey.units[destination].id
            emit(.continued(from: survey.units[unitIndex].id, to: to))
            emit(.stepEntered(unitID: to))
        }
        return .moved(to: UnitIndex(destination))
    }

    mutating func evaluateBranch(_ branch: CompiledBranch) -> Bool {
        guard let condition = branch.condition else { return true }
        evaluationCount += 1
        return condition.isTrue(values, context: functionContext)
    }

    /// Goes back to the previous unit on the path actually taken. Answers on the unit left stay
    /// stored (shown again if the respondent returns) but no longer count until it is re-entered.
    public mutating func back() throws(SessionError) {
        guard status == .inProgress else { throw .finished(status) }
        guard path.count > 1 else { throw .cannotGoBack }
        log.append(.back)
        let from = survey.units[path[path.count - 1]].id
        pop()
        lastErrors = []
        let to = survey.units[path[path.count - 1]].id
        emit(.wentBack(from: from, to: to))
        emit(.stepEntered(unitID: to))
    }

    /// Ends the session without completing it. Stored answers stay in ``state``.
    public mutating func dismiss() {
        guard status == .inProgress else { return }
        log.append(.dismiss)
        let unit = currentUnitID
        status = .dismissed
        emit(.dismissed(unitID: unit))
    }

    /// Completes the session; the completion result when observers were told it (built for them).
    mutating func finish() -> CompletionResult? {
        guard !observers.isEmpty else {
            status = .completed
            return nil
        }
        let result = completionResult()
        status = .completed
        emit(.completed(result))
        return result
    }

    /// The answers on the path so far, as completion would report them.
    public func completionResult() -> CompletionResult {
        // Room for every step on the path at once: growing the table as answers arrive rehashes it.
        var room = 0
        for unit in path { room += survey.units[unit].steps.count }
        var collected: [String: JSONValue] = Dictionary(minimumCapacity: min(room, answers.count))
        if survey.clearInvisibleValues == .none {
            // Every answer is kept, hidden or not (SurveyJS's clearInvisibleValues "none").
            for (index, answer) in answers.enumerated() where !answer.isNull {
                collected[survey.steps.ids[index]] = answer
            }
            for (index, slot) in survey.commentSlots where !values[slot].isNull {
                collected[survey.steps.ids[index] + "-Comment"] = values[slot]
            }
        } else {
            let hasComments = !survey.commentSlots.isEmpty
            // A unit is on the path more than once only after a jump back; only then are repeats skipped.
            let revisits = path.contains { liveCount[$0] > 1 }
            var seen = Set<Int>()
            for unitIndex in path where !revisits || seen.insert(unitIndex).inserted {
                let unit = survey.units[unitIndex]
                guard derived.unitVisible(unit, at: unitIndex) || unitIndex == path.last else { continue }
                for index in unit.steps where derived.stepVisible[index] {
                    if !answers[index].isNull { collected[survey.steps.ids[index]] = answers[index] }
                    if hasComments, let slot = survey.commentSlots[index], !values[slot].isNull {
                        collected[survey.steps.ids[index] + "-Comment"] = values[slot]
                    }
                }
            }
        }
        // Calculated values marked `includeIntoResult`, under their names (when they have a value).
        for (index, value) in survey.definition.calculatedValues.enumerated() where value.includeIntoResult {
            let computed = values[survey.steps.count + index]
            if !computed.isEmptyAnswer { collected[value.name] = computed }
        }
        var message: String?
        for candidate in survey.completionMessages
        where candidate.condition?.isTrue(values, context: functionContext) ?? true {
            message = pipe(context.text(candidate.text))
            break
        }
        return CompletionResult(
            surveyID: survey.id, surveyVersion: survey.definition.version, path: pathIDs, answers: collected,
            message: message)
    }

    // MARK: Incremental evaluation

    /// Stores a value and re-evaluates exactly what depends on it. Calculated values are evaluated in
    /// dependency order, each at most once per change however many paths lead to it (a diamond of
    /// calculated values costs one evaluation per value, not one per path), and without recursion.
    mutating func setValue(_ slot: Int, _ value: JSONValue) {
        if values[slot] == value { return }
        values[slot] = value
        propagate(from: slot)
    }

    /// Re-evaluates what reads value `slot`, which has just changed, and what that changes in turn.
    mutating func propagate(from slot: Int) {
        var pending = CalculationQueue()
        notifyWatchers(of: slot, pending: &pending)
        while let rank = pending.popFirst() {
            let index = survey.calculatedOrder[rank]
            evaluationCount += 1
            let result = survey.calculated[index].expression.evaluate(values, context: functionContext)
            let calculatedSlot = survey.steps.count + index
            guard values[calculatedSlot] != result else { continue }
            values[calculatedSlot] = result
            notifyWatchers(of: calculatedSlot, pending: &pending)
        }
    }

    mutating func notifyWatchers(of slot: Int, pending: inout CalculationQueue) {
        // The table is read without retaining it (an iterator over it would keep it retained).
        let table = compiled
        for position in table._withUnsafeGuaranteedRef({ $0.watchers.positions(of: slot) }) {
            switch table._withUnsafeGuaranteedRef({ $0.watchers.entry(position) }) {
            case .stepVisibility(let position):
                let index = Int(position)
                evaluationCount += 1
                let visible = StepTable.isShown(
                    index, in: stepTable, values: values, context: functionContext)
                if visible != derived.stepVisible[index] {
                    derived.setStepVisible(index, visible, survey: compiled)
                    if !visible, survey.clearInvisibleValues == .onHidden { clearHiddenAnswer(of: index) }
                }
            case .unitVisibility(let position):
                let index = Int(position)
                evaluationCount += 1
                let condition = survey.units[index].visibleIf?.isTrue(values, context: functionContext) ?? true
                if condition != derived.unitCondition[index] {
                    derived.unitCondition[index] = condition
                    derived.refreshUnit(index, survey: compiled)
                    if !condition, survey.clearInvisibleValues == .onHidden {
                        for step in survey.units[index].steps { clearHiddenAnswer(of: step) }
                    }
                }
            case .calculated(let position):
                let index = Int(position)
                pending.insert(survey.calculatedRank[index])
            case .choices(let position):
                let index = Int(position)
                evaluationCount += 1
                clearHiddenChoices(of: index)
            case .trigger(let position):
                let index = Int(position)
                if !pendingTriggers.contains(index) { pendingTriggers.append(index) }
            case .enabled(let position):
                let index = Int(position)
                evaluationCount += 1
                refreshEnabled(index)
            case .defaultValue(let position):
                let index = Int(position)
                if !answeredByRespondent.contains(index) { applyDefault(of: index) }
            }
        }
    }

    /// `clearInvisibleValues: "onHidden"`: the answer of a step just hidden is cleared.
    mutating func clearHiddenAnswer(of index: Int) {
        setAnswer(.null, at: index)
        if !survey.commentSlots.isEmpty, let slot = survey.commentSlots[index] { setValue(slot, .null) }
    }

    /// Removes the choices of step `index`'s answer whose `visibleIf` no longer holds: a single
    /// choice is cleared, a multiple choice keeps its other selections.
    mutating func clearHiddenChoices(of index: Int) {
        let answer = answers[index]
        guard !answer.isNull else { return }
        let step = survey.steps[index]
        func isShown(_ element: JSONValue) -> Bool {
            guard let choice = element.choiceKey, let condition = step.choiceConditions[choice] else { return true }
            return condition.isTrue(values, context: functionContext)
        }
        let kept: JSONValue
        if case .array(let elements) = answer {
            let remaining = elements.filter(isShown)
            guard remaining.count != elements.count else { return }
            kept = remaining.isEmpty ? .null : .array(remaining)
        } else {
            guard !isShown(answer) else { return }
            kept = .null
        }
        answers[index] = kept
        if liveCount[step.unit] > 0 {
            setValue(index, kept)
            emit(.answered(stepID: step.id, value: kept.isNull ? nil : kept))
        }
    }

    mutating func push(_ unit: Int) {
        // The unit left counts as what its answers now make it (instances added while on it).
        if !survey.multipleCountSteps.isEmpty, let left = path.last, pathCounted.last == true,
            let entered = pathExtra.last
        {
            let extra = extraCount(ofUnit: left)
            countedOnPath += extra - entered
            pathExtra[pathExtra.count - 1] = extra
        }
        path.append(unit)
        let counts = derived.countTree.values[unit] != 0
        pathCounted.append(counts)
        let extra = counts && !survey.multipleCountSteps.isEmpty ? extraCount(ofUnit: unit) : 0
        pathExtra.append(extra)
        if counts { countedOnPath += 1 + extra }
        liveCount[unit] += 1
        if liveCount[unit] == 1 {
            for index in survey.units[unit].steps where !answers[index].isNull {
                setValue(index, answers[index])
            }
        }
    }

    mutating func pop() {
        guard let unit = path.popLast() else { return }
        let extra = pathExtra.popLast() ?? 0
        if pathCounted.popLast() == true { countedOnPath -= 1 + extra }
        liveCount[unit] -= 1
        if liveCount[unit] == 0 {
            for index in survey.units[unit].steps where !answers[index].isNull {
                setValue(index, .null)
            }
        }
    }

    func orderedSteps(of unit: Int) -> [Int] {
        let compiled = survey.units[unit]
        var order = Array(compiled.steps)
        guard compiled.isShuffled else { return order }
        var generator = SeededGenerator(seed: seed, purpose: "page:" + compiled.id)
        guard let panels = survey.panelsByUnit[unit] else {
            order.shuffle(using: &generator)
            return order
        }
        // A panel moves as one block, its questions in their order (SurveyJS shuffles a page's elements).
        var blocks: [[Int]] = []
        var blockOfStep: [Int: Int] = [:]
        for index in panels where survey.panels[index].parent == nil {
            for step in survey.panels[index].steps { blockOfStep[step] = index }
        }
        var lastBlock: Int?
        for step in order {
            let block = blockOfStep[step]
            if block == nil || block != lastBlock { blocks.append([]) }
            blocks[blocks.count - 1].append(step)
            lastBlock = block
        }
        blocks.shuffle(using: &generator)
        return blocks.flatMap { $0 }
    }
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

/// The calculated values waiting to be evaluated, by their position in dependency order: a min-heap
/// without duplicates. Empty (and allocation-free) for answers no calculated value reads.
struct CalculationQueue {
    /// The heap and the set of what is in it, made on the first insert: an answer that queues nothing
    /// (most) then has nothing to release either.
    private struct Heap {
        var ranks: [Int] = []
        var queued: Set<Int> = []

        mutating func insert(_ rank: Int) {
            guard queued.insert(rank).inserted else { return }
            ranks.append(rank)
            var child = ranks.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard ranks[child] < ranks[parent] else { break }
                ranks.swapAt(child, parent)
                child = parent
            }
        }

        mutating func popFirst() -> Int? {
            guard let first = ranks.first else { return nil }
            let last = ranks.removeLast()
            if !ranks.isEmpty {
                ranks[0] = last
                var parent = 0
                while true {
                    let left = 2 * parent + 1
                    let right = left + 1
                    var smallest = parent
                    if left < ranks.count, ranks[left] < ranks[smallest] { smallest = left }
                    if right < ranks.count, ranks[right] < ranks[smallest] { smallest = right }
                    guard smallest != parent else { break }
                    ranks.swapAt(parent, smallest)
                    parent = smallest
                }
            }
            queued.remove(first)
            return first
        }
    }

    private var heap: Heap?

    mutating func insert(_ rank: Int) {
        // Taken out while it changes, so that its arrays stay uniquely referenced (no copy).
        var changed = heap ?? Heap()
        heap = nil
        changed.insert(rank)
        heap = changed
    }

    /// The first rank, removed; `nil` when empty (decided here, without a call: most answers queue nothing).
    @inline(__always)
    mutating func popFirst() -> Int? {
        heap == nil ? nil : removeFirst()
    }

    private mutating func removeFirst() -> Int? {
        guard var changed = heap else { return nil }
        heap = nil
        let first = changed.popFirst()
        heap = changed
        return first
    }
}

import Foundation

// Answering: a respondent's answer checked by its step's question type and stored, then the
// triggers that read what it changed.

extension SurveySession {
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
        try checkRoomForAction()
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
        try checkRoomForAction()
        guard survey.steps.indices.contains(step.rawValue) else { throw .unknownStep("#\(step.rawValue)") }
        return try answer(value, index: step.rawValue)
    }

    /// Stores a whole answer for step `index`, given under its id.
    mutating func answer(_ value: JSONValue, index: Int) throws(SessionError) -> JSONValue {
        try checkAnswerable(index, key: nil)
        let writesBefore = answerWrites
        let normalized: JSONValue
        if value.isNull || (value.stringValue?.isBlank ?? false) {
            normalized = .null
        } else {
            do {
                // The session's own context when the step adds nothing to it (no copy to make): read
                // from the columns, without putting the whole step together.
                // The table is read without retaining it (a counted reference on every answer).
                let table = stepTable
                let needsStep = table.read { steps in
                    guard let extras = steps.extras(of: index) else { return false }
                    return !extras.choiceConditions.isEmpty || !extras.typeExpressions.isEmpty
                }
                if needsStep {
                    let step = survey.steps[index]
                    normalized = try step.question.normalize(value, in: questionContext(for: step))
                    try checkChoiceVisibility(normalized, step: step)
                } else {
                    let result: Result<JSONValue, AnswerError> = table.read { steps in
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
        lastAnswer =
            answerWrites == writesBefore &+ 1
            ? AnswerMark(step: index, logEdits: logEdits, answerWrites: answerWrites) : nil
        return normalized
    }

    /// Whether a new answer to step `index` may replace the last entry of the log instead of following
    /// it: that entry is an answer to the same step, given last (no action since: the log did not
    /// change), which wrote nothing but its own answer (no answer cleared or set by what it changed,
    /// none written since), and nothing that acts on a change reads the step (``Survey/replaceableAnswers``).
    ///
    /// Why a replay of the shorter log gives the same session: the earlier answer changed only its
    /// step's value and what is computed from values alone (visibility, `enableIf`, calculated values
    /// read only by those), which the later answer computes again from the same other values; nothing
    /// that remembers a change (a trigger, a value rule, a default value, a choice condition, clearing
    /// on hide) saw it. The unit, the path, the other answers and the log before it are the same.
    func canReplaceLastAnswer(of index: Int) -> Bool {
        guard !keepsEveryAnswer, let mark = lastAnswer, mark.step == index, mark.logEdits == logEdits,
            mark.answerWrites == answerWrites, case .answer(let step, _)? = log.last, step == index
        else { return false }
        return survey.replaceableAnswers[index]
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
        answerWrites &+= 1
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
        let (unit, flags) = stepTable.read { ($0.units[index], $0.flags[index]) }
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
        // Every accepted answer is logged; one that replaces the answer just given to the same step
        // takes its entry when that answer left no other trace (a recorder compares the last action).
        if let key {
            log.append(.keyedAnswer(key: key, value: value))
        } else if canReplaceLastAnswer(of: index) {
            // The answer just given to this step left no trace but its value: this one takes its place.
            log[log.count - 1] = .answer(step: index, value: value)
        } else {
            log.append(.answer(step: index, value: value))
        }
        logEdits &+= 1
        lastAnswer = nil
        if !backMarks.isEmpty { backMarks.removeAll(keepingCapacity: true) }
        if let extras = survey.steps.extras(of: index), extras.defaultExpression != nil || extras.hasTypeDefault {
            answeredByRespondent.insert(index)
        }
        if !pendingTriggers.isEmpty { pendingTriggers.removeAll(keepingCapacity: true) }
    }

    /// Stores step `index`'s new normalised answer, given as `value` for `key` (`nil`: the step's id).
    mutating func store(_ normalized: JSONValue, at index: Int, given value: JSONValue, key: String?) {
        accept(value, key: key, of: index)
        answers[index] = normalized
        answerWrites &+= 1
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
        logEdits &+= 1
        lastAnswer = nil
        if !backMarks.isEmpty { backMarks.removeAll(keepingCapacity: true) }
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
}

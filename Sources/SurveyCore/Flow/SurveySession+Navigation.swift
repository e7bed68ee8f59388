import Foundation

// Navigation: Next along the first matching branch or to the next visible unit, Back along the
// path actually taken, dismissing, completing; the path and the order of a unit's steps.

extension SurveySession {
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
    /// (for observers). Unless `validating`, a unit with missing or invalid answers is left all the same
    /// (a response audit's replay goes on past what it reports).
    mutating func proceed(reporting result: inout CompletionResult?, validating: Bool = true) -> Advance {
        guard status == .inProgress, let unitIndex = path.last else {
            return .blocked([])
        }
        if log.count >= actionLimit {
            let error = SessionError.tooManyActions(limit: actionLimit)
            let blocked = [
                StepError(
                    stepID: survey.units[unitIndex].id,
                    error: AnswerError(code: "tooManyActions", message: error.description),
                    message: error.description)
            ]
            lastErrors = blocked
            emit(.validationFailed(blocked))
            return .blocked(blocked)
        }
        // The unit and the step flags are read without retaining them (counted references shared by
        // the threads, on every Next).
        let table = compiled
        let unitSteps = table.read { $0.units[unitIndex].steps }
        let flagTable = stepTable
        var errors: [StepError] = []
        let hasValidators = table.read { !$0.validators.isEmpty }
        for index in unitSteps where derived.stepVisible[index] {
            // Most steps need no check at all: that is known from one byte, without the step itself.
            let stepFlags = flagTable.read { $0.flags[index] }
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
                errors.append(requiredError(of: step.id))
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
        if validating, !errors.isEmpty {
            lastErrors = errors
            emit(.validationFailed(errors))
            return .blocked(errors)
        }
        if !lastErrors.isEmpty { lastErrors = [] }
        log.append(.next)
        logEdits &+= 1
        lastAnswer = nil
        // Full quotas the respondent now matches: their actions, before the triggers and branches.
        if !fullQuotas.isEmpty, let moved = applyFullQuotas(from: unitIndex, reporting: &result) { return moved }
        // `complete` triggers first, as in SurveyJS, which checks one on Next only when it reads a
        // question of this unit (shown or not) or a calculated value.
        if !table.read({ $0.completeTriggers.isEmpty }) {
            let stepCount = survey.steps.count
            for index in survey.completeTriggers {
                let reads = survey.triggers[index].condition.slots
                guard reads.contains(where: { $0 >= stepCount || unitSteps.contains($0) }) else { continue }
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
            guard flagTable.read({ $0.flags[index] }).contains(.hasBranches) else { continue }
            for branch in survey.steps.branches(of: index) where evaluateBranch(branch) {
                target = .some(branch.targetUnit)
                break branchSearch
            }
        }
        if target == nil, table.read({ !$0.units[unitIndex].branches.isEmpty }) {
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
        forgetBackAndNext(to: destination)
        if !observers.isEmpty {
            let to = survey.units[destination].id
            emit(.continued(from: survey.units[unitIndex].id, to: to))
            emit(.stepEntered(unitID: to))
        }
        return .moved(to: UnitIndex(destination))
    }

    /// Applies the action of each full quota whose condition holds and that this respondent did not
    /// get yet: a flag is noted, a skip or an end moves on and stops the Next there.
    mutating func applyFullQuotas(from unitIndex: Int, reporting result: inout CompletionResult?) -> Advance? {
        for quota in survey.quotas where fullQuotas.contains(quota.definition.id) {
            guard !quotasReached.contains(where: { $0.quotaID == quota.definition.id }) else { continue }
            evaluationCount += 1
            guard quota.condition.isTrue(values, context: functionContext) else { continue }
            switch quota.action {
            case .flag:
                quotasReached.append(QuotaReached(quotaID: quota.definition.id, action: .flag))
            case .skip(let unit):
                quotasReached.append(QuotaReached(quotaID: quota.definition.id, action: quota.definition.action))
                guard let destination = derived.unitTree.firstNonzero(from: unit), destination != unitIndex else {
                    continue
                }
                push(destination)
                forgetBackAndNext(to: destination)
                if !observers.isEmpty {
                    let to = survey.units[destination].id
                    emit(.continued(from: survey.units[unitIndex].id, to: to))
                    emit(.stepEntered(unitID: to))
                }
                return .moved(to: UnitIndex(destination))
            case .end(let message):
                quotasReached.append(
                    QuotaReached(
                        quotaID: quota.definition.id, action: quota.definition.action,
                        message: message.map { pipe(context.text($0)) }))
                result = finish()
                return .completed
            }
        }
        return nil
    }

    /// The quotas whose condition holds now, in the survey's order: the ones a completion (or, for
    /// ``QuotaCount/started``, a Next) claims a place in.
    public func matchingQuotas() -> [QuotaDefinition] {
        survey.quotas.filter { $0.condition.isTrue(values, context: functionContext) }.map(\.definition)
    }

    /// The quota that ended the session (``QuotaAction/end(message:)``), if one did.
    public var endingQuota: QuotaReached? {
        quotasReached.last.flatMap { if case .end = $0.action { $0 } else { nil } }
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
        try checkRoomForAction()
        backMarks.append(
            BackMark(
                logIndex: log.count, unit: path[path.count - 1], answerWrites: answerWrites, lastAnswer: lastAnswer))
        log.append(.back)
        logEdits &+= 1
        lastAnswer = nil
        let from = survey.units[path[path.count - 1]].id
        pop()
        lastErrors = []
        let to = survey.units[path[path.count - 1]].id
        emit(.wentBack(from: from, to: to))
        emit(.stepEntered(unitID: to))
    }

    /// Removes the Back and the Next just logged when the Next returned to `destination`, the unit the
    /// Back left, and no answer was written since the Back: the session is then as it was before the
    /// Back (the same path; the same answers, so the same values, visibility and progress), and a
    /// replay without the pair gives the same session. Any other Next ends the chance of the Backs
    /// before it.
    mutating func forgetBackAndNext(to destination: Int) {
        guard let mark = backMarks.last else { return }
        if mark.logIndex == log.count - 2, mark.unit == destination, mark.answerWrites == answerWrites {
            log.removeLast(2)
            logEdits &+= 1
            // As before the Back: an answer given last before it may be replaced again.
            lastAnswer = mark.lastAnswer.map {
                AnswerMark(step: $0.step, logEdits: logEdits, answerWrites: $0.answerWrites)
            }
            backMarks.removeLast()
        } else {
            backMarks.removeAll(keepingCapacity: true)
        }
    }

    /// - Throws: ``SessionError/tooManyActions(limit:)`` when the log holds ``actionLimit`` actions.
    @inline(__always)
    func checkRoomForAction() throws(SessionError) {
        guard log.count < actionLimit else { throw .tooManyActions(limit: actionLimit) }
    }

    /// Ends the session without completing it. Stored answers stay in ``state``.
    public mutating func dismiss() {
        guard status == .inProgress else { return }
        log.append(.dismiss)
        logEdits &+= 1
        lastAnswer = nil
        backMarks.removeAll()
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
        // What a question's own conditions hide when the survey completes is dropped (a matrix's rows).
        if survey.clearInvisibleValues != .none {
            for index in survey.typeExpressionSteps {
                let id = survey.steps.ids[index]
                guard let answer = collected[id] else { continue }
                let step = survey.steps[index]
                let kept = step.question.completedAnswer(answer, in: questionContext(for: step))
                collected[id] = kept.isNull ? nil : kept
            }
        }
        // Calculated values marked `includeIntoResult`, under their names (when they have a value).
        for (index, value) in survey.definition.calculatedValues.enumerated() where value.includeIntoResult {
            let computed = values[survey.steps.count + index]
            if !computed.isEmptyAnswer { collected[value.name] = computed }
        }
        if let shape = survey.resultShape { collected = shape.shape(collected, of: self) }
        var message: String?
        for candidate in survey.completionMessages
        where candidate.condition?.isTrue(values, context: functionContext) ?? true {
            message = pipe(context.text(candidate.text))
            break
        }
        var completion = CompletionResult(
            surveyID: survey.id, surveyVersion: survey.definition.version, path: pathIDs, answers: collected,
            message: message)
        for candidate in survey.completionRedirects
        where candidate.condition?.isTrue(values, context: functionContext) ?? true {
            completion.redirect = pipe(candidate.url)
            break
        }
        // A quota's end is not a completion: its message, and no redirect meant for those who complete.
        if let ending = endingQuota {
            completion.quota = ending
            completion.message = ending.message
            completion.redirect = nil
        }
        return completion
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

import Foundation

// Propagation: a changed value re-evaluates exactly the conditions and calculated values that
// read it (the survey's watcher table), calculated values in dependency order.

extension SurveySession {
    /// Stores a value and re-evaluates exactly what depends on it. Calculated values are evaluated in
    /// dependency order, each at most once per change however many paths lead to it (a diamond of
    /// calculated values costs one evaluation per value, not one per path), and without recursion.
    mutating func setValue(_ slot: Int, _ value: JSONValue) {
        if values[slot] == value { return }
        if survey.triggersReadMembers, survey.triggerMemberSlots.contains(slot) {
            // A trigger reads members of this value: it needs the value before the change.
            let previous = values[slot]
            values[slot] = value
            propagate(from: slot, previous: previous)
        } else {
            values[slot] = value
            propagate(from: slot)
        }
        if survey.hasEveryChangeRules {
            for index in survey.everyChangeRuleSteps where index != slot {
                runValueRules(of: index, after: slot, everyChange: true)
            }
        }
    }

    /// How deeply value rules may set values that run value rules again (rules that keep setting
    /// each other's values stop there).
    static let maximumValueRuleDepth = 32

    /// Runs step `index`'s `resetValueIf` and `setValueIf`/`setValueExpression` after value `slot`
    /// changed, as survey-core runs a question's value triggers: the ones that read `slot`, or (with
    /// `everyChange`) the ones survey-core runs after any change.
    mutating func runValueRules(of index: Int, after slot: Int, everyChange: Bool) {
        guard let rules = survey.steps.extras(of: index)?.valueRules,
            valueRuleDepth < Self.maximumValueRuleDepth
        else { return }
        valueRuleDepth += 1
        defer { valueRuleDepth -= 1 }
        if let reset = rules.resetValueIf, rules.resetsOnEveryChange == everyChange,
            everyChange || rules.resetRuns(after: slot), !answers[index].isNull
        {
            evaluationCount += 1
            if reset.isTrue(values, context: functionContext) {
                let step = survey.steps[index]
                if step.defaultValue != nil || step.defaultExpression != nil {
                    applyDefault(of: index)
                } else {
                    setAnswer(.null, at: index)
                }
            }
        }
        guard rules.setValueIf != nil || rules.setValueExpression != nil, rules.setsOnEveryChange == everyChange,
            everyChange || rules.setRuns(after: slot)
        else { return }
        if let condition = rules.setValueIf {
            evaluationCount += 1
            guard condition.isTrue(values, context: functionContext) else { return }
        }
        guard let expression = rules.setValueExpression else {
            setAnswer(.null, at: index)
            return
        }
        evaluationCount += 1
        let result = expression.evaluate(values, context: functionContext)
        if result.isEmptyAnswer {
            setAnswer(.null, at: index)
        } else if let accepted = try? survey.steps[index].question.normalize(result, in: context) {
            setAnswer(accepted, at: index)
        }
    }

    /// Re-evaluates what reads value `slot`, which has just changed (from `previous`, when a trigger
    /// reads members of it), and what that changes in turn.
    mutating func propagate(from slot: Int, previous: JSONValue? = nil) {
        var pending = CalculationQueue()
        notifyWatchers(of: slot, previous: previous, pending: &pending)
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

    mutating func notifyWatchers(of slot: Int, previous: JSONValue? = nil, pending: inout CalculationQueue) {
        // The table is read without retaining it (an iterator over it would keep it retained).
        let table = compiled
        for position in table.read({ $0.watchers.positions(of: slot) }) {
            switch table.read({ $0.watchers.entry(position) }) {
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
                if let previous, !memberChanged(slot, from: previous, readBy: index) { continue }
                if !pendingTriggers.contains(index) { pendingTriggers.append(index) }
            case .enabled(let position):
                let index = Int(position)
                evaluationCount += 1
                refreshEnabled(index)
            case .valueRules(let position):
                runValueRules(of: Int(position), after: slot, everyChange: false)
            case .defaultValue(let position):
                let index = Int(position)
                if !answeredByRespondent.contains(index) { applyDefault(of: index) }
            }
        }
    }

    /// Whether value `slot`, changed from `previous`, changed in a member trigger `index` reads (any
    /// change, when the trigger reads the value whole).
    func memberChanged(_ slot: Int, from previous: JSONValue, readBy index: Int) -> Bool {
        guard let paths = survey.triggers[index].memberReads[slot] else { return true }
        func member(_ value: JSONValue, _ keys: [String]) -> JSONValue {
            var value = value
            var position = keys.startIndex
            while position < keys.endIndex {
                let key = keys[position]
                switch value {
                case .object:
                    // (a key whatever its case, or holding dots, as the condition reads it)
                    guard let (member, used) = value.member(keys, at: position) else { return .null }
                    value = member
                    position += used
                case .array(let elements):
                    guard let index = Int(key), elements.indices.contains(index) else { return .null }
                    value = elements[index]
                    position += 1
                default: return .null
                }
            }
            return value
        }
        return paths.contains { member(previous, $0) != member(values[slot], $0) }
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
        answerWrites &+= 1
        if liveCount[step.unit] > 0 {
            setValue(index, kept)
            emit(.answered(stepID: step.id, value: kept.isNull ? nil : kept))
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

import SurveyCore

/// Whether a condition can hold.
package enum Verdict: Sendable, Hashable {
    /// No respondent can satisfy it (proved).
    case never
    /// Some respondent may satisfy it.
    case possible
    /// No sample answer satisfies it, but the analysis cannot decide (free text, dates, large domains).
    case probablyNever
}

/// Decides conditions over the representative answers of the questions they read.
///
/// Each atom is evaluated by the engine's own evaluator on every combination of representatives of
/// the questions it reads (calculated values are computed from them as a session would), up to
/// ``combinationLimit`` combinations. An atom is *exact* when the representatives stand for every
/// answer for the way the atom uses them (``AnswerDomain/covers(_:)``) and it does not depend on the
/// date; conclusions drawn from exact atoms are proofs, the others are only samples.
package final class ConditionEvaluator {
    /// How conditions are decided.
    package enum Mode: Sendable {
        /// Only exact atoms narrow the state (an inexact one is assumed to go either way): every
        /// "never" is a proof.
        case sound
        /// Every atom narrows the state by its samples: a hint where ``sound`` cannot decide.
        case sampled
    }

    /// One condition piece.
    package struct Atom {
        /// The step slots it reads (through calculated values too).
        package let slots: [Int]
        /// Calculated values to compute first, in order.
        let calculated: [Int]
        package let isExact: Bool
        /// The expression node, when the atom is one (else a built-in test such as "answered").
        package let node: ExpressionNodeView?
        let test: (UnsafeBufferPointer<JSONValue>) -> Bool
        /// For single-question atoms: the representatives for which it holds.
        var truth: RepresentativeSet?
    }

    package let model: FlowModel
    package let domains: [AnswerDomain]
    package private(set) var atoms: [Atom] = []
    /// The most combinations one atom is evaluated on.
    package var combinationLimit = 4096
    let context: FunctionContext
    private var scratch: [JSONValue]
    /// Usages of step slots inside each calculated value (transitively).
    private let calculatedUsages: [[(slot: Int, usage: ValueUsage)]]
    private let calculatedDependsOnDate: [Bool]

    package init(model: FlowModel, domains: [AnswerDomain], today: String = "2025-01-01") {
        self.model = model
        self.domains = domains
        context = FunctionContext(today: today)
        scratch = [JSONValue](repeating: .null, count: model.slotCount)
        var usages = [[(slot: Int, usage: ValueUsage)]](repeating: [], count: model.calculated.count)
        var date = [Bool](repeating: false, count: model.calculated.count)
        let stepCount = model.stepCount
        for index in model.calculatedOrder {
            let expression = model.calculated[index].expression
            date[index] = expression.dependsOnDate
            for (slot, usage) in ExpressionUsage.usages(in: expression.rootNode) {
                if slot < stepCount {
                    usages[index].append((slot, usage))
                } else {
                    usages[index] += usages[slot - stepCount]
                    date[index] = date[index] || date[slot - stepCount]
                }
            }
        }
        calculatedUsages = usages
        calculatedDependsOnDate = date
    }

    // MARK: Building predicates

    /// The predicate "`expression` holds".
    package func predicate(for expression: Expression) -> Predicate {
        predicate(for: expression.rootNode, wanted: true)
    }

    /// The predicate "`node` is `wanted`" (as a condition).
    package func predicate(for node: ExpressionNodeView, wanted: Bool) -> Predicate {
        switch node.shape {
        case .binary(.and, let lhs, let rhs):
            let parts = [predicate(for: lhs, wanted: wanted), predicate(for: rhs, wanted: wanted)]
            return wanted ? .all(of: parts) : .any(of: parts)
        case .binary(.or, let lhs, let rhs):
            let parts = [predicate(for: lhs, wanted: wanted), predicate(for: rhs, wanted: wanted)]
            return wanted ? .any(of: parts) : .all(of: parts)
        case .not(let operand):
            return predicate(for: operand, wanted: !wanted)
        case .literal(let value):
            return .constant(ExpressionValue.isTruthy(value) == wanted)
        default:
            return .atom(atom(for: node), wanted)
        }
    }

    /// Registers `node` as an atom.
    package func atom(for node: ExpressionNodeView) -> Int {
        var direct: [Int] = []
        var dependsOnDate = false
        ExpressionUsage.walk(node) { current in
            switch current.shape {
            case .variable(let slot): if !direct.contains(slot) { direct.append(slot) }
            case .call(let function, _): if !function.isPure { dependsOnDate = true }
            default: break
            }
        }
        let stepCount = model.stepCount
        var exact = !dependsOnDate
        for (slot, usage) in ExpressionUsage.usages(in: node) where exact {
            if slot < stepCount {
                exact = domains[slot].covers(usage)
            } else {
                let index = slot - stepCount
                exact =
                    !calculatedDependsOnDate[index]
                    && calculatedUsages[index].allSatisfy { domains[$0.slot].covers($0.usage) }
            }
        }
        let context = context
        return register(
            Atom(
                slots: model.stepSlots(ofSlots: direct), calculated: model.calculatedValues(neededBy: direct),
                isExact: exact, node: node, test: { node.isTrue($0, context: context) }, truth: nil))
    }

    /// Registers the atom "step `slot` has an answer".
    package func answeredAtom(_ slot: Int) -> Int {
        register(
            Atom(
                slots: [slot], calculated: [], isExact: true, node: nil, test: { !$0[slot].isNull },
                truth: domains[slot].answers))
    }

    /// Registers an atom computed by `test` from the values of `reading` (step or calculated slots).
    package func customAtom(
        reading slots: [Int], isExact: Bool, test: @escaping (UnsafeBufferPointer<JSONValue>) -> Bool
    )
        -> Int
    {
        register(
            Atom(
                slots: model.stepSlots(ofSlots: slots), calculated: model.calculatedValues(neededBy: slots),
                isExact: isExact, node: nil, test: test, truth: nil))
    }

    private func register(_ atom: Atom) -> Int {
        atoms.append(atom)
        return atoms.count - 1
    }

    /// Whether every atom of `predicate` is exact.
    package func isExact(_ predicate: Predicate) -> Bool {
        predicate.atoms.allSatisfy { atoms[$0].isExact }
    }

    // MARK: Deciding

    /// Narrows `delta` over `state` to the representatives for which `predicate` can hold; `nil` when
    /// it cannot hold at all. `isImprecise` is set when an atom could not be decided.
    package func refine(
        _ predicate: Predicate, in state: AbstractState, delta: StateDelta = StateDelta(), mode: Mode = .sound,
        isImprecise: inout Bool
    ) -> StateDelta? {
        switch predicate {
        case .constant(let value):
            return value ? delta : nil
        case .atom(let id, let wanted):
            return refine(atom: id, wanted: wanted, in: state, delta: delta, mode: mode, isImprecise: &isImprecise)
        case .all(let parts):
            var current = delta
            for part in parts {
                guard let next = refine(part, in: state, delta: current, mode: mode, isImprecise: &isImprecise) else {
                    return nil
                }
                current = next
            }
            return current
        case .any(let parts):
            var results: [StateDelta] = []
            for part in parts {
                if let result = refine(part, in: state, delta: delta, mode: mode, isImprecise: &isImprecise) {
                    results.append(result)
                }
            }
            guard let first = results.first else { return nil }
            if results.count == 1 { return first }
            // The join: a question keeps what any alternative allows.
            var joined = delta
            var keys = Set<Int>()
            for result in results { keys.formUnion(result.changes.keys) }
            for key in keys {
                var union = RepresentativeSet()
                for result in results { union = union.union(result.set(key, in: state)) }
                joined.changes[key] = union
            }
            return joined
        }
    }

    /// Whether `predicate` can hold in `state`.
    package func canHold(_ predicate: Predicate, in state: AbstractState, mode: Mode = .sound) -> Bool {
        var imprecise = false
        return refine(predicate, in: state, mode: mode, isImprecise: &imprecise) != nil
    }

    /// Whether `predicate` can hold in `state`: ``Verdict/never`` is a proof; ``Verdict/probablyNever``
    /// means that no sample satisfies it but the analysis cannot prove it.
    package func verdict(_ predicate: Predicate, in state: AbstractState) -> Verdict {
        var imprecise = false
        guard refine(predicate, in: state, mode: .sound, isImprecise: &imprecise) != nil else { return .never }
        guard imprecise else { return .possible }
        var ignored = false
        return refine(predicate, in: state, mode: .sampled, isImprecise: &ignored) == nil ? .probablyNever : .possible
    }

    private func refine(
        atom id: Int, wanted: Bool, in state: AbstractState, delta: StateDelta, mode: Mode, isImprecise: inout Bool
    ) -> StateDelta? {
        let atom = atoms[id]
        if !atom.isExact && mode == .sound {
            isImprecise = true
            return delta
        }
        if atom.slots.count == 1 {
            let slot = atom.slots[0]
            let truth = truthTable(id)
            let current = delta.set(slot, in: state)
            let allowed = current.intersection(wanted ? truth : domains[slot].all.subtracting(truth))
            if allowed.isEmpty { return nil }
            var result = delta
            if allowed != current { result.changes[slot] = allowed }
            return result
        }
        if atom.slots.isEmpty {
            let value = evaluate(id, assigning: [])
            return value == wanted ? delta : nil
        }
        let choices = atom.slots.map { delta.set($0, in: state).indices }
        var total = 1
        for options in choices {
            total *= options.count
            if total > combinationLimit { break }
        }
        if total == 0 { return nil }
        if total > combinationLimit {
            isImprecise = true
            return delta
        }
        var support = [RepresentativeSet](repeating: RepresentativeSet(), count: atom.slots.count)
        var odometer = [Int](repeating: 0, count: atom.slots.count)
        var assignment = [Int](repeating: 0, count: atom.slots.count)
        var found = false
        while true {
            for position in odometer.indices { assignment[position] = choices[position][odometer[position]] }
            if evaluate(id, assigning: assignment) == wanted {
                found = true
                for position in assignment.indices { support[position].insert(assignment[position]) }
            }
            var position = 0
            while position < odometer.count {
                odometer[position] += 1
                if odometer[position] < choices[position].count { break }
                odometer[position] = 0
                position += 1
            }
            if position == odometer.count { break }
        }
        guard found else { return nil }
        var result = delta
        for (position, slot) in atom.slots.enumerated() where support[position] != delta.set(slot, in: state) {
            result.changes[slot] = support[position]
        }
        return result
    }

    /// For a single-question atom: the representatives for which it holds.
    private func truthTable(_ id: Int) -> RepresentativeSet {
        if let truth = atoms[id].truth { return truth }
        let slot = atoms[id].slots[0]
        var truth = RepresentativeSet()
        for index in 0..<domains[slot].count where evaluate(id, assigning: [index]) {
            truth.insert(index)
        }
        atoms[id].truth = truth
        return truth
    }

    /// Evaluates atom `id` with its slots set to the representatives `assignment`.
    package func evaluate(_ id: Int, assigning assignment: [Int]) -> Bool {
        let atom = atoms[id]
        for (position, slot) in atom.slots.enumerated() { scratch[slot] = domains[slot].values[assignment[position]] }
        let stepCount = model.stepCount
        for index in atom.calculated {
            let node = model.calculated[index].expression.rootNode
            let value = scratch.withUnsafeBufferPointer { node.evaluate($0, context: context) }
            scratch[stepCount + index] = value
        }
        let result = scratch.withUnsafeBufferPointer { atom.test($0) }
        for slot in atom.slots { scratch[slot] = .null }
        for index in atom.calculated { scratch[stepCount + index] = .null }
        return result
    }

    /// The state where every question may have any of its answers (or none).
    package func unconstrainedState() -> AbstractState {
        var state = AbstractState(stepCount: model.stepCount)
        for index in state.sets.indices { state.sets[index] = domains[index].all }
        return state
    }
}

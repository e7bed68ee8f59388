import SurveyCore

/// What the analysis knows at one unit: the states where its conditions are evaluated.
///
/// States over-approximate every respondent: `gate` holds for everyone who arrives at the unit's place
/// in the flow (before its visibility is checked), `entry` for those who see it, `inUnit` while they
/// answer it (its own questions may then have any answer), `exit` when Next succeeds.
package struct UnitStates {
    package let unit: Int
    /// On arrival, before the unit's visibility is decided; `nil` when no respondent arrives.
    package let gate: AbstractState?
    /// When the unit is shown; `nil` when it never is.
    package let entry: AbstractState?
    /// While its questions are answered.
    package let inUnit: AbstractState?
    /// When Next succeeds; `nil` when it never can.
    package let exit: AbstractState?
    /// For each branch guard (in evaluation order), the narrowing of `exit` under which it is
    /// evaluated (earlier branches did not fire), or `nil` when it is never evaluated.
    package let branchReach: [StateDelta?]
    /// The narrowing of `exit` under which no branch fires (the respondent goes on to the next unit).
    package let fallThrough: StateDelta?
    /// Whether the unit can be skipped (hidden) by someone who arrives.
    package let canBeSkipped: Bool
}

/// One way the flow can go from a unit.
package struct FlowEdge: Sendable, Hashable {
    package enum Kind: Sendable, Hashable {
        /// Next without a matching branch: on to the following unit.
        case next
        /// The unit is hidden: the flow passes it by.
        case skip
        /// A branch (its guard's position in evaluation order).
        case branch(Int)
        /// A `skip` or `complete` trigger (its index in the survey's triggers).
        case trigger(Int)
    }

    package let from: Int
    /// The place the flow arrives at (a unit index, or the unit count for "completed").
    package let to: Int
    package let kind: Kind
}

/// Forward abstract interpretation of the flow over representative answers.
///
/// Places are the units in order plus "completed". A respondent arriving at unit `u` either sees it
/// (its visibility holds), answers it and leaves through the first firing branch or to `u + 1`, or
/// passes it by (it is hidden) to `u + 1`: exactly `firstNonzero(from:)` in the session. States are
/// joined where paths meet; with backward jumps the passes repeat until nothing changes.
package final class FlowAnalysis {
    package let model: FlowModel
    package let evaluator: ConditionEvaluator
    package let predicates: FlowPredicates
    /// Feasible edges found by the last pass.
    package private(set) var edges: [FlowEdge] = []
    /// Whether a respondent can arrive at each place (the last is "completed").
    package private(set) var arrives: [Bool] = []
    /// Whether each unit can be shown.
    package private(set) var isShown: [Bool] = []
    /// Whether each unit can be left with Next.
    package private(set) var canLeave: [Bool] = []
    /// Whether the passes stopped before a fixed point (then every state was widened to "anything").
    package private(set) var didWiden = false
    /// The most passes over a survey with backward jumps.
    package var passLimit = 50

    /// The steps no respondent answers whose default is all that sets them: the representative of
    /// that default (`FlowModel.unanswered`), which they hold from the start.
    let heldDefaults: [Int: RepresentativeSet]

    package init(model: FlowModel, evaluator: ConditionEvaluator) {
        self.model = model
        self.evaluator = evaluator
        predicates = FlowPredicates(model: model, evaluator: evaluator)
        var held: [Int: RepresentativeSet] = [:]
        for (slot, value) in model.unanswered where !value.isNull {
            guard let index = evaluator.domains[slot].values.firstIndex(of: value) else { continue }
            var single = RepresentativeSet()
            single.insert(index)
            held[slot] = single
        }
        heldDefaults = held
    }

    /// Runs the analysis; `observe` is called once per unit, in order, with its final states.
    package func run(observe: (UnitStates) -> Void) {
        let unitCount = model.units.count
        var gates = [AbstractState?](repeating: nil, count: unitCount + 1)
        gates[0] = AbstractState(stepCount: model.stepCount)
        if model.hasBackwardJumps {
            var pass = 0
            while true {
                pass += 1
                if pass > passLimit {
                    didWiden = true
                    let anything = evaluator.unconstrainedState()
                    for index in gates.indices where gates[index] != nil { gates[index] = anything }
                    break
                }
                var changed = false
                for unit in 0..<unitCount {
                    process(unit, gates: &gates, keepGates: true, changedEarlier: &changed, recording: false) { _ in }
                }
                if !changed { break }
            }
        }
        edges = []
        arrives = [Bool](repeating: false, count: unitCount + 1)
        isShown = [Bool](repeating: false, count: unitCount)
        canLeave = [Bool](repeating: false, count: unitCount)
        var ignored = false
        for unit in 0..<unitCount {
            process(
                unit, gates: &gates, keepGates: model.hasBackwardJumps, changedEarlier: &ignored, recording: true,
                observe: observe)
        }
        arrives[unitCount] = arrives[unitCount] || gates[unitCount] != nil
    }

    private func process(
        _ unit: Int, gates: inout [AbstractState?], keepGates: Bool, changedEarlier: inout Bool, recording: Bool,
        observe: (UnitStates) -> Void
    ) {
        guard let arrival = gates[unit] else {
            observe(
                UnitStates(
                    unit: unit, gate: nil, entry: nil, inUnit: nil, exit: nil,
                    branchReach: predicates.branches[unit].map { _ in nil }, fallThrough: nil, canBeSkipped: false))
            return
        }
        if !keepGates { gates[unit] = nil }
        if recording { arrives[unit] = true }
        // A step a trigger answers may hold any answer at any point.
        let gate = widenedForTriggers(arrival)
        func join(_ state: AbstractState, into place: Int, kind: FlowEdge.Kind) {
            if recording { edges.append(FlowEdge(from: unit, to: place, kind: kind)) }
            if gates[place] == nil {
                gates[place] = state
                if place <= unit { changedEarlier = true }
            } else if gates[place]!.formUnion(state), place <= unit {
                changedEarlier = true
            }
        }
        var imprecise = false
        // Passed by: the unit is hidden.
        let hidden = evaluator.refine(predicates.unitVisible[unit].negated, in: gate, isImprecise: &imprecise)
        if let hidden { join(gate.applying(hidden), into: unit + 1, kind: .skip) }
        // Shown.
        guard let shown = evaluator.refine(predicates.unitVisible[unit], in: gate, isImprecise: &imprecise) else {
            observe(
                UnitStates(
                    unit: unit, gate: gate, entry: nil, inUnit: nil, exit: nil,
                    branchReach: predicates.branches[unit].map { _ in nil }, fallThrough: nil,
                    canBeSkipped: hidden != nil))
            return
        }
        if recording { isShown[unit] = true }
        let entry = gate.applying(shown)
        let inUnit = widenedForTriggers(answering(unit, from: entry))
        // A skip trigger may move the respondent on while the unit is answered.
        for (index, trigger) in model.triggers.enumerated() {
            guard let target = trigger.skipUnit,
                let fires = evaluator.refine(predicates.triggers[index], in: inUnit, isImprecise: &imprecise)
            else { continue }
            join(inUnit.applying(fires), into: target, kind: .trigger(index))
        }
        guard let leaving = evaluator.refine(predicates.canLeave[unit], in: inUnit, isImprecise: &imprecise) else {
            observe(
                UnitStates(
                    unit: unit, gate: gate, entry: entry, inUnit: inUnit, exit: nil,
                    branchReach: predicates.branches[unit].map { _ in nil }, fallThrough: nil,
                    canBeSkipped: hidden != nil))
            return
        }
        if recording { canLeave[unit] = true }
        let exit = inUnit.applying(leaving)
        // A complete trigger may end the survey on Next.
        for (index, trigger) in model.triggers.enumerated() where trigger.completes {
            guard let fires = evaluator.refine(predicates.triggers[index], in: exit, isImprecise: &imprecise) else {
                continue
            }
            join(exit.applying(fires), into: model.units.count, kind: .trigger(index))
        }
        var reach: StateDelta? = StateDelta()
        var branchReach: [StateDelta?] = []
        for (position, guardInfo) in predicates.branches[unit].enumerated() {
            branchReach.append(reach)
            guard let current = reach else { continue }
            if let fired = evaluator.refine(guardInfo.fires, in: exit, delta: current, isImprecise: &imprecise) {
                join(
                    exit.applying(fired), into: guardInfo.branch.targetUnit ?? model.units.count,
                    kind: .branch(position))
            }
            reach = evaluator.refine(guardInfo.fires.negated, in: exit, delta: current, isImprecise: &imprecise)
        }
        if let reach { join(exit.applying(reach), into: unit + 1, kind: .next) }
        observe(
            UnitStates(
                unit: unit, gate: gate, entry: entry, inUnit: inUnit, exit: exit, branchReach: branchReach,
                fallThrough: reach, canBeSkipped: hidden != nil))
    }

    /// `state` with every step a trigger answers free to hold any of its answers (a step only its
    /// default sets, that no respondent answers, holds that default).
    func widenedForTriggers(_ state: AbstractState) -> AbstractState {
        guard !model.triggerTargets.isEmpty else { return state }
        var widened = state
        for slot in model.triggerTargets { widened.sets[slot] = heldDefaults[slot] ?? evaluator.domains[slot].all }
        return widened
    }

    /// The state while `unit` is answered: each of its questions that can ever be visible may have
    /// any answer. (Not only those visible on this visit: an answer given on an earlier visit that the
    /// respondent went Back from is restored when the unit is entered again, even if the question is
    /// hidden this time.)
    package func answering(_ unit: Int, from entry: AbstractState) -> AbstractState {
        var state = entry
        for index in model.units[unit].steps where mayBeAnswered(index) {
            state.sets[index] = state.sets[index].union(evaluator.domains[index].all)
        }
        return state
    }

    private var answerable: [Bool?] = []

    /// Whether step `index` is ever visible, for some answers (so it may hold an answer).
    package func mayBeAnswered(_ index: Int) -> Bool {
        if answerable.isEmpty { answerable = [Bool?](repeating: nil, count: model.stepCount) }
        if let known = answerable[index] { return known }
        let step = model.steps[index]
        var result = step.collectsAnswer && step.isEnabled
        if result {
            if unconstrained == nil { unconstrained = evaluator.unconstrainedState() }
            result = evaluator.canHold(predicates.stepVisible[index], in: unconstrained!)
        }
        answerable[index] = result
        return result
    }

    private var unconstrained: AbstractState?

    /// The places from which "completed" can be reached along feasible edges.
    package func canComplete() -> [Bool] {
        let count = model.units.count + 1
        var incoming = [[Int]](repeating: [], count: count)
        for edge in edges { incoming[edge.to].append(edge.from) }
        var result = [Bool](repeating: false, count: count)
        result[count - 1] = true
        var stack = [count - 1]
        while let place = stack.popLast() {
            for from in incoming[place] where !result[from] {
                result[from] = true
                stack.append(from)
            }
        }
        return result
    }
}

/// Visibility and counting state derived from the answers, kept up to date incrementally.
@usableFromInline
struct DerivedState: Sendable {
    @usableFromInline var stepVisible: [Bool]
    var unitCondition: [Bool]
    var visibleSteps: [Int32]
    var visibleCountingSteps: [Int32]
    /// 1 for each visible unit.
    @usableFromInline var unitTree: FenwickTree
    /// 1 for each visible unit that counts for progress.
    var countTree: FenwickTree

    func unitVisible(_ unit: CompiledUnit, at index: Int) -> Bool {
        unitTree.values[index] != 0
    }

    /// Becomes equal to `initial`'s derived state, read in place, reusing this state's storage (see
    /// ``SurveySession/restart(seed:)``).
    mutating func assign(fromStartOf initial: InitialState) {
        stepVisible.assign(from: initial.derived.stepVisible)
        unitCondition.assign(from: initial.derived.unitCondition)
        visibleSteps.assign(from: initial.derived.visibleSteps)
        visibleCountingSteps.assign(from: initial.derived.visibleCountingSteps)
        unitTree.assign(from: initial.derived.unitTree)
        countTree.assign(from: initial.derived.countTree)
    }

    /// Records that step `index` is now `visible` (or not). `survey` is read without retaining it
    /// (``Survey/unretainedStorage``).
    mutating func setStepVisible(_ index: Int, _ visible: Bool, survey: Unretained<CompiledSurvey>) {
        stepVisible[index] = visible
        let (unit, counts) = survey.read { survey in
            (Int(survey.steps.units[index]), survey.steps.flags[index].contains(.countsForProgress))
        }
        let delta: Int32 = visible ? 1 : -1
        visibleSteps[unit] += delta
        if counts { visibleCountingSteps[unit] += delta }
        refreshUnit(unit, survey: survey)
    }

    /// Brings unit `index`'s entries in the trees up to date with its condition and visible steps.
    mutating func refreshUnit(_ index: Int, survey: Unretained<CompiledSurvey>) {
        let isEnabled = survey.read { $0.unitIsEnabled[index] }
        let visible = isEnabled && unitCondition[index] && visibleSteps[index] > 0
        unitTree.set(index, visible ? 1 : 0)
        countTree.set(index, visible && visibleCountingSteps[index] > 0 ? 1 : 0)
    }

    /// Evaluates every condition with no answers given. Without calculated values every value starts
    /// empty, and `values` is returned empty (the evaluator reads a slot past the end as empty): a
    /// survey of 1,000,000 questions keeps no 24 MB array of nothing for its sessions to start from.
    static func compute(survey: Survey, context: FunctionContext) -> (values: [JSONValue], derived: DerivedState) {
        var values =
            survey.calculated.isEmpty
            ? [] : [JSONValue](repeating: .null, count: survey.steps.count + survey.calculated.count)
        for index in survey.calculatedOrder {
            values[survey.steps.count + index] = survey.calculated[index].expression.evaluate(values, context: context)
        }
        var stepVisible = [Bool](repeating: false, count: survey.steps.count)
        var visibleSteps = [Int32](repeating: 0, count: survey.units.count)
        var visibleCountingSteps = [Int32](repeating: 0, count: survey.units.count)
        let steps = survey.steps
        for index in steps.indices {
            let visible = steps.isShown(index, values: values, context: context)
            stepVisible[index] = visible
            if visible {
                let unit = Int(steps.units[index])
                visibleSteps[unit] += 1
                if steps.flags[index].contains(.countsForProgress) { visibleCountingSteps[unit] += 1 }
            }
        }
        var unitCondition = [Bool](repeating: true, count: survey.units.count)
        var unitValues = [Int32](repeating: 0, count: survey.units.count)
        var countValues = [Int32](repeating: 0, count: survey.units.count)
        for (index, unit) in survey.units.enumerated() {
            unitCondition[index] = unit.visibleIf?.isTrue(values, context: context) ?? true
            let visible = unit.isEnabled && unitCondition[index] && visibleSteps[index] > 0
            unitValues[index] = visible ? 1 : 0
            countValues[index] = visible && visibleCountingSteps[index] > 0 ? 1 : 0
        }
        let derived = DerivedState(
            stepVisible: stepVisible, unitCondition: unitCondition, visibleSteps: visibleSteps,
            visibleCountingSteps: visibleCountingSteps, unitTree: FenwickTree(values: unitValues),
            countTree: FenwickTree(values: countValues))
        return (values, derived)
    }
}

/// The state every session starts from, computed once per survey.
///
/// A reference: a session restarting reads it for every respondent, and reading a struct of this
/// size copied it (a retain for each of its arrays).
final class InitialState: Sendable {
    let today: String
    let values: [JSONValue]
    let derived: DerivedState

    init(today: String, values: [JSONValue], derived: DerivedState) {
        self.today = today
        self.values = values
        self.derived = derived
    }
}

import SurveyCore

struct BranchKey: Hashable {
    let owner: BranchOwner
    let index: Int
}

/// The flow's decisions as predicates: when each step and unit is visible, when a step is required,
/// when a unit can be left, and which branch fires.
package struct FlowPredicates {
    /// One branch in the order a session evaluates them on Next.
    package struct BranchGuard {
        package let owner: BranchOwner
        package let branch: Survey.AnalysisBranch
        /// The branch's own condition (true when it has none).
        package let condition: Predicate
        /// The owner is visible and the condition holds.
        package let fires: Predicate
    }

    /// `enabled` and `visibleIf` of each step.
    package var stepVisible: [Predicate] = []
    /// `required` or `requiredIf` of each step.
    package var stepRequired: [Predicate] = []
    /// Each step's `visibleIf` alone (true without one).
    package var stepCondition: [Predicate] = []
    /// A unit's own switch and page condition.
    package var unitCondition: [Predicate] = []
    /// A unit is shown: its condition holds and one of its steps is visible.
    package var unitVisible: [Predicate] = []
    /// Next is not blocked: every visible required question has an answer.
    package var canLeave: [Predicate] = []
    /// The branches of each unit, in evaluation order.
    package var branches: [[BranchGuard]] = []
    /// The predicate of each of ``FlowModel/conditions``.
    package var conditions: [Predicate] = []
    /// The condition of each of ``FlowModel/triggers``.
    package var triggers: [Predicate] = []

    package init(model: FlowModel, evaluator: ConditionEvaluator) {
        triggers = model.triggers.map { evaluator.predicate(for: $0.condition) }
        for step in model.steps {
            let condition = step.visibleIf.map { evaluator.predicate(for: $0) } ?? .alwaysTrue
            stepCondition.append(condition)
            stepVisible.append(step.isEnabled ? condition : .alwaysFalse)
            if step.isRequired {
                stepRequired.append(.alwaysTrue)
            } else {
                stepRequired.append(step.requiredIf.map { evaluator.predicate(for: $0) } ?? .alwaysFalse)
            }
        }
        for (unitIndex, unit) in model.units.enumerated() {
            let own: Predicate =
                unit.isEnabled ? (unit.visibleIf.map { evaluator.predicate(for: $0) } ?? .alwaysTrue) : .alwaysFalse
            unitCondition.append(own)
            unitVisible.append(own && .any(of: unit.steps.map { stepVisible[$0] }))
            var leave: [Predicate] = []
            for index in unit.steps where model.steps[index].collectsAnswer {
                let answered = Predicate.atom(evaluator.answeredAtom(index), true)
                leave.append(stepVisible[index].negated || stepRequired[index].negated || answered)
            }
            canLeave.append(.all(of: leave))
            var guards: [BranchGuard] = []
            for index in unit.steps {
                for branch in model.steps[index].branches {
                    let condition = branch.condition.map { evaluator.predicate(for: $0) } ?? .alwaysTrue
                    guards.append(
                        BranchGuard(
                            owner: .step(index), branch: branch, condition: condition,
                            fires: stepVisible[index] && condition))
                }
            }
            for branch in unit.branches {
                let condition = branch.condition.map { evaluator.predicate(for: $0) } ?? .alwaysTrue
                guards.append(
                    BranchGuard(owner: .unit(unitIndex), branch: branch, condition: condition, fires: condition))
            }
            branches.append(guards)
        }
        var branchConditions: [BranchKey: Predicate] = [:]
        for guards in branches {
            for item in guards {
                branchConditions[BranchKey(owner: item.owner, index: item.branch.index)] = item.condition
            }
        }
        for site in model.conditions {
            switch site.kind {
            case .stepVisibility(let step):
                conditions.append(stepCondition[step])
            case .requirement(let step) where !model.steps[step].isRequired:
                conditions.append(stepRequired[step])
            case .pageVisibility(let unit) where model.units[unit].isEnabled:
                conditions.append(unitCondition[unit])
            case .branch(let owner, let index):
                conditions.append(
                    branchConditions[BranchKey(owner: owner, index: index)]
                        ?? evaluator.predicate(for: site.expression))
            default:
                conditions.append(evaluator.predicate(for: site.expression))
            }
        }
    }
}

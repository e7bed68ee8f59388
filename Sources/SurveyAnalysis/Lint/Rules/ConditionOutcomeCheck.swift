import SurveyCore

/// `always-true-condition` and `always-false-condition`: conditions that never change the outcome.
///
/// Each condition is decided in the state where the session evaluates it: a page's `visibleIf` when
/// the flow arrives at the page, a question's `visibleIf`, `requiredIf` and choice conditions while its
/// page is answered, a branch's `if` on Next after the branches before it did not fire. A condition
/// that holds for every respondent there, or for none, is reported (a `visibleIf` that never holds is
/// reported as `unreachable-step` instead). Conditions already explained by an `unknown-choice-value`
/// or `type-mismatch` error are not reported again.
final class ConditionOutcomeCheck: LintCheck {
    func visit(_ states: UnitStates, _ context: LintContext) {
        let model = context.model
        let flow = context.flow
        let evaluator = context.evaluator
        let unit = model.units[states.unit]
        guard let gate = states.gate, unit.isEnabled else { return }
        for index in context.conditionsByUnit[states.unit] where !context.explainedConditions.contains(index) {
            let site = model.conditions[index]
            let predicate = flow.predicates.conditions[index]
            switch site.kind {
            case .pageVisibility:
                if !evaluator.canHold(predicate, in: gate) {
                    alwaysFalse(
                        site, predicate, in: gate, effect: "the page is never shown (see unreachable-step)", context)
                    continue
                }
                guard states.entry != nil else { continue }
                if !evaluator.canHold(predicate.negated, in: gate) {
                    alwaysTrue(
                        site, predicate, in: gate,
                        effect: "the page is shown whenever the flow reaches it; remove the condition", context)
                }
            case .stepVisibility(let step):
                guard model.steps[step].isEnabled else { continue }
                let state = unit.isPage ? states.inUnit : gate
                guard let state else { continue }
                if !evaluator.canHold(predicate, in: state) {
                    alwaysFalse(
                        site, predicate, in: state,
                        effect: "'\(model.steps[step].id)' is never shown (see unreachable-step)", context)
                    continue
                }
                guard states.entry != nil, !context.unreachableSteps.contains(step) else { continue }
                // Whether it always holds is decided on every arrival at the page that its own condition
                // lets through, not only where the page is shown: a page shows only when one of its
                // questions is visible, so for a page of one question "shown" already implies the condition.
                var ignored = false
                let arrival =
                    unit.isPage
                    ? evaluator.refine(
                        flow.predicates.unitCondition[states.unit], in: gate, isImprecise: &ignored
                    ).map { flow.answering(states.unit, from: gate.applying($0)) } : gate
                guard let arrival else { continue }
                if !evaluator.canHold(predicate.negated, in: arrival) {
                    alwaysTrue(
                        site, predicate, in: arrival,
                        effect:
                            "'\(model.steps[step].id)' is shown whenever its \(unit.isPage ? "page is" : "turn comes"); remove the condition",
                        context)
                }
            case .requirement(let step):
                guard model.steps[step].isEnabled, !context.unreachableSteps.contains(step) else { continue }
                if model.steps[step].isRequired {
                    context.report(
                        .alwaysTrueCondition,
                        "requiredIf \(context.quoted(site)) never changes anything: '\(model.steps[step].id)' is already \"required\": true; remove one of them",
                        stepID: site.stepID, path: site.path)
                    continue
                }
                guard let state = visibleState(step, states, context) else { continue }
                decide(
                    site, predicate, in: state,
                    whenTrue: "'\(model.steps[step].id)' is always required when shown; use \"required\": true instead",
                    whenFalse: "'\(model.steps[step].id)' is never required; remove the condition", context)
            case .choice(let step, let value):
                guard model.steps[step].isEnabled, !context.unreachableSteps.contains(step),
                    let state = visibleState(step, states, context)
                else { continue }
                decide(
                    site, predicate, in: state,
                    whenTrue: "the choice '\(value)' is always offered; remove the condition",
                    whenFalse: "the choice '\(value)' is never offered; correct the condition or remove the choice",
                    context)
            case .branch(let owner, let branchIndex):
                checkBranch(site, predicate, owner: owner, index: branchIndex, states, context)
            case .validator(let step, _, let isBlocking):
                guard model.steps[step].isEnabled, !context.unreachableSteps.contains(step),
                    let state = visibleState(step, states, context)
                else { continue }
                let id = model.steps[step].id
                decide(
                    site, predicate, in: state,
                    whenTrue:
                        "it passes every answer '\(id)' can have, so it never \(isBlocking ? "refuses" : "shows") anything; correct or remove it",
                    whenFalse: isBlocking
                        ? "no answer passes it, so respondents cannot get past '\(id)'; correct the expression"
                        : "it fails whatever the answer, so its notice always shows on '\(id)'; correct the expression",
                    context)
            }
        }
    }

    /// The in-unit state narrowed to "step is visible", or `nil` when it never is.
    private func visibleState(_ step: Int, _ states: UnitStates, _ context: LintContext) -> AbstractState? {
        guard let inUnit = states.inUnit else { return nil }
        var ignored = false
        guard
            let delta = context.evaluator.refine(
                context.flow.predicates.stepVisible[step], in: inUnit, isImprecise: &ignored)
        else { return nil }
        return inUnit.applying(delta)
    }

    private func checkBranch(
        _ site: ConditionSite, _ predicate: Predicate, owner: BranchOwner, index: Int, _ states: UnitStates,
        _ context: LintContext
    ) {
        let guards = context.flow.predicates.branches[states.unit]
        guard let exit = states.exit,
            let position = guards.firstIndex(where: { $0.owner == owner && $0.branch.index == index })
        else { return }
        let target =
            guards[position].branch.targetUnit.map { "goto '\(context.model.units[$0].id)'" } ?? "complete"
        guard let reach = states.branchReach[position] else {
            context.report(
                .alwaysFalseCondition,
                "the branch \(context.quoted(site)) → \(target) is never evaluated: a branch before it always applies; reorder or remove the branches",
                stepID: site.stepID, path: site.path)
            return
        }
        var state = exit.applying(reach)
        if case .step(let step) = owner {
            var ignored = false
            guard
                let visible = context.evaluator.refine(
                    context.flow.predicates.stepVisible[step], in: state, isImprecise: &ignored)
            else { return }
            state = state.applying(visible)
        }
        let unused =
            position + 1 < guards.count
            ? "the branches after it and the default next step are" : "the default next step is"
        decide(
            site, predicate, in: state,
            whenTrue:
                "every respondent who gets here takes it (\(target)), so \(unused) never used; correct the condition, or drop it to make the jump unconditional",
            whenFalse: "no respondent takes it (\(target)); correct the condition or remove the branch", context)
    }

    private func decide(
        _ site: ConditionSite, _ predicate: Predicate, in state: AbstractState, whenTrue: String, whenFalse: String,
        _ context: LintContext
    ) {
        let evaluator = context.evaluator
        if !evaluator.canHold(predicate, in: state) {
            context.report(
                .alwaysFalseCondition,
                "\(site.memberName) \(context.quoted(site)) never holds\(reason(predicate, in: state, context)): \(whenFalse)",
                stepID: site.stepID, path: site.path)
        } else if !evaluator.canHold(predicate.negated, in: state) {
            context.report(
                .alwaysTrueCondition,
                "\(site.memberName) \(context.quoted(site)) always holds\(reason(predicate.negated, in: state, context)): \(whenTrue)",
                stepID: site.stepID, path: site.path)
        }
    }

    private func alwaysTrue(
        _ site: ConditionSite, _ predicate: Predicate, in state: AbstractState, effect: String, _ context: LintContext
    ) {
        context.report(
            .alwaysTrueCondition,
            "\(site.memberName) \(context.quoted(site)) always holds\(reason(predicate.negated, in: state, context)), so \(effect)",
            stepID: site.stepID, path: site.path)
    }

    private func alwaysFalse(
        _ site: ConditionSite, _ predicate: Predicate, in state: AbstractState, effect: String, _ context: LintContext
    ) {
        context.report(
            .alwaysFalseCondition,
            "\(site.memberName) \(context.quoted(site)) never holds\(reason(predicate, in: state, context)), so \(effect)",
            stepID: site.stepID, path: site.path)
    }

    /// Why: on its own, or given the answers possible at that point.
    private func reason(_ impossible: Predicate, in state: AbstractState, _ context: LintContext) -> String {
        if let note = context.hostFilledNote(impossible) { return " (\(note))" }
        if !context.evaluator.canHold(impossible, in: context.unconstrained) { return ", whatever the answers" }
        if let described = context.describe(context.slots(of: impossible), in: state) {
            return " for the respondents who get here (\(described))"
        }
        return " for the respondents who get here"
    }
}

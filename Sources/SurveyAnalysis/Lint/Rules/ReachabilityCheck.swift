import SurveyCore

/// `unreachable-step` and `empty-page`: steps and pages no respondent can ever see.
///
/// Decided by the flow analysis: a unit no path arrives at (every path jumps over it, or nobody gets
/// past an earlier unit), a unit whose visibility never holds where it is decided (its page condition,
/// or all of its questions hidden), or a question whose `visibleIf` never holds while its page is
/// answered. "Never" is proved over every respondent; where the proof depends on conditions the
/// analysis cannot decide (free text tested with `contains`, dates, `today()`), it reports `info`.
final class ReachabilityCheck: LintCheck {
    /// What the previous unit was like, to explain why a unit is not arrived at.
    private struct Summary {
        var arrived = false
        var shown = false
        var canLeave = false
        var fallsThrough = false
        var firing: [String] = []
        var name = ""
    }

    private var previous = Summary()

    func finish(_ context: LintContext) {
        guard context.flow.didWiden else { return }
        context.report(
            .unreachableStep, .info,
            "the analysis of this survey's loops did not settle within \(context.flow.passLimit) passes, so it assumed any answer anywhere; findings that depend on the flow may be missing",
            stepID: nil, path: JSONPath.root.appending("steps"))
    }
    /// The first unit of the current run of units nobody arrives at, with the reason.
    private var runReason: String?

    func visit(_ states: UnitStates, _ context: LintContext) {
        let model = context.model
        let flow = context.flow
        let index = states.unit
        let unit = model.units[index]
        defer { previous = summary(of: states, context) }
        guard unit.isEnabled else { return }
        let enabled = unit.steps.filter { model.steps[$0].isEnabled }
        if enabled.isEmpty {
            if unit.isPage {
                context.report(
                    .emptyPage, .info,
                    "page '\(unit.id)' is never shown: all of its questions are switched off (\"enabled\": false); switch one on, or switch off the page itself",
                    stepID: unit.id, path: unit.path)
            }
            return
        }
        guard let gate = states.gate else {
            let reason = runReason ?? noArrivalReason(context)
            if runReason == nil { runReason = reason }
            reportNeverShown(index, because: "no path leads to it: " + reason, context)
            return
        }
        runReason = nil
        guard let inUnit = states.inUnit else {
            explainHidden(index, gate: gate, context)
            return
        }
        if !context.evaluator.isExact(flow.predicates.unitVisible[index]),
            context.evaluator.verdict(flow.predicates.unitVisible[index], in: gate) == .probablyNever
        {
            context.report(
                .unreachableStep, .info,
                "could not decide whether \(context.name(ofUnit: index)) can be shown: no answer the analysis tried makes it visible, but its conditions use values it cannot enumerate (free text, dates or functions)",
                stepID: unit.id,
                path: unit.isPage ? unit.path.appending("visibleIf") : model.steps[unit.steps.lowerBound].path)
        }
        guard unit.isPage else { return }
        for step in enabled where model.steps[step].visibleIf != nil {
            let visible = flow.predicates.stepVisible[step]
            // A visibleIf that reads its own question's answer: hidden, the question cannot be
            // answered, so it is decided with that answer empty (unless something else sets it).
            var state = inUnit
            var readsItself = false
            if let condition = model.steps[step].visibleIf, context.isOnlyAnsweredWhenShown(step),
                model.stepSlots(of: condition).contains(step)
            {
                state.sets[step] = .noAnswer
                readsItself = true
            }
            switch context.evaluator.verdict(visible, in: state) {
            case .never:
                context.unreachableSteps.insert(step)
                let site = model.steps[step]
                let why =
                    readsItself && context.evaluator.canHold(visible, in: inUnit)
                    ? " (it reads '\(site.id)''s own answer, which it cannot have while hidden)"
                    : explanation(visible, in: inUnit, context)
                context.report(
                    .unreachableStep, severity(visible, context),
                    "'\(site.id)' can never be shown: its visibleIf \"\(site.visibleIf?.source ?? "")\" never holds\(why); correct the condition or remove the step",
                    stepID: site.id, path: site.path.appending("visibleIf"))
            case .probablyNever:
                let site = model.steps[step]
                context.report(
                    .unreachableStep, .info,
                    "could not decide whether '\(site.id)' can be shown: no answer the analysis tried satisfies its visibleIf \"\(site.visibleIf?.source ?? "")\", but it uses values the analysis cannot enumerate",
                    stepID: site.id, path: site.path.appending("visibleIf"))
            case .possible:
                break
            }
        }
    }

    /// Why a unit nobody arrives at is not arrived at, from the unit before it.
    private func noArrivalReason(_ context: LintContext) -> String {
        guard previous.arrived, previous.shown else { return "nothing before it is reachable either" }
        if !previous.canLeave {
            return "no respondent gets past \(previous.name) (Next is always blocked there; see dead-end)"
        }
        if !previous.firing.isEmpty {
            return
                "after \(previous.name) a branch always applies (\(previous.firing.prefix(3).joined(separator: "; "))\(previous.firing.count > 3 ? "; …" : "")), so no respondent goes on to it; make the branches fall through for some answers, or remove it"
        }
        return "every path jumps over it"
    }

    private func summary(of states: UnitStates, _ context: LintContext) -> Summary {
        var result = Summary()
        result.name = context.name(ofUnit: states.unit)
        result.arrived = states.gate != nil
        result.shown = states.entry != nil
        result.canLeave = states.exit != nil
        result.fallsThrough = states.fallThrough != nil || states.canBeSkipped
        guard let exit = states.exit else { return result }
        let guards = context.flow.predicates.branches[states.unit]
        for (position, item) in guards.enumerated() {
            guard let reach = states.branchReach[position],
                context.evaluator.refine(item.fires, in: exit, delta: reach, isImprecise: &ignoredFlag) != nil
            else { continue }
            let target = item.branch.targetUnit.map { "goto '\(context.model.units[$0].id)'" } ?? "complete"
            let condition = item.branch.condition.map { "if \"\($0.source)\" " } ?? ""
            result.firing.append(condition + target)
        }
        return result
    }

    private var ignoredFlag = false

    private func reportNeverShown(
        _ unit: Int, because reason: String, severity: LintSeverity = LintRule.unreachableStep.defaultSeverity,
        _ context: LintContext
    ) {
        let model = context.model
        context.neverShown.insert(unit)
        for step in model.units[unit].steps { context.unreachableSteps.insert(step) }
        let info = model.units[unit]
        if info.isPage {
            let questions = info.steps.map { "'\(model.steps[$0].id)'" }
            context.report(
                .unreachableStep, severity,
                "page '\(info.id)' can never be shown, so no respondent sees \(questions.count == 1 ? "its question" : "its questions") \(questions.prefix(6).joined(separator: ", "))\(questions.count > 6 ? ", …" : ""): \(reason)",
                stepID: info.id, path: info.path)
        } else {
            let step = model.steps[info.steps.lowerBound]
            context.report(
                .unreachableStep, severity, "'\(step.id)' can never be shown: \(reason)", stepID: step.id,
                path: step.path)
        }
    }

    /// A unit that is arrived at but never shown: its condition never holds, or all its questions are hidden.
    private func explainHidden(_ index: Int, gate: AbstractState, _ context: LintContext) {
        let model = context.model
        let flow = context.flow
        let unit = model.units[index]
        let condition = flow.predicates.unitCondition[index]
        if unit.isPage, let visibleIf = unit.visibleIf, !context.evaluator.canHold(condition, in: gate) {
            let why = explanation(condition, in: gate, context)
            reportNeverShown(
                index,
                because: "its visibleIf \"\(visibleIf.source)\" never holds\(why); correct the condition or remove it",
                severity: severity(condition, context), context)
            return
        }
        if !unit.isPage {
            let step = model.steps[unit.steps.lowerBound]
            let visible = flow.predicates.stepVisible[unit.steps.lowerBound]
            let why = explanation(visible, in: gate, context)
            context.neverShown.insert(index)
            context.unreachableSteps.insert(unit.steps.lowerBound)
            context.report(
                .unreachableStep, severity(visible, context),
                "'\(step.id)' can never be shown: its visibleIf \"\(step.visibleIf?.source ?? "")\" never holds\(why); correct the condition or remove the step",
                stepID: step.id, path: step.path.appending("visibleIf"))
            return
        }
        // A page whose questions are all hidden whenever it comes up.
        let shown = unit.steps.filter { model.steps[$0].isEnabled }
        let hidden = shown.map { "'\(model.steps[$0].id)'" }
        let pageSeverity =
            shown.contains { !context.hostFilled(in: flow.predicates.stepVisible[$0]).isEmpty }
            ? LintSeverity.warning : LintRule.unreachableStep.defaultSeverity
        context.report(
            .emptyPage, pageSeverity == .warning ? .warning : LintRule.emptyPage.defaultSeverity,
            "page '\(unit.id)' is never shown: each of its questions (\(hidden.prefix(6).joined(separator: ", "))\(hidden.count > 6 ? ", …" : "")) is hidden by its visibleIf whenever the page comes up; correct their conditions, or remove the page",
            stepID: unit.id, path: unit.path)
        reportNeverShown(
            index, because: "all of its questions are hidden whenever it comes up (see empty-page)",
            severity: pageSeverity, context)
        let inUnit = context.flow.answering(index, from: gate)
        for step in unit.steps where model.steps[step].isEnabled {
            let visible = flow.predicates.stepVisible[step]
            guard !context.evaluator.canHold(visible, in: inUnit), let visibleIf = model.steps[step].visibleIf else {
                continue
            }
            let why = explanation(visible, in: inUnit, context)
            context.report(
                .unreachableStep, severity(visible, context),
                "'\(model.steps[step].id)' can never be shown: its visibleIf \"\(visibleIf.source)\" never holds\(why)",
                stepID: model.steps[step].id, path: model.steps[step].path.appending("visibleIf"))
        }
    }

    /// `.warning` when the conclusion about `predicate` rests on read-only questions a host may fill in.
    func severity(_ predicate: Predicate, _ context: LintContext) -> LintSeverity {
        context.hostFilled(in: predicate).isEmpty ? LintRule.unreachableStep.defaultSeverity : .warning
    }

    /// ": it contradicts itself" or ", given the answers possible here: {a} can only be 'x' here".
    func explanation(_ predicate: Predicate, in state: AbstractState, _ context: LintContext) -> String {
        if let note = context.hostFilledNote(predicate) { return " (\(note))" }
        if !context.evaluator.canHold(predicate, in: context.unconstrained) {
            return " for any answers (it contradicts itself or compares with values the questions cannot have)"
        }
        if let described = context.describe(context.slots(of: predicate), in: state) {
            return " given the answers possible at that point (\(described))"
        }
        return " given the answers possible at that point"
    }
}

import SurveyCore

/// `goto-cycle`: a branch that can send a respondent back to where they were, round a loop.
///
/// Decided on the flow analysis's feasible edges: a branch that jumps to its own unit or an earlier
/// one, that some respondent can take, from whose target the flow can come back to the branch.
/// Answers are kept on the way round, so the respondent meets the same questions again, already
/// answered. A loop without a way out is also reported as `dead-end`.
final class GotoCycleCheck: LintCheck {
    func finish(_ context: LintContext) {
        let model = context.model
        let flow = context.flow
        let placeCount = model.units.count + 1
        var outgoing = [[Int]](repeating: [], count: placeCount)
        for edge in flow.edges { outgoing[edge.from].append(edge.to) }
        var reported = Set<FlowEdge>()
        for edge in flow.edges {
            guard case .branch(let position) = edge.kind, edge.to <= edge.from, reported.insert(edge).inserted
            else { continue }
            // Can the flow get from the target back to the branch's unit?
            var seen = Set([edge.to])
            var stack = [edge.to]
            var loops = false
            while let place = stack.popLast() {
                if place == edge.from {
                    loops = true
                    break
                }
                for next in outgoing[place] where seen.insert(next).inserted { stack.append(next) }
            }
            guard loops else { continue }
            let item = flow.predicates.branches[edge.from][position]
            let owner: (id: String, path: JSONPath)
            switch item.owner {
            case .step(let step): owner = (model.steps[step].id, model.steps[step].path)
            case .unit(let unit): owner = (model.units[unit].id, model.units[unit].path)
            }
            let target = model.units[edge.to].id
            let condition = item.branch.condition.map { "if \"\($0.source)\" " } ?? "(unconditional) "
            let loop =
                edge.to == edge.from
                ? "back to the same \(model.units[edge.to].isPage ? "page" : "step")" : "back to '\(target)'"
            context.report(
                .gotoCycle,
                "the branch \(condition)goto '\(target)' on '\(owner.id)' sends respondents \(loop), round a loop through the questions they already answered; jump forward instead, or make sure the condition changes on the way round",
                stepID: owner.id, path: owner.path.appending("branches").appending(item.branch.index))
        }
    }
}

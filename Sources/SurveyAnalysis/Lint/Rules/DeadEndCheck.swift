import Foundation
import SurveyCore

/// `dead-end`: a point a respondent can reach from which the survey cannot be completed (going
/// forward): a required question none of whose answers is accepted there (all of its choices hidden,
/// fewer choices offered than it needs, a ranking item hidden), or a place from which every way on
/// leads round a loop.
///
/// The flow analysis finds the candidates; each is then confirmed by running the engine: a respondent
/// (a script of answers the question types accept) must reach the point, and there every combination
/// of answers on the page must leave Next blocked. Confirmed dead ends are errors; a candidate the
/// bounded search could not settle is `info`; a candidate no respondent reaches is not reported.
final class DeadEndCheck: LintCheck {
    private enum Candidate {
        case stuck(unit: Int, step: Int, why: String)
        case blocked(unit: Int)
        case noExit(unit: Int, others: Int)

        var unit: Int {
            switch self {
            case .stuck(let unit, _, _), .blocked(let unit), .noExit(let unit, _): return unit
            }
        }
    }

    private var candidates: [Candidate] = []
    private var choiceConditions: [Int: [String: Predicate]] = [:]
    /// Most candidates confirmed per survey.
    private let confirmationLimit = 25

    func prepare(_ context: LintContext) {
        for (index, site) in context.model.conditions.enumerated() {
            if case .choice(let step, let value) = site.kind {
                choiceConditions[step, default: [:]][value] = context.flow.predicates.conditions[index]
            }
        }
    }

    func visit(_ states: UnitStates, _ context: LintContext) {
        let model = context.model
        let unit = states.unit
        guard model.units[unit].isEnabled, let inUnit = states.inUnit else { return }
        if states.exit == nil {
            // Nobody leaves: find the questions responsible, else report the unit.
            var found = false
            for step in model.units[unit].steps {
                if let (predicate, why) = noAcceptableAnswer(step, context),
                    context.evaluator.canHold(stuck(step, predicate, context), in: inUnit)
                {
                    candidates.append(.stuck(unit: unit, step: step, why: why))
                    found = true
                }
            }
            if !found { candidates.append(.blocked(unit: unit)) }
            return
        }
        for step in model.units[unit].steps {
            guard let (predicate, why) = noAcceptableAnswer(step, context),
                context.evaluator.canHold(stuck(step, predicate, context), in: inUnit)
            else { continue }
            candidates.append(.stuck(unit: unit, step: step, why: why))
        }
    }

    func finish(_ context: LintContext) {
        let flow = context.flow
        let canComplete = flow.canComplete()
        let trapped = context.model.units.indices.filter {
            flow.arrives[$0] && flow.isShown[$0] && flow.canLeave[$0] && !canComplete[$0]
        }
        if !trapped.isEmpty {
            // Report each closed loop once, at its first unit: a group of units that reach each other and
            // nothing outside.
            let places = Set(context.model.units.indices.filter { flow.arrives[$0] && !canComplete[$0] })
            for group in Self.closedGroups(flow.edges, among: places) {
                guard let first = group.first(where: { flow.isShown[$0] && flow.canLeave[$0] }) else { continue }
                let shown = group.filter { flow.isShown[$0] }.count
                candidates.append(.noExit(unit: first, others: shown - 1))
            }
        }
        for candidate in candidates.prefix(confirmationLimit) { confirm(candidate, context) }
    }

    /// Strongly connected groups of `units` (along `edges`) with no edge leaving the group, each sorted.
    static func closedGroups(_ edges: [FlowEdge], among units: Set<Int>) -> [[Int]] {
        var outgoing: [Int: [Int]] = [:]
        for edge in edges where units.contains(edge.from) { outgoing[edge.from, default: []].append(edge.to) }
        func reachable(from start: Int) -> Set<Int> {
            var seen: Set<Int> = [start]
            var stack = [start]
            while let place = stack.popLast() {
                for next in outgoing[place] ?? [] where seen.insert(next).inserted { stack.append(next) }
            }
            return seen
        }
        var groups: [[Int]] = []
        var assigned = Set<Int>()
        for unit in units.sorted() where !assigned.contains(unit) {
            let forward = reachable(from: unit)
            // Closed: everything reachable from `unit` reaches `unit` back.
            guard forward.allSatisfy({ units.contains($0) && reachable(from: $0).contains(unit) }) else { continue }
            let group = forward.sorted()
            assigned.formUnion(group)
            groups.append(group)
            if groups.count >= 5 { break }
        }
        return groups
    }

    private func stuck(_ step: Int, _ noAnswer: Predicate, _ context: LintContext) -> Predicate {
        context.flow.predicates.stepVisible[step] && context.flow.predicates.stepRequired[step] && noAnswer
    }

    /// "No answer of `step` is accepted", with why, or `nil` when some answer always is.
    private func noAcceptableAnswer(_ step: Int, _ context: LintContext) -> (Predicate, String)? {
        let model = context.model
        let definition = model.steps[step]
        guard definition.collectsAnswer, definition.isEnabled else { return nil }
        let domain = context.domains[step]
        if domain.isEnumerated, domain.values.count == 1 {
            return (.alwaysTrue, "no answer passes the question's own rules")
        }
        guard let input = definition.question.input(in: .english).choiceInput,
            AnswerDomain.knownTypeIDs.contains(definition.question.typeID)
        else { return nil }
        let conditions = choiceConditions[step] ?? [:]
        let conditional = input.choices.filter { conditions[$0.value] != nil }
        let unconditional = input.choices.count - conditional.count
        if input.isOrdered {
            guard !conditional.isEmpty else { return nil }
            return (
                .any(of: conditional.compactMap { conditions[$0.value]?.negated }),
                "a ranking must rank every item, and an item can be hidden by its condition"
            )
        }
        if input.choices.contains(where: \.isOther) { return nil }
        if domain.kind == .singleChoice || (input.minimumSelections ?? 1) <= 1 {
            guard unconditional == 0, !conditional.isEmpty else { return nil }
            return (
                .all(of: conditional.compactMap { conditions[$0.value]?.negated }),
                "all of its choices can be hidden by their conditions"
            )
        }
        let minimum = input.minimumSelections ?? 1
        guard unconditional < minimum else { return nil }
        let expressions = conditional.compactMap { definition.choiceConditions[$0.value] }
        let exact = conditional.allSatisfy { conditions[$0.value].map(context.evaluator.isExact) ?? false }
        let slots = Array(Set(expressions.flatMap(\.referencedSlots))).sorted()
        let today = FunctionContext(today: context.configuration.today)
        let atom = context.evaluator.customAtom(reading: slots, isExact: exact) { values in
            let offered = expressions.filter { $0.rootNode.isTrue(values, context: today) }.count + unconditional
            return offered < minimum
        }
        return (.atom(atom, true), "it needs at least \(minimum) selections and fewer choices can be offered")
    }

    /// Whether the questions and conditions of `unit` are decided exactly by the representatives.
    private func isExact(_ unit: Int, _ context: LintContext) -> Bool {
        let predicates = context.flow.predicates
        let evaluator = context.evaluator
        guard evaluator.isExact(predicates.canLeave[unit]) else { return false }
        for step in context.model.units[unit].steps {
            guard evaluator.isExact(predicates.stepVisible[step]), evaluator.isExact(predicates.stepRequired[step])
            else { return false }
            for (_, condition) in choiceConditions[step] ?? [:] where !evaluator.isExact(condition) { return false }
        }
        return true
    }

    private func confirm(_ candidate: Candidate, _ context: LintContext) {
        let model = context.model
        let search = context.witness()
        let unit = candidate.unit
        var witness: WitnessSearch.Witness?
        switch candidate {
        case .stuck, .blocked:
            witness = search.reach(unit: unit) { session in search.isAlwaysBlocked(session, unit: unit) == true }
        case .noExit:
            witness = search.reach(unit: unit) { _ in true }
        }
        let example = witness.map { describe($0, context) } ?? ""
        let place: (stepID: String, path: JSONPath)
        let message: String
        switch candidate {
        case .stuck(_, let step, let why):
            place = (model.steps[step].id, model.steps[step].path)
            message =
                "'\(model.steps[step].id)' is required, but \(why), so no answer is accepted and Next stays blocked\(example): the survey cannot be completed from there; make the question optional in that case, or keep at least one choice available"
        case .blocked(let unit):
            place = (model.units[unit].id, model.units[unit].path)
            message =
                "no respondent can leave \(context.name(ofUnit: unit)): Next is always blocked there\(example), so the survey cannot be completed; check its required questions"
        case .noExit(let unit, let others):
            place = (model.units[unit].id, model.units[unit].path)
            let more = others > 0 ? " and \(others) more unit\(others == 1 ? "" : "s")" : ""
            message =
                "respondents who reach \(context.name(ofUnit: unit)) can never complete the survey: its branches lead round a loop through it\(more) with no way out\(example); give the loop a way out (see goto-cycle)"
        }
        if witness != nil {
            let exact: Bool
            if case .noExit = candidate { exact = true } else { exact = isExact(unit, context) }
            context.report(.deadEnd, exact ? .error : .warning, message, stepID: place.stepID, path: place.path)
        } else if search.isExhausted {
            context.report(
                .deadEnd, .info,
                "could not decide whether respondents can get stuck at '\(place.stepID)': "
                    + message
                    .replacingOccurrences(of: "Next stays blocked", with: "Next would stay blocked"),
                stepID: place.stepID, path: place.path)
        }
    }

    /// ", e.g. after answering a = 'x', b = 2".
    private func describe(_ witness: WitnessSearch.Witness, _ context: LintContext) -> String {
        let decisive = witness.answers.filter { answer in
            context.stepIndexByID[answer.stepID].map { context.decisionSlots.contains($0) } ?? false
        }
        guard !decisive.isEmpty else { return "" }
        var parts = decisive.suffix(4).map { "\($0.stepID) = \(context.text(of: $0.value))" }
        if decisive.count > 4 { parts.insert("…", at: 0) }
        return " (for example after answering \(parts.joined(separator: ", ")))"
    }
}

import SurveyCore

/// Searches for a real respondent, run through the engine's own `SurveySession`, that reaches a goal.
///
/// The static analysis over-approximates; where a finding needs certainty that some respondent gets
/// somewhere (a dead end is a defect only if someone reaches it), a witness found here is that
/// certainty: the engine accepted every answer and every Next on the way. The search is a bounded
/// breadth-first walk: at each unit, questions that some condition reads try each representative
/// answer, the others one valid answer.
package final class WitnessSearch {
    /// A run that reached the goal.
    package struct Witness: Sendable {
        /// The answers given, in order.
        package var answers: [(stepID: String, value: JSONValue)]
        /// The units visited, the goal's last.
        package var path: [String]
    }

    let model: FlowModel
    let domains: [AnswerDomain]
    /// Step slots whose answers some condition reads.
    let decisionSlots: Set<Int>
    let decisionIDs: Set<String>
    let unitIndexByID: [String: Int]
    let today: String
    /// Next calls left.
    package private(set) var budget: Int
    /// Whether a search stopped because the budget ran out (rather than trying everything).
    package private(set) var isExhausted = false
    /// Most answer combinations tried on one unit.
    var combinationLimit = 64
    /// When the search gives up, whatever the budget left.
    let deadline: ContinuousClock.Instant
    private var phaseDeadline: ContinuousClock.Instant
    /// The answers ``reach(unit:pinned:accept:)`` fixes for this search.
    private var pinned: [Int: JSONValue] = [:]
    /// What the host gives the survey's declared variables in the runs searched.
    package var variables: [String: JSONValue] = [:]

    package init(
        model: FlowModel, domains: [AnswerDomain], decisionSlots: Set<Int>, budget: Int, today: String,
        deadline: ContinuousClock.Instant = .now + .seconds(2)
    ) {
        self.deadline = deadline
        phaseDeadline = deadline
        self.model = model
        self.domains = domains
        self.decisionSlots = decisionSlots
        decisionIDs = Set(decisionSlots.map { model.steps[$0].id })
        self.budget = budget
        self.today = today
        var index: [String: Int] = [:]
        for (position, unit) in model.units.enumerated() { index[unit.id] = position }
        unitIndexByID = index
    }

    /// A run that enters `unit` in a state accepted by `accept`, or `nil`.
    ///
    /// Breadth first at first, so that a witness near the start is a shortest run; then depth first, so
    /// that one deep in a long survey is found at all.
    ///
    /// `pinned` fixes the answers of some questions (a step slot's answer, `null` for none), as
    /// ``requirements(showing:evaluator:predicates:)`` works them out: the search then varies only the others.
    package func reach(unit target: Int, pinned: [Int: JSONValue] = [:], accept: (SurveySession) -> Bool) -> Witness? {
        self.pinned = pinned
        defer { self.pinned = [:] }
        isExhausted = false
        let total = budget
        budget = min(total, 2000)
        let now = ContinuousClock.now
        phaseDeadline = now < deadline ? now + (deadline - now) / 2 : deadline
        if let witness = search(unit: target, accept: accept, breadthFirst: true) { return witness }
        guard isExhausted, ContinuousClock.now < deadline else { return nil }
        phaseDeadline = deadline
        budget = max(0, total - 2000)
        isExhausted = false
        return search(unit: target, accept: accept, breadthFirst: false)
    }

    private func search(unit target: Int, accept: (SurveySession) -> Bool, breadthFirst: Bool) -> Witness? {
        typealias Node = (session: SurveySession, answers: [(String, JSONValue)], key: Int)
        let start = SurveySession(survey: model.survey, seed: 0, today: today, variables: variables)
        var frontier: [Node] = [(start, [], 0)]
        var head = 0
        var visited = Set<Int>()
        while head < frontier.count {
            let node: Node
            if breadthFirst {
                node = frontier[head]
                frontier[head] = (start, [], 0)
                head += 1
            } else {
                node = frontier.removeLast()
            }
            let session = node.session
            guard session.status == .inProgress, let unitID = session.currentUnitID,
                let unit = unitIndexByID[unitID]
            else { continue }
            if unit == target {
                if accept(session) {
                    return Witness(answers: node.answers.map { (stepID: $0.0, value: $0.1) }, path: session.pathIDs)
                }
                // Shown by an answer on its own page.
                for combination in combinations(for: unit, decisionsOnly: false, limit: nil) {
                    var copy = session
                    let given = apply(combination, to: &copy, unit: unit)
                    if accept(copy) {
                        return Witness(
                            answers: (node.answers + given).map { (stepID: $0.0, value: $0.1) }, path: copy.pathIDs)
                    }
                }
            }
            if unit > target, !model.hasBackwardJumps { continue }
            // The state: where the respondent is and the answers that conditions read (kept as a running hash).
            var hasher = Hasher()
            hasher.combine(node.key)
            hasher.combine(unit)
            guard visited.insert(hasher.finalize()).inserted else { continue }
            var children: [Node] = []
            for combination in combinations(for: unit, decisionsOnly: false, limit: breadthFirst ? nil : 3) {
                guard budget > 0, budget % 16 != 0 || ContinuousClock.now < phaseDeadline else {
                    isExhausted = true
                    return nil
                }
                var next = session
                let given = apply(combination, to: &next, unit: unit)
                budget -= 1
                guard case .moved = next.advance() else { continue }
                var key = Hasher()
                key.combine(node.key)
                for (stepID, value) in given where decisionIDs.contains(stepID) {
                    key.combine(stepID)
                    key.combine(value)
                }
                children.append((next, node.answers + given, key.finalize()))
            }
            frontier.append(contentsOf: breadthFirst ? children : children.reversed())
        }
        return nil
    }

    /// Whether, from `session` just entered on `unit`, Next is blocked for every combination of
    /// answers to the unit's questions (`nil` when there are too many combinations to try them all).
    package func isAlwaysBlocked(_ session: SurveySession, unit: Int) -> Bool? {
        var blocked = true
        var tried = 0
        for combination in combinations(for: unit, decisionsOnly: true, limit: 4096) {
            tried += 1
            var copy = session
            _ = apply(combination, to: &copy, unit: unit)
            if case .blocked = copy.advance() { continue }
            blocked = false
            break
        }
        if tried == 0 { return nil }
        return blocked
    }

    /// Answers `combination` (one value per step of `unit`, `null` for none) in document order,
    /// twice so that questions shown by a later answer on the same page get theirs.
    private func apply(_ combination: [Int: JSONValue], to session: inout SurveySession, unit: Int) -> [(
        String, JSONValue
    )] {
        var given: [(String, JSONValue)] = []
        var answered = Set<Int>()
        for _ in 0..<2 {
            for index in model.units[unit].steps where !answered.contains(index) {
                let step = model.steps[index]
                guard let value = combination[index], !value.isNull, session.isVisible(step.id) else { continue }
                if (try? session.answer(value, for: step.id)) != nil {
                    answered.insert(index)
                    given.append((step.id, value))
                }
            }
        }
        return given
    }

    /// Answer combinations for `unit`: every representative for questions some condition reads
    /// (bounded), one answer (or, with `decisionsOnly`, none and one) for the others.
    private func combinations(for unit: Int, decisionsOnly: Bool, limit: Int? = nil) -> [[Int: JSONValue]] {
        let limit = limit ?? combinationLimit
        var options: [(Int, [JSONValue])] = []
        for index in model.units[unit].steps where model.steps[index].collectsAnswer && model.steps[index].isEnabled {
            if let value = pinned[index] {
                options.append((index, [value]))
                continue
            }
            let domain = domains[index]
            let answers = Array(domain.values.dropFirst())
            if decisionSlots.contains(index) {
                options.append((index, answers + [.null]))
            } else if decisionsOnly {
                options.append((index, Array(answers.prefix(1)) + [.null]))
            } else {
                options.append((index, Array(answers.prefix(1))))
            }
        }
        var total = 1
        for (_, values) in options {
            total *= max(values.count, 1)
            if total > limit { break }
        }
        if total <= limit {
            var result: [[Int: JSONValue]] = [[:]]
            for (index, values) in options where !values.isEmpty {
                result = result.flatMap { partial in
                    values.map { value in
                        var copy = partial
                        copy[index] = value
                        return copy
                    }
                }
            }
            return result
        }
        if decisionsOnly { return [] }
        // Too many: the first answer everywhere, then each question's other answers one at a time.
        var base: [Int: JSONValue] = [:]
        for (index, values) in options { if let first = values.first { base[index] = first } }
        var result = [base]
        for (index, values) in options {
            for value in values.dropFirst() {
                var copy = base
                copy[index] = value
                result.append(copy)
                if result.count >= limit { return result }
            }
        }
        return result
    }

    /// Answers that make step `target` visible, worked back through the conditions: the questions its
    /// visibility reads get answers under which it holds, each of those questions must be visible
    /// itself, and so on (`null` where a question must stay unanswered). `nil` when the conditions
    /// contradict each other on the way; the answers are a hint for ``reach(unit:pinned:accept:)``,
    /// which still runs the engine (a branch may jump over the target whatever they are).
    ///
    /// `variant` 0 takes the first answer that will do for each question; other variants take one side
    /// of each `or` and pick at random among the answers (seeded by the variant), for when the first
    /// choices contradict each other or lead into a jump.
    package static func requirements(
        showing target: Int, model: FlowModel, evaluator: ConditionEvaluator, predicates: FlowPredicates,
        variant: UInt64 = 0
    ) -> [Int: JSONValue]? {
        var random = SeededGenerator(seed: variant &* 0x9E37_79B9_7F4A_7C15)
        var state = evaluator.unconstrainedState()
        var pins: [Int: Int] = [:]
        var pending = [target]
        var expanded = Set<Int>()
        func condition(_ step: Int) -> Predicate {
            predicates.stepVisible[step] && predicates.unitCondition[model.steps[step].unit]
        }
        // The random variants take one side of each `or` (the same for a step every time it is read):
        // answers that satisfy both sides at once can contradict each other where one side would do.
        var sides: [Int: Predicate] = [:]
        func side(of step: Int) -> Predicate {
            if variant == 0 { return condition(step) }
            if let chosen = sides[step] { return chosen }
            func choose(_ predicate: Predicate) -> Predicate {
                switch predicate {
                case .constant, .atom: return predicate
                case .all(let parts): return .all(parts.map(choose))
                case .any(let parts):
                    guard !parts.isEmpty else { return predicate }
                    return choose(parts[Int(random.next() % UInt64(parts.count))])
                }
            }
            let chosen = choose(condition(step))
            sides[step] = chosen
            return chosen
        }
        while let step = pending.popLast() {
            guard expanded.insert(step).inserted else { continue }
            var imprecise = false
            // The chosen sides, else the whole condition (a side can read what the analysis cannot give,
            // such as a host's value).
            guard
                let delta = evaluator.refine(side(of: step), in: state, mode: .sampled, isImprecise: &imprecise)
                    ?? evaluator.refine(condition(step), in: state, mode: .sampled, isImprecise: &imprecise)
            else { return nil }
            for (slot, allowed) in delta.changes.sorted(by: { $0.key < $1.key }) where pins[slot] == nil {
                let values = evaluator.domains[slot].values
                let answers = allowed.indices.filter { !values[$0].isNull }
                let candidates = answers.isEmpty ? allowed.indices : answers
                guard !candidates.isEmpty else { return nil }
                let choice = variant == 0 ? candidates[0] : candidates[Int(random.next() % UInt64(candidates.count))]
                pins[slot] = choice
                var single = RepresentativeSet()
                single.insert(choice)
                state.sets[slot] = single
                if !values[choice].isNull { pending.append(slot) }
            }
        }
        // The choices, made one question at a time, must hold together.
        for step in expanded where !evaluator.canHold(condition(step), in: state, mode: .sampled) { return nil }
        return pins.reduce(into: [:]) { result, pin in result[pin.key] = evaluator.domains[pin.key].values[pin.value] }
    }
}

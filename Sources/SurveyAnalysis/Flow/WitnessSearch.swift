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
    let decisionOrder: [Int]
    let unitIndexByID: [String: Int]
    let today: String
    /// Next calls left.
    package private(set) var budget: Int
    /// Whether a search stopped because the budget ran out (rather than trying everything).
    package private(set) var isExhausted = false
    /// Most answer combinations tried on one unit.
    var combinationLimit = 64

    package init(model: FlowModel, domains: [AnswerDomain], decisionSlots: Set<Int>, budget: Int, today: String) {
        self.model = model
        self.domains = domains
        self.decisionSlots = decisionSlots
        decisionOrder = decisionSlots.sorted()
        self.budget = budget
        self.today = today
        var index: [String: Int] = [:]
        for (position, unit) in model.units.enumerated() { index[unit.id] = position }
        unitIndexByID = index
    }

    /// A run that enters `unit` in a state accepted by `accept`, or `nil`.
    package func reach(unit target: Int, accept: (SurveySession) -> Bool) -> Witness? {
        isExhausted = false
        let start = SurveySession(survey: model.survey, seed: 0, today: today)
        // Breadth first, so that the witness is a shortest run.
        var queue: [(SurveySession, [(String, JSONValue)])] = [(start, [])]
        var head = 0
        var visited = Set<[JSONValue]>()
        while head < queue.count {
            let (session, answers) = queue[head]
            queue[head] = (start, [])
            head += 1
            guard session.status == .inProgress, let unitID = session.currentUnitID,
                let unit = unitIndexByID[unitID]
            else { continue }
            if unit == target, accept(session) {
                return Witness(answers: answers.map { (stepID: $0.0, value: $0.1) }, path: session.pathIDs)
            }
            if unit > target, !model.hasBackwardJumps { continue }
            var key: [JSONValue] = [.number(Double(unit))]
            for slot in decisionOrder { key.append(session.answer(for: model.steps[slot].id) ?? .null) }
            guard visited.insert(key).inserted else { continue }
            for combination in combinations(for: unit, decisionsOnly: false) {
                guard budget > 0 else {
                    isExhausted = true
                    return nil
                }
                var next = session
                let given = apply(combination, to: &next, unit: unit)
                budget -= 1
                if case .moved = next.next() { queue.append((next, answers + given)) }
            }
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
            if case .blocked = copy.next() { continue }
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
}

import Dispatch
import Foundation
import SurveyCore

/// Generates answer scripts that together reach as much branch coverage as the survey allows.
///
/// Respondents walk the survey through the real engine, answering each visible question with one of
/// its representative answers (every choice, the values just below, at and above each number a
/// condition mentions, empty and non-empty text, the literals conditions compare with, and no answer
/// for optional questions). A walk is kept only when it covers a goal no kept walk covers; walks are
/// steered towards uncovered goals by preferring, at each question, the representatives that earlier
/// productive walks have not used there. The search stops when every goal is covered, when many walks
/// in a row add nothing, or at the time limit. Goals left are reported; those the linter proves
/// impossible are marked infeasible.
public struct PathGenerator: Sendable {
    public struct Script: Sendable, Hashable {
        public var actions: [SessionAction]
        public var path: [String]
        public var answers: [String: JSONValue]
        /// The goals this script was kept for.
        public var newGoals: [CoverageGoal]

        /// The script as a test case `survey test` runs unchanged.
        public var jsonValue: JSONValue {
            [
                "description": .string(
                    "covers " + newGoals.prefix(6).map(\.description).joined(separator: "; ")
                        + (newGoals.count > 6 ? "; … (\(newGoals.count) goals)" : "")),
                "actions": .array(
                    actions.map { action in
                        switch action {
                        case .answer(let stepID, let value):
                            return ["command": "answer", "stepId": .string(stepID), "value": value]
                        case .next: return "next"
                        case .back: return "back"
                        case .dismiss: return "dismiss"
                        }
                    }),
                "expectPath": .array(path.map { .string($0) }),
                "expectAnswers": .object(answers),
            ]
        }
    }

    /// A question that stopped walks: Next stayed blocked on it whatever representative was tried
    /// (typically a `regex` or `expression` validator no generated answer passes).
    public struct BlockedStep: Sendable, Hashable {
        public var stepID: String
        /// The kind of the validator that refused, or `nil` (a required check the walk could not meet).
        public var validator: String?
        /// The last error Next reported for it.
        public var message: String
    }

    public struct Result: Sendable {
        public var scripts: [Script]
        public var coverage: BranchCoverage
        /// Uncovered goals about steps the linter proves can never be shown, or conditions it proves constant.
        public var infeasible: [CoverageGoal]
        public var walks: Int
        public var seconds: Double
        /// Questions walks could not get past, in document order; the goals behind them stay uncovered
        /// unless another walk avoided them. A hand-written script with a passing answer covers them.
        public var blocked: [BlockedStep] = []
    }

    public let survey: Survey
    public var seed: UInt64
    public var today: String
    /// Stop after this many walks in a row that add nothing.
    public var patience: Int
    /// Stop after this many seconds.
    public var timeLimit: Double
    /// Instead of covering goals, collect up to this many distinct paths (one script each).
    public var distinctPaths: Int?

    public init(
        survey: Survey, seed: UInt64 = 1, today: String = "2026-01-01", patience: Int = 1500, timeLimit: Double = 50
    ) {
        self.survey = survey
        self.seed = seed
        self.today = today
        self.patience = patience
        self.timeLimit = timeLimit
    }

    /// How many sets of required answers phase 2 tries for a question never shown.
    static let requirementVariants = 8

    public func generate() -> Result {
        let started = Date()
        var coverage = BranchCoverage(survey: survey)
        let model = FlowModel(survey: survey)
        let (domains, decisionSlots) = AnalyzedSurvey.domains(of: model)
        // Every representative but "no answer": a walk skips optional questions itself.
        let candidates = domains.map { domain in domain.values.filter { !$0.isNull } }
        let stepIndex = Dictionary(uniqueKeysWithValues: survey.stepIDs.enumerated().map { ($1, $0) })
        let optional = survey.analysisSteps.map { !$0.isRequired && $0.requiredIf == nil }
        var used = candidates.map { [Int](repeating: 0, count: $0.count) }
        var scripts: [Script] = []
        var random = SeededGenerator(seed: seed)
        var idle = 0
        var walks = 0
        var blocked: [Int: BlockedStep] = [:]
        let limit = 20 * (survey.unitCount + 1)
        /// Walks on from `session` to the end, answering with least-used representatives.
        func walk(
            _ session: inout SurveySession, _ picks: inout [(step: Int, choice: Int)], keeping fixed: Set<Int> = []
        ) {
            var moves = 0
            while session.currentUnitID != nil, moves < limit {
                moves += 1
                // Passes over the unit until no question appears that has not had its turn: answering one
                // question of a page can show another on the same page.
                var asked = Set<String>()
                var pending = session.currentStepIDs
                while !pending.isEmpty {
                    for id in pending {
                        asked.insert(id)
                        guard let index = stepIndex[id], !candidates[index].isEmpty else { continue }
                        if fixed.contains(index), session.answer(for: id) != nil { continue }
                        // Least used first, ties at random: walks spread over the representatives.
                        var order = Array(candidates[index].indices)
                        order.shuffle(using: &random)
                        order.sort { used[index][$0] < used[index][$1] }
                        if optional[index], random.next() % 8 == 0 { continue }
                        if survey.hasValidators(step: index) {
                            // The first that passes the validators too (tried on copies, so the script
                            // keeps one answer), else the first the type accepts, for Next to refuse.
                            var fallback: (session: SurveySession, choice: Int)?
                            for choice in order.prefix(6) {
                                var trial = session
                                guard (try? trial.answer(candidates[index][choice], for: id)) != nil else { continue }
                                if trial.validatorErrors(forStep: id).isEmpty {
                                    fallback = (trial, choice)
                                    break
                                }
                                if fallback == nil { fallback = (trial, choice) }
                            }
                            if let (trial, choice) = fallback {
                                session = trial
                                picks.append((index, choice))
                            }
                            continue
                        }
                        for choice in order.prefix(6)
                        where (try? session.answer(candidates[index][choice], for: id)) != nil {
                            picks.append((index, choice))
                            break
                        }
                    }
                    pending = session.currentStepIDs.filter { !asked.contains($0) }
                }
                if case .blocked(let errors) = session.advance() {
                    // Answer again each question Next refused (a requiredIf, a validator), with the first
                    // representative its validators let through now (tried on a copy, so the script keeps
                    // only the answer that passed).
                    var retried = Set<String>()
                    for error in errors where retried.insert(error.stepID).inserted {
                        guard let index = stepIndex[error.stepID] else { continue }
                        guard survey.hasValidators(step: index) else {
                            for choice in candidates[index].indices
                            where (try? session.answer(candidates[index][choice], for: error.stepID)) != nil {
                                picks.append((index, choice))
                                break
                            }
                            continue
                        }
                        for choice in candidates[index].indices {
                            var trial = session
                            guard (try? trial.answer(candidates[index][choice], for: error.stepID)) != nil,
                                trial.validatorErrors(forStep: error.stepID).isEmpty
                            else { continue }
                            session = trial
                            picks.append((index, choice))
                            break
                        }
                    }
                    if case .blocked(let errors) = session.advance() {
                        for error in errors {
                            guard let index = stepIndex[error.stepID] else { continue }
                            blocked[index] = BlockedStep(
                                stepID: error.stepID, validator: error.validator, message: error.message)
                        }
                        break
                    }
                }
            }
        }
        /// Keeps the run when it covers something new.
        func keep(_ session: SurveySession, _ picks: [(step: Int, choice: Int)]) -> Bool {
            let actions = session.actions
            let found = coverage.goals(coveredBy: actions, seed: seed, today: today)
            let new = found.subtracting(coverage.covered)
            guard !new.isEmpty else { return false }
            coverage.record(found)
            for pick in picks { used[pick.step][pick.choice] += 1 }
            let result = session.completionResult()
            scripts.append(
                Script(
                    actions: actions, path: result.path,
                    answers: session.status == .completed ? result.answers : [:], newGoals: new.sorted()))
            return true
        }
        if let wanted = distinctPaths {
            // Distinct paths: a walk is kept when its path (the units shown, and how it ended) is new.
            var seen = Set<[String]>()
            while idle < patience, seen.count < wanted, Date().timeIntervalSince(started) < timeLimit {
                walks += 1
                var session = SurveySession(survey: survey, seed: seed, today: today)
                var picks: [(step: Int, choice: Int)] = []
                walk(&session, &picks)
                let result = session.completionResult()
                guard seen.insert(result.path + [session.status.rawValue]).inserted else {
                    idle += 1
                    continue
                }
                idle = 0
                let actions = session.actions
                let found = coverage.goals(coveredBy: actions, seed: seed, today: today)
                let new = found.subtracting(coverage.covered)
                coverage.record(found)
                for pick in picks { used[pick.step][pick.choice] += 1 }
                scripts.append(
                    Script(
                        actions: actions, path: result.path,
                        answers: session.status == .completed ? result.answers : [:], newGoals: new.sorted()))
            }
            return Result(
                scripts: scripts, coverage: coverage, infeasible: [], walks: walks,
                seconds: Date().timeIntervalSince(started), blocked: blocked.keys.sorted().compactMap { blocked[$0] })
        }
        // Phase 1: walks spread over the representatives, until they stop finding anything new.
        while idle < patience, coverage.covered.count < coverage.goals.count,
            Date().timeIntervalSince(started) < timeLimit * 0.6
        {
            walks += 1
            var session = SurveySession(survey: survey, seed: seed, today: today)
            var picks: [(step: Int, choice: Int)] = []
            walk(&session, &picks)
            idle = keep(session, picks) ? 0 : idle + 1
        }
        // Phase 2: for each question still never shown, a directed search for answers that show it
        // (first with the answers its conditions call for, worked back through the conditions they
        // depend on, then without), then a walk to the end from there.
        let evaluator = ConditionEvaluator(model: model, domains: domains, today: today)
        let predicates = FlowPredicates(model: model, evaluator: evaluator)
        for goal in coverage.uncovered {
            guard Date().timeIntervalSince(started) < timeLimit else { break }
            guard case .shown(let stepID) = goal, !coverage.covered.contains(goal), let index = stepIndex[stepID]
            else { continue }
            let unit = model.steps[index].unit
            var found: WitnessSearch.Witness?
            // The answers its conditions call for (the first that will do, then a few random sets of
            // them, each tried once), or, when the conditions give none, an open search.
            var tried = Set<[Int: JSONValue]>()
            for variant in 0..<Self.requirementVariants where found == nil {
                guard
                    let pinned = WitnessSearch.requirements(
                        showing: index, model: model, evaluator: evaluator, predicates: predicates,
                        variant: UInt64(variant))
                else { break }
                guard tried.insert(pinned).inserted else { continue }
                let search = WitnessSearch(
                    model: model, domains: domains, decisionSlots: decisionSlots, budget: 4000, today: today,
                    deadline: .now + .milliseconds(variant == 0 ? 30 : 3))
                found = search.reach(unit: unit, pinned: pinned, accept: { $0.isVisible(stepID) })
            }
            if found == nil, tried.isEmpty {
                let search = WitnessSearch(
                    model: model, domains: domains, decisionSlots: decisionSlots, budget: 4000, today: today,
                    deadline: .now + .milliseconds(30))
                found = search.reach(unit: unit, accept: { $0.isVisible(stepID) })
            }
            guard let witness = found else { continue }
            walks += 1
            var session = SurveySession(survey: survey, seed: seed, today: today)
            var picks: [(step: Int, choice: Int)] = []
            var fixed = Set<Int>()
            for answer in witness.answers {
                var moves = 0
                while session.status == .inProgress, !session.currentStepIDs.contains(answer.stepID), moves < limit {
                    moves += 1
                    if case .blocked = session.advance() { break }
                }
                _ = try? session.answer(answer.value, for: answer.stepID)
                if let answered = stepIndex[answer.stepID] { fixed.insert(answered) }
            }
            walk(&session, &picks, keeping: fixed)
            _ = keep(session, [])
        }
        let findings = SurveyLinter().lint(survey)
        // Only what the linter proves: an `info` finding is one it could not decide.
        let impossible = Set(
            findings.filter {
                $0.severity != .info
                    && ($0.rule == .unreachableStep || $0.rule == .alwaysFalseCondition
                        || $0.rule == .alwaysTrueCondition)
            }
            .compactMap(\.stepID))
        let infeasible = coverage.uncovered.filter { goal in goal.stepID.map(impossible.contains) ?? false }
        return Result(
            scripts: scripts, coverage: coverage, infeasible: infeasible, walks: walks,
            seconds: Date().timeIntervalSince(started), blocked: blocked.keys.sorted().compactMap { blocked[$0] })
    }
}

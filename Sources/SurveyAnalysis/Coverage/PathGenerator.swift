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
/// productive walks have not used there. When many walks in a row add nothing, a directed search looks
/// for answers that show each question never shown. Both run in rounds until every goal the linter does
/// not prove impossible is covered, two rounds in a row add nothing, or the time limit. Goals left are
/// reported; those the linter proves impossible are marked infeasible.
public struct PathGenerator: Sendable {
    public struct Script: Sendable, Hashable {
        public var actions: [SessionAction]
        public var path: [String]
        public var answers: [String: JSONValue]
        /// The goals this script was kept for.
        public var newGoals: [CoverageGoal]
        /// What the host gives the survey's declared variables in this run (`--var`); empty for none.
        public var variables: [String: JSONValue] = [:]

        /// The script as a test case `survey test` runs unchanged.
        public var jsonValue: JSONValue {
            var members: [String: JSONValue] = [
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
            if !variables.isEmpty { members["variables"] = .object(variables) }
            return .object(members)
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

    /// Most rounds of walks and directed searches (fewer when two in a row add nothing).
    static let rounds = 8

    /// A variable the survey declares for the host to set, with the values walks give it: none (its
    /// default), each literal the survey compares it with, the numbers either side of those it orders
    /// with, and one value equal to none of them.
    struct HostVariable {
        let name: String
        let values: [JSONValue]
    }

    /// The survey's declared variables that some condition, calculated value or validator reads.
    static func hostVariables(of model: FlowModel) -> [HostVariable] {
        let survey = model.survey
        var usages: [Int: [ValueUsage]] = [:]
        let expressions =
            model.conditions.map(\.expression) + model.calculated.map(\.expression)
            + survey.analysisValidatorExpressions.map(\.expression)
        for expression in expressions {
            for (slot, usage) in ExpressionUsage.usages(in: expression.rootNode) where slot >= model.stepCount {
                let index = slot - model.stepCount
                guard index < model.calculated.count, model.calculated[index].isVariable else { continue }
                usages[index, default: []].append(usage)
            }
        }
        return usages.keys.sorted().map { index in
            var values: [JSONValue] = [.null]
            func add(_ value: JSONValue) {
                if values.count < 16, !values.contains(value) { values.append(value) }
            }
            var literals: [JSONValue] = []
            for case .comparison(let op, let literal) in usages[index] ?? [] {
                for element in literal.arrayValue ?? [literal] where !element.isNull {
                    literals.append(element)
                    add(element)
                }
                guard op.isOrdering else { continue }
                for number in DomainBuilder.numbersEitherSide(of: literal) { add(.number(number)) }
            }
            if let fresh = ["other", "other value", "0"].first(where: { text in
                !literals.contains { ExpressionValue.equals(.string(text), $0) }
            }) {
                add(.string(fresh))
            }
            return HostVariable(name: model.calculated[index].name, values: values)
        }
    }

    /// The names `validators`' expressions ask step `step` to equal: `{a} = {step}`, `{step} == {a}`.
    static func equalityPartners(of validators: [ValidatorDefinition], step: String) -> [String] {
        var partners: [String] = []
        for validator in validators {
            guard case .expression(let source) = validator.kind else { continue }
            let pattern = #"\{\s*([^{}]+?)\s*\}\s*==?\s*\{\s*([^{}]+?)\s*\}"#
            guard let regex = try? NSRegularExpression(pattern: pattern) else { continue }
            let text = source as NSString
            for match in regex.matches(in: source, range: NSRange(location: 0, length: text.length)) {
                let (left, right) = (text.substring(with: match.range(at: 1)), text.substring(with: match.range(at: 2)))
                if left == step, right != step { partners.append(right) }
                if right == step, left != step { partners.append(left) }
            }
        }
        return partners
    }

    /// A list answer cut down to the choices `step` offers now, in the representative's order, with
    /// the offered choices it lacks after them: a ranking whose choices another answer decides
    /// (`choicesFromQuestion` with the selected choices, a choice's `visibleIf`) must rank exactly
    /// those, which no fixed representative does. `nil` when it is no list or nothing is offered.
    static func offeredOnly(_ candidate: JSONValue, step: String, in session: SurveySession) -> JSONValue? {
        guard let items = candidate.arrayValue,
            let choices = session.currentStep?.questions.first(where: { $0.id == step })?.input.choiceInput?.choices
        else { return nil }
        let offered = choices.filter { !$0.isOther }.map(\.value)
        guard !offered.isEmpty else { return nil }
        let kept = items.compactMap(\.stringValue).filter { offered.contains($0) }
        let ordered = kept + offered.filter { !kept.contains($0) }
        return .array(ordered.map { .string($0) })
    }

    public func generate() -> Result {
        let started = Date()
        var coverage = BranchCoverage(survey: survey)
        let model = FlowModel(survey: survey)
        let (domains, decisionSlots) = AnalyzedSurvey.domains(of: model)
        // Every representative but "no answer": a walk skips optional questions itself.
        var candidates = domains.map { domain in domain.values.filter { !$0.isNull } }
        let stepIndex = Dictionary(uniqueKeysWithValues: survey.stepIDs.enumerated().map { ($1, $0) })
        // A question whose expression validator asks it to equal another (a confirmed e-mail address or
        // password, `{email} = {confirmEmail}`) is also offered that question's representatives.
        for (index, step) in survey.analysisSteps.enumerated() {
            for partner in Self.equalityPartners(of: step.definition.validators, step: step.id) {
                guard let other = stepIndex[partner], other != index else { continue }
                for value in candidates[other] where !candidates[index].contains(value) {
                    candidates[index].append(value)
                }
            }
        }
        let optional = survey.analysisSteps.map { !$0.isRequired && $0.requiredIf == nil }
        var used = candidates.map { [Int](repeating: 0, count: $0.count) }
        var scripts: [Script] = []
        var random = SeededGenerator(seed: seed)
        var idle = 0
        var walks = 0
        var blocked: [Int: BlockedStep] = [:]
        let limit = 20 * (survey.unitCount + 1)
        // Host variables: half the walks give none (the host sets nothing, as the analysis assumes),
        // the others give each variable one of its values, often the least used.
        let hostVariables = Self.hostVariables(of: model)
        var variableUsed = hostVariables.map { [Int](repeating: 0, count: $0.values.count) }
        /// A start for a walk: the variables' values (least used, ties at random) and which they are;
        /// none with `plain` (a witness found without them).
        func assignment(plain: Bool? = nil) -> (given: [String: JSONValue], picks: [Int]) {
            var given: [String: JSONValue] = [:]
            var picks: [Int] = []
            if hostVariables.isEmpty || (plain ?? (random.next() % 2 == 0)) {
                return ([:], [Int](repeating: 0, count: hostVariables.count))
            }
            for (index, variable) in hostVariables.enumerated() {
                // Least used (by kept walks) half the time, else any: walks that keep nothing do not
                // count, so least used alone would give the same value until one is kept.
                var order = Array(variable.values.indices)
                order.shuffle(using: &random)
                if random.next() % 2 == 0 { order.sort { variableUsed[index][$0] < variableUsed[index][$1] } }
                let pick = order.first ?? 0
                picks.append(pick)
                if !variable.values[pick].isNull { given[variable.name] = variable.values[pick] }
            }
            return (given, picks)
        }
        func start(_ chosen: (given: [String: JSONValue], picks: [Int])? = nil) -> (
            session: SurveySession, picks: [Int]
        ) {
            let (given, picks) = chosen ?? assignment()
            return (SurveySession(survey: survey, seed: seed, today: today, variables: given), picks)
        }
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
                        var answered = false
                        for choice in order.prefix(6)
                        where (try? session.answer(candidates[index][choice], for: id)) != nil {
                            picks.append((index, choice))
                            answered = true
                            break
                        }
                        if !answered, let choice = order.first,
                            let value = Self.offeredOnly(candidates[index][choice], step: id, in: session),
                            (try? session.answer(value, for: id)) != nil
                        {
                            picks.append((index, choice))
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
        func keep(_ session: SurveySession, _ picks: [(step: Int, choice: Int)], variables: [Int]) -> Bool {
            // A script `survey test` runs must complete the survey: a walk that stopped (Next blocked,
            // the move limit) is not kept; what stopped it is reported in `blocked`.
            guard session.status == .completed else { return false }
            let actions = session.actions
            let found = coverage.goals(coveredBy: actions, seed: seed, today: today, variables: session.variables)
            let new = found.subtracting(coverage.covered)
            guard !new.isEmpty else { return false }
            coverage.record(found)
            for pick in picks { used[pick.step][pick.choice] += 1 }
            for (index, pick) in variables.enumerated() { variableUsed[index][pick] += 1 }
            let result = session.completionResult()
            scripts.append(
                Script(
                    actions: actions, path: result.path,
                    answers: session.status == .completed ? result.answers : [:], newGoals: new.sorted(),
                    variables: session.variables))
            return true
        }
        if let wanted = distinctPaths {
            // Distinct paths: a walk is kept when its path (the units shown, and how it ended) is new.
            var seen = Set<[String]>()
            while idle < patience, seen.count < wanted, Date().timeIntervalSince(started) < timeLimit {
                walks += 1
                var (session, variablePicks) = start()
                var picks: [(step: Int, choice: Int)] = []
                walk(&session, &picks)
                let result = session.completionResult()
                guard seen.insert(result.path + [session.status.rawValue]).inserted else {
                    idle += 1
                    continue
                }
                idle = 0
                let actions = session.actions
                let found = coverage.goals(coveredBy: actions, seed: seed, today: today, variables: session.variables)
                let new = found.subtracting(coverage.covered)
                coverage.record(found)
                for pick in picks { used[pick.step][pick.choice] += 1 }
                for (index, pick) in variablePicks.enumerated() { variableUsed[index][pick] += 1 }
                scripts.append(
                    Script(
                        actions: actions, path: result.path,
                        answers: session.status == .completed ? result.answers : [:], newGoals: new.sorted(),
                        variables: session.variables))
            }
            return Result(
                scripts: scripts, coverage: coverage, infeasible: [], walks: walks,
                seconds: Date().timeIntervalSince(started), blocked: blocked.keys.sorted().compactMap { blocked[$0] })
        }
        let findings = SurveyLinter().lint(survey)
        // Only what the linter proves: an `info` finding is one it could not decide.
        var impossible = Set(
            findings.filter {
                $0.severity != .info
                    && ($0.rule == .unreachableStep || $0.rule == .alwaysFalseCondition
                        || $0.rule == .alwaysTrueCondition)
            }
            .compactMap(\.stepID))
        // A page never shown: the goals of every step on it too.
        for unit in model.units where unit.isPage && impossible.contains(unit.id) {
            for step in unit.steps { impossible.insert(model.steps[step].id) }
        }
        // A requiredIf written as its question's visibleIf holds whenever the question is shown (both
        // read the same values), so it is never false there — whatever the values, host ones too.
        let requiredWhenShown = Set(
            survey.analysisSteps.filter { step in
                guard let required = step.requiredIf?.source, let visible = step.visibleIf?.source else { return false }
                return required.trimmingCharacters(in: .whitespaces) == visible.trimmingCharacters(in: .whitespaces)
            }.map(\.id))
        func isInfeasible(_ goal: CoverageGoal) -> Bool {
            if case .requirement(let step, false) = goal, requiredWhenShown.contains(step) { return true }
            return goal.stepID.map(impossible.contains) ?? false
        }
        // Rounds of both phases while time is left and goals that are not proven impossible remain: a
        // round's walks are random, so the next finds what this one missed; two rounds in a row that
        // add nothing end the search.
        var round = 0
        var stale = 0
        repeat {
            let before = coverage.covered.count
            // Phase 1: walks spread over the representatives, until they stop finding anything new.
            idle = 0
            while idle < patience, coverage.covered.count < coverage.goals.count,
                Date().timeIntervalSince(started) < timeLimit * (round == 0 ? 0.6 : 1)
            {
                walks += 1
                var (session, variablePicks) = start()
                var picks: [(step: Int, choice: Int)] = []
                walk(&session, &picks)
                idle = keep(session, picks, variables: variablePicks) ? 0 : idle + 1
            }
            // Phase 2: for each question still never shown, a directed search for answers that show it
            // (first with the answers its conditions call for, worked back through the conditions they
            // depend on, then without), then a walk to the end from there.
            let evaluator = ConditionEvaluator(model: model, domains: domains, today: today)
            let predicates = FlowPredicates(model: model, evaluator: evaluator)
            let unshown = coverage.uncovered.filter { goal in
                if case .shown = goal { return true } else { return false }
            }
            for (position, goal) in unshown.enumerated() {
                let elapsed = Date().timeIntervalSince(started)
                guard elapsed < timeLimit else { break }
                guard case .shown(let stepID) = goal, !coverage.covered.contains(goal), let index = stepIndex[stepID]
                else { continue }
                // Each question left gets an equal share of the time left (at least 30 ms, at most 2 s): a
                // question deep in a long survey, behind several conditions, needs more than a short one.
                let share = min(2, max(0.03, (timeLimit - elapsed) / Double(unshown.count - position)))
                let unit = model.steps[index].unit
                var found: WitnessSearch.Witness?
                // Without host variables first, then with a few of their values.
                var chosen = assignment(plain: true)
                for attempt in 0..<(hostVariables.isEmpty ? 1 : 4) where found == nil {
                    if attempt > 0 { chosen = assignment(plain: false) }
                    // The answers its conditions call for (the first that will do, then a few random sets of
                    // them, each tried once), or, when the conditions give none, an open search.
                    var tried = Set<[Int: JSONValue]>()
                    for variant in 0..<Self.requirementVariants where found == nil {
                        // A variant whose random picks contradict each other gives none; the next may not.
                        guard
                            let pinned = WitnessSearch.requirements(
                                showing: index, model: model, evaluator: evaluator, predicates: predicates,
                                variant: UInt64(round * Self.requirementVariants + variant))
                        else { continue }
                        guard tried.insert(pinned).inserted else { continue }
                        let search = WitnessSearch(
                            model: model, domains: domains, decisionSlots: decisionSlots, budget: 4000, today: today,
                            deadline: .now + .milliseconds(Int(share * (variant == 0 ? 1000 : 100))))
                        search.variables = chosen.given
                        found = search.reach(unit: unit, pinned: pinned, accept: { $0.isVisible(stepID) })
                    }
                    if found == nil, tried.isEmpty {
                        let search = WitnessSearch(
                            model: model, domains: domains, decisionSlots: decisionSlots, budget: 4000, today: today,
                            deadline: .now + .milliseconds(Int(share * 1000)))
                        search.variables = chosen.given
                        found = search.reach(unit: unit, accept: { $0.isVisible(stepID) })
                    }
                }
                guard let witness = found else { continue }
                walks += 1
                var (session, variablePicks) = start(chosen)
                var picks: [(step: Int, choice: Int)] = []
                var fixed = Set<Int>()
                for answer in witness.answers {
                    var moves = 0
                    while session.status == .inProgress, !session.currentStepIDs.contains(answer.stepID), moves < limit
                    {
                        moves += 1
                        if case .blocked = session.advance() { break }
                    }
                    _ = try? session.answer(answer.value, for: answer.stepID)
                    if let answered = stepIndex[answer.stepID] { fixed.insert(answered) }
                }
                walk(&session, &picks, keeping: fixed)
                _ = keep(session, [], variables: variablePicks)
            }
            round += 1
            stale = coverage.covered.count > before ? 0 : stale + 1
        } while stale < 2 && round < Self.rounds && Date().timeIntervalSince(started) < timeLimit
            && coverage.uncovered.contains(where: { !isInfeasible($0) })
        let infeasible = coverage.uncovered.filter(isInfeasible)
        return Result(
            scripts: scripts, coverage: coverage, infeasible: infeasible, walks: walks,
            seconds: Date().timeIntervalSince(started), blocked: blocked.keys.sorted().compactMap { blocked[$0] })
    }
}

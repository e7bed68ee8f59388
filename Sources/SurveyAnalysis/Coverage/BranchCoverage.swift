import SurveyCore

/// One thing a set of answer scripts should exercise: the survey's equivalent of a branch.
public enum CoverageGoal: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The step was shown.
    case shown(step: String)
    /// A `visibleIf` (of a step, or of a page) held, or did not hold, when it decided.
    case condition(owner: String, holds: Bool)
    /// A step's `requiredIf` held, or did not, when Next checked it.
    case requirement(step: String, holds: Bool)
    /// A choice with its own `visibleIf` was offered, or hidden, while its question was shown.
    case choice(step: String, value: String, shown: Bool)
    /// Branch `index` of a unit was taken, or passed over because its condition did not hold.
    case branch(unit: String, index: Int, taken: Bool)
    /// The survey was completed.
    case completed

    public var description: String {
        switch self {
        case .shown(let step): return "'\(step)' shown"
        case .condition(let owner, let holds): return "visibleIf of '\(owner)' \(holds ? "true" : "false")"
        case .requirement(let step, let holds): return "requiredIf of '\(step)' \(holds ? "true" : "false")"
        case .choice(let step, let value, let shown):
            return "choice '\(value)' of '\(step)' \(shown ? "offered" : "hidden")"
        case .branch(let unit, let index, let taken):
            return "branch \(index + 1) of '\(unit)' \(taken ? "taken" : "not taken")"
        case .completed: return "the survey completed"
        }
    }

    /// The step or unit the goal is about (`nil` for completion).
    public var stepID: String? {
        switch self {
        case .shown(let step): return step
        case .condition(let owner, _): return owner
        case .requirement(let step, _): return step
        case .choice(let step, _, _): return step
        case .branch(let unit, _, _): return unit
        case .completed: return nil
        }
    }

    var order: (Int, String, Int) {
        switch self {
        case .shown(let step): return (0, step, 0)
        case .condition(let owner, let holds): return (1, owner, holds ? 0 : 1)
        case .requirement(let step, let holds): return (1, step, holds ? 2 : 3)
        case .choice(let step, let value, let shown): return (1, step + "\u{0}" + value, shown ? 4 : 5)
        case .branch(let unit, let index, let taken): return (2, unit, index * 2 + (taken ? 0 : 1))
        case .completed: return (3, "", 0)
        }
    }

    public static func < (lhs: CoverageGoal, rhs: CoverageGoal) -> Bool { lhs.order < rhs.order }
}

/// Branch coverage of a survey, measured by replaying sessions through the real engine: every step
/// shown, every `visibleIf` both true and false when it decides, every branch both taken and passed
/// over (an unconditional branch only taken), and completion — as `llvm-cov` is for code.
public struct BranchCoverage: Sendable {
    public let survey: Survey
    /// Every goal of the survey (switched-off steps have none).
    public let goals: [CoverageGoal]
    /// The goals covered so far.
    public private(set) var covered: Set<CoverageGoal> = []

    let units: [Survey.AnalysisUnit]
    let steps: [Survey.AnalysisStep]

    public init(survey: Survey) {
        self.survey = survey
        units = survey.analysisUnits
        steps = survey.analysisSteps
        var goals: [CoverageGoal] = [.completed]
        for (index, unit) in units.enumerated() where unit.isEnabled {
            if unit.isPage, unit.visibleIf != nil {
                goals += [.condition(owner: unit.id, holds: true), .condition(owner: unit.id, holds: false)]
            }
            for branch in Self.branches(of: index, units: units, steps: steps) {
                goals.append(.branch(unit: unit.id, index: branch.number, taken: true))
                if branch.condition != nil { goals.append(.branch(unit: unit.id, index: branch.number, taken: false)) }
            }
        }
        for step in steps where step.isEnabled && units[step.unit].isEnabled {
            goals.append(.shown(step: step.id))
            if step.visibleIf != nil {
                goals += [.condition(owner: step.id, holds: true), .condition(owner: step.id, holds: false)]
            }
            if step.requiredIf != nil, !step.isRequired {
                goals += [.requirement(step: step.id, holds: true), .requirement(step: step.id, holds: false)]
            }
            for value in step.choiceConditions.keys.sorted() {
                goals += [
                    .choice(step: step.id, value: value, shown: true),
                    .choice(step: step.id, value: value, shown: false),
                ]
            }
        }
        self.goals = goals.sorted()
    }

    /// A unit's branches in the order the engine tries them: its questions' branches, then its own.
    static func branches(of unit: Int, units: [Survey.AnalysisUnit], steps: [Survey.AnalysisStep]) -> [(
        number: Int, step: Int?, condition: Expression?
    )] {
        var result: [(number: Int, step: Int?, condition: Expression?)] = []
        for index in units[unit].steps {
            for branch in steps[index].branches { result.append((result.count, index, branch.condition)) }
        }
        for branch in units[unit].branches { result.append((result.count, nil, branch.condition)) }
        return result
    }

    /// The share of goals covered, 0…1.
    public var fraction: Double { goals.isEmpty ? 1 : Double(covered.count) / Double(goals.count) }

    /// The goals not covered yet, in order.
    public var uncovered: [CoverageGoal] { goals.filter { !covered.contains($0) } }

    /// The goals a run with these accepted actions covers (without adding them).
    /// - Parameter variables: what the host gave the survey's declared variables (as `--var`).
    public func goals(
        coveredBy actions: [SessionAction], seed: UInt64 = 0, locale: String? = nil, today: String = "2026-01-01",
        variables: [String: JSONValue] = [:]
    ) -> Set<CoverageGoal> {
        var found = Set<CoverageGoal>()
        var session = SurveySession(survey: survey, seed: seed, locale: locale, today: today, variables: variables)
        let context = session.analysisFunctionContext
        observe(session, into: &found)
        for action in actions {
            var leaving: Int?
            if case .next = action, let unit = session.analysisPath.last {
                leaving = unit
                branchOutcomes(of: unit, session: session, context: context, into: &found)
            }
            session.apply(action)
            if case .next = action, session.status == .completed { found.insert(.completed) }
            if let leaving, let arrived = session.analysisPath.last, arrived > leaving + 1 {
                passedOver(from: leaving, to: arrived, session: session, into: &found)
            }
            observe(session, into: &found)
        }
        if session.status == .completed, let last = session.analysisPath.last, last + 1 < units.count {
            passedOver(from: last, to: units.count, session: session, into: &found)
        }
        return found
    }

    /// Adds the goals a run covers.
    public mutating func record(
        _ actions: [SessionAction], seed: UInt64 = 0, locale: String? = nil, today: String = "2026-01-01",
        variables: [String: JSONValue] = [:]
    ) {
        covered.formUnion(goals(coveredBy: actions, seed: seed, locale: locale, today: today, variables: variables))
    }

    public mutating func record(_ found: Set<CoverageGoal>) { covered.formUnion(found) }

    /// The current unit's steps: shown or hidden now.
    func observe(_ session: SurveySession, into found: inout Set<CoverageGoal>) {
        guard session.status == .inProgress, let unit = session.analysisPath.last else { return }
        let isVisible = session.analysisUnitVisible(unit)
        if units[unit].isPage, units[unit].visibleIf != nil {
            found.insert(.condition(owner: units[unit].id, holds: isVisible))
        }
        let values = session.analysisValues
        let context = session.analysisFunctionContext
        for index in units[unit].steps where steps[index].isEnabled {
            let visible = session.analysisStepVisible(index)
            if visible { found.insert(.shown(step: steps[index].id)) }
            if steps[index].visibleIf != nil { found.insert(.condition(owner: steps[index].id, holds: visible)) }
            guard visible, !steps[index].choiceConditions.isEmpty else { continue }
            values.withUnsafeBufferPointer { buffer in
                for (value, condition) in steps[index].choiceConditions {
                    let shown = condition.rootNode.isTrue(buffer, context: context)
                    found.insert(.choice(step: steps[index].id, value: value, shown: shown))
                }
            }
        }
    }

    /// Units between `from` and `to` that were passed over: because their own condition did not hold,
    /// or because each of their questions was hidden by its `visibleIf` (then those decided).
    func passedOver(from: Int, to: Int, session: SurveySession, into found: inout Set<CoverageGoal>) {
        guard from + 1 < to else { return }
        let values = session.analysisValues
        let context = session.analysisFunctionContext
        for unit in (from + 1)..<to where units[unit].isEnabled && !session.analysisUnitVisible(unit) {
            if units[unit].isPage, let condition = units[unit].visibleIf {
                let holds = values.withUnsafeBufferPointer { condition.rootNode.isTrue($0, context: context) }
                found.insert(.condition(owner: units[unit].id, holds: holds))
                if !holds { continue }
            }
            for index in units[unit].steps
            where steps[index].isEnabled && steps[index].visibleIf != nil && !session.analysisStepVisible(index) {
                found.insert(.condition(owner: steps[index].id, holds: false))
            }
        }
    }

    /// Which branch of `unit` a Next now takes (the first whose condition holds, of visible questions'
    /// branches and then the unit's own), and which were passed over.
    func branchOutcomes(
        of unit: Int, session: SurveySession, context: FunctionContext, into found: inout Set<CoverageGoal>
    ) {
        let values = session.analysisValues
        values.withUnsafeBufferPointer { buffer in
            for index in units[unit].steps where session.analysisStepVisible(index) && !steps[index].isRequired {
                if let requiredIf = steps[index].requiredIf {
                    found.insert(
                        .requirement(step: steps[index].id, holds: requiredIf.rootNode.isTrue(buffer, context: context))
                    )
                }
            }
            for branch in Self.branches(of: unit, units: units, steps: steps) {
                if let step = branch.step, !session.analysisStepVisible(step) { continue }
                let holds = branch.condition.map { $0.rootNode.isTrue(buffer, context: context) } ?? true
                found.insert(.branch(unit: units[unit].id, index: branch.number, taken: holds))
                if holds { return }
            }
        }
    }
}

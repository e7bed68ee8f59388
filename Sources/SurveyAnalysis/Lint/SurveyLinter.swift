import SurveyCore

/// Settings of a lint run.
public struct LintConfiguration: Sendable {
    /// The date `today()` and `age()` are evaluated with (conditions that use them are never decided).
    public var today: String
    /// How many Next actions the search for a confirming respondent may take per finding.
    public var witnessBudget: Int
    /// How long all searches for confirming respondents may take together; unconfirmed candidates are `info`.
    public var witnessTimeLimit: Duration
    /// Rules to leave out.
    public var disabledRules: Set<LintRule>

    public init(
        today: String = "2025-01-01", witnessBudget: Int = 20_000, witnessTimeLimit: Duration = .seconds(1),
        disabledRules: Set<LintRule> = []
    ) {
        self.today = today
        self.witnessBudget = witnessBudget
        self.witnessTimeLimit = witnessTimeLimit
        self.disabledRules = disabledRules
    }
}

/// Static analysis of a compiled survey's whole flow: steps no one sees, conditions that never change
/// anything, loops, dead ends, comparisons with impossible values, and more (see ``LintRule``).
///
/// ```swift
/// let survey = try SurveyLoader(registry: .builtins()).load(text: json, source: "survey.json")
/// let findings = SurveyLinter().lint(survey, source: json, file: "survey.json")
/// for finding in findings { print(finding) }  // survey.json:12:20: error: … [unknown-choice-value]
/// ```
///
/// Findings with severity ``LintSeverity/error`` are proved: no respondent can avoid them (or, for
/// dead ends, a respondent run through the engine reached them). Where the analysis cannot decide, it
/// says so with ``LintSeverity/info``.
public struct SurveyLinter: Sendable {
    public var configuration: LintConfiguration

    public init(configuration: LintConfiguration = LintConfiguration()) {
        self.configuration = configuration
    }

    /// Lints `survey`.
    /// - Parameters:
    ///   - source: the JSON text it was loaded from, for line and column numbers.
    ///   - file: the file name findings carry.
    /// - Returns: the findings in document order.
    /// `unknown-reference` warnings for `names`, which `survey` reads though nothing in it defines
    /// them: a converted SurveyJS survey reads them as values the host sets
    /// (`SurveyJSConversion.hostNames`), as survey-core does. One finding per name, at the place it is
    /// first read (`path`, in the file as written), with a "did you mean" among the survey's steps
    /// and values when one is close.
    public func unknownReferences(
        _ names: [(name: String, path: JSONPath)], in survey: Survey, file: String? = nil
    ) -> [LintFinding] {
        guard !configuration.disabledRules.contains(.unknownReference) else { return [] }
        let known = survey.stepIDs + survey.definition.calculatedValues.map(\.name)
        return names.map { name, path in
            var message =
                "{\(name)} is no question or calculated value of this survey: it reads as empty unless the host sets it"
            if let suggestion = closestMatch(to: name, in: known) { message += " (did you mean '\(suggestion)'?)" }
            return LintFinding(
                rule: .unknownReference, severity: .warning, message: message, path: path, file: file)
        }
    }

    /// One `invalid-expression` error for each expression of a SurveyJS survey that cannot be parsed
    /// (`SurveyJSConversion.unparsableExpressions`: the text, the parser's message, where it is).
    /// survey-core ignores such an expression, and so does the converted survey: the finding says
    /// what the author meant to happen does not.
    public func invalidExpressions(
        _ expressions: [(text: String, message: String, path: JSONPath)], file: String? = nil
    ) -> [LintFinding] {
        guard !configuration.disabledRules.contains(.invalidExpression) else { return [] }
        return expressions.map { text, message, path in
            var property = "expression"
            if case .key(let key)? = path.components.last { property = key }
            return LintFinding(
                rule: .invalidExpression, severity: .error,
                message: "\(property) \"\(text)\" cannot be parsed (\(message)): survey-core ignores it and so "
                    + "does this engine, so it has no effect; correct it",
                path: path, file: file)
        }
    }

    public func lint(_ survey: Survey, source: String? = nil, file: String? = nil) -> [LintFinding] {
        let context = LintContext(survey: survey, configuration: configuration)
        context.run()
        var findings = context.findings.filter { !configuration.disabledRules.contains($0.rule) }
        if let source {
            let index = SourceIndex(text: source, paths: Set(findings.compactMap(\.path)))
            for position in findings.indices {
                if let path = findings[position].path { findings[position].position = index.position(of: path) }
            }
        }
        for position in findings.indices { findings[position].file = file }
        return findings.enumerated().sorted { lhs, rhs in
            let left = lhs.element.position.map { ($0.line, $0.column) } ?? (Int.max, Int.max)
            let right = rhs.element.position.map { ($0.line, $0.column) } ?? (Int.max, Int.max)
            if left != right { return left < right }
            return lhs.offset < rhs.offset
        }.map(\.element)
    }
}

/// A part of the linter that looks at the survey before, during and after the flow analysis.
protocol LintCheck: AnyObject {
    /// Before the flow analysis.
    func prepare(_ context: LintContext)
    /// Once per unit, in order, with the unit's final states.
    func visit(_ states: UnitStates, _ context: LintContext)
    /// After the flow analysis.
    func finish(_ context: LintContext)
}

extension LintCheck {
    func prepare(_ context: LintContext) {}
    func visit(_ states: UnitStates, _ context: LintContext) {}
    func finish(_ context: LintContext) {}
}

/// Everything the checks share while linting one survey.
final class LintContext {
    let model: FlowModel
    let domains: [AnswerDomain]
    let evaluator: ConditionEvaluator
    let flow: FlowAnalysis
    let configuration: LintConfiguration
    private(set) var findings: [LintFinding] = []
    /// Conditions (indices into ``FlowModel/conditions``) whose outcome a comparison finding already explains.
    var explainedConditions = Set<Int>()
    /// Condition indices by the unit they are evaluated in.
    let conditionsByUnit: [[Int]]
    /// Step slots some condition or calculated value reads.
    let decisionSlots: Set<Int>
    /// Read-only questions nothing in the survey writes: empty for a respondent, a host may fill them.
    let hostFilled: Set<Int>
    /// Units that can never be shown (filled during the flow).
    var neverShown = Set<Int>()
    /// Steps that can never be shown (filled during the flow).
    var unreachableSteps = Set<Int>()
    /// Every question may have any answer: for telling a condition that contradicts itself.
    lazy var unconstrained = evaluator.unconstrainedState()
    /// Step id → step index.
    lazy var stepIndexByID: [String: Int] = Dictionary(
        model.steps.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })

    init(survey: Survey, configuration: LintConfiguration) {
        self.configuration = configuration
        let analyzed = AnalyzedSurvey(survey: survey, today: configuration.today)
        model = analyzed.model
        domains = analyzed.domains
        evaluator = analyzed.evaluator
        flow = analyzed.flow
        decisionSlots = analyzed.decisionSlots
        hostFilled = analyzed.hostFilled
        var byUnit = [[Int]](repeating: [], count: model.units.count)
        for (index, site) in model.conditions.enumerated() { byUnit[site.unit].append(index) }
        conditionsByUnit = byUnit
    }

    func run() {
        let checks: [any LintCheck] = [
            ComparisonCheck(), ReachabilityCheck(), ConditionOutcomeCheck(), ForwardReferenceCheck(), DeadEndCheck(),
            GotoCycleCheck(), UnusedCalculatedValueCheck(), MissingTranslationCheck(), NothingToAnswerCheck(),
            UnquotedNameCheck(), QuotaConditionCheck(),
        ]
        for check in checks { check.prepare(self) }
        flow.run { states in
            for check in checks { check.visit(states, self) }
        }
        for check in checks { check.finish(self) }
    }

    func report(_ rule: LintRule, _ severity: LintSeverity, _ message: String, stepID: String?, path: JSONPath?) {
        findings.append(LintFinding(rule: rule, severity: severity, message: message, stepID: stepID, path: path))
    }

    /// Reports with the rule's default severity.
    func report(_ rule: LintRule, _ message: String, stepID: String?, path: JSONPath?) {
        report(rule, rule.defaultSeverity, message, stepID: stepID, path: path)
    }

    /// When the searches for confirming respondents stop, together.
    lazy var witnessDeadline = ContinuousClock.now + configuration.witnessTimeLimit

    /// The engine-driven search for confirming respondents (one budget per finding, one time limit for all).
    func witness() -> WitnessSearch {
        WitnessSearch(
            model: model, domains: domains, decisionSlots: decisionSlots, budget: configuration.witnessBudget,
            today: configuration.today, deadline: witnessDeadline)
    }

    // MARK: Describing

    /// `'a'`, `3`, `true`: a representative as written in expressions.
    func text(of value: JSONValue) -> String { ExpressionUsage.literalText(value) }

    /// What `state` says about the questions `slots`, for messages ("{a} is never answered here").
    func describe(_ slots: [Int], in state: AbstractState) -> String? {
        var parts: [String] = []
        for slot in slots {
            let set = state.sets[slot]
            let domain = domains[slot]
            guard set != domain.all else { continue }
            let name = "{\(model.steps[slot].id)}"
            if set == .noAnswer {
                parts.append("\(name) is never answered before this point")
                continue
            }
            if set == domain.answers {
                parts.append("\(name) is always answered here")
                continue
            }
            let values = set.indices.filter { $0 != 0 }.map { text(of: domain.values[$0]) }
            guard !values.isEmpty else { continue }
            var listed = values.prefix(4).joined(separator: ", ")
            if values.count > 4 { listed += ", …" }
            let empty = set.contains(0) ? " (or no answer)" : ""
            parts.append(
                values.count == 1
                    ? "\(name) can only be \(listed)\(empty) here" : "\(name) can only be one of \(listed)\(empty) here"
            )
            if parts.count == 2 { break }
        }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }

    /// The read-only questions nothing writes that `predicate` reads: a host may fill them in, so a
    /// conclusion resting on their being empty is a warning, not an error.
    func hostFilled(in predicate: Predicate) -> [Int] {
        hostFilled.isEmpty ? [] : slots(of: predicate).filter { hostFilled.contains($0) }
    }

    /// "'a' is read-only and nothing in the survey sets it, …" for the questions no respondent
    /// answers that `predicate` reads (`FlowModel.unanswered`); `nil` when it reads none.
    func hostFilledNote(_ predicate: Predicate) -> String? {
        let steps = hostFilled(in: predicate)
        guard let first = steps.first else { return nil }
        let names = steps.map { "'\(model.steps[$0].id)'" }
        let listed = names.prefix(3).joined(separator: ", ") + (names.count > 3 ? ", …" : "")
        let isReadOnly = steps.allSatisfy { model.steps[$0].isEnabled }
        let hasDefault = steps.contains { model.steps[$0].definition.defaultValue != nil }
        guard steps.count == 1 else {
            let what = isReadOnly ? "are read-only" : "are never answered by the respondent"
            guard hasDefault else {
                return
                    "\(listed) \(what) and nothing in the survey sets them, so they stay empty unless the host fills them in"
            }
            return "\(listed) \(what) and only their defaults set them, so they keep them unless the host sets them"
        }
        let what = model.steps[first].isEnabled ? "is read-only" : "is never shown"
        guard hasDefault else {
            return "\(listed) \(what) and nothing in the survey sets it, so it stays empty unless the host fills it in"
        }
        return "\(listed) \(what) and only its default sets it, so it keeps its default unless the host sets it"
    }

    /// Whether step `index` gets an answer only from a respondent who sees it: no default, no value
    /// rule and no trigger sets it (``FlowModel/triggerTargets``).
    func isOnlyAnsweredWhenShown(_ index: Int) -> Bool { !writtenSteps.contains(index) }

    /// The steps something other than the respondent answers.
    lazy var writtenSteps = Set(model.triggerTargets)

    /// The step slots a predicate reads.
    func slots(of predicate: Predicate) -> [Int] {
        var result = Set<Int>()
        for atom in predicate.atoms { result.formUnion(evaluator.atoms[atom].slots) }
        return result.sorted()
    }

    /// A condition as written, quoted for messages.
    func quoted(_ site: ConditionSite) -> String { "\"\(site.expression.source)\"" }

    /// How a unit is named in messages.
    func name(ofUnit unit: Int) -> String {
        model.units[unit].isPage ? "page '\(model.units[unit].id)'" : "'\(model.units[unit].id)'"
    }
}

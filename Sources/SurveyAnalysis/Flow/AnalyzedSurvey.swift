import SurveyCore

/// A survey prepared for analysis: its flow model, the answer domain of each question (with
/// representatives for every literal the survey compares it with), the condition evaluator and the
/// flow analysis. Lint, graph export (and later path generation and coverage) start from one.
package struct AnalyzedSurvey {
    package let model: FlowModel
    package let domains: [AnswerDomain]
    package let evaluator: ConditionEvaluator
    package let flow: FlowAnalysis
    /// Step slots some condition or calculated value reads.
    package let decisionSlots: Set<Int>
    /// Questions no respondent answers and nothing but a default writes (see `FlowModel.unanswered`).
    package let hostFilled: Set<Int>

    package init(survey: Survey, today: String = "2025-01-01") {
        let model = FlowModel(survey: survey)
        self.model = model
        (domains, decisionSlots) = Self.domains(of: model)
        hostFilled = Set(model.unanswered.keys)
        evaluator = ConditionEvaluator(model: model, domains: domains, today: today)
        flow = FlowAnalysis(model: model, evaluator: evaluator)
    }

    /// Each step's answer domain (with representatives for every literal the survey compares it with),
    /// and the step slots some condition or calculated value reads.
    package static func domains(of model: FlowModel) -> (domains: [AnswerDomain], decisionSlots: Set<Int>) {
        var usages = [[ValueUsage]](repeating: [], count: model.stepCount)
        var read = Set<Int>()
        let survey = model.survey
        // Expression validators decide whether a respondent can go on, so their literals are tried too.
        let validators = survey.analysisValidatorExpressions.map(\.expression)
        for expression in model.conditions.map(\.expression) + model.calculated.map(\.expression) + validators {
            for (slot, usage) in ExpressionUsage.usages(in: expression.rootNode) where slot < model.stepCount {
                usages[slot].append(usage)
            }
            read.formUnion(model.stepSlots(of: expression))
        }
        // Quotas' conditions decide no path, but their literals are answers a respondent can give.
        for quota in survey.analysisQuotaConditions {
            for (slot, usage) in ExpressionUsage.usages(in: quota.condition.rootNode) where slot < model.stepCount {
                usages[slot].append(usage)
            }
        }
        // A question no respondent answers holds its default or stays empty (a host may set it).
        let unanswered = model.unanswered
        let domains = model.steps.indices.map { index in
            var domain = AnswerDomain.make(
                for: model.steps[index], usages: usages[index],
                accepts: { survey.validatorsAccept($0, step: index) })
            if let held = unanswered[index] {
                domain.values = held.isNull ? [.null] : [.null, held]
                domain.isEnumerated = true
                domain.isTruncated = false
            }
            return domain
        }
        return (domains, read)
    }
}

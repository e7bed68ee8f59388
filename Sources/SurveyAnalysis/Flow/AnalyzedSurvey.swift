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
    /// Read-only questions nothing in the survey writes (see ``readOnlyUnwritten(in:)``).
    package let hostFilled: Set<Int>

    package init(survey: Survey, today: String = "2025-01-01") {
        let model = FlowModel(survey: survey)
        self.model = model
        (domains, decisionSlots) = Self.domains(of: model)
        hostFilled = Self.readOnlyUnwritten(in: model)
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
        // A read-only question nothing writes stays empty for a respondent (a host may fill it in).
        let unwritten = readOnlyUnwritten(in: model)
        let domains = model.steps.indices.map { index in
            var domain = AnswerDomain.make(
                for: model.steps[index], usages: usages[index],
                accepts: { survey.validatorsAccept($0, step: index) })
            if unwritten.contains(index) {
                domain.values = [.null]
                domain.isEnumerated = true
                domain.isTruncated = false
            }
            return domain
        }
        return (domains, read)
    }

    /// The read-only questions (`readOnly`, no `enableIf`) that nothing in the survey writes (no
    /// default, no value rule, no trigger: ``FlowModel/triggerTargets``). A respondent cannot answer
    /// them, so for the analysis they stay empty; a host may still fill them in (SurveyJS's `data`),
    /// which lint says.
    package static func readOnlyUnwritten(in model: FlowModel) -> Set<Int> {
        let written = Set(model.triggerTargets)
        return Set(
            model.steps.indices.filter { index in
                let definition = model.steps[index].definition
                return definition.isReadOnly && definition.enableIf == nil && !written.contains(index)
            })
    }
}

import SurveyCore

/// `always-false-condition` for quotas: a quota whose `when` no answers can make true never counts a
/// response and never applies its action.
///
/// Decided with every question free to have any answer (``LintContext/unconstrained``): only a
/// condition that contradicts itself or the questions' answers (`{age} = 'young' and {age} = 'old'`,
/// a choice the question does not offer, a number beyond its range) is reported.
final class QuotaConditionCheck: LintCheck {
    func finish(_ context: LintContext) {
        let quotas = context.model.survey.analysisQuotaConditions
        guard !quotas.isEmpty else { return }
        let state = context.unconstrained
        for quota in quotas
        where !context.evaluator.canHold(context.evaluator.predicate(for: quota.condition), in: state) {
            context.report(
                .alwaysFalseCondition,
                "quota '\(quota.id)': its condition \"\(quota.condition.source)\" can never hold, so it never counts a response; correct the condition or remove the quota",
                stepID: nil, path: quota.path)
        }
    }
}

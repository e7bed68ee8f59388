import SurveyCore

/// `nothing-to-answer`: a matrix with no rows (or a matrix of questions with no columns) asks
/// nothing. Required, no respondent can answer it, so the survey cannot go past it (an error, as in
/// survey-core, which loads such a survey and stops there); optional, it only shows a title.
final class NothingToAnswerCheck: LintCheck {
    func finish(_ context: LintContext) {
        // After the flow analysis: a step no respondent reaches is reported as unreachable instead.
        for (index, step) in context.model.steps.enumerated() where step.isEnabled && step.collectsAnswer {
            guard ["matrix", "matrix-dropdown"].contains(step.definition.type) else { continue }
            let options = step.definition.options
            let missing =
                options["rows"]?.arrayValue?.isEmpty == true
                ? "rows"
                : (step.definition.type == "matrix-dropdown" && options["columns"]?.arrayValue?.isEmpty == true
                    ? "columns" : nil)
            guard let missing, !context.unreachableSteps.contains(index) else { continue }
            let path = step.path.appending("options").appending(missing)
            if step.isRequired || step.requiredIf != nil {
                let when = step.isRequired ? "is required" : "is required when its requiredIf holds"
                context.report(
                    .nothingToAnswer, .error,
                    "'\(step.id)' \(when) but has no \(missing): no respondent can answer it, so the survey cannot go past it; give it \(missing) or make it optional",
                    stepID: step.id, path: path)
            } else {
                context.report(
                    .nothingToAnswer,
                    "'\(step.id)' has no \(missing): it asks nothing; give it \(missing) or remove it",
                    stepID: step.id, path: path)
            }
        }
    }
}

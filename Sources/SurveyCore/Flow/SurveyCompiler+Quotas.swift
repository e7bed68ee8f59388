import Foundation

// Quotas: each `when` compiled over the survey's answers, calculated values and host variables, its
// `skipTo` resolved to a unit, its id unique.

extension SurveyCompiler {
    /// Compiles `$.quotas`; problems are reported at `$.quotas[i].id`, `.when` or `.skipTo`.
    mutating func compileQuotas(steps: StepColumns, names: Names) -> [CompiledQuota] {
        let (resolve, stepIndexByID, unitIndexByID) = (names.resolve, names.steps, names.units)
        var compiled: [CompiledQuota] = []
        var seen: [String: Int] = [:]
        for (position, quota) in definition.quotas.enumerated() {
            let path = JSONPath.root.appending("quotas").appending(position)
            if let first = seen[quota.id] {
                errors.append(
                    SurveyError(
                        .invalidValue, "quota id '\(quota.id)' is already the id of $.quotas[\(first)]",
                        path: path.appending("id")))
                continue
            }
            seen[quota.id] = position
            let condition = compileExpression(quota.when, member: "when", path: path, stepID: nil, resolve: resolve)
            var action: CompiledQuota.Action?
            switch quota.action {
            case .end(let message):
                if let message { checkPiping(message, path: path.appending("message"), stepID: "", resolve: resolve) }
                action = .end(message: message)
            case .flag:
                action = .flag
            case .skip(let target):
                if let unit = unitIndexByID[target]
                    ?? stepIndexByID[target].map({ $0 < steps.count ? Int(steps.units[$0]) : -1 }),
                    unit >= 0
                {
                    action = .skip(unit: unit)
                } else {
                    var message = "the quota skips to '\(target)', which is no step or page of this survey"
                    if let suggestion = closestMatch(to: target, in: stepIndexByID.keys) {
                        message += " (did you mean '\(suggestion)'?)"
                    }
                    errors.append(SurveyError(.unknownReference, message, path: path.appending("skipTo")))
                }
            }
            if let condition, let action {
                compiled.append(CompiledQuota(definition: quota, condition: condition, action: action))
                expressionCount += 1
            }
        }
        return compiled
    }
}

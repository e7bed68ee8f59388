import Foundation

// Stage 6 of the compiler: the rules that move a respondent — triggers, and the branches of pages
// and steps (compiled with them, in stages 4 and 5).

extension SurveyCompiler {
    /// Compiles `$.triggers`: conditions and expressions, targets that must be steps taking an
    /// answer (`skip`: any step or page), and a `setvalue` value the target's type must accept.
    mutating func compileTriggers(
        resolve: @escaping (String) -> Int?, steps: StepColumns, stepIndexByID: IDTable,
        unitIndexByID: IDTable
    ) -> [CompiledTrigger] {
        var compiled: [CompiledTrigger] = []
        let english = PresentationContext.english
        for (position, trigger) in definition.triggers.enumerated() {
            let path = JSONPath.root.appending("triggers").appending(position)
            let condition = compileExpression(
                trigger.condition, member: "if", path: path, stepID: nil, resolve: resolve)
            func answerable(_ id: String, member: String) -> Int? {
                guard let index = stepIndexByID[id], index < steps.count else {
                    var message = "the trigger's \(member) '\(id)' is not a step of this survey"
                    if let suggestion = closestMatch(to: id, in: stepIndexByID.keys) {
                        message += " (did you mean '\(suggestion)'?)"
                    }
                    errors.append(SurveyError(.unknownReference, message, path: path.appending(member)))
                    return nil
                }
                guard steps.flags[index].contains(.collectsAnswer) else {
                    errors.append(
                        SurveyError(
                            .invalidValue, "the trigger's \(member) '\(id)' takes no answer",
                            path: path.appending(member), stepID: id))
                    return nil
                }
                return index
            }
            var action: CompiledTrigger.Action?
            switch trigger.action {
            case .setValue(let target, let value):
                if let index = answerable(target, member: "target") {
                    if value.isEmptyAnswer {
                        action = .setValue(target: index, value: .null)
                    } else {
                        do {
                            action = .setValue(
                                target: index,
                                value: try ConfiguredQuestion(box: steps.questions[index].object)
                                    .normalize(value, in: english))
                        } catch {
                            errors.append(
                                SurveyError(
                                    .invalidValue,
                                    "the trigger sets '\(target)' to \(value), which its question refuses: \(error.message)",
                                    path: path.appending("value"), stepID: target))
                        }
                    }
                }
            case .copyValue(let from, let target):
                let source = resolve(from)
                if source == nil {
                    errors.append(
                        SurveyError(
                            .unknownReference,
                            "the trigger copies from '\(from)', which is no step or calculated value",
                            path: path.appending("from")))
                }
                if let index = answerable(target, member: "target"), let source {
                    action = .copyValue(from: source, target: index)
                }
            case .runExpression(let source, let target):
                let expression = compileExpression(source, member: "run", path: path, stepID: nil, resolve: resolve)
                let index = target.map { answerable($0, member: "target") }
                if let expression, index != .some(nil) {
                    action = .runExpression(expression, target: index ?? nil)
                    expressionCount += 1
                }
            case .skip(let target):
                if let unit = unitIndexByID[target]
                    ?? stepIndexByID[target].map({ $0 < steps.count ? Int(steps.units[$0]) : -1 }),
                    unit >= 0
                {
                    action = .skip(unit: unit)
                } else {
                    errors.append(
                        SurveyError(
                            .unknownReference,
                            "the trigger skips to '\(target)', which is no step or page of this survey",
                            path: path.appending("goto")))
                }
            case .complete:
                action = .complete
            }
            if let condition, let action {
                compiled.append(CompiledTrigger(condition: condition, action: action))
                expressionCount += 1
            }
        }
        return compiled
    }

    mutating func compileBranches(
        _ branches: [BranchRule], path: @autoclosure () -> JSONPath, stepID: String,
        resolve: @escaping (String) -> Int?,
        units: IDTable, steps: IDTable, flatSteps: [FlatStep]
    ) -> [CompiledBranch] {
        var result: [CompiledBranch] = []
        for (offset, rule) in branches.enumerated() {
            let rulePath = path().appending("branches").appending(offset)
            let condition = compileExpression(
                rule.condition, member: "if", path: rulePath, stepID: stepID, resolve: resolve)
            switch rule.target {
            case .complete:
                result.append(CompiledBranch(condition: condition, targetUnit: nil))
            case .step(let target):
                if let unit = units[target] {
                    result.append(CompiledBranch(condition: condition, targetUnit: unit))
                } else if let step = steps[target] {
                    result.append(CompiledBranch(condition: condition, targetUnit: flatSteps[step].unit))
                } else {
                    let plain = "branch target '\(target)' is not a step or page id"
                    var message = plain
                    if units.count < 50_000, branchHintsLeft > 0 {
                        branchHintsLeft -= 1
                        let names = branchTargetNames ?? units.keys.sorted() + steps.keys.sorted()
                        branchTargetNames = names
                        hintedErrors.append((errors.count, plain))
                        if let suggestion = closestMatch(to: target, in: names) {
                            message += " (did you mean '\(suggestion)'?)"
                        }
                    }
                    errors.append(
                        SurveyError(.unknownReference, message, path: rulePath.appending("goto"), stepID: stepID))
                }
            }
        }
        return result
    }
}

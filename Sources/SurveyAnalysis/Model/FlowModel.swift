import SurveyCore

/// The compiled survey as the analysis reads it: units, steps, calculated values and every
/// condition, with the JSON path each came from.
///
/// Built once per survey from SurveyCore's `package` views, so the analysis reasons about exactly the
/// flow a `SurveySession` follows (resolved slots, first-match branches, switched-off steps).
package struct FlowModel: Sendable {
    package let survey: Survey
    package let units: [Survey.AnalysisUnit]
    package let steps: [Survey.AnalysisStep]
    package let calculated: [Survey.AnalysisCalculatedValue]
    /// Calculated value indices, each after those it depends on.
    package let calculatedOrder: [Int]
    /// Steps, then calculated values.
    package let slotCount: Int
    /// For each calculated value, the step slots it reads, directly or through other calculated values.
    package let calculatedStepSlots: [[Int]]
    /// For each calculated value, the calculated values it needs (itself included), in evaluation order.
    package let calculatedClosure: [[Int]]
    /// Every condition of the survey, in document order.
    package let conditions: [ConditionSite]
    /// Whether any branch jumps back to its own unit or an earlier one (or a skip trigger may).
    package let hasBackwardJumps: Bool
    /// The survey's triggers.
    package let triggers: [Survey.AnalysisTrigger]
    /// The steps some trigger answers, or that have a default answer: at any point they may hold any
    /// of their answers.
    package let triggerTargets: [Int]
    /// The questions no respondent answers — disabled ones (left out of the flow), and read-only ones
    /// without an `enableIf` — that no trigger or value rule writes, with the answer they hold: their
    /// default (as the question normalises it), or `null` when they have none. A host may still set
    /// them (SurveyJS's `data`, a hidden control question an app fills in), which lint says.
    package let unanswered: [Int: JSONValue]

    package var stepCount: Int { steps.count }

    package init(survey: Survey) {
        self.survey = survey
        let units = survey.analysisUnits
        let steps = survey.analysisSteps
        let calculated = survey.analysisCalculatedValues
        self.units = units
        self.steps = steps
        self.calculated = calculated
        calculatedOrder = survey.analysisCalculatedOrder
        slotCount = survey.analysisSlotCount
        let stepCount = steps.count
        // Transitive dependencies of calculated values, in evaluation order.
        var stepSlots = [[Int]](repeating: [], count: calculated.count)
        var closure = [[Int]](repeating: [], count: calculated.count)
        for index in calculatedOrder {
            var direct = Set<Int>()
            var needed = Set<Int>([index])
            for slot in calculated[index].expression.referencedSlots {
                if slot < stepCount {
                    direct.insert(slot)
                } else {
                    let other = slot - stepCount
                    direct.formUnion(stepSlots[other])
                    needed.formUnion(closure[other])
                }
            }
            stepSlots[index] = direct.sorted()
            closure[index] = needed.sorted()
        }
        let position = Dictionary(uniqueKeysWithValues: calculatedOrder.enumerated().map { ($1, $0) })
        calculatedStepSlots = stepSlots
        calculatedClosure = closure.map { $0.sorted { position[$0, default: 0] < position[$1, default: 0] } }

        var conditions: [ConditionSite] = []
        var backward = false
        let validatorsByStep = Dictionary(grouping: survey.analysisValidatorExpressions, by: \.step)
        for (unitIndex, unit) in units.enumerated() {
            if let condition = unit.visibleIf, unit.isPage {
                conditions.append(
                    ConditionSite(
                        kind: .pageVisibility(unit: unitIndex), expression: condition,
                        path: unit.path.appending("visibleIf"), stepID: unit.id, unit: unitIndex))
            }
            for index in unit.steps {
                let step = steps[index]
                for validator in validatorsByStep[index] ?? [] {
                    conditions.append(
                        ConditionSite(
                            kind: .validator(step: index, index: validator.index, isBlocking: validator.isBlocking),
                            expression: validator.expression,
                            path: step.path.appending("validators").appending(validator.index).appending("expression"),
                            stepID: step.id, unit: unitIndex))
                }
                if let condition = step.visibleIf {
                    conditions.append(
                        ConditionSite(
                            kind: .stepVisibility(step: index), expression: condition,
                            path: step.path.appending("visibleIf"), stepID: step.id, unit: unitIndex))
                }
                if let condition = step.requiredIf {
                    conditions.append(
                        ConditionSite(
                            kind: .requirement(step: index), expression: condition,
                            path: step.path.appending("requiredIf"), stepID: step.id, unit: unitIndex))
                }
                for (value, condition) in step.choiceConditions.sorted(by: { $0.key < $1.key }) {
                    conditions.append(
                        ConditionSite(
                            kind: .choice(step: index, value: value), expression: condition,
                            path: Self.choicePath(of: step, value: value), stepID: step.id, unit: unitIndex))
                }
                for branch in step.branches {
                    if let target = branch.targetUnit, target <= unitIndex { backward = true }
                    guard let condition = branch.condition else { continue }
                    conditions.append(
                        ConditionSite(
                            kind: .branch(owner: .step(index), index: branch.index), expression: condition,
                            path: step.path.appending("branches").appending(branch.index).appending("if"),
                            stepID: step.id, unit: unitIndex))
                }
            }
            for branch in unit.branches {
                if let target = branch.targetUnit, target <= unitIndex { backward = true }
                guard let condition = branch.condition else { continue }
                conditions.append(
                    ConditionSite(
                        kind: .branch(owner: .unit(unitIndex), index: branch.index), expression: condition,
                        path: unit.path.appending("branches").appending(branch.index).appending("if"),
                        stepID: unit.id, unit: unitIndex))
            }
        }
        self.conditions = conditions
        triggers = survey.analysisTriggers
        let preset = steps.indices.filter {
            steps[$0].definition.defaultValue != nil || steps[$0].definition.defaultValueExpression != nil
                || steps[$0].definition.setValueIf != nil || steps[$0].definition.setValueExpression != nil
        }
        triggerTargets = Array(Set(triggers.compactMap(\.target) + preset)).sorted()
        let triggered = Set(triggers.compactMap(\.target))
        var unanswered: [Int: JSONValue] = [:]
        for (index, step) in steps.enumerated() where !triggered.contains(index) {
            let definition = step.definition
            guard !step.isEnabled || (definition.isReadOnly && definition.enableIf == nil),
                definition.defaultValueExpression == nil, definition.setValueIf == nil,
                definition.setValueExpression == nil
            else { continue }
            unanswered[index] = definition.defaultValue.flatMap { try? step.question.normalize($0) } ?? .null
        }
        self.unanswered = unanswered
        hasBackwardJumps = backward || triggers.contains { $0.skipUnit != nil }
    }

    /// The name `{name}` of a slot: a step id or a calculated value's name.
    package func name(ofSlot slot: Int) -> String {
        slot < steps.count ? steps[slot].id : calculated[slot - steps.count].name
    }

    /// Whether `slot` is a calculated value.
    package func isCalculated(_ slot: Int) -> Bool { slot >= steps.count }

    /// The step slots an expression reads, directly or through calculated values (sorted).
    package func stepSlots(of expression: Expression) -> [Int] {
        stepSlots(ofSlots: expression.referencedSlots)
    }

    /// The step slots behind `slots` (calculated values replaced by what they read), sorted.
    package func stepSlots(ofSlots slots: [Int]) -> [Int] {
        var result = Set<Int>()
        for slot in slots {
            if slot < steps.count {
                result.insert(slot)
            } else {
                result.formUnion(calculatedStepSlots[slot - steps.count])
            }
        }
        return result.sorted()
    }

    /// The calculated values needed to evaluate something that reads `slots`, in evaluation order.
    package func calculatedValues(neededBy slots: [Int]) -> [Int] {
        var needed = Set<Int>()
        for slot in slots where slot >= steps.count { needed.formUnion(calculatedClosure[slot - steps.count]) }
        guard !needed.isEmpty else { return [] }
        return calculatedOrder.filter { needed.contains($0) }
    }

    /// The JSON path of a choice's `visibleIf` (`options.choices[i]`, or `sources` / `items`).
    static func choicePath(of step: Survey.AnalysisStep, value: String) -> JSONPath {
        let options = step.definition.options
        for key in ["choices", "sources", "items"] {
            guard let elements = options[key]?.arrayValue else { continue }
            for (offset, element) in elements.enumerated() where element["value"]?.choiceKey == value {
                return step.path.appending("options").appending(key).appending(offset).appending("visibleIf")
            }
        }
        return step.path.appending("options")
    }
}

/// Where a condition is and what it decides.
package struct ConditionSite: Sendable {
    package enum Kind: Sendable, Hashable {
        /// A page's `visibleIf`.
        case pageVisibility(unit: Int)
        /// A step's `visibleIf`.
        case stepVisibility(step: Int)
        /// A step's `requiredIf`.
        case requirement(step: Int)
        /// A choice's `visibleIf`.
        case choice(step: Int, value: String)
        /// A branch's `if`.
        case branch(owner: BranchOwner, index: Int)
        /// The `expression` of a step's expression validator (`validators[index]`), checked on Next.
        case validator(step: Int, index: Int, isBlocking: Bool)
    }

    package let kind: Kind
    package let expression: Expression
    /// The JSON path of the expression string.
    package let path: JSONPath
    /// The step or page the condition belongs to.
    package let stepID: String
    /// The unit the condition is evaluated in.
    package let unit: Int

    /// The member name as the author wrote it (`visibleIf`, `requiredIf`, `if`).
    package var memberName: String {
        switch kind {
        case .pageVisibility, .stepVisibility, .choice: return "visibleIf"
        case .requirement: return "requiredIf"
        case .branch: return "if"
        case .validator: return "validator expression"
        }
    }
}

/// Who a branch belongs to: a question (evaluated when it is visible) or a page.
package enum BranchOwner: Sendable, Hashable {
    case step(Int)
    case unit(Int)
}

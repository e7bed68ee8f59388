/// Read-only views of a compiled survey for the static analysis (`SurveyAnalysis`): the units, steps,
/// branches, calculated values and compiled expressions exactly as sessions run them.
///
/// Nothing here is needed to run a survey; it exists so that lint, graph export, path generation and
/// coverage reason about the same compiled flow a ``SurveySession`` follows, rather than re-reading the
/// JSON.
extension Survey {
    /// One page or top-level step as the flow sees it.
    package struct AnalysisUnit: Sendable {
        package let id: String
        package let isPage: Bool
        /// The leaf steps of the unit (indices into ``analysisSteps``, which are also their slots).
        package let steps: Range<Int>
        /// The page's own condition; `nil` for a top-level step (its step's condition applies).
        package let visibleIf: Expression?
        /// The page's own branches (evaluated after its questions' branches).
        package let branches: [AnalysisBranch]
        package let isEnabled: Bool
        package let isShuffled: Bool
        /// Where the unit is in the file: `$.steps[offset]`.
        package let unitOffset: Int
        /// `$.steps[offset]`.
        package var path: JSONPath { JSONPath([.key("steps"), .index(unitOffset)]) }
    }

    /// One branch rule, in the order it is evaluated.
    package struct AnalysisBranch: Sendable {
        /// The condition; `nil` means always.
        package let condition: Expression?
        /// The unit to go to (the first visible unit from there on), or `nil` to complete the survey.
        package let targetUnit: Int?
        /// The rule's position in its step's or page's `branches` array.
        package let index: Int
    }

    /// One leaf step (a question or content step) as the flow sees it.
    package struct AnalysisStep: Sendable {
        package let id: String
        package let unit: Int
        package let question: ConfiguredQuestion
        package let visibleIf: Expression?
        package let requiredIf: Expression?
        package let branches: [AnalysisBranch]
        /// Conditions on individual choices: choice value → condition.
        package let choiceConditions: [String: Expression]
        package let isRequired: Bool
        package let isEnabled: Bool
        package let collectsAnswer: Bool
        /// Where the step is in the file: `$.steps[unitOffset]` or `$.steps[unitOffset].steps[childOffset]`.
        package let path: JSONPath
        /// The step's definition as authored (texts, options, tags).
        package let definition: StepDefinition
    }

    /// One calculated value; its slot is `stepCount + index`.
    package struct AnalysisCalculatedValue: Sendable {
        package let name: String
        package let expression: Expression
        /// `$.calculatedValues[index]`, or `$.variables[index]` for a host variable.
        package let path: JSONPath
        /// A host variable (`variables`): its value comes from the host, not from answers.
        package var isVariable = false
    }

    /// The units in document order.
    package var analysisUnits: [AnalysisUnit] {
        units.map { unit in
            let offset = unit.steps.isEmpty ? 0 : Int(steps[unit.steps.lowerBound].unitOffset)
            return AnalysisUnit(
                id: unit.id, isPage: unit.isPage, steps: unit.steps, visibleIf: unit.visibleIf,
                branches: Self.analysisBranches(unit.branches), isEnabled: unit.isEnabled,
                isShuffled: unit.isShuffled, unitOffset: offset)
        }
    }

    /// The leaf steps in document order; a step's index is also its value slot.
    package var analysisSteps: [AnalysisStep] {
        // Pages with panels: where each step is in the file (computed once per page).
        var panelPaths: [Int: [[Int]]] = [:]
        return steps.map { step in
            var path =
                step.childOffset < 0
                ? JSONPath([.key("steps"), .index(Int(step.unitOffset))])
                : JSONPath([
                    .key("steps"), .index(Int(step.unitOffset)), .key("steps"), .index(Int(step.childOffset)),
                ])
            let page = Int(step.unitOffset)
            if step.childOffset >= 0, !definition.steps[page].panels.isEmpty {
                if panelPaths[page] == nil { panelPaths[page] = definition.steps[page].childIndexPaths() ?? [] }
                if let paths = panelPaths[page], Int(step.childOffset) < paths.count {
                    let indices = paths[Int(step.childOffset)]
                    path = JSONPath([.key("steps"), .index(page)])
                    for index in indices { path = path.appending("steps").appending(index) }
                }
            }
            // A read-only question is not checked for required (see `SurveySession.isReadOnly`).
            let readOnly = step.extras?.isReadOnly ?? false
            return AnalysisStep(
                id: step.id, unit: step.unit, question: step.question, visibleIf: step.visibleIf,
                requiredIf: readOnly ? nil : step.requiredIf, branches: Self.analysisBranches(step.branches),
                choiceConditions: step.choiceConditions, isRequired: step.isRequired && !readOnly,
                isEnabled: step.isEnabled,
                collectsAnswer: step.collectsAnswer, path: path,
                definition: stepDefinition(step.id) ?? StepDefinition(id: step.id, type: step.question.typeID))
        }
    }

    /// The calculated values in definition order.
    package var analysisCalculatedValues: [AnalysisCalculatedValue] {
        var pathIndex: [String: Int] = [:]
        for (index, value) in definition.calculatedValues.enumerated() where pathIndex[value.name] == nil {
            pathIndex[value.name] = index
        }
        var variableIndex: [String: Int] = [:]
        for (index, variable) in definition.variables.enumerated() { variableIndex[variable.name] = index }
        var commentPaths: [String: JSONPath] = [:]
        let stepsWithPaths = commentSlots.isEmpty ? [] : analysisSteps
        for index in commentSlots.keys {
            commentPaths[stepsWithPaths[index].id + "-Comment"] = stepsWithPaths[index].path.appending(
                "showCommentArea")
        }
        return calculated.enumerated().map { position, value in
            // A comment is set by the respondent, like a host variable by the host: its value is unknown.
            if position >= definition.calculatedValues.count, let path = commentPaths[value.name] {
                return AnalysisCalculatedValue(
                    name: value.name, expression: value.expression, path: path, isVariable: true)
            }
            if position >= definition.calculatedValues.count, let index = variableIndex[value.name] {
                return AnalysisCalculatedValue(
                    name: value.name, expression: value.expression, path: JSONPath([.key("variables"), .index(index)]),
                    isVariable: true)
            }
            return AnalysisCalculatedValue(
                name: value.name, expression: value.expression,
                path: JSONPath([.key("calculatedValues"), .index(pathIndex[value.name] ?? 0)]))
        }
    }

    /// One trigger (`$.triggers[index]`) as the flow sees it.
    package struct AnalysisTrigger: Sendable {
        package let condition: Expression
        /// The step slot it answers (`setvalue`, `copyvalue`, `runexpression` with a target).
        package let target: Int?
        /// The unit a `skip` trigger goes to.
        package let skipUnit: Int?
        /// Whether it is a `complete` trigger.
        package let completes: Bool
        /// `$.triggers[index]`.
        package let path: JSONPath
    }

    /// The triggers in definition order.
    package var analysisTriggers: [AnalysisTrigger] {
        triggers.enumerated().map { index, trigger in
            var target: Int?
            var skipUnit: Int?
            var completes = false
            switch trigger.action {
            case .setValue(let step, _), .copyValue(_, let step): target = step
            case .runExpression(_, let step): target = step
            case .skip(let unit): skipUnit = unit
            case .complete: completes = true
            }
            return AnalysisTrigger(
                condition: trigger.condition, target: target, skipUnit: skipUnit, completes: completes,
                path: JSONPath([.key("triggers"), .index(index)]))
        }
    }

    /// Calculated value indices in an order where each comes after those it depends on.
    package var analysisCalculatedOrder: [Int] { calculatedOrder }

    /// The quotas' conditions, compiled, with where each is in the file (`$.quotas[i].when`).
    package var analysisQuotaConditions: [(id: String, condition: Expression, path: JSONPath)] {
        quotas.enumerated().map { index, quota in
            (quota.definition.id, quota.condition, JSONPath([.key("quotas"), .index(index), .key("when")]))
        }
    }

    /// The number of value slots: one per leaf step, then one per calculated value.
    package var analysisSlotCount: Int { steps.count + calculated.count }

    /// The unit of leaf step `index`.
    package func analysisUnit(ofStep index: Int) -> Int { Int(steps.units[index]) }

    /// Whether results keep every answer, hidden or not (SurveyJS's `clearInvisibleValues: "none"`).
    package var analysisKeepsHiddenAnswers: Bool { clearInvisibleValues == .none }

    private static func analysisBranches(_ branches: [CompiledBranch]) -> [AnalysisBranch] {
        branches.enumerated().map { AnalysisBranch(condition: $1.condition, targetUnit: $1.targetUnit, index: $0) }
    }
}

import Foundation

// Stage 5 of the compiler: what is not a step — pages, calculated values (with host variables and
// comment values), completion messages and panels.

extension SurveyCompiler {
    /// Compiles every unit: a page's `visibleIf`, branches and texts; a top-level step is a unit of
    /// its own with nothing to compile.
    mutating func compileUnits(_ flatUnits: [FlatUnit], flatSteps: [FlatStep], names: Names) -> [CompiledUnit] {
        let resolve = names.resolve
        let (unitIndexByID, stepIndexByID) = (names.units, names.steps)
        var compiledUnits: [CompiledUnit] = []
        compiledUnits.reserveCapacity(flatUnits.count)
        for unitIndex in flatUnits.indices {
            let unit = flatUnits[unitIndex]
            let definition = unit.definition
            if definition.isPage {
                let visibleIf = compileExpression(
                    definition.visibleIf, member: "visibleIf", path: unit.path, stepID: definition.id, resolve: resolve)
                let branches = compileBranches(
                    definition.branches, path: unit.path, stepID: definition.id, resolve: resolve, units: unitIndexByID,
                    steps: stepIndexByID, flatSteps: flatSteps)
                // Listed only when one is set (a list for every page was 100,000 allocations at 1M).
                let hasStepOnly =
                    definition.defaultValue != nil || definition.defaultValueExpression != nil
                    || definition.isReadOnly || definition.enableIf != nil || definition.showCommentArea
                    || definition.commentText != nil || definition.requiredMessage != nil
                let stepOnly: [(String, Bool)] =
                    !hasStepOnly
                    ? []
                    : [
                        ("defaultValue", definition.defaultValue != nil),
                        ("defaultValueExpression", definition.defaultValueExpression != nil),
                        ("readOnly", definition.isReadOnly), ("enableIf", definition.enableIf != nil),
                        ("showCommentArea", definition.showCommentArea),
                        ("commentText", definition.commentText != nil),
                        ("requiredMessage", definition.requiredMessage != nil),
                    ]
                for (member, present) in stepOnly where present {
                    errors.append(
                        SurveyError(
                            .invalidValue, "pages cannot have '\(member)'; put it on the page's questions",
                            path: unit.path.appending(member), stepID: definition.id))
                }
                if definition.requiredIf != nil {
                    errors.append(
                        SurveyError(
                            .invalidValue, "pages cannot have 'requiredIf'; put it on the page's questions",
                            path: unit.path.appending("requiredIf"), stepID: definition.id))
                }
                checkPiping(
                    definition.title, path: unit.path.appending("title"), stepID: definition.id, resolve: resolve)
                expressionCount += (visibleIf == nil ? 0 : 1) + branches.filter { $0.condition != nil }.count
                compiledUnits.append(
                    CompiledUnit(
                        id: definition.id, isPage: true, steps: unit.steps, visibleIf: visibleIf, branches: branches,
                        title: definition.title, description: definition.description, isShuffled: definition.isShuffled,
                        isEnabled: definition.isEnabled))
            } else {
                compiledUnits.append(
                    CompiledUnit(
                        id: definition.id, isPage: false, steps: unit.steps, visibleIf: nil, branches: [],
                        title: nil, description: nil, isShuffled: false, isEnabled: true))
            }
        }
        return compiledUnits
    }

    /// Calculated values, then host variables, then comment values (`<id>-Comment`), in the order of
    /// their slots after the steps; and each comment step's slot.
    mutating func compileValues(
        flatSteps: [FlatStep], names: Names, questions: [ConfiguredQuestion?]
    ) -> (values: [CompiledCalculated], commentSlots: [Int: Int]) {
        let resolve = names.resolve
        let stepCount = flatSteps.count
        let calculatedPath = JSONPath.root.appending("calculatedValues")
        var compiledCalculated: [CompiledCalculated] = []
        for (index, value) in definition.calculatedValues.enumerated() {
            if let expression = compileExpression(
                value.expression, member: "expression", path: calculatedPath.appending(index), stepID: nil,
                resolve: resolve)
            {
                compiledCalculated.append(CompiledCalculated(name: value.name, expression: expression))
                expressionCount += 1
            }
        }

        for variable in definition.variables {
            compiledCalculated.append(
                CompiledCalculated(
                    name: variable.name,
                    expression: Expression(hostVariable: variable.name, default: variable.defaultValue ?? .null)))
        }
        if !definition.variables.isEmpty { usesDateFunctions = true }
        var commentSlots: [Int: Int] = [:]
        for index in names.commentSteps {
            let step = flatSteps[index]
            let name = step.definition.id + "-Comment"
            if let question = questions[index], !question.collectsAnswer {
                errors.append(
                    SurveyError(
                        .invalidValue, "'\(step.definition.id)' takes no answer, so it has no comment area",
                        path: step.path.appending("showCommentArea"), stepID: step.definition.id))
            }
            if otherChoices[index] != nil {
                errors.append(
                    SurveyError(
                        .invalidValue,
                        "'\(step.definition.id)' has an Other choice, whose text is already {\(name)}; leave out showCommentArea",
                        path: step.path.appending("showCommentArea"), stepID: step.definition.id))
            }
            commentSlots[index] = stepCount + compiledCalculated.count
            compiledCalculated.append(
                CompiledCalculated(name: name, expression: Expression(hostVariable: name, default: .null)))
        }
        return (compiledCalculated, commentSlots)
    }

    /// What a completion shows and where it sends the respondent: ``compileCompletionMessages(_:)``
    /// and ``compileCompletionRedirects(_:)``.
    mutating func compileCompletion(_ resolve: @escaping (String) -> Int?) -> (
        messages: [(condition: Expression?, text: LocalizedText)], redirects: [(condition: Expression?, url: String)]
    ) {
        (compileCompletionMessages(resolve), compileCompletionRedirects(resolve))
    }

    /// The completion messages, each with its condition.
    mutating func compileCompletionMessages(
        _ resolve: @escaping (String) -> Int?
    ) -> [(condition: Expression?, text: LocalizedText)] {
        var compiledMessages: [(condition: Expression?, text: LocalizedText)] = []
        for (index, message) in definition.completionMessages.enumerated() {
            let path = JSONPath.root.appending("completionMessages").appending(index)
            let condition = compileExpression(
                message.condition, member: "if", path: path, stepID: nil, resolve: resolve)
            if message.condition != nil, condition == nil { continue }
            checkPiping(message.text, path: path.appending("text"), stepID: "", resolve: resolve)
            compiledMessages.append((condition, message.text))
        }
        return compiledMessages
    }

    /// The completion redirects, each with its condition.
    mutating func compileCompletionRedirects(
        _ resolve: @escaping (String) -> Int?
    ) -> [(condition: Expression?, url: String)] {
        var compiled: [(condition: Expression?, url: String)] = []
        for (index, redirect) in definition.completionRedirects.enumerated() {
            let path = JSONPath.root.appending("completionRedirects").appending(index)
            let condition = compileExpression(
                redirect.condition, member: "if", path: path, stepID: nil, resolve: resolve)
            if redirect.condition != nil, condition == nil { continue }
            checkPiping(
                LocalizedText(stringLiteral: redirect.url), path: path.appending("url"), stepID: "", resolve: resolve)
            compiled.append((condition, redirect.url))
        }
        return compiled
    }

    /// The panels: their `visibleIf` and `enableIf` were folded into their steps' (errors are reported
    /// here, at the panel); `requiredIf` is evaluated on Next.
    mutating func compilePanels(_ flatPanels: [FlatPanel], resolve: @escaping (String) -> Int?) -> [CompiledPanel] {
        var compiledPanels: [CompiledPanel] = []
        compiledPanels.reserveCapacity(flatPanels.count)
        for panel in flatPanels {
            let id = panel.definition.id
            for (member, condition) in [
                ("visibleIf", panel.definition.visibleIf), ("enableIf", panel.definition.enableIf),
            ] {
                if compileExpression(condition, member: member, path: panel.path, stepID: id, resolve: resolve) != nil {
                    expressionCount += 1
                }
            }
            let requiredIf = compileExpression(
                panel.definition.requiredIf, member: "requiredIf", path: panel.path, stepID: id, resolve: resolve)
            if requiredIf != nil { expressionCount += 1 }
            checkPiping(panel.definition.title, path: panel.path.appending("title"), stepID: id, resolve: resolve)
            checkPiping(
                panel.definition.description, path: panel.path.appending("description"), stepID: id, resolve: resolve)
            compiledPanels.append(
                CompiledPanel(
                    id: id, unit: panel.unit, parent: panel.parent, steps: panel.steps, title: panel.definition.title,
                    description: panel.definition.description, isRequired: panel.definition.isRequired,
                    requiredIf: requiredIf))
        }

        return compiledPanels
    }
}

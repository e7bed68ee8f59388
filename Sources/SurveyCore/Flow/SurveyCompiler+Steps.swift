import Foundation

// Stage 4 of the compiler: each step's expressions, defaults and rules. Steps are independent, so a
// large survey's steps compile in pieces on the compiler's threads; the pieces' results are joined
// in document order, with errors as one compiler would report them.

extension SurveyCompiler {
    /// What compiling one piece of the steps gives.
    private struct CompiledPiece: Sendable {
        var steps = StepColumns()
        var errors: [SurveyError] = []
        var hintedErrors: [(index: Int, plain: String)] = []
        var usesDateFunctions = false
        var expressionCount = 0
        var pipedProperties: [String: Expression] = [:]
    }

    /// Compiles every step (stage 4), in `pieces` on the compiler's threads.
    mutating func compileSteps(
        _ flatSteps: [FlatStep], names: Names, configured: ConfiguredSteps, pieces: StepPieces
    ) -> StepColumns {
        let template = self
        let resolve = names.resolve
        var results = parallelism.map(pieces.count) { piece -> CompiledPiece in
            var compiler = template
            compiler.errors = []
            compiler.expressionCount = 0
            // The expressions' compile context, of the piece's own too (see below).
            compiler.compileContext = template.compileContext.map {
                ExpressionCompileContext(displayQuestion: $0.displayQuestion, resolveProperty: $0.resolveProperty)
            }
            // A context and a closure of the piece's own: passing shared ones to every step and
            // expression retains and releases the same objects from every thread (their reference
            // counts bounce between cores).
            let hints = ReferenceHints()
            let context = StepContext(
                flatSteps: flatSteps, stepIndexByID: names.steps, unitIndexByID: names.units,
                resolve: { hints.resolve($0, else: resolve) }, questions: configured.questions,
                choiceConditionSteps: configured.choiceConditions, configurationErrors: configured.errors)
            var steps = StepColumns()
            let range = pieces.range(piece)
            steps.reserveCapacity(range.count)
            var start = range.lowerBound
            while start < range.upperBound {
                let batch = start..<min(range.upperBound, start + ReferenceHints.batchSize)
                hints.lookUp(batch, in: flatSteps, table: names.steps)
                for index in batch {
                    hints.current = hints.hint[index - batch.lowerBound]
                    if let step = compiler.compileStep(at: index, in: context) {
                        steps.append(step, visibleIfIsOwn: context.flatSteps[index].panels?.visibleIf.isEmpty ?? true)
                    }
                }
                start = batch.upperBound
            }
            return CompiledPiece(
                steps: steps, errors: compiler.errors, hintedErrors: compiler.hintedErrors,
                usesDateFunctions: compiler.usesDateFunctions, expressionCount: compiler.expressionCount,
                pipedProperties: compiler.pipedProperties)
        }
        // The pieces' columns are moved out (joining them then copies no cells).
        var columns: [StepColumns] = []
        columns.reserveCapacity(results.count)
        for index in results.indices {
            columns.append(results[index].steps)
            results[index].steps = StepColumns()
        }
        // Each piece spent the whole budget of "did you mean" hints; the first hints in document
        // order are kept, as one compiler would have given them.
        var hintsKept = 0
        for result in results {
            let first = errors.count
            errors += result.errors
            for hint in result.hintedErrors {
                if hintsKept < Self.branchHintBudget {
                    hintsKept += 1
                } else {
                    errors[first + hint.index].message = hint.plain
                }
            }
            usesDateFunctions = usesDateFunctions || result.usesDateFunctions
            expressionCount += result.expressionCount
            pipedProperties.merge(result.pipedProperties) { first, _ in first }
        }
        // The pages' branches get what the steps left of the budget.
        branchHintsLeft = Self.branchHintBudget - hintsKept
        return StepColumns.joining(&columns)
    }

    /// What compiling one step needs to look up (read-only; one per chunk).
    ///
    /// A class, made once per chunk: as a struct, `compileStep` copied it for every step, retaining and
    /// releasing its six arrays and tables, whose reference counts every chunk's thread shares (4–5 % of
    /// the 1M load's samples, and the cache lines bounce between the cores).
    final class StepContext: Sendable {
        let flatSteps: [FlatStep]
        let stepIndexByID: IDTable
        let unitIndexByID: IDTable
        let resolve: @Sendable (String) -> Int?
        /// Each step's configured question (`nil` when its type or options are wrong).
        let questions: [ConfiguredQuestion?]
        /// Whether each step's options give choices `visibleIf` conditions.
        let choiceConditionSteps: [Bool]
        /// The errors configuring a step's question produced, by step index.
        let configurationErrors: [Int: [SurveyError]]

        init(
            flatSteps: [FlatStep], stepIndexByID: IDTable, unitIndexByID: IDTable,
            resolve: @escaping @Sendable (String) -> Int?, questions: [ConfiguredQuestion?],
            choiceConditionSteps: [Bool], configurationErrors: [Int: [SurveyError]]
        ) {
            self.flatSteps = flatSteps
            self.stepIndexByID = stepIndexByID
            self.unitIndexByID = unitIndexByID
            self.resolve = resolve
            self.questions = questions
            self.choiceConditionSteps = choiceConditionSteps
            self.configurationErrors = configurationErrors
        }
    }

    /// The name each step's `visibleIf` starts with, looked up in the step-id table a batch of steps
    /// at a time (``IDTable/values(of:into:scratch:)``: the lookups' cache misses overlap), for a
    /// chunk's resolve to answer while the step compiles. At 1,000,000 steps a lookup alone spent
    /// about 190 ns waiting for memory, 10 % of the load's time.
    final class ReferenceHints: @unchecked Sendable {
        // Read and written by one chunk's thread only, never while another access is under way: not
        // checked at run time (the checks cost more than the lookups they serve).
        static let batchSize = 16
        /// The batch's names, and what the table gave for each.
        @exclusivity(unchecked) private var names: [String] = []
        @exclusivity(unchecked) private var values: [Int?] = []
        @exclusivity(unchecked) private var scratch = IDTable.BatchScratch()
        /// For each step of the batch, its name's position in `names`, or -1 when it has none.
        @exclusivity(unchecked) private(set) var hint: [Int] = []
        /// The position in `names` of the step being compiled, or -1.
        @exclusivity(unchecked) var current = -1

        /// Looks up the names the steps of `batch` read first.
        func lookUp(_ batch: Range<Int>, in flatSteps: [FlatStep], table: IDTable) {
            names.removeAll(keepingCapacity: true)
            hint.removeAll(keepingCapacity: true)
            for index in batch {
                if let source = flatSteps[index].definition.visibleIf, let name = Self.firstName(in: source) {
                    hint.append(names.count)
                    names.append(name)
                } else {
                    hint.append(-1)
                }
            }
            table.values(of: names, into: &values, scratch: &scratch)
        }

        /// The step index of `name` when it is the current step's looked-up name and a step's id;
        /// otherwise what `resolve` gives.
        @inline(__always)
        func resolve(_ name: String, else resolve: (String) -> Int?) -> Int? {
            if current >= 0, names[current] == name, let value = values[current] { return value }
            return resolve(name)
        }

        /// The reference `source` starts with, read as the expression parser reads it.
        private static func firstName(in source: String) -> String? {
            let name = source.utf8.withContiguousStorageIfAvailable { bytes -> String? in
                ExpressionParser.leadingReference(in: bytes).map {
                    String(decoding: UnsafeBufferPointer(rebasing: bytes[$0]), as: UTF8.self)
                }
            }
            return name ?? nil
        }
    }

    /// Where the authored choice `value` is in a question's `options`: the element with that `value`
    /// of whichever array holds it (`options.choices[2]`, a discovery source's `options.sources[4]`),
    /// else `options.choices[offset]`. Only built for error messages.
    static func choicePath(of value: String, in options: JSONValue, under path: JSONPath, offset: Int) -> JSONPath {
        for (key, member) in (options.objectValue ?? [:]).sorted(by: { $0.key < $1.key }) {
            guard case .array(let elements) = member else { continue }
            if let position = elements.firstIndex(where: { $0["value"]?.choiceKey == value }) {
                return path.appending(key).appending(position)
            }
        }
        return path.appending("choices").appending(offset)
    }

    /// The `visibleIf` `condition` of choice `choice` (at `offset` among the choices) of step `index`,
    /// compiled, an error placed at the choice.
    mutating func compileChoiceCondition(
        _ condition: String, of choice: Choice, at offset: Int, step index: Int, in context: StepContext
    ) -> Expression? {
        let step = context.flatSteps[index]
        let stepOwner = self.stepOwner
        return compileExpression(
            condition, member: "visibleIf",
            path: Self.choicePath(
                of: choice.value, in: step.definition.options, under: step.optionsPath, offset: offset),
            stepID: step.definition.id,
            owner: stepOwner.map {
                var owner = $0(index)
                owner.choice = (choice.answerValue, choice.label)
                return owner
            }, resolve: context.resolve)
    }

    /// Configures one step's question and compiles its expressions; `nil` when it has errors.
    mutating func compileStep(at index: Int, in context: StepContext) -> CompiledStep? {
        // `.english` is read where it is needed: most steps never need it, and copying it retains
        // objects every chunk's thread shares.
        let question = context.questions[index]
        let stepOwner = self.stepOwner
        if let problems = context.configurationErrors[index] { errors += problems }
        // Fields are read through the array (no copy of the whole step definition per step).
        let id = context.flatSteps[index].definition.id
        let panels = context.flatSteps[index].panels
        // A simple comparison of the step's own (most conditions of a large survey) goes straight to
        // its cell: no expression is made, then taken apart and freed.
        var visibleIfCell: StepCondition?
        if panels?.visibleIf.isEmpty ?? true, let source = context.flatSteps[index].definition.visibleIf,
            let parts = Expression.comparisonParts(of: source, resolve: context.resolve, otherChoices: otherChoices)
        {
            visibleIfCell = StepCondition(literal: parts.literal, op: parts.op, kind: .comparison, slot: parts.slot)
        }
        var visibleIf =
            visibleIfCell != nil
            ? nil
            : compileExpression(
                context.flatSteps[index].definition.visibleIf, member: "visibleIf",
                path: context.flatSteps[index].path, stepID: id, owner: stepOwner?(index), resolve: context.resolve)
        if let panels, !panels.visibleIf.isEmpty {
            visibleIf = combine(
                panels.visibleIf, own: context.flatSteps[index].definition.visibleIf, ownCompiled: visibleIf,
                owner: stepOwner?(index), resolve: context.resolve)
        }
        let requiredIf = compileExpression(
            context.flatSteps[index].definition.requiredIf, member: "requiredIf", path: context.flatSteps[index].path,
            stepID: id, owner: stepOwner?(index),
            resolve: context.resolve)
        let branches =
            context.flatSteps[index].definition.branches.isEmpty
            ? []
            : compileBranches(
                context.flatSteps[index].definition.branches, path: context.flatSteps[index].path, stepID: id,
                resolve: context.resolve,
                units: context.unitIndexByID, steps: context.stepIndexByID, flatSteps: context.flatSteps)
        var choiceConditions: [String: Expression] = [:]
        if let question, context.choiceConditionSteps[index],
            let input = question.input(in: .english).choiceInput
        {
            for (offset, choice) in input.choices.enumerated() {
                guard let condition = choice.visibleIf else { continue }
                if let expression = compileChoiceCondition(condition, of: choice, at: offset, step: index, in: context)
                {
                    choiceConditions[choice.value] = expression
                }
            }
        }
        // `choicesFromQuestionMode` selected / unselected: each carried choice shows only when the
        // respondent chose it (or did not) in the source question; `choicesVisibleIf`: only while it
        // holds for that choice, unless the choice has a visibleIf of its own. The question's own None
        // (and Other) are not carried or filtered, so they always show, as in survey-core.
        let carried = context.flatSteps[index].definition.choicesFromQuestion.flatMap { source in
            context.flatSteps[index].definition.choicesFromQuestionMode.flatMap {
                $0 == "all" ? nil : (source: source, mode: $0)
            }
        }
        var filter = context.flatSteps[index].definition.choicesVisibleIf
        if let question, carried != nil || filter != nil, let input = question.input(in: .english).choiceInput {
            if let source = filter, let first = input.choices.first(where: { !$0.isOther && !$0.isExclusive }) {
                // Checked once where it is written, so that an error names the member and not a choice.
                let valid = compileExpression(
                    source, member: "choicesVisibleIf", path: context.flatSteps[index].path, stepID: id,
                    owner: stepOwner.map {
                        var owner = $0(index)
                        owner.choice = (first.answerValue, first.label)
                        return owner
                    }, resolve: context.resolve)
                if valid == nil { filter = nil }
            }
            for (offset, choice) in input.choices.enumerated() where !choice.isOther && !choice.isExclusive {
                var parts: [String] = []
                if let own = choice.visibleIf { parts.append(own) }
                if let carried {
                    let literal =
                        "'"
                        + choice.value.replacingOccurrences(of: "\\", with: "\\\\")
                        .replacingOccurrences(of: "'", with: "\\'") + "'"
                    parts.append("{\(carried.source)} \(carried.mode == "selected" ? "anyof" : "noneof") [\(literal)]")
                }
                // A choice's own visibleIf decides for it in place of choicesVisibleIf, as in survey-core.
                if let filter, choice.visibleIf == nil { parts.append(filter) }
                guard parts.count > (choice.visibleIf == nil ? 0 : 1) else { continue }
                let condition = parts.count == 1 ? parts[0] : parts.map { "(\($0))" }.joined(separator: " and ")
                if let expression = compileChoiceCondition(condition, of: choice, at: offset, step: index, in: context)
                {
                    choiceConditions[choice.value] = expression
                }
            }
        }
        let title = context.flatSteps[index].definition.title
        let description = context.flatSteps[index].definition.description
        checkPiping(title, path: context.flatSteps[index].path.appending("title"), stepID: id, resolve: context.resolve)
        checkPiping(
            description, path: context.flatSteps[index].path.appending("description"), stepID: id,
            resolve: context.resolve)
        var defaultExpression = compileExpression(
            context.flatSteps[index].definition.defaultValueExpression, member: "defaultValueExpression",
            path: context.flatSteps[index].path, stepID: id, owner: stepOwner?(index), resolve: context.resolve)
        // SurveyJS's `"defaultValue": "=expression"` is the expression (a `defaultValueExpression`).
        var formulaDefault: String?
        if case .string(let text) = context.flatSteps[index].definition.defaultValue, text.hasPrefix("="),
            context.flatSteps[index].definition.defaultValueExpression == nil
        {
            formulaDefault = String(text.dropFirst())
            defaultExpression = compileExpression(
                formulaDefault, member: "defaultValue", path: context.flatSteps[index].path, stepID: id,
                owner: stepOwner?(index), resolve: context.resolve)
        }
        // A computed question (its type gives the expression): always its value, never answered.
        let computed = question?.computedValue
        if let computed {
            if context.flatSteps[index].definition.defaultValue != nil
                || context.flatSteps[index].definition.defaultValueExpression != nil
            {
                errors.append(
                    SurveyError(
                        .invalidValue, "'\(id)' is computed from its expression, so it has no default",
                        path: context.flatSteps[index].path, stepID: id))
            }
            defaultExpression = compileExpression(
                computed, member: "expression", path: context.flatSteps[index].optionsPath, stepID: id,
                owner: stepOwner?(index), resolve: context.resolve)
        }
        var typeExpressions: [String: Expression] = [:]
        let declaredExpressions = question?.expressions ?? [:]
        for (name, source) in declaredExpressions.isEmpty ? [] : declaredExpressions.sorted(by: { $0.key < $1.key }) {
            if let compiled = compileExpression(
                source, member: name, path: context.flatSteps[index].optionsPath, stepID: id, owner: stepOwner?(index),
                resolve: context.resolve)
            {
                typeExpressions[name] = compiled
            }
        }
        var enableIf = compileExpression(
            context.flatSteps[index].definition.enableIf, member: "enableIf", path: context.flatSteps[index].path,
            stepID: id, owner: stepOwner?(index), resolve: context.resolve)
        if let panels, !panels.enableIf.isEmpty {
            enableIf = combine(
                panels.enableIf, own: context.flatSteps[index].definition.enableIf, ownCompiled: enableIf,
                owner: stepOwner?(index), resolve: context.resolve)
        }
        var valueRules: ValueRules?
        let definitionOfStep = context.flatSteps[index].definition
        if definitionOfStep.setValueIf != nil || definitionOfStep.setValueExpression != nil
            || definitionOfStep.resetValueIf != nil
        {
            func compiled(_ source: String?, _ member: String) -> Expression? {
                compileExpression(
                    source, member: member, path: context.flatSteps[index].path, stepID: id,
                    owner: stepOwner?(index), resolve: context.resolve)
            }
            let rules = ValueRules(
                setValueIf: compiled(definitionOfStep.setValueIf, "setValueIf"),
                setValueExpression: compiled(definitionOfStep.setValueExpression, "setValueExpression"),
                resetValueIf: compiled(definitionOfStep.resetValueIf, "resetValueIf"))
            if rules.setValueIf != nil || rules.setValueExpression != nil || rules.resetValueIf != nil {
                valueRules = rules
                expressionCount += 1
            }
        }
        expressionCount +=
            (visibleIf == nil && visibleIfCell == nil ? 0 : 1) + (requiredIf == nil ? 0 : 1)
            + branches.filter { $0.condition != nil }.count
            + choiceConditions.count + (defaultExpression == nil ? 0 : 1) + (enableIf == nil ? 0 : 1)
        guard let question else { return nil }
        let collects = question.collectsAnswer
        var defaultValue: JSONValue?
        if formulaDefault == nil, let value = context.flatSteps[index].definition.defaultValue {
            let path = context.flatSteps[index].path.appending("defaultValue")
            if !collects {
                errors.append(
                    SurveyError(
                        .invalidValue, "'\(id)' takes no answer, so it has no defaultValue", path: path, stepID: id))
            } else {
                do {
                    defaultValue = try question.normalize(value, in: .english)
                } catch {
                    errors.append(
                        SurveyError(
                            .invalidValue, "defaultValue \(value) is not an answer '\(id)' accepts: \(error.message)",
                            path: path, stepID: id))
                }
            }
        }
        if valueRules != nil, !collects || computed != nil {
            let member =
                definitionOfStep.setValueIf != nil
                ? "setValueIf" : definitionOfStep.setValueExpression != nil ? "setValueExpression" : "resetValueIf"
            errors.append(
                SurveyError(
                    .invalidValue,
                    "'\(id)' \(computed != nil ? "is computed from its expression" : "takes no answer"), so it has no \(member)",
                    path: context.flatSteps[index].path.appending(member), stepID: id))
        }
        if defaultExpression != nil, !collects {
            errors.append(
                SurveyError(
                    .invalidValue, "'\(id)' takes no answer, so it has no defaultValueExpression",
                    path: context.flatSteps[index].path.appending("defaultValueExpression"), stepID: id))
        }
        return CompiledStep(
            id: id, unit: context.flatSteps[index].unit, question: question,
            unitOffset: Int32(context.flatSteps[index].unitOffset),
            childOffset: Int32(context.flatSteps[index].childOffset),
            visibleIf: visibleIf, requiredIf: requiredIf, branches: branches,
            choiceConditions: choiceConditions,
            isRequired: context.flatSteps[index].definition.isRequired,
            isEnabled: context.flatSteps[index].definition.isEnabled && (panels?.isEnabled ?? true),
            collectsAnswer: collects,
            countsForProgress: collects || definition.settings.progressCountsContent,
            defaultValue: defaultValue, defaultExpression: defaultExpression,
            isReadOnly: context.flatSteps[index].definition.isReadOnly || (panels?.isReadOnly ?? false)
                || computed != nil,
            enableIf: enableIf, typeExpressions: typeExpressions, visibleIfCell: visibleIfCell,
            valueRules: valueRules,
            hasTypeDefault: defaultValue == nil && defaultExpression == nil && question.hasDefaultAnswer)
    }
}

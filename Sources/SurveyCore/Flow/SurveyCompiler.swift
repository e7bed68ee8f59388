import Foundation

struct SurveyCompiler {
    let definition: SurveyDefinition
    let registry: QuestionTypeRegistry
    let functions: ExpressionFunctionRegistry
    var errors: [SurveyError] = []
    var usesDateFunctions = false
    /// Questions already configured, by type and options.
    var configured: [ConfigurationKey: Configuration] = [:]
    /// The last configurations made or found, looked through before ``configured``: steps with the
    /// same options text share one parsed value (``ValuePool``), so an identical bit pattern finds
    /// them at once, where the dictionary hashes every member of the options.
    var recentConfigurations: [(typeID: String, options: JSONValue, configuration: Configuration)] = []
    static let recentConfigurationCount = 16
    /// Every step and page id, sorted, for "did you mean" hints on branch targets (built once).
    var branchTargetNames: [String]?
    /// How many more unknown branch targets get a "did you mean" hint: each compares the target with
    /// every id, so a survey with thousands of bad targets would otherwise take minutes to report.
    var branchHintsLeft = Self.branchHintBudget
    static let branchHintBudget = 32
    /// The errors (by index in ``errors``) given a hint, with their message without it: chunks
    /// compiled in parallel each spend the whole budget, and the merge keeps the first hints in
    /// document order, as one compiler would.
    var hintedErrors: [(index: Int, plain: String)] = []
    /// Steps whose question has an Other choice, with its other choice values: `{q}` reads `'other'`
    /// for an Other answer, `{q-Comment}` its text (as in SurveyJS). Known before expressions compile.
    var otherChoices: [Int: OtherChoices] = [:]
    /// Each step's configured question by slot, for `displayValue('name')` (set once questions are configured).
    var displayQuestion: (@Sendable (Int) -> ConfiguredQuestion?)?

    struct ConfigurationKey: Hashable, Sendable {
        let typeID: String
        let options: JSONValue
    }

    /// A configured question, and whether its options give choices `visibleIf` conditions (so that
    /// its steps compile them).
    struct Configuration: Sendable {
        let question: ConfiguredQuestion
        let hasChoiceConditions: Bool
    }

    init(definition: SurveyDefinition, registry: QuestionTypeRegistry, functions: ExpressionFunctionRegistry) {
        self.definition = definition
        self.registry = registry
        self.functions = functions
    }

    struct FlatStep {
        /// The array that holds the step's definition (its page's steps, or the survey's), shared by
        /// every step in it: a copy of each definition here was the load's largest temporary. A step
        /// the compiler changes (carried-forward choices) gets an array of its own.
        private var siblings: [StepDefinition]
        // Positions are stored in 32 bits, and what only steps in panels have is boxed: a survey's
        // flat steps are all alive at the load's peak (48 bytes each, where they were 80).
        private var storedPosition: Int32
        private let storedUnit: Int32
        private let storedUnitOffset: Int32
        private let storedChildOffset: Int32
        private var storedFileChild: Int32
        private var placement: Placement?

        /// What a step inside panels adds: where it is below its page's entry, and the panels' rules.
        final class Placement: Sendable {
            let fileInner: [Int]
            let panels: PanelConditions?

            init(fileInner: [Int], panels: PanelConditions?) {
                self.fileInner = fileInner
                self.panels = panels
            }
        }

        var unit: Int { Int(storedUnit) }
        var unitOffset: Int { Int(storedUnitOffset) }
        /// Position inside its page's definition, or -1 for a top-level step.
        var childOffset: Int { Int(storedChildOffset) }
        /// Where it is in the file below its page: `$.steps[unitOffset].steps[fileChild]`, then
        /// `.steps[i]` for each of `fileInner` (inside panels).
        var fileChild: Int {
            get { Int(storedFileChild) }
            set { storedFileChild = Int32(truncatingIfNeeded: newValue) }
        }
        var fileInner: [Int] { placement?.fileInner ?? [] }
        /// The conditions of the panels it is in, outer first (`nil` outside panels).
        var panels: PanelConditions? { placement?.panels }

        /// The step `siblings[position]`.
        init(siblings: [StepDefinition], position: Int, unit: Int, unitOffset: Int, childOffset: Int) {
            self.siblings = siblings
            storedPosition = Int32(truncatingIfNeeded: position)
            storedUnit = Int32(truncatingIfNeeded: unit)
            storedUnitOffset = Int32(truncatingIfNeeded: unitOffset)
            storedChildOffset = Int32(truncatingIfNeeded: childOffset)
            storedFileChild = storedChildOffset
        }

        /// Records where a step inside panels is, and the panels' rules.
        mutating func place(fileInner: [Int], panels: PanelConditions?) {
            guard !fileInner.isEmpty || panels != nil else { return }
            placement = Placement(fileInner: fileInner, panels: panels)
        }

        /// Built only when needed (errors, option readers): most steps never need one.
        var path: JSONPath {
            guard childOffset >= 0 else { return JSONPath([.key("steps"), .index(unitOffset)]) }
            var components: [JSONPath.Component] = [
                .key("steps"), .index(unitOffset), .key("steps"), .index(fileChild),
            ]
            for index in fileInner { components += [.key("steps"), .index(index)] }
            return JSONPath(components)
        }

        var optionsPath: JSONPath { path.appending("options") }

        /// The step's definition, read in place.
        var definition: StepDefinition {
            _read { yield siblings[Int(storedPosition)] }
        }

        /// Gives the step `options` in place of its own.
        mutating func replaceOptions(with options: JSONValue) {
            var definition = siblings[Int(storedPosition)]
            definition.options = options
            siblings = [definition]
            storedPosition = 0
        }
    }

    /// What the panels around a step add to its own rules.
    struct PanelConditions {
        var visibleIf: [String] = []
        var enableIf: [String] = []
        var isReadOnly = false
        var isEnabled = true
    }

    /// A panel being compiled.
    struct FlatPanel {
        let definition: PanelDefinition
        let unit: Int
        let path: JSONPath
        var steps: [Int] = []
        var parent: Int?
    }

    /// Reads the panels of page `page` (definition position `position`, unit `unit`, first step
    /// `firstStep`): the panels, and for each step its panel conditions and file path.
    mutating func flattenPanels(
        of page: StepDefinition, position: Int, unit: Int, unitOffset: Int, firstStep: Int,
        into panels: inout [FlatPanel]
    ) -> (paths: [[Int]]?, conditions: [PanelConditions?]) {
        let pagePath = JSONPath([.key("steps"), .index(unitOffset)])
        var conditions = [PanelConditions?](repeating: nil, count: page.steps.count)
        guard let chains = page.panelChains() else {
            errors.append(
                SurveyError(
                    .invalidValue,
                    "a step of this page names a panel that is not in the page's panels (or the panels' parents form a cycle)",
                    path: pagePath, stepID: page.id))
            return (nil, conditions)
        }
        let paths =
            definition.sourceMap.map { map in
                page.steps.indices.map { map.childPath(unit: position, child: $0) }
            } ?? page.childIndexPaths()
        let byID = Dictionary(page.panels.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var indexByID: [String: Int] = [:]
        var closed: Set<String> = []
        var open: [String] = []
        for (position, chain) in chains.enumerated() {
            var common = 0
            while common < open.count, common < chain.count, open[common] == chain[common] { common += 1 }
            closed.formUnion(open[common...])
            open.removeLast(open.count - common)
            for (depth, id) in chain.enumerated().dropFirst(common) {
                if closed.contains(id) {
                    errors.append(
                        SurveyError(
                            .invalidValue, "the steps of panel '\(id)' are not consecutive in its page", path: pagePath,
                            stepID: page.id))
                }
                open.append(id)
                guard indexByID[id] == nil, let panel = byID[id] else { continue }
                var path = pagePath
                for index in (paths?[position] ?? []).prefix(depth + 1) {
                    path = path.appending("steps").appending(index)
                }
                indexByID[id] = panels.count
                panels.append(
                    FlatPanel(
                        definition: panel, unit: unit, path: path, parent: panel.parent.flatMap { indexByID[$0] }))
            }
            guard !chain.isEmpty else { continue }
            var folded = PanelConditions()
            for id in chain {
                guard let index = indexByID[id] else { continue }
                panels[index].steps.append(firstStep + position)
                let panel = panels[index].definition
                if let condition = panel.visibleIf { folded.visibleIf.append(condition) }
                if let condition = panel.enableIf { folded.enableIf.append(condition) }
                folded.isReadOnly = folded.isReadOnly || panel.isReadOnly
                folded.isEnabled = folded.isEnabled && panel.isEnabled
            }
            conditions[position] = folded
        }
        for panel in page.panels where indexByID[panel.id] == nil {
            errors.append(
                SurveyError(.invalidValue, "panel '\(panel.id)' has no steps", path: pagePath, stepID: page.id))
        }
        return (paths, conditions)
    }

    /// `(a) and (b) and …` of the panels' conditions and the step's own, compiled; `nil` when a panel's
    /// condition does not compile (its error is reported at the panel).
    mutating func combine(
        _ panelConditions: [String], own: String?, ownCompiled: Expression?, resolve: @escaping (String) -> Int?
    ) -> Expression? {
        if own != nil, ownCompiled == nil { return nil }
        let text = (panelConditions + (own.map { [$0] } ?? [])).map { "(\($0))" }.joined(separator: " and ")
        guard
            let expression = try? Expression(
                text, functions: functions, resolve: resolve, otherChoices: otherChoices,
                displayQuestion: displayQuestion)
        else { return ownCompiled }
        if expression.callsImpureFunction { usesDateFunctions = true }
        return expression
    }

    struct FlatUnit {
        let definition: StepDefinition
        let unitOffset: Int
        var steps: Range<Int>

        var path: JSONPath { JSONPath.root.appending("steps").appending(unitOffset) }
    }

    mutating func compile() throws(SurveyLoadError) -> Survey {
        // 1. Flatten pages into units and leaf steps.
        var flatSteps: [FlatStep] = []
        var flatUnits: [FlatUnit] = []
        // Reserved exactly: a step is some 400 bytes here, and growing by doubling from the unit
        // count (a page holds many steps) left up to half of a 100,000-step array unused at the peak.
        var leafCount = 0
        for position in definition.steps.indices {
            leafCount += definition.steps[position].isPage ? definition.steps[position].steps.count : 1
        }
        flatSteps.reserveCapacity(leafCount)
        flatUnits.reserveCapacity(definition.steps.count)
        // File positions differ from definition positions only when the decoder left out steps with
        // problems; such a survey never compiles, but its other errors must point at the right place.
        let sourceMap = definition.sourceMap
        var flatPanels: [FlatPanel] = []
        // Noted while flattening, each step's definition being read then: a pass of its own over a
        // large survey's steps is a pass over memory.
        var carries = false
        var commentCandidates: [Int] = []
        // Index loops here and below: `enumerated()` copies each element (a step definition and its
        // members, retained one by one) before the body reads two of its fields.
        for position in definition.steps.indices {
            let step = definition.steps[position]
            let start = flatSteps.count
            let unitOffset = sourceMap?.units[position] ?? position
            if step.isPage {
                let panels =
                    step.panels.isEmpty
                    ? nil
                    : flattenPanels(
                        of: step, position: position, unit: flatUnits.count, unitOffset: unitOffset, firstStep: start,
                        into: &flatPanels)
                for childPosition in step.steps.indices {
                    var flat = FlatStep(
                        siblings: step.steps, position: childPosition, unit: flatUnits.count, unitOffset: unitOffset,
                        childOffset: childPosition)
                    var fileInner: [Int] = []
                    if let path = panels?.paths?[childPosition]
                        ?? sourceMap.map({ $0.childPath(unit: position, child: childPosition) }), let first = path.first
                    {
                        flat.fileChild = first
                        fileInner = Array(path.dropFirst())
                    }
                    flat.place(fileInner: fileInner, panels: panels?.conditions[childPosition])
                    flatSteps.append(flat)
                    if step.steps[childPosition].hasRareMembers {
                        carries = carries || step.steps[childPosition].choicesFromQuestion != nil
                        if step.steps[childPosition].showCommentArea { commentCandidates.append(flatSteps.count - 1) }
                    }
                }
            } else {
                flatSteps.append(
                    FlatStep(
                        siblings: definition.steps, position: position, unit: flatUnits.count, unitOffset: unitOffset,
                        childOffset: -1))
                if step.hasRareMembers {
                    carries = carries || step.choicesFromQuestion != nil
                    if step.showCommentArea { commentCandidates.append(flatSteps.count - 1) }
                }
            }
            flatUnits.append(FlatUnit(definition: step, unitOffset: unitOffset, steps: start..<flatSteps.count))
        }

        // Large surveys configure and compile in parallel chunks (one per core): see step 3.
        let stepCount = flatSteps.count
        // Twice as many chunks as cores, so that a core slowed by other work does not hold up the rest.
        let chunkCount = stepCount >= 4_096 ? Machine.parallelChunks : 1
        let chunkSize = (stepCount + chunkCount - 1) / max(chunkCount, 1)
        let configuration = ConfigurationResults(chunkCount: chunkCount, stepCount: flatSteps.count)

        // 2. Ids: steps, pages and calculated values share one namespace.
        let built = BuiltIDTable()
        // In a block of its own: the copy of the step list the task holds ends with it (the list is
        // the load's largest temporary, and is dropped before the survey is assembled).
        do {
            let stepsToIdentify = flatSteps
            let buildIDTable: @Sendable () -> Void = {
                var repeated: [(position: Int, first: Int)] = []
                let table = IDTable(positionsOf: stepsToIdentify.map(\.definition.id), repeated: &repeated)
                built.store(table, repeated: repeated)
            }
            if carries {
                buildIDTable()
            } else {
                // With no choices carried forward, configuring the questions (3a) needs no ids: the step-id
                // table is built on one core while the others configure.
                configureQuestions(
                    flatSteps, chunkCount: chunkCount, chunkSize: chunkSize, into: configuration,
                    alongside: buildIDTable)
            }
        }
        let stepIndexByID = built.table
        let repeatedIDs = built.repeated
        var calculatedIndexByName: [String: Int] = [:]
        func duplicate(_ id: String, at path: @autoclosure () -> JSONPath, member: String, previous: JSONPath) {
            errors.append(
                SurveyError(
                    .duplicateID, "duplicate id '\(id)': already used at \(previous)", path: path().appending(member),
                    stepID: id))
        }
        for (index, previous) in repeatedIDs {
            duplicate(
                flatSteps[index].definition.id, at: flatSteps[index].path, member: "id",
                previous: flatSteps[previous].path)
        }
        var unitIndexByID = IDTable(minimumCapacity: flatUnits.count)
        // The page with id `id` (the unit table has every page's id: no dictionary of them is made).
        func pageIndex(_ id: String) -> Int? {
            guard let index = unitIndexByID[id], flatUnits[index].definition.isPage else { return nil }
            return index
        }
        // The units' ids in the step table, looked up together (their cache misses overlap).
        var unitIDsAsSteps: [Int?] = []
        do {
            var scratch = IDTable.BatchScratch()
            stepIndexByID.values(of: flatUnits.map(\.definition.id), into: &unitIDsAsSteps, scratch: &scratch)
        }
        for index in flatUnits.indices {
            let id = flatUnits[index].definition.id
            if flatUnits[index].definition.isPage {
                if let previous = unitIDsAsSteps[index] {
                    duplicate(id, at: flatUnits[index].path, member: "id", previous: flatSteps[previous].path)
                } else if let previous = unitIndexByID.insert(id, index) {
                    // Only a page can be there: another unit's id is a step's, found just above.
                    duplicate(id, at: flatUnits[index].path, member: "id", previous: flatUnits[previous].path)
                }
            } else if unitIDsAsSteps[index] == flatUnits[index].steps.lowerBound {
                unitIndexByID.insert(id, index)
            }
        }
        var panelIndexByID: [String: Int] = [:]
        for (index, panel) in flatPanels.enumerated() {
            let id = panel.definition.id
            if let previous = stepIndexByID[id] {
                duplicate(id, at: panel.path, member: "id", previous: flatSteps[previous].path)
            } else if let previous = pageIndex(id) {
                duplicate(id, at: panel.path, member: "id", previous: flatUnits[previous].path)
            } else if let previous = panelIndexByID[id] {
                duplicate(id, at: panel.path, member: "id", previous: flatPanels[previous].path)
            } else {
                panelIndexByID[id] = index
            }
        }
        let calculatedPath = JSONPath.root.appending("calculatedValues")
        for (index, value) in definition.calculatedValues.enumerated() {
            let name = value.name
            if let previous = panelIndexByID[name] {
                duplicate(
                    name, at: calculatedPath.appending(index), member: "name", previous: flatPanels[previous].path)
            } else if let previous = stepIndexByID[name] {
                duplicate(name, at: calculatedPath.appending(index), member: "name", previous: flatSteps[previous].path)
            } else if let previous = pageIndex(name) {
                duplicate(name, at: calculatedPath.appending(index), member: "name", previous: flatUnits[previous].path)
            } else if let previous = calculatedIndexByName[name] {
                duplicate(
                    name, at: calculatedPath.appending(index), member: "name",
                    previous: calculatedPath.appending(previous))
            } else {
                calculatedIndexByName[name] = index
            }
        }
        // Host variables: calculated values whose value the session is given (after the authored ones).
        let variablesPath = JSONPath.root.appending("variables")
        for (position, variable) in definition.variables.enumerated() {
            let name = variable.name
            let path = variablesPath.appending(position)
            if let previous = panelIndexByID[name] {
                duplicate(name, at: path, member: "name", previous: flatPanels[previous].path)
            } else if let previous = stepIndexByID[name] {
                duplicate(name, at: path, member: "name", previous: flatSteps[previous].path)
            } else if let previous = pageIndex(name) {
                duplicate(name, at: path, member: "name", previous: flatUnits[previous].path)
            } else if calculatedIndexByName[name] != nil {
                duplicate(name, at: path, member: "name", previous: path)
            } else {
                calculatedIndexByName[name] = definition.calculatedValues.count + position
            }
        }

        // Comment boxes (`showCommentArea`): `<id>-Comment` is a value the session sets, after the
        // host variables among the calculated slots, so that expressions read it as `{<id>-Comment}`.
        var commentSteps: [Int] = []
        for index in commentCandidates {
            let step = flatSteps[index]
            let name = step.definition.id + "-Comment"
            if let previous = stepIndexByID[name] {
                duplicate(name, at: step.path, member: "showCommentArea", previous: flatSteps[previous].path)
            } else if calculatedIndexByName[name] != nil {
                duplicate(name, at: step.path, member: "showCommentArea", previous: step.path)
            } else if stepIndexByID[step.definition.id] == index {
                calculatedIndexByName[name] =
                    definition.calculatedValues.count + definition.variables.count + commentSteps.count
                commentSteps.append(index)
            }
        }

        // Carried-forward choices: a question with `choicesFromQuestion` offers its source's
        // `options.choices` (sources that carry forward themselves are resolved first).
        for _ in 0..<(carries ? 8 : 0) {
            var changed = false
            for index in flatSteps.indices {
                let definition = flatSteps[index].definition
                guard let source = definition.choicesFromQuestion, definition.options["choices"] == nil else {
                    continue
                }
                let path = flatSteps[index].path.appending("choicesFromQuestion")
                guard let sourceIndex = stepIndexByID[source], sourceIndex != index else {
                    var message = "choicesFromQuestion '\(source)' is not another step of this survey"
                    if let suggestion = closestMatch(to: source, in: flatSteps.map(\.definition.id)) {
                        message += " (did you mean '\(suggestion)'?)"
                    }
                    if !errors.contains(where: { $0.path == path }) {
                        errors.append(SurveyError(.unknownReference, message, path: path, stepID: definition.id))
                    }
                    continue
                }
                guard let choices = flatSteps[sourceIndex].definition.options["choices"] else {
                    if flatSteps[sourceIndex].definition.choicesFromQuestion == nil,
                        !errors.contains(where: { $0.path == path })
                    {
                        errors.append(
                            SurveyError(
                                .invalidValue, "'\(source)' has no choices to carry forward", path: path,
                                stepID: definition.id))
                    }
                    continue
                }
                var options = definition.options.objectValue ?? [:]
                options["choices"] = choices
                flatSteps[index].replaceOptions(with: .object(options))
                changed = true
            }
            if !changed { break }
        }
        for step in carries ? flatSteps : []
        where step.definition.choicesFromQuestion != nil && step.definition.options["choices"] == nil {
            let path = step.path.appending("choicesFromQuestion")
            if !errors.contains(where: { $0.path == path }) {
                errors.append(
                    SurveyError(
                        .invalidValue,
                        "choicesFromQuestion '\(step.definition.choicesFromQuestion ?? "")' leads to no choices",
                        path: path, stepID: step.definition.id))
            }
        }

        // 3. Steps: question types, options and expressions. Steps are independent, so large
        // surveys compile in parallel chunks (one per core); results are merged in document order.
        let resolve: @Sendable (String) -> Int? = { [stepIndexByID, calculatedIndexByName] name in
            if let index = stepIndexByID[name] { return index }
            if let index = calculatedIndexByName[name] { return stepCount + index }
            return nil
        }
        // 3a. Question types and options first: how a reference to a question compiles depends on
        // its choices (an Other choice). Done above, beside the step-id table, unless choices are
        // carried forward (they were only known just now).
        if carries {
            configureQuestions(flatSteps, chunkCount: chunkCount, chunkSize: chunkSize, into: configuration)
        }
        // Moved out of the results: the chunks wrote them in place.
        var questions: [ConfiguredQuestion?] = []
        swap(&questions, &configuration.questions)
        var choiceConditionSteps: [Bool] = []
        swap(&choiceConditionSteps, &configuration.choiceConditions)
        var configurationErrors: [Int: [SurveyError]] = [:]
        for chunk in 0..<chunkCount {
            configurationErrors.merge(configuration.errors[chunk]) { first, _ in first }
            otherChoices.merge(configuration.otherChoices[chunk]) { first, _ in first }
        }
        let configuredQuestions = questions
        displayQuestion = { $0 < configuredQuestions.count ? configuredQuestions[$0] : nil }
        let results = ChunkResults(count: chunkCount)
        do {
            let template = self
            // Constant copies of the variables, for the concurrent closure to capture.
            let (flatSteps, unitIndexByID, questions, choiceConditionSteps, configurationErrors) = (
                flatSteps, unitIndexByID, questions, choiceConditionSteps, configurationErrors
            )
            DispatchQueue.concurrentPerform(iterations: chunkCount) { chunk in
                var compiler = template
                compiler.errors = []
                // A context and a closure of the chunk's own: passing shared ones to every step and
                // expression retains and releases the same objects from every thread (their reference
                // counts bounce between cores).
                let hints = ReferenceHints()
                let context = StepContext(
                    flatSteps: flatSteps, stepIndexByID: stepIndexByID, unitIndexByID: unitIndexByID,
                    resolve: { hints.resolve($0, else: resolve) }, questions: questions,
                    choiceConditionSteps: choiceConditionSteps, configurationErrors: configurationErrors)
                var steps = StepColumns()
                var expressions = 0
                let range = (chunk * chunkSize)..<min(stepCount, (chunk + 1) * chunkSize)
                steps.reserveCapacity(range.count)
                var start = range.lowerBound
                while start < range.upperBound {
                    let batch = start..<min(range.upperBound, start + ReferenceHints.batchSize)
                    hints.lookUp(batch, in: flatSteps, table: stepIndexByID)
                    for index in batch {
                        hints.current = hints.hint[index - batch.lowerBound]
                        if let step = compiler.compileStep(at: index, in: context, expressionCount: &expressions) {
                            steps.append(
                                step, visibleIfIsOwn: context.flatSteps[index].panels?.visibleIf.isEmpty ?? true)
                        }
                    }
                    start = batch.upperBound
                }
                results.store(chunk, steps: steps, compiler: compiler, expressions: expressions)
            }
        }
        var expressionCount = 0
        var compiledSteps = StepColumns.joining(&results.steps)
        var hintsKept = 0
        for chunk in 0..<chunkCount {
            let first = errors.count
            errors += results.errors[chunk]
            for hint in results.hinted[chunk] {
                if hintsKept < Self.branchHintBudget {
                    hintsKept += 1
                } else {
                    errors[first + hint.index].message = hint.plain
                }
            }
            usesDateFunctions = usesDateFunctions || results.usesDateFunctions[chunk]
            expressionCount += results.expressionCounts[chunk]
        }
        // The pages' branches get what the steps left of the budget.
        branchHintsLeft = Self.branchHintBudget - hintsKept
        let validation = compileValidators(flatSteps, questions: questions, resolve: resolve)
        expressionCount += validation.expressionCount
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
                    || definition.commentText != nil
                let stepOnly: [(String, Bool)] =
                    !hasStepOnly
                    ? []
                    : [
                        ("defaultValue", definition.defaultValue != nil),
                        ("defaultValueExpression", definition.defaultValueExpression != nil),
                        ("readOnly", definition.isReadOnly), ("enableIf", definition.enableIf != nil),
                        ("showCommentArea", definition.showCommentArea),
                        ("commentText", definition.commentText != nil),
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
        for index in commentSteps {
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
        flatSteps = []  // no longer needed; see step 3
        var compiledMessages: [(condition: Expression?, text: LocalizedText)] = []
        for (index, message) in definition.completionMessages.enumerated() {
            let path = JSONPath.root.appending("completionMessages").appending(index)
            let condition = compileExpression(
                message.condition, member: "if", path: path, stepID: nil, resolve: resolve)
            if message.condition != nil, condition == nil { continue }
            checkPiping(message.text, path: path.appending("text"), stepID: "", resolve: resolve)
            compiledMessages.append((condition, message.text))
        }
        let compiledTriggers = compileTriggers(
            resolve: resolve, steps: compiledSteps, stepIndexByID: stepIndexByID, unitIndexByID: unitIndexByID,
            expressionCount: &expressionCount)
        // Panels: their visibleIf and enableIf are folded into their steps' (errors reported here, at
        // the panel); requiredIf is evaluated on Next.
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

        if !errors.isEmpty { throw SurveyLoadError(errors: errors) }
        // The ids are the step-id table's keys (one per step, in order, once no id repeats).
        if !compiledSteps.setIDs(stepIndexByID.keys) {
            _ = compiledSteps.setIDs(
                (0..<compiledSteps.count).map { index in
                    definition.step(
                        unitOffset: compiledSteps.unitOffsets[index], childOffset: compiledSteps.childOffsets[index]
                    ).id
                })
        }

        // 5. The dependency graph: which conditions to re-evaluate when a value changes.
        // The pairs are given in the order the table keeps for each slot, twice (to count, then to
        // place): a list of them was the size of the table again, at the load's peak.
        let stepExtras = compiledSteps.extras.keys.sorted()
        func narrow(_ index: Int) -> Int32 { Int32(truncatingIfNeeded: index) }
        func forEachWatcher(_ add: (Int, Watcher) -> Void) {
            compiledSteps.conditions.withUnsafeBufferPointer { conditions in
                for index in conditions.indices {
                    let condition = conditions[index]
                    switch condition.kind {
                    case .always: break
                    case .comparison: add(Int(condition.slot), .stepVisibility(narrow(index)))
                    case .expression:
                        compiledSteps.conditionOwners[Int(condition.slot)].forEachSlot {
                            add($0, .stepVisibility(narrow(index)))
                        }
                    }
                }
            }
            for index in compiledUnits.indices {
                compiledUnits[index].visibleIf?.forEachSlot { add($0, .unitVisibility(narrow(index))) }
            }
            for (index, value) in compiledCalculated.enumerated() {
                value.expression.forEachSlot { add($0, .calculated(narrow(index))) }
            }
            // Choice conditions, defaults and `enableIf` are kept in a step's extras: only those steps.
            for index in stepExtras {
                guard let choiceConditions = compiledSteps.extras[index]?.choiceConditions, !choiceConditions.isEmpty
                else { continue }
                var slots = Set<Int>()
                for condition in choiceConditions.values { slots.formUnion(condition.slots) }
                for slot in slots.sorted() where slot != index { add(slot, .choices(narrow(index))) }
            }
            for index in stepExtras {
                guard let step = compiledSteps.extras[index] else { continue }
                step.defaultExpression?.forEachSlot { slot in
                    if slot != index { add(slot, .defaultValue(narrow(index))) }
                }
                step.enableIf?.forEachSlot { add($0, .enabled(narrow(index))) }
            }
            for (index, trigger) in compiledTriggers.enumerated() {
                if case .complete = trigger.action { continue }
                trigger.condition.forEachSlot { add($0, .trigger(narrow(index))) }
            }
        }
        let watchers = WatcherTable(slotCount: stepCount + compiledCalculated.count, forEachPair: forEachWatcher)
        let order = try calculatedOrder(compiledCalculated, stepCount: stepCount)

        return Survey(
            definition: definition, functions: functions, units: compiledUnits,
            steps: StepTable(compiledSteps, definition: definition),
            calculated: compiledCalculated, stepIndexByID: stepIndexByID, unitIndexByID: unitIndexByID,
            calculatedIndexByName: calculatedIndexByName, watchers: watchers, calculatedOrder: order,
            expressionCount: expressionCount, usesDateFunctions: usesDateFunctions, otherChoices: otherChoices,
            triggers: compiledTriggers, completionMessages: compiledMessages,
            validators: validation.validators, panels: compiledPanels, commentSlots: commentSlots)
    }

    /// Configures the question of every step in `flatSteps`, in `chunkCount` chunks of `chunkSize`
    /// steps on all cores, into `results`; `alongside`, when given, runs as one more task beside them.
    func configureQuestions(
        _ flatSteps: [FlatStep], chunkCount: Int, chunkSize: Int, into results: ConfigurationResults,
        alongside extra: (@Sendable () -> Void)? = nil
    ) {
        let configuring = self
        let stepCount = flatSteps.count
        // Each step's question and flag are written where they go, by the chunk that has the step: no
        // per-chunk lists to merge (a million appends, each retaining a question the others share).
        results.questions.withUnsafeMutableBufferPointer { questionBuffer in
            results.choiceConditions.withUnsafeMutableBufferPointer { flagBuffer in
                nonisolated(unsafe) let questions = questionBuffer
                nonisolated(unsafe) let choiceConditions = flagBuffer
                DispatchQueue.concurrentPerform(iterations: chunkCount + (extra == nil ? 0 : 1)) { task in
                    // The extra task is handed out first: it is the longest.
                    var chunk = task
                    if let extra {
                        if task == 0 { return extra() }
                        chunk -= 1
                    }
                    var compiler = configuring
                    var problems: [Int: [SurveyError]] = [:]
                    let range = (chunk * chunkSize)..<min(stepCount, (chunk + 1) * chunkSize)
                    for index in range {
                        compiler.errors = []
                        let configured = compiler.configure(flatSteps, at: index)
                        questions[index] = configured?.question
                        choiceConditions[index] = configured?.hasChoiceConditions ?? false
                        if !compiler.errors.isEmpty { problems[index] = compiler.errors }
                    }
                    let others = Self.otherChoices(in: range) { questions[$0] }
                    results.store(chunk, errors: problems, otherChoices: others)
                }
            }
        }
    }

    /// A step-id table built on another thread, with the repeated ids it found.
    final class BuiltIDTable: @unchecked Sendable {
        private let lock = NSLock()
        private var storedTable = IDTable()
        private var storedRepeated: [(position: Int, first: Int)] = []

        var table: IDTable { lock.withLock { storedTable } }
        var repeated: [(position: Int, first: Int)] { lock.withLock { storedRepeated } }

        func store(_ table: IDTable, repeated: [(position: Int, first: Int)]) {
            lock.withLock {
                storedTable = table
                storedRepeated = repeated
            }
        }
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

    /// Per-chunk results of configuring the questions.
    final class ConfigurationResults: @unchecked Sendable {
        /// Each step's configured question (`nil` when its type or options are wrong), and whether its
        /// options give choices `visibleIf` conditions: each chunk writes its own steps' in place.
        var questions: [ConfiguredQuestion?]
        var choiceConditions: [Bool]
        // Each chunk writes only its own index, before concurrentPerform returns.
        var errors: [[Int: [SurveyError]]]
        /// The chunk's steps whose question has an Other choice (see ``SurveyCompiler/otherChoices``).
        var otherChoices: [[Int: OtherChoices]]
        private let lock = NSLock()

        init(chunkCount: Int, stepCount: Int) {
            questions = Array(repeating: nil, count: stepCount)
            choiceConditions = Array(repeating: false, count: stepCount)
            errors = Array(repeating: [:], count: chunkCount)
            otherChoices = Array(repeating: [:], count: chunkCount)
        }

        func store(_ chunk: Int, errors: [Int: [SurveyError]], otherChoices: [Int: OtherChoices]) {
            lock.lock()
            defer { lock.unlock() }
            self.errors[chunk] = errors
            self.otherChoices[chunk] = otherChoices
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

    /// The steps in `indices` whose question (`question` gives it) offers an Other choice, with the
    /// values of its other choices. Questions configured once and shared (the same options) are looked
    /// at once. Each chunk of a large survey finds its own, on its own thread.
    static func otherChoices(in indices: Range<Int>, question: (Int) -> ConfiguredQuestion?) -> [Int: OtherChoices] {
        var result: [Int: OtherChoices] = [:]
        var seen: [ObjectIdentifier: OtherChoices?] = [:]
        // A survey has few configurations: the last few are looked for in a list before hashing.
        var recent: [(key: ObjectIdentifier, found: OtherChoices?)] = []
        for index in indices {
            guard let question = question(index) else { continue }
            let key = ObjectIdentifier(question.box)
            if let hit = recent.firstIndex(where: { $0.key == key }) {
                if let found = recent[hit].found { result[index] = found }
                continue
            }
            let found: OtherChoices?
            if let known = seen[key] {
                found = known
            } else {
                if let input = question.input(in: .english).choiceInput, input.choices.contains(where: \.isOther) {
                    found = OtherChoices(regular: Set(input.choices.filter { !$0.isOther }.map(\.value)))
                } else {
                    found = nil
                }
                seen[key] = found
            }
            if recent.count < 8 { recent.append((key, found)) }
            if let found { result[index] = found }
        }
        return result
    }

    /// Per-chunk results of the parallel step compilation.
    final class ChunkResults: @unchecked Sendable {
        // Each chunk writes only its own index, before concurrentPerform returns.
        var steps: [StepColumns]
        var errors: [[SurveyError]]
        var hinted: [[(index: Int, plain: String)]]
        var usesDateFunctions: [Bool]
        var expressionCounts: [Int]
        private let lock = NSLock()

        init(count: Int) {
            steps = Array(repeating: StepColumns(), count: count)
            errors = Array(repeating: [], count: count)
            hinted = Array(repeating: [], count: count)
            usesDateFunctions = Array(repeating: false, count: count)
            expressionCounts = Array(repeating: 0, count: count)
        }

        func store(_ chunk: Int, steps: StepColumns, compiler: SurveyCompiler, expressions: Int) {
            lock.lock()
            defer { lock.unlock() }
            self.steps[chunk] = steps
            errors[chunk] = compiler.errors
            hinted[chunk] = compiler.hintedErrors
            usesDateFunctions[chunk] = compiler.usesDateFunctions
            expressionCounts[chunk] = expressions
        }
    }

    /// Configures one step's question and compiles its expressions; `nil` when it has errors.
    mutating func compileStep(at index: Int, in context: StepContext, expressionCount: inout Int) -> CompiledStep? {
        // `.english` is read where it is needed: most steps never need it, and copying it retains
        // objects every chunk's thread shares.
        let question = context.questions[index]
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
                path: context.flatSteps[index].path, stepID: id, resolve: context.resolve)
        if let panels, !panels.visibleIf.isEmpty {
            visibleIf = combine(
                panels.visibleIf, own: context.flatSteps[index].definition.visibleIf, ownCompiled: visibleIf,
                resolve: context.resolve)
        }
        let requiredIf = compileExpression(
            context.flatSteps[index].definition.requiredIf, member: "requiredIf", path: context.flatSteps[index].path,
            stepID: id,
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
                if let expression = compileExpression(
                    condition, member: "visibleIf",
                    path: Self.choicePath(
                        of: choice.value, in: context.flatSteps[index].definition.options,
                        under: context.flatSteps[index].path.appending("options"), offset: offset),
                    stepID: id, resolve: context.resolve)
                {
                    choiceConditions[choice.value] = expression
                }
            }
        }
        // `choicesFromQuestionMode` selected / unselected: each carried choice shows only when the
        // respondent chose it (or did not) in the source question.
        if let question, let source = context.flatSteps[index].definition.choicesFromQuestion,
            let mode = context.flatSteps[index].definition.choicesFromQuestionMode, mode != "all",
            let input = question.input(in: .english).choiceInput
        {
            for (offset, choice) in input.choices.enumerated() where !choice.isOther {
                let literal =
                    "'"
                    + choice.value.replacingOccurrences(of: "\\", with: "\\\\")
                    .replacingOccurrences(of: "'", with: "\\'") + "'"
                var condition = "{\(source)} \(mode == "selected" ? "anyof" : "noneof") [\(literal)]"
                if let own = choice.visibleIf { condition = "(\(own)) and (\(condition))" }
                if let expression = compileExpression(
                    condition, member: "visibleIf",
                    path: Self.choicePath(
                        of: choice.value, in: context.flatSteps[index].definition.options,
                        under: context.flatSteps[index].path.appending("options"), offset: offset),
                    stepID: id, resolve: context.resolve)
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
            path: context.flatSteps[index].path, stepID: id, resolve: context.resolve)
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
                resolve: context.resolve)
        }
        var typeExpressions: [String: Expression] = [:]
        let declaredExpressions = question?.expressions ?? [:]
        for (name, source) in declaredExpressions.isEmpty ? [] : declaredExpressions.sorted(by: { $0.key < $1.key }) {
            if let compiled = compileExpression(
                source, member: name, path: context.flatSteps[index].optionsPath, stepID: id, resolve: context.resolve)
            {
                typeExpressions[name] = compiled
            }
        }
        var enableIf = compileExpression(
            context.flatSteps[index].definition.enableIf, member: "enableIf", path: context.flatSteps[index].path,
            stepID: id, resolve: context.resolve)
        if let panels, !panels.enableIf.isEmpty {
            enableIf = combine(
                panels.enableIf, own: context.flatSteps[index].definition.enableIf, ownCompiled: enableIf,
                resolve: context.resolve)
        }
        expressionCount +=
            (visibleIf == nil && visibleIfCell == nil ? 0 : 1) + (requiredIf == nil ? 0 : 1)
            + branches.filter { $0.condition != nil }.count
            + choiceConditions.count + (defaultExpression == nil ? 0 : 1) + (enableIf == nil ? 0 : 1)
        guard let question else { return nil }
        let collects = question.collectsAnswer
        var defaultValue: JSONValue?
        if let value = context.flatSteps[index].definition.defaultValue {
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
            enableIf: enableIf, typeExpressions: typeExpressions, visibleIfCell: visibleIfCell)
    }

    mutating func configure(_ flatSteps: [FlatStep], at index: Int) -> Configuration? {
        // Read through the array: a copy of the step would retain each of its members.
        let typeID = flatSteps[index].definition.type
        let options = flatSteps[index].definition.options
        // Compared in place: iterating the entries copied each (three retains and releases).
        for position in recentConfigurations.indices
        where Self.identical(recentConfigurations[position].typeID, typeID)
            && Self.identical(recentConfigurations[position].options, options)
        {
            return recentConfigurations[position].configuration
        }
        guard let type = registry.type(withID: typeID) else {
            var message = "unknown question type '\(typeID)'"
            if typeID == StepDefinition.pageTypeID {
                message = "pages cannot be nested inside pages"
            } else {
                if let suggestion = closestMatch(
                    to: typeID, in: registry.typeIDs + [StepDefinition.pageTypeID])
                {
                    message += " (did you mean '\(suggestion)'?)"
                }
                message += "; registered types: \(registry.typeIDs.joined(separator: ", "))"
            }
            errors.append(
                SurveyError(
                    .unknownType, message, path: flatSteps[index].path.appending("type"),
                    stepID: flatSteps[index].definition.id))
            return nil
        }
        // Surveys repeat the same options (a 1–5 scale, a yes/no list) many times: configure each
        // distinct (type, options) once and share the immutable result.
        let key = ConfigurationKey(typeID: typeID, options: options)
        if let cached = configured[key] {
            remember(cached, typeID: typeID, options: options)
            return cached
        }
        do {
            let question = try type.configure(
                options: key.options, path: flatSteps[index].optionsPath, stepID: flatSteps[index].definition.id)
            let configuration = Configuration(
                question: question, hasChoiceConditions: options.containsMember(named: "visibleIf"))
            if configured.count < 4096 { configured[key] = configuration }
            remember(configuration, typeID: typeID, options: options)
            return configuration
        } catch {
            var located = error
            located.stepID = flatSteps[index].definition.id
            if located.kind == .invalidValue || located.kind == .missingField {
                located.kind = .invalidOptions
            }
            errors.append(located)
            return nil
        }
    }

    /// Keeps `configuration` among ``recentConfigurations``, in place of the oldest when they are full.
    mutating func remember(_ configuration: Configuration, typeID: String, options: JSONValue) {
        let entry = (typeID: typeID, options: options, configuration: configuration)
        if recentConfigurations.count < Self.recentConfigurationCount {
            recentConfigurations.append(entry)
        } else {
            recentConfigurations.removeFirst()
            recentConfigurations.append(entry)
        }
    }

    /// Whether two values have the same bit pattern, so certainly are equal (the same small string,
    /// or the same storage). Unequal bits say nothing: equal values may be stored apart.
    @inline(__always)
    static func identical<T>(_ a: T, _ b: T) -> Bool {
        // A word at a time (a byte-by-byte `elementsEqual` was about 300 instructions a step).
        withUnsafeBytes(of: a) { x in
            withUnsafeBytes(of: b) { y in
                let count = MemoryLayout<T>.size
                var offset = 0
                while offset + 8 <= count {
                    guard
                        x.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                            == y.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                    else { return false }
                    offset += 8
                }
                while offset < count {
                    guard x[offset] == y[offset] else { return false }
                    offset += 1
                }
                return true
            }
        }
    }

    mutating func compileExpression(
        _ source: String?, member: String, path: @autoclosure () -> JSONPath, stepID: String?,
        resolve: @escaping (String) -> Int?
    ) -> Expression? {
        guard let source else { return nil }
        do {
            let expression = try Expression(
                source, functions: functions, resolve: resolve, otherChoices: otherChoices,
                displayQuestion: displayQuestion)
            if expression.callsImpureFunction { usesDateFunctions = true }
            return expression
        } catch {
            let kind: SurveyError.Kind
            switch error.kind {
            case .syntax: kind = .expressionSyntax
            case .unknownReference: kind = .unknownReference
            case .unknownFunction, .wrongArgumentCount: kind = .unknownFunction
            }
            errors.append(
                SurveyError(
                    kind, "invalid \(member) \"\(source)\" at column \(error.column): \(error.message)",
                    path: path().appending(member), stepID: stepID))
            return nil
        }
    }

    /// Compiles `$.triggers`: conditions and expressions, targets that must be steps taking an
    /// answer (`skip`: any step or page), and a `setvalue` value the target's type must accept.
    mutating func compileTriggers(
        resolve: @escaping (String) -> Int?, steps: StepColumns, stepIndexByID: IDTable,
        unitIndexByID: IDTable, expressionCount: inout Int
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
                                value: try ConfiguredQuestion(box: steps.questions[index].takeUnretainedValue())
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

    mutating func checkPiping(
        _ text: LocalizedText?, path: @autoclosure () -> JSONPath, stepID: String, resolve: (String) -> Int?
    ) {
        guard let text else { return }
        if let plain = text.plainText, !plain.utf8.contains(UInt8(ascii: "{")) { return }
        for (locale, value) in text.translations where value.utf8.contains(UInt8(ascii: "{")) {
            for name in PipedText.references(in: value) {
                let root = name.split(whereSeparator: { $0 == "." || $0 == "[" }).first.map(String.init) ?? name
                let isOtherText =
                    name.hasSuffix("-Comment")
                    && resolve(String(name.dropLast(8))).map {
                        otherChoices[$0] != nil
                    } == true
                if resolve(name) == nil && resolve(root) == nil && !isOtherText {
                    let memberPath =
                        text.plainText != nil ? path() : path().appending(locale)
                    errors.append(
                        SurveyError(
                            .unknownReference,
                            "text pipes {\(name)}, but there is no step or calculated value '\(root)'",
                            path: memberPath, stepID: stepID))
                }
            }
        }
    }

    /// The calculated values in evaluation order (each after the values it reads).
    /// - Throws: a `dependencyCycle` error naming the cycle, or an `invalidValue` error when a chain
    ///   of dependent values is longer than ``SurveyLoader/maximumCalculatedChain``.
    func calculatedOrder(_ values: [CompiledCalculated], stepCount: Int) throws(SurveyLoadError) -> [Int] {
        // An iterative depth-first search (a recursive one overflows the stack on long chains).
        var state = [UInt8](repeating: 0, count: values.count)  // 0 new, 1 visiting, 2 done
        /// For each finished value, the length of the longest chain of calculated values it ends.
        var chainLength = [Int](repeating: 0, count: values.count)
        var order: [Int] = []
        order.reserveCapacity(values.count)
        /// The values being visited, each with the position of the next slot to look at.
        var stack: [(index: Int, next: Int)] = []
        func failure(_ kind: SurveyError.Kind, _ message: String, at index: Int) -> SurveyLoadError {
            SurveyLoadError(errors: [
                SurveyError(
                    kind, message, path: JSONPath.root.appending("calculatedValues").appending(index))
            ])
        }
        for root in values.indices where state[root] == 0 {
            state[root] = 1
            stack.append((root, 0))
            while let (index, next) = stack.last {
                let slots = values[index].expression.slots
                if next < slots.count {
                    stack[stack.count - 1].next += 1
                    let slot = slots[next]
                    guard slot >= stepCount else { continue }
                    let dependency = slot - stepCount
                    switch state[dependency] {
                    case 0:
                        state[dependency] = 1
                        stack.append((dependency, 0))
                    case 1:
                        let start = stack.firstIndex { $0.index == dependency } ?? 0
                        var names = stack[start...].map { values[$0.index].name } + [values[dependency].name]
                        var count = ""
                        if names.count > 12 {
                            count = " (\(names.count - 1) calculated values)"
                            names = names.prefix(5) + ["…"] + names.suffix(5)
                        }
                        throw failure(
                            .dependencyCycle,
                            "calculated values depend on each other in a cycle: \(names.joined(separator: " → "))\(count)",
                            at: dependency)
                    default:
                        break
                    }
                    continue
                }
                stack.removeLast()
                var length = 1
                for slot in slots where slot >= stepCount {
                    length = max(length, chainLength[slot - stepCount] + 1)
                }
                if length > SurveyLoader.maximumCalculatedChain {
                    throw failure(
                        .invalidValue,
                        "calculated value '\(values[index].name)' ends a chain of more than \(SurveyLoader.maximumCalculatedChain) calculated values that depend on one another",
                        at: index)
                }
                chainLength[index] = length
                state[index] = 2
                order.append(index)
            }
        }
        return order
    }
}

extension JSONValue {
    /// Whether this value or any nested object has a member named `name`.
    func containsMember(named name: String) -> Bool {
        switch self {
        case .object(let members):
            return members[name] != nil || members.values.contains { $0.containsMember(named: name) }
        case .array(let elements):
            return elements.contains { $0.containsMember(named: name) }
        default:
            return false
        }
    }
}

/// `{name}` references inside user-facing text.
enum PipedText {
    static func references(in text: String) -> [String] {
        var names: [String] = []
        var remainder = Substring(text)
        while let open = remainder.firstIndex(of: "{") {
            let after = remainder.index(after: open)
            guard let close = remainder[after...].firstIndex(of: "}") else { break }
            let name = remainder[after..<close].trimmingCharacters(in: .whitespaces)
            if !name.isEmpty { names.append(name) }
            remainder = remainder[remainder.index(after: close)...]
        }
        return names
    }
}

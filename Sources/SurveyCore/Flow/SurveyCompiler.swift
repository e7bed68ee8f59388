import Foundation

/// Turns a decoded ``SurveyDefinition`` into a ``Survey``: a pipeline of named stages, each in a
/// file of its own (`SurveyCompiler+<Stage>.swift`), each taking and returning values.
///
/// 1. **Flatten** pages into units and leaf steps (``flatten()``).
/// 2. **Names**: the step-id table, then every other id and name, checked for clashes
///    (``name(_:stepIDs:)``); choices carried forward once ids are known (``carryChoicesForward(_:names:)``).
/// 3. **Configure** each step's question type with its options (``configureQuestions(_:pieces:alongside:)``).
/// 4. **Steps**: each step's expressions and rules (``compileSteps(_:names:configured:pieces:)``), and
///    validators.
/// 5. **Units**, values, completion messages and panels (``compileUnits(_:flatSteps:names:)`` …).
/// 6. **Rules**: triggers (``compileTriggers(resolve:steps:stepIndexByID:unitIndexByID:)``).
/// 7. **Dependencies**: the watcher table and the order of calculated values (``makeWatchers(steps:units:calculated:triggers:)``).
///
/// Errors are collected in ``errors`` by every stage (so one load reports everything it can) and
/// thrown together before the survey is assembled. Large surveys' steps are configured and compiled
/// in pieces on ``parallelism``'s threads; nothing else here runs on other threads.
struct SurveyCompiler {
    let definition: SurveyDefinition
    let registry: QuestionTypeRegistry
    let functions: ExpressionFunctionRegistry
    /// The threads large surveys' steps are configured and compiled on (the loader's).
    let parallelism: Parallelism
    /// How many expressions the survey has (``Survey/expressionCount``), counted as they compile.
    var expressionCount = 0
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
    /// What expressions compile with beyond names: ``displayQuestion`` and `{$name.property}` (set once
    /// questions are configured, until the rules are compiled: it holds the flat steps).
    var compileContext: ExpressionCompileContext?
    /// The owner of step `index`'s own expressions (``ExpressionOwner``), while ``compileContext`` is set.
    var stepOwner: (@Sendable (Int) -> ExpressionOwner)?
    /// `{$name.property}` in texts, compiled (``Survey/pipedProperties``).
    var pipedProperties: [String: Expression] = [:]

    init(
        definition: SurveyDefinition, registry: QuestionTypeRegistry, functions: ExpressionFunctionRegistry,
        parallelism: Parallelism = .serial
    ) {
        self.definition = definition
        self.registry = registry
        self.functions = functions
        self.parallelism = parallelism
    }

    /// Compiles the survey, stage by stage.
    /// - Throws: ``SurveyLoadError`` with every problem the stages found.
    mutating func compile() throws(SurveyLoadError) -> Survey {
        var flat = flatten()
        let pieces = StepPieces(stepCount: flat.steps.count, parallelism: parallelism)
        // Questions are configured while the step-id table is built on another thread, unless choices
        // are carried forward: those questions' options are known only once every id is.
        let names: Names
        let configured: ConfiguredSteps
        if flat.carriesChoices {
            names = name(flat, stepIDs: StepIDs(of: flat.steps, parallelism: parallelism))
            carryChoicesForward(&flat.steps, names: names)
            configured = configureQuestions(flat.steps, pieces: pieces).configured
        } else {
            // The task's copy of the step list ends with this block (the list is the load's largest
            // temporary, and is dropped before the survey is assembled).
            let (steps, parallelism) = (flat.steps, parallelism)
            let result = configureQuestions(steps, pieces: pieces) { StepIDs(of: steps, parallelism: parallelism) }
            configured = result.configured
            names = name(flat, stepIDs: result.extra ?? StepIDs(of: steps, parallelism: parallelism))
        }
        let questions = configured.questions
        displayQuestion = { $0 < questions.count ? questions[$0] : nil }
        let properties = elementProperties(flat, names: names)
        compileContext = ExpressionCompileContext(
            displayQuestion: displayQuestion, resolveProperty: properties.resolver)
        stepOwner = { properties.owner(ofStep: $0) }

        var steps = compileSteps(flat.steps, names: names, configured: configured, pieces: pieces)
        let validation = compileValidators(flat.steps, questions: questions, resolve: names.resolve)
        expressionCount += validation.expressionCount
        let units = compileUnits(flat.units, flatSteps: flat.steps, names: names)
        let values = compileValues(flatSteps: flat.steps, names: names, questions: questions)
        let stepCount = flat.steps.count
        flat.steps = []  // no longer needed: freed before the survey is assembled
        let completion = compileCompletion(names.resolve)
        let triggers = compileTriggers(
            resolve: names.resolve, steps: steps, stepIndexByID: names.steps, unitIndexByID: names.units)
        let panels = compilePanels(flat.panels, resolve: names.resolve)
        let quotas = compileQuotas(steps: steps, names: names)
        compileContext = nil  // it holds the flat steps
        stepOwner = nil
        if !errors.isEmpty { throw SurveyLoadError(errors: errors) }
        // The ids are the step-id table's keys (one per step, in order, once no id repeats).
        if !steps.setIDs(names.steps.keys) {
            _ = steps.setIDs(
                (0..<steps.count).map { index in
                    definition.step(unitOffset: steps.unitOffsets[index], childOffset: steps.childOffsets[index]).id
                })
        }
        let watchers = Self.makeWatchers(
            steps: steps, units: units, calculated: values.values, triggers: triggers)
        let order = try calculatedOrder(values.values, stepCount: stepCount)
        return Survey(
            definition: definition, functions: functions, units: units, steps: StepTable(steps, definition: definition),
            calculated: values.values, stepIndexByID: names.steps, unitIndexByID: names.units,
            calculatedIndexByName: names.calculated, watchers: watchers, calculatedOrder: order,
            expressionCount: expressionCount, usesDateFunctions: usesDateFunctions, otherChoices: otherChoices,
            triggers: triggers, completionMessages: completion.messages, completionRedirects: completion.redirects,
            validators: validation.validators, panels: panels, commentSlots: values.commentSlots,
            pipedProperties: pipedProperties, quotas: quotas)
    }
}

import Foundation

// Stage 2 of the compiler: steps, pages, panels, calculated values, host variables and comment
// values share one namespace. Each gets its place, a clash is an error at both places, and choices
// carried forward from another question are copied in once every id is known.

extension SurveyCompiler {
    /// The step-id table (its keys are the step ids in document order), and each repeated id's
    /// position with its first one's.
    struct StepIDs: Sendable {
        var table = IDTable()
        var repeated: [(position: Int, first: Int)] = []

        /// The table of `steps`' ids, hashed on `parallelism`'s threads.
        init(of steps: [FlatStep], parallelism: Parallelism) {
            table = IDTable(positionsOf: steps.map(\.definition.id), repeated: &repeated, parallelism: parallelism)
        }
    }

    /// Every name an expression, a branch or a trigger can use, and what it stands for.
    struct Names: Sendable {
        /// Each step's index by id.
        let steps: IDTable
        /// Each unit's index by id: every page, and each top-level step.
        let units: IDTable
        /// Calculated values, then host variables, then comment values: each name's position among
        /// the values that follow the steps.
        let calculated: [String: Int]
        /// The steps whose comment area is a value (`<id>-Comment`), in the order of their values.
        let commentSteps: [Int]
        /// The slot a `{name}` reads: a step's index, or the step count plus a value's position.
        let resolve: @Sendable (String) -> Int?
    }

    /// Checks every id and name of the survey for clashes (errors at both places) and gives each
    /// its place (stage 2).
    mutating func name(_ flat: FlatSurvey, stepIDs: StepIDs) -> Names {
        let stepIndexByID = stepIDs.table
        var calculatedIndexByName: [String: Int] = [:]
        func duplicate(_ id: String, at path: @autoclosure () -> JSONPath, member: String, previous: JSONPath) {
            errors.append(
                SurveyError(
                    .duplicateID, "duplicate id '\(id)': already used at \(previous)", path: path().appending(member),
                    stepID: id))
        }
        for (index, previous) in stepIDs.repeated {
            duplicate(
                flat.steps[index].definition.id, at: flat.steps[index].path, member: "id",
                previous: flat.steps[previous].path)
        }
        var unitIndexByID = IDTable(minimumCapacity: flat.units.count)
        // The page with id `id` (the unit table has every page's id: no dictionary of them is made).
        func pageIndex(_ id: String) -> Int? {
            guard let index = unitIndexByID[id], flat.units[index].definition.isPage else { return nil }
            return index
        }
        // The units' ids in the step table, looked up together (their cache misses overlap).
        var unitIDsAsSteps: [Int?] = []
        do {
            var scratch = IDTable.BatchScratch()
            stepIndexByID.values(of: flat.units.map(\.definition.id), into: &unitIDsAsSteps, scratch: &scratch)
        }
        for index in flat.units.indices {
            let id = flat.units[index].definition.id
            if flat.units[index].definition.isPage {
                if let previous = unitIDsAsSteps[index] {
                    duplicate(id, at: flat.units[index].path, member: "id", previous: flat.steps[previous].path)
                } else if let previous = unitIndexByID.insert(id, index) {
                    // Only a page can be there: another unit's id is a step's, found just above.
                    duplicate(id, at: flat.units[index].path, member: "id", previous: flat.units[previous].path)
                }
            } else if unitIDsAsSteps[index] == flat.units[index].steps.lowerBound {
                unitIndexByID.insert(id, index)
            }
        }
        var panelIndexByID: [String: Int] = [:]
        for (index, panel) in flat.panels.enumerated() {
            let id = panel.definition.id
            if let previous = stepIndexByID[id] {
                duplicate(id, at: panel.path, member: "id", previous: flat.steps[previous].path)
            } else if let previous = pageIndex(id) {
                duplicate(id, at: panel.path, member: "id", previous: flat.units[previous].path)
            } else if let previous = panelIndexByID[id] {
                duplicate(id, at: panel.path, member: "id", previous: flat.panels[previous].path)
            } else {
                panelIndexByID[id] = index
            }
        }
        /// Where a value's `name` is already used, if anywhere but among the values.
        func previousUse(of name: String) -> JSONPath? {
            if let previous = panelIndexByID[name] { return flat.panels[previous].path }
            if let previous = stepIndexByID[name] { return flat.steps[previous].path }
            if let previous = pageIndex(name) { return flat.units[previous].path }
            return nil
        }
        let calculatedPath = JSONPath.root.appending("calculatedValues")
        for (index, value) in definition.calculatedValues.enumerated() {
            let name = value.name
            if let previous = previousUse(of: name) {
                duplicate(name, at: calculatedPath.appending(index), member: "name", previous: previous)
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
            if let previous = previousUse(of: name) {
                duplicate(name, at: path, member: "name", previous: previous)
            } else if calculatedIndexByName[name] != nil {
                duplicate(name, at: path, member: "name", previous: path)
            } else {
                calculatedIndexByName[name] = definition.calculatedValues.count + position
            }
        }
        // Comment boxes (`showCommentArea`): `<id>-Comment` is a value the session sets, after the
        // host variables among the calculated slots, so that expressions read it as `{<id>-Comment}`.
        var commentSteps: [Int] = []
        for index in flat.commentCandidates {
            let step = flat.steps[index]
            let name = step.definition.id + "-Comment"
            if let previous = stepIndexByID[name] {
                duplicate(name, at: step.path, member: "showCommentArea", previous: flat.steps[previous].path)
            } else if calculatedIndexByName[name] != nil {
                duplicate(name, at: step.path, member: "showCommentArea", previous: step.path)
            } else if stepIndexByID[step.definition.id] == index {
                calculatedIndexByName[name] =
                    definition.calculatedValues.count + definition.variables.count + commentSteps.count
                commentSteps.append(index)
            }
        }
        let stepCount = flat.steps.count
        let resolve: @Sendable (String) -> Int? = { [stepIndexByID, calculatedIndexByName] name in
            if let index = stepIndexByID[name] { return index }
            if let index = calculatedIndexByName[name] { return stepCount + index }
            return nil
        }
        return Names(
            steps: stepIndexByID, units: unitIndexByID, calculated: calculatedIndexByName, commentSteps: commentSteps,
            resolve: resolve)
    }

    /// Gives each question with `choicesFromQuestion` its source's `options.choices` (sources that
    /// carry forward themselves are resolved first, up to 8 deep).
    mutating func carryChoicesForward(_ flatSteps: inout [FlatStep], names: Names) {
        for _ in 0..<8 {
            var changed = false
            for index in flatSteps.indices {
                let definition = flatSteps[index].definition
                guard let source = definition.choicesFromQuestion, definition.options["choices"] == nil else {
                    continue
                }
                let path = flatSteps[index].path.appending("choicesFromQuestion")
                guard let sourceIndex = names.steps[source], sourceIndex != index else {
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
        for step in flatSteps
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
    }
}

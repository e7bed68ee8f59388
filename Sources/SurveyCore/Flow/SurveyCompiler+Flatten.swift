import Foundation

// Stage 1 of the compiler: pages flattened into units and leaf steps, with each step's place in the
// file and the rules of the panels around it.

extension SurveyCompiler {
    /// The survey's steps in document order, each page's children in place of the page.
    struct FlatSurvey {
        var steps: [FlatStep] = []
        var units: [FlatUnit] = []
        var panels: [FlatPanel] = []
        /// Whether any step carries choices forward (`choicesFromQuestion`): questions can then be
        /// configured only once every step's id is known.
        var carriesChoices = false
        /// The steps with `showCommentArea`, by index.
        var commentCandidates: [Int] = []
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

    struct FlatUnit {
        let definition: StepDefinition
        let unitOffset: Int
        var steps: Range<Int>

        var path: JSONPath { JSONPath.root.appending("steps").appending(unitOffset) }
    }

    /// Flattens pages into units and leaf steps (stage 1).
    mutating func flatten() -> FlatSurvey {
        var flat = FlatSurvey()
        // Reserved exactly: a step is some 400 bytes here, and growing by doubling from the unit
        // count (a page holds many steps) left up to half of a 100,000-step array unused at the peak.
        var leafCount = 0
        for position in definition.steps.indices {
            leafCount += definition.steps[position].isPage ? definition.steps[position].steps.count : 1
        }
        flat.steps.reserveCapacity(leafCount)
        flat.units.reserveCapacity(definition.steps.count)
        // File positions differ from definition positions only when the decoder left out steps with
        // problems; such a survey never compiles, but its other errors must point at the right place.
        let sourceMap = definition.sourceMap
        // Carried choices and comment areas are noted while flattening, each step's definition being
        // read then: a pass of its own over a large survey's steps is a pass over memory.
        // Index loops here: `enumerated()` copies each element (a step definition and its members,
        // retained one by one) before the body reads two of its fields.
        for position in definition.steps.indices {
            let step = definition.steps[position]
            let start = flat.steps.count
            let unitOffset = sourceMap?.units[position] ?? position
            if step.isPage {
                let panels =
                    step.panels.isEmpty
                    ? nil
                    : flattenPanels(
                        of: step, position: position, unit: flat.units.count, unitOffset: unitOffset,
                        firstStep: start, into: &flat.panels)
                for childPosition in step.steps.indices {
                    var flatStep = FlatStep(
                        siblings: step.steps, position: childPosition, unit: flat.units.count, unitOffset: unitOffset,
                        childOffset: childPosition)
                    var fileInner: [Int] = []
                    if let path = panels?.paths?[childPosition]
                        ?? sourceMap.map({ $0.childPath(unit: position, child: childPosition) }), let first = path.first
                    {
                        flatStep.fileChild = first
                        fileInner = Array(path.dropFirst())
                    }
                    flatStep.place(fileInner: fileInner, panels: panels?.conditions[childPosition])
                    flat.steps.append(flatStep)
                    if step.steps[childPosition].hasRareMembers {
                        flat.noteRareMembers(of: step.steps[childPosition], at: flat.steps.count - 1)
                    }
                }
            } else {
                flat.steps.append(
                    FlatStep(
                        siblings: definition.steps, position: position, unit: flat.units.count, unitOffset: unitOffset,
                        childOffset: -1))
                if step.hasRareMembers { flat.noteRareMembers(of: step, at: flat.steps.count - 1) }
            }
            flat.units.append(FlatUnit(definition: step, unitOffset: unitOffset, steps: start..<flat.steps.count))
        }
        return flat
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
}

extension SurveyCompiler.FlatSurvey {
    /// Notes what the step at `index` needs of later stages: carried choices, a comment area.
    mutating func noteRareMembers(of step: StepDefinition, at index: Int) {
        carriesChoices = carriesChoices || step.choicesFromQuestion != nil
        if step.showCommentArea { commentCandidates.append(index) }
    }
}

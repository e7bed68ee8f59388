import SurveyCore

/// `forward-reference`: a condition (or a piped text) that reads a question asked later, so the
/// answer is always empty when it is evaluated.
///
/// A question's answer counts only once its page has been reached; a condition evaluated earlier
/// reads "no answer". Decided by the flow analysis: the question is on a later unit (or, for a
/// page's own `visibleIf`, on that page) and no path has answered it by then (a backward jump that
/// brings respondents round again makes the answer available, and is not reported).
final class ForwardReferenceCheck: LintCheck {
    func visit(_ states: UnitStates, _ context: LintContext) {
        let model = context.model
        let unitIndex = states.unit
        let unit = model.units[unitIndex]
        guard unit.isEnabled, let gate = states.gate else { return }
        for index in context.conditionsByUnit[unitIndex] {
            let site = model.conditions[index]
            let state: AbstractState?
            var decidedBeforeShown = false
            switch site.kind {
            case .pageVisibility:
                state = gate
                decidedBeforeShown = true
            case .stepVisibility:
                state = unit.isPage ? states.inUnit : gate
                decidedBeforeShown = !unit.isPage
            case .requirement, .choice, .validator:
                state = states.inUnit
            case .branch:
                state = states.exit
            }
            guard let state else { continue }
            check(
                site.expression.referencedSlots, at: unitIndex, in: state, includeOwnUnit: decidedBeforeShown,
                what: "\(site.memberName) \(context.quoted(site))", stepID: site.stepID, path: site.path, context)
        }
        // Piped answers in texts.
        guard let inUnit = states.inUnit else { return }
        var texts: [(owner: String, path: JSONPath, text: LocalizedText?)] = []
        let definitions = model.survey.definition.steps
        if unit.isPage, definitions.indices.contains(unit.unitOffset), definitions[unit.unitOffset].id == unit.id {
            let definition = definitions[unit.unitOffset]
            texts.append((unit.id, unit.path.appending("title"), definition.title))
            texts.append((unit.id, unit.path.appending("description"), definition.description))
        }
        for step in unit.steps {
            let definition = model.steps[step].definition
            texts.append((definition.id, model.steps[step].path.appending("title"), definition.title))
            texts.append((definition.id, model.steps[step].path.appending("description"), definition.description))
        }
        for (owner, path, text) in texts {
            guard let text else { continue }
            var slots: [Int] = []
            for (_, value) in text.translations.sorted(by: { $0.key < $1.key }) where value.contains("{") {
                for name in Survey.pipedReferences(in: value) {
                    let root = name.split(separator: ".").first.map(String.init) ?? name
                    if let slot = context.stepIndexByID[root], !slots.contains(slot) { slots.append(slot) }
                }
            }
            guard !slots.isEmpty else { continue }
            check(
                slots, at: unitIndex, in: inUnit, includeOwnUnit: false,
                what:
                    "the \(path.components.last.map { if case .key(let key) = $0 { return key } else { return "text" } } ?? "text") of '\(owner)'",
                stepID: owner, path: path, context, isText: true)
        }
    }

    private var reported = Set<String>()

    private func check(
        _ slots: [Int], at unit: Int, in state: AbstractState, includeOwnUnit: Bool, what: String, stepID: String,
        path: JSONPath, _ context: LintContext, isText: Bool = false
    ) {
        let model = context.model
        for slot in slots {
            let steps = slot < model.stepCount ? [slot] : model.stepSlots(ofSlots: [slot])
            for step in steps {
                let asked = model.steps[step].unit
                guard asked > unit || (includeOwnUnit && asked == unit), model.steps[step].collectsAnswer,
                    state.sets[step] == .noAnswer
                else { continue }
                guard reported.insert("\(path)|\(step)").inserted else { continue }
                let name = model.steps[step].id
                let through =
                    slot < model.stepCount ? "{\(name)}" : "{\(model.name(ofSlot: slot))}, which depends on {\(name)},"
                func located(_ unit: Int) -> String {
                    model.units[unit].isPage ? " (on page '\(model.units[unit].id)')" : ""
                }
                let message: String
                if asked == unit {
                    message =
                        "\(what) reads \(through) a question on the same page: a page's visibleIf is decided before the page is shown, so \(through.hasSuffix(",") ? "it" : "{\(name)}") is always empty then; put the condition on the page's questions instead"
                } else if isText {
                    message =
                        "\(what) shows \(through) but '\(name)' is asked later\(located(asked)), so it is always empty here; show it after '\(name)' is answered"
                } else {
                    message =
                        "\(what) reads \(through) but '\(name)' is asked later\(located(asked)), so it is always empty when this is evaluated; ask '\(name)' earlier or move the condition after it"
                }
                context.report(.forwardReference, message, stepID: stepID, path: path)
            }
        }
    }
}

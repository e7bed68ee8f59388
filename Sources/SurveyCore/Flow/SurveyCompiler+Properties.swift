import Foundation

// SurveyJS's `{$name.property}`: what an expression reads of a question, page or panel, or of the
// survey, resolved when the expression compiles (stage 4 on). See ``ElementPropertyValue``.

extension SurveyCompiler {
    /// The properties `{$name.property}` reads, and what each is here.
    ///
    /// Names are matched as written (ids are exact in this format; the SurveyJS importer writes
    /// each reference as its question's name is written). Property names are matched as written too,
    /// as survey-core reads JavaScript properties (`isVisible`, not `isvisible`).
    struct ElementProperties: Sendable {
        static let questionProperties = ElementPropertyValue.questionProperties
        static let containerProperties = ElementPropertyValue.containerProperties
        static let surveyProperties = ElementPropertyValue.surveyProperties

        let steps: [FlatStep]
        let units: [FlatUnit]
        let panels: [FlatPanel]
        let stepIndex: IDTable
        let unitIndex: IDTable
        let surveyTitle: LocalizedText
        let functions: ExpressionFunctionRegistry
        let resolve: @Sendable (String) -> Int?
        let otherChoices: [Int: OtherChoices]
        let displayQuestion: (@Sendable (Int) -> ConfiguredQuestion?)?
        /// The panels each step in panels is in, outer first (indexes into ``panels``).
        let panelsOfStep: [Int: [Int]]
        /// How many `{$…}` references led here.
        var depth = 0

        /// The resolver expressions compile with.
        var resolver: ElementPropertyResolver {
            { element, property, owner in value(of: element, property, owner: owner) }
        }

        /// The owner of step `index`'s own expressions: the step and its innermost panel.
        func owner(ofStep index: Int) -> ExpressionOwner {
            ExpressionOwner(
                step: steps[index].definition.id, panel: panelsOfStep[index]?.last.map { panels[$0].definition.id })
        }

        func value(of element: String, _ property: String, owner: ExpressionOwner? = nil) -> ElementPropertyValue {
            if ElementPropertyValue.relativeElements.contains(element) {
                return relativeValue(of: element, property, owner: owner)
            }
            if element == "survey" { return surveyValue(property) }
            if let index = stepIndex[element] {
                guard Self.questionProperties.contains(property) else {
                    return .unknownProperty(known: Self.questionProperties)
                }
                let step = steps[index].definition
                let panels = steps[index].panels
                let owner = self.owner(ofStep: index)
                switch property {
                case "isVisible", "visible":
                    return step.isEnabled
                        ? condition(step.visibleIf, whenAbsent: true, owner: owner) : .constant(.bool(false))
                case "readOnly":
                    return step.isReadOnly
                        ? .constant(.bool(true))
                        : condition(step.enableIf, whenAbsent: true, negated: true, owner: owner)
                case "isReadOnly":
                    if step.isReadOnly || panels?.isReadOnly == true { return .constant(.bool(true)) }
                    let enableIf = (panels?.enableIf ?? []) + (step.enableIf.map { [$0] } ?? [])
                    return condition(
                        enableIf.isEmpty ? nil : enableIf.map { "(\($0))" }.joined(separator: " and "),
                        whenAbsent: true, negated: true, owner: owner)
                case "isRequired":
                    return step.requiredIf == nil
                        ? .constant(.bool(step.isRequired))
                        : condition(step.requiredIf, whenAbsent: false, owner: owner)
                case "containsErrors":
                    // An answer its checks refuse is never stored here, so no stored answer has errors.
                    return .constant(.bool(false))
                case "name":
                    return .constant(.string(step.id))
                default:
                    return text(step.title, name: "$\(element).title", whenAbsent: .string(step.id))
                }
            }
            let pageUnit = unitIndex[element].flatMap { units[$0].definition.isPage ? $0 : nil }
            let page = pageUnit.map { units[$0].definition }
            let panelIndex = page == nil ? panels.firstIndex { $0.definition.id == element } : nil
            let panel = panelIndex.map { panels[$0].definition }
            guard page != nil || panel != nil else { return .unknownElement }
            guard Self.containerProperties.contains(property) else {
                return .unknownProperty(known: Self.containerProperties)
            }
            let isEnabled = page?.isEnabled ?? panel?.isEnabled ?? true
            let isReadOnly = page?.isReadOnly ?? panel?.isReadOnly ?? false
            switch property {
            case "isVisible", "visible":
                guard isEnabled else { return .constant(.bool(false)) }
                let own = page?.visibleIf ?? panel?.visibleIf
                // survey-core: a page or panel without a visible question is not visible.
                let content =
                    pageUnit.map { contentCondition(steps: Array(units[$0].steps), inside: nil) }
                    ?? panelIndex.map { contentCondition(steps: panels[$0].steps, inside: $0) } ?? .some(nil)
                switch content {
                case .none: return .constant(.bool(false))
                case .some(.none): return condition(own, whenAbsent: true)
                case .some(.some(let content)):
                    return condition(own.map { "(\($0)) and (\(content))" } ?? content, whenAbsent: true)
                }
            case "isReadOnly", "readOnly":
                return isReadOnly
                    ? .constant(.bool(true))
                    : condition(page?.enableIf ?? panel?.enableIf, whenAbsent: true, negated: true)
            case "name":
                return .constant(.string(element))
            default:
                return text(page?.title ?? panel?.title, name: "$\(element).title", whenAbsent: .null)
            }
        }

        /// `{$self.…}`, `{$panel.…}`, `{$parent.…}`, `{$item.…}`, `{$choice.…}`: relative to `owner`,
        /// empty where it has no such element (as survey-core reads them).
        func relativeValue(of element: String, _ property: String, owner: ExpressionOwner?) -> ElementPropertyValue {
            let known = ElementPropertyValue.relativeProperties(of: element)
            guard known.contains(property) else { return .unknownProperty(known: known) }
            if element != "panel", element != "parent", let choice = owner?.choice {
                return .constant(property == "value" ? choice.value : .string(choice.label))
            }
            switch element {
            case "self":
                guard let step = owner?.step, ElementPropertyValue.questionProperties.contains(property) else {
                    return .constant(.null)
                }
                return value(of: step, property)
            case "panel":
                guard let panel = owner?.panel else { return .constant(.null) }
                return value(of: panel, property)
            default:
                // `{$parent.…}` is the dynamic panel or matrix a question is in: a step never is; a
                // choice's `{$item.…}` outside a choice reads nothing.
                return .constant(.null)
            }
        }

        /// When some step of `steps` shows: `nil` inside when one always does, `nil` outside when none
        /// can. A step counts when it is switched on and its own `visibleIf` holds, and the panels
        /// between it and `inside` (a panel index; `nil` for a page) are visible.
        func contentCondition(steps candidates: [Int], inside: Int?) -> String?? {
            var alternatives: [String] = []
            for index in candidates {
                let step = steps[index].definition
                guard step.isEnabled else { continue }
                let chain = panelsOfStep[index] ?? []
                let between = inside.flatMap { chain.firstIndex(of: $0) }.map { chain[($0 + 1)...] } ?? chain[...]
                guard between.allSatisfy({ panels[$0].definition.isEnabled }) else { continue }
                var parts = between.compactMap { panels[$0].definition.visibleIf }
                if let own = step.visibleIf { parts.append(ownText(own, of: index)) }
                if parts.isEmpty { return .some(nil) }
                alternatives.append(parts.map { "(\($0))" }.joined(separator: " and "))
            }
            return alternatives.isEmpty ? nil : .some(alternatives.joined(separator: " or "))
        }

        /// Step `index`'s condition `source` with its relative references made absolute, so that it can
        /// be read outside the step (`{$self.name}` as `{$q1.name}`).
        func ownText(_ source: String, of index: Int) -> String {
            guard source.contains("{$") else { return source }
            let owner = owner(ofStep: index)
            var text = source.replacingOccurrences(of: "{$self.", with: "{$\(owner.step ?? "").")
            if let panel = owner.panel { text = text.replacingOccurrences(of: "{$panel.", with: "{$\(panel).") }
            return text
        }

        func surveyValue(_ property: String) -> ElementPropertyValue {
            switch property {
            case "title":
                return text(surveyTitle, name: "$survey.title", whenAbsent: .null)
            case "locale":
                // survey-core's locale is empty while it is its own default, English.
                return .sessionValue(
                    ExpressionFunction(name: "$survey.locale", arity: 0...0, isPure: false) { _, context in
                        context.locale == "en" ? .null : .string(context.locale)
                    })
            case "readOnly":
                return .constant(.bool(false))
            default:
                return .unknownProperty(known: Self.surveyProperties)
            }
        }

        /// `source` compiled as the property's condition (`whenAbsent` without one).
        func condition(
            _ source: String?, whenAbsent: Bool, negated: Bool = false, owner: ExpressionOwner? = nil
        ) -> ElementPropertyValue {
            guard let source else { return .constant(.bool(whenAbsent != negated)) }
            guard depth < ElementPropertyValue.maximumDepth else { return .tooDeep }
            var deeper = self
            deeper.depth += 1
            do {
                let expression = try Expression(
                    source, functions: functions, resolve: resolve, otherChoices: otherChoices,
                    context: ExpressionCompileContext(
                        displayQuestion: displayQuestion, resolveProperty: deeper.resolver, owner: owner))
                return .condition(expression, negated: negated)
            } catch {
                if case .unknownReference(let name) = error.kind, name.hasPrefix("$"),
                    error.message.contains("deep")
                {
                    return .tooDeep
                }
                // The condition's own error is reported where it is written.
                return .constant(.null)
            }
        }

        /// A title: in the respondent's language when it has translations.
        func text(_ text: LocalizedText?, name: String, whenAbsent: JSONValue) -> ElementPropertyValue {
            guard let text else { return .constant(whenAbsent) }
            if let plain = text.plainText { return .constant(.string(plain)) }
            return .sessionValue(
                ExpressionFunction(name: name, arity: 0...0, isPure: false) { _, context in
                    .string(text.resolved(locale: context.locale, defaultLocale: context.defaultLocale))
                })
        }
    }

    /// The properties of `flat`'s elements, once names are known and questions configured.
    func elementProperties(_ flat: FlatSurvey, names: Names) -> ElementProperties {
        var panelsOfStep: [Int: [Int]] = [:]
        // Outer panels come before inner ones, so each list is outer first.
        for (index, panel) in flat.panels.enumerated() {
            for step in panel.steps { panelsOfStep[step, default: []].append(index) }
        }
        return ElementProperties(
            steps: flat.steps, units: flat.units, panels: flat.panels, stepIndex: names.steps, unitIndex: names.units,
            surveyTitle: definition.title, functions: functions, resolve: names.resolve, otherChoices: otherChoices,
            displayQuestion: displayQuestion, panelsOfStep: panelsOfStep)
    }
}

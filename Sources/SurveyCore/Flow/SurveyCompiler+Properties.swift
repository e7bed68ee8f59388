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
        /// How many `{$…}` references led here.
        var depth = 0

        /// The resolver expressions compile with.
        var resolver: ElementPropertyResolver {
            { element, property in value(of: element, property) }
        }

        func value(of element: String, _ property: String) -> ElementPropertyValue {
            if element == "survey" { return surveyValue(property) }
            if let index = stepIndex[element] {
                guard Self.questionProperties.contains(property) else {
                    return .unknownProperty(known: Self.questionProperties)
                }
                let step = steps[index].definition
                let panels = steps[index].panels
                switch property {
                case "isVisible", "visible":
                    return step.isEnabled ? condition(step.visibleIf, whenAbsent: true) : .constant(.bool(false))
                case "readOnly":
                    return step.isReadOnly
                        ? .constant(.bool(true)) : condition(step.enableIf, whenAbsent: true, negated: true)
                case "isReadOnly":
                    if step.isReadOnly || panels?.isReadOnly == true { return .constant(.bool(true)) }
                    let enableIf = (panels?.enableIf ?? []) + (step.enableIf.map { [$0] } ?? [])
                    return condition(
                        enableIf.isEmpty ? nil : enableIf.map { "(\($0))" }.joined(separator: " and "),
                        whenAbsent: true, negated: true)
                case "isRequired":
                    return step.requiredIf == nil
                        ? .constant(.bool(step.isRequired)) : condition(step.requiredIf, whenAbsent: false)
                case "containsErrors":
                    // An answer its checks refuse is never stored here, so no stored answer has errors.
                    return .constant(.bool(false))
                case "name":
                    return .constant(.string(step.id))
                default:
                    return text(step.title, name: "$\(element).title", whenAbsent: .string(step.id))
                }
            }
            let page = unitIndex[element].map { units[$0].definition }.flatMap { $0.isPage ? $0 : nil }
            let panel = page == nil ? panels.first { $0.definition.id == element }?.definition : nil
            guard page != nil || panel != nil else { return .unknownElement }
            guard Self.containerProperties.contains(property) else {
                return .unknownProperty(known: Self.containerProperties)
            }
            let isEnabled = page?.isEnabled ?? panel?.isEnabled ?? true
            let isReadOnly = page?.isReadOnly ?? panel?.isReadOnly ?? false
            switch property {
            case "isVisible", "visible":
                return isEnabled
                    ? condition(page?.visibleIf ?? panel?.visibleIf, whenAbsent: true) : .constant(.bool(false))
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
        func condition(_ source: String?, whenAbsent: Bool, negated: Bool = false) -> ElementPropertyValue {
            guard let source else { return .constant(.bool(whenAbsent != negated)) }
            guard depth < ElementPropertyValue.maximumDepth else { return .tooDeep }
            var deeper = self
            deeper.depth += 1
            do {
                let expression = try Expression(
                    source, functions: functions, resolve: resolve, otherChoices: otherChoices,
                    context: ExpressionCompileContext(
                        displayQuestion: displayQuestion, resolveProperty: deeper.resolver))
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
        ElementProperties(
            steps: flat.steps, units: flat.units, panels: flat.panels, stepIndex: names.steps, unitIndex: names.units,
            surveyTitle: definition.title, functions: functions, resolve: names.resolve, otherChoices: otherChoices,
            displayQuestion: displayQuestion)
    }
}

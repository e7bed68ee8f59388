import SurveyCore

/// `missing-translation`: a text that has translations but not one for each locale the survey
/// declares in `locales`.
///
/// Texts are the survey's and each step's `title` and `description` and every text inside `options`
/// (choice labels, placeholders, scale labels, bodies): any object of strings keyed by locales. A
/// plain string is text without a locale and is not reported. Respondents in a missing locale see the
/// default locale's text instead.
final class MissingTranslationCheck: LintCheck {
    func prepare(_ context: LintContext) {
        let definition = context.model.survey.definition
        guard let locales = definition.locales, !locales.isEmpty else { return }
        let declared = Set(locales)
        var known = declared
        known.insert(definition.defaultLocale)
        func check(_ value: JSONValue?, path: JSONPath, owner: String?, what: String) {
            guard let value, case .object(let members) = value, !members.isEmpty,
                members.values.allSatisfy({ $0.stringValue != nil }),
                members.keys.allSatisfy(Self.looksLikeLocale), members.keys.contains(where: known.contains)
            else { return }
            let missing = locales.filter { members[$0] == nil }
            guard !missing.isEmpty else { return }
            let list = missing.map { "'\($0)'" }.joined(separator: ", ")
            context.report(
                .missingTranslation,
                "\(what) has no translation for \(list), although the survey declares \(missing.count == 1 ? "it" : "them") in 'locales'; respondents in \(missing.count == 1 ? "that locale" : "those locales") see the \(definition.defaultLocale) text. Add \(missing.map { "\"\($0)\": …" }.joined(separator: ", ")) or remove \(missing.count == 1 ? "it" : "them") from 'locales'",
                stepID: owner, path: path)
        }
        func walk(_ value: JSONValue, path: JSONPath, owner: String, what: String) {
            switch value {
            case .object(let members):
                if members.values.allSatisfy({ $0.stringValue != nil }), members.keys.allSatisfy(Self.looksLikeLocale),
                    members.keys.contains(where: known.contains)
                {
                    return check(value, path: path, owner: owner, what: what)
                }
                for (key, member) in members.sorted(by: { $0.key < $1.key }) {
                    walk(member, path: path.appending(key), owner: owner, what: "the option '\(key)' of '\(owner)'")
                }
            case .array(let elements):
                for (index, element) in elements.enumerated() {
                    walk(element, path: path.appending(index), owner: owner, what: what)
                }
            default:
                break
            }
        }
        check(
            definition.title.jsonValue, path: JSONPath.root.appending("title"), owner: nil, what: "the survey's title")
        check(
            definition.description?.jsonValue, path: JSONPath.root.appending("description"), owner: nil,
            what: "the survey's description")
        func visit(_ step: StepDefinition, path: JSONPath) {
            check(
                step.title?.jsonValue, path: path.appending("title"), owner: step.id, what: "the title of '\(step.id)'")
            check(
                step.description?.jsonValue, path: path.appending("description"), owner: step.id,
                what: "the description of '\(step.id)'")
            walk(step.options, path: path.appending("options"), owner: step.id, what: "a text of '\(step.id)'")
        }
        for (unitOffset, step) in definition.steps.enumerated() {
            let path = JSONPath([.key("steps"), .index(unitOffset)])
            visit(step, path: path)
            for (childOffset, child) in step.steps.enumerated() {
                visit(child, path: path.appending("steps").appending(childOffset))
            }
        }
    }

    /// `en`, `pt-BR`, `zh-Hant`, `default`.
    static func looksLikeLocale(_ key: String) -> Bool {
        if key == LocalizedText.neutralKey { return true }
        let parts = key.split(separator: "-", omittingEmptySubsequences: false)
        guard let language = parts.first, (2...3).contains(language.count),
            language.allSatisfy({ $0.isASCII && $0.isLetter })
        else { return false }
        return parts.dropFirst().allSatisfy { part in
            (2...8).contains(part.count) && part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
        }
    }
}

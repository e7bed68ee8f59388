import Foundation
import SurveyCore

// Pages and the elements they hold; where the respondent goes after the last one.
extension Converter {
    /// `navigateToUrlOnCondition` and `navigateToUrl` → `completionRedirects`: survey-core sends the
    /// respondent to the first address whose expression holds, else to `navigateToUrl`.
    mutating func completionRedirects(_ members: inout Members) -> [JSONValue] {
        /// An address as written: a text, or a localised one's default (survey-core's `locNavigateToUrl`).
        func address(_ value: JSONValue?) -> String? {
            guard let value else { return nil }
            let text = value.stringValue ?? value["default"]?.stringValue ?? value["en"]?.stringValue
            return text.flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 }
        }
        var redirects: [JSONValue] = []
        if let conditional = members.take("navigateToUrlOnCondition") {
            for (index, item) in (conditional.arrayValue ?? []).enumerated() {
                var entry = Members(
                    item.objectMembers ?? [:], path: members.path("navigateToUrlOnCondition").appending(index))
                guard let condition = expression(entry.take("expression"), entry.path("expression")),
                    let url = address(entry.take("url"))
                else {
                    note(
                        .notConverted, entry.path, "a navigateToUrlOnCondition entry",
                        "it needs an expression and a url")
                    continue
                }
                redirects.append(["if": condition, "url": .string(url)])
                finish(entry)
            }
        }
        if let url = address(members.take("navigateToUrl")) { redirects.append(["url": .string(url)]) }
        return redirects
    }

    /// A SurveyJS page as a page here (`nil` when it has nothing to ask): its name, texts, condition,
    /// order and elements; a read-only page's elements are read-only, and a required page's elements
    /// are in a required panel.
    mutating func page(_ json: JSONValue, path: JSONPath, ours: JSONPath) -> JSONValue? {
        guard let object = json.objectMembers else {
            note(.notConverted, path, "a page that is \(json.kindDescription)", "a page is an object")
            return nil
        }
        var members = Members(object, path: path)
        var result: [String: JSONValue] = ["type": "page"]
        result["id"] = .string(pageName(elementName(members.take("name"), isSurveyElement: true)))
        copyCommon(&members, into: &result, keys: ["title", "description"])
        if let condition = expression(members.take("visibleIf"), members.path("visibleIf")) {
            result["visibleIf"] = condition
        }
        switchOff(&members, into: &result)
        if let order = members.take(anyOf: "questionsOrder", "questionOrder")?.value.stringValue {
            if order == "random" { result["shuffle"] = true }
        } else if shufflesPages {
            result["shuffle"] = true
        }
        origins[ours] = path
        // A required page (survey-core's page is a panel: one of its questions must be answered)
        // holds its elements in a required panel, as this format's pages are not required.
        var requirement: [String: JSONValue] = [:]
        if let condition = expression(members.take("requiredIf"), members.path("requiredIf")) {
            requirement["requiredIf"] = condition
        }
        if members.take("isRequired") == .bool(true), requirement.isEmpty { requirement["required"] = true }
        let inner = requirement.isEmpty ? ours : ours.appending("steps").appending(0)
        origins[inner] = path
        var steps = children(&members, ours: inner)
        // A read-only page makes its elements read-only (this format has no read-only pages).
        if members.take("readOnly") == .bool(true) {
            steps = steps.map { step in
                guard case .object(var members) = step, members["readOnly"] == nil else { return step }
                members["readOnly"] = true
                return .object(members)
            }
        }
        if !requirement.isEmpty, !steps.isEmpty, let page = result["id"]?.stringValue {
            let panel = freeName(page + "-panel")
            note(
                .renamed, members.path(requirement["requiredIf"] == nil ? "isRequired" : "requiredIf"),
                "required page '\(page)' is panel '\(panel)'",
                "survey-core's required page needs one of its questions answered, as a required panel around them does here"
            )
            requirement["id"] = .string(panel)
            requirement["type"] = "panel"
            requirement["steps"] = .array(steps)
            steps = [.object(requirement)]
        }
        finish(members)
        guard !steps.isEmpty else {
            note(
                .notConverted, path, "page '\(result["id"]?.stringValue ?? "")' with nothing to ask",
                "survey-core skips an empty page; it is left out")
            return nil
        }
        result["steps"] = .array(steps)
        return .object(result)
    }

    /// The converted `elements` (and the old `questions`) of a page or panel at `ours`.
    mutating func children(_ members: inout Members, ours: JSONPath) -> [JSONValue] {
        var inner: [JSONValue] = []
        for key in ["elements", "questions"] {
            if let elements = members.take(key) {
                inner += self.elements(
                    elements, path: members.path(key), ours: ours.appending("steps"), offset: inner.count)
            }
        }
        return inner
    }
}

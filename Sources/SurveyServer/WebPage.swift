import Foundation
import SurveyCore
import SurveyReports

/// One unit as an HTML form, from its ``StepPresentation``, and the form's answers read back.
///
/// Each question is a `fieldset` with a `legend` (choices, yes/no) or a `label` tied to its input;
/// a question's error is a paragraph its input names in `aria-describedby`, and the first input with
/// an error gets `autofocus`. Every text is escaped with ``Markup/escape(_:)``.
struct WebPage {
    let surveyID: String
    let title: String
    let step: StepPresentation
    let formToken: String
    /// The response's ``Revision`` this page shows, sent back with the form.
    let revision: String?

    static let style = """
        body{font:100%/1.5 system-ui,sans-serif;margin:0;color:#1b1b1b;background:#f6f6f4}\
        main{max-width:40rem;margin:0 auto;padding:1rem;overflow-wrap:anywhere}\
        fieldset,.question{border:0;margin:0 0 1.5rem;padding:0;min-width:0}\
        legend,label.title{font-weight:600;display:block;margin-bottom:.5rem;padding:0}\
        .choice{display:block;padding:.375rem 0}\
        input[type=radio],input[type=checkbox]{width:1.25em;height:1.25em;margin:0 .5em 0 0;vertical-align:-.2em}\
        input[type=text],input[type=email],input[type=tel],input[type=number],input[type=date],textarea\
        {width:100%;box-sizing:border-box;padding:.5rem;font:inherit}\
        .error{color:#a00000;font-weight:600}.progress,.note{color:#555}\
        .actions{display:flex;flex-wrap:wrap;gap:.5rem}\
        button{font:inherit;padding:.5rem 1.25rem}\
        :focus-visible{outline:3px solid #1a5fb4;outline-offset:2px}
        """

    var html: String {
        let strings = step.strings
        var out = "<h1>\(Markup.escape(title))</h1>"
        if step.progress.isCounted {
            let text = strings.format(
                .progress, ["current": String(step.progress.current), "total": String(step.progress.total)])
            out += "<p class=\"progress\">\(Markup.escape(text))</p>"
        }
        if let pageTitle = step.title { out += "<h2>\(Markup.escape(pageTitle))</h2>" }
        if let description = step.description { out += "<p>\(Markup.escape(description))</p>" }
        // Errors about no one question (a required panel) are shown above the form.
        let questionIDs = Set(step.questions.map(\.id))
        for error in step.errors where !questionIDs.contains(error.stepID) {
            out += "<p class=\"error\" role=\"alert\">\(Markup.escape(error.message))</p>"
        }
        out += "<form method=\"post\" action=\"\(Markup.escape(WebFrontEnd.path(ofSurvey: surveyID)))\" novalidate>"
        out += "<input type=\"hidden\" name=\"form-token\" value=\"\(Markup.escape(formToken))\">"
        if let revision { out += "<input type=\"hidden\" name=\"revision\" value=\"\(Markup.escape(revision))\">" }
        let firstError = step.questions.firstIndex { $0.error != nil }
        for (index, question) in step.questions.enumerated() {
            out += Self.question(question, index: index, strings: strings, focused: index == firstError)
        }
        out += "<div class=\"actions\">"
        out += Self.button("next", step.isLastStep ? strings[.submit] : strings[.next])
        if step.canGoBack { out += Self.button("back", strings[.back]) }
        out += Self.button("dismiss", strings[.dontAskAgain])
        out += "</div></form>"
        return out
    }

    static func button(_ action: String, _ label: String) -> String {
        "<button type=\"submit\" name=\"action\" value=\"\(action)\">\(Markup.escape(label))</button>"
    }

    /// One question: its title, description, input and error.
    static func question(
        _ question: QuestionPresentation, index: Int, strings: UIStrings, focused: Bool, key: String? = nil
    ) -> String {
        let key = key ?? String(index)
        let id = "q\(key)"
        let name = Markup.escape("a:" + question.id)
        var described = ""
        var error = ""
        if let problem = question.error {
            described = " aria-describedby=\"e\(key)\" aria-invalid=\"true\""
            error = "<p class=\"error\" id=\"e\(key)\">\(Markup.escape(problem.message))</p>"
        }
        let focus = focused ? " autofocus" : ""
        let required = question.isRequired ? " aria-required=\"true\"" : ""
        let disabled = question.isReadOnly ? " disabled" : ""
        let attributes = described + focus + required + disabled
        let title = Markup.escape(question.title)
        let description = question.description.map { "<p>\(Markup.escape($0))</p>" } ?? ""
        switch question.input {
        case .none:
            var body = "<div class=\"question\"><h2>\(title)</h2>\(description)"
            if let text = question.content?.body { body += "<p>\(Markup.escape(text))</p>" }
            if let media = question.content?.media {
                body += "<p class=\"note\">\(Markup.escape(media.alternativeText ?? media.reference))</p>"
            }
            return body + "</div>"
        case .freeText(let input):
            // A number a text question keeps (`keepNumbers`) is shown as written.
            let value = Markup.escape(
                question.answer?.stringValue ?? question.answer?.numberValue.map(JSONValue.format(number:)) ?? "")
            let length = input.maximumLength.map { " maxlength=\"\($0)\"" } ?? ""
            let placeholder = input.placeholder.map { " placeholder=\"\(Markup.escape($0))\"" } ?? ""
            let field =
                input.isMultiline
                ? "<textarea id=\"\(id)\" name=\"\(name)\" rows=\"4\"\(length)\(placeholder)\(attributes)>\(value)</textarea>"
                : "<input type=\"\(textType(input.presentation))\" id=\"\(id)\" name=\"\(name)\" value=\"\(value)\"\(length)\(placeholder)\(attributes)>"
            return
                "<div class=\"question\"><label class=\"title\" for=\"\(id)\">\(title)</label>\(description)\(error)\(field)</div>"
        case .number(let input):
            let value =
                question.answer?.numberValue.map(JSONValue.format(number:)) ?? question.answer?.stringValue ?? ""
            var range = input.minimum.map { " min=\"\(JSONValue.format(number: $0))\"" } ?? ""
            range += input.maximum.map { " max=\"\(JSONValue.format(number: $0))\"" } ?? ""
            range += " step=\"\(input.step.map(JSONValue.format(number:)) ?? (input.isInteger ? "1" : "any"))\""
            var labels = ""
            if let low = input.minimumLabel, let high = input.maximumLabel {
                labels = "<p class=\"note\">\(Markup.escape(low)) – \(Markup.escape(high))</p>"
            }
            return
                "<div class=\"question\"><label class=\"title\" for=\"\(id)\">\(title)</label>\(description)\(labels)"
                + "\(error)<input type=\"number\" id=\"\(id)\" name=\"\(name)\" value=\"\(Markup.escape(value))\""
                + " inputmode=\"\(input.isInteger ? "numeric" : "decimal")\"\(range)\(attributes)></div>"
        case .date(let input):
            let value = Markup.escape(question.answer?.stringValue ?? "")
            var range = input.earliest.map { " min=\"\(Markup.escape($0))\"" } ?? ""
            range += input.latest.map { " max=\"\(Markup.escape($0))\"" } ?? ""
            return "<div class=\"question\"><label class=\"title\" for=\"\(id)\">\(title)</label>\(description)\(error)"
                + "<input type=\"date\" id=\"\(id)\" name=\"\(name)\" value=\"\(value)\"\(range)\(attributes)></div>"
        case .boolean(let input):
            let options: [(String, String, Bool)] = [
                ("true", input.trueLabel, question.answer == true),
                ("false", input.falseLabel, question.answer == false),
            ]
            return fieldset(title: title, description: description, error: error, described: described + required) {
                options.enumerated().map { offset, option in
                    "<label class=\"choice\"><input type=\"radio\" name=\"\(name)\" value=\"\(option.0)\""
                        + (option.2 ? " checked" : "") + (offset == 0 ? focus : "") + disabled + "> "
                        + "\(Markup.escape(option.1))</label>"
                }.joined()
            }
        case .singleChoice(let input), .multipleChoice(let input):
            let isMultiple: Bool
            if case .multipleChoice = question.input { isMultiple = true } else { isMultiple = false }
            guard !(isMultiple && input.isOrdered) else { return unsupported(title, description) }
            let chosen: [String] =
                question.answer?.arrayValue?.compactMap(\.stringValue)
                ?? question.answer?.stringValue.map { [$0] } ?? []
            let known = Set(input.choices.map(\.value))
            let otherText = chosen.first { !known.contains($0) }
            let type = isMultiple ? "checkbox" : "radio"
            var items = ""
            for (offset, choice) in input.choices.enumerated() {
                let isChecked = chosen.contains(choice.value) || (choice.isOther && otherText != nil)
                items +=
                    "<label class=\"choice\"><input type=\"\(type)\" name=\"\(name)\""
                    + " value=\"\(Markup.escape(choice.value))\"" + (isChecked ? " checked" : "")
                    + (offset == 0 ? focus : "") + disabled + "> \(Markup.escape(choice.label))</label>"
                if choice.isOther {
                    items +=
                        "<label class=\"choice\">\(Markup.escape(strings[.otherPrompt]))"
                        + " <input type=\"text\" name=\"\(Markup.escape("o:" + question.id))\""
                        + " value=\"\(Markup.escape(otherText ?? ""))\"\(disabled)></label>"
                }
            }
            let hint = isMultiple ? "<p class=\"note\">\(Markup.escape(strings[.selectAllThatApply]))</p>" : ""
            return fieldset(
                title: title, description: description + hint, error: error, described: described + required
            ) {
                items
            }
        case .composite(let input):
            guard input.fields.allSatisfy({ isAskedOnAPage($0.input) }) else { return unsupported(title, description) }
            // Each field (a matrix row, a form's field) is asked as a question of its own, inside the
            // question's fieldset; the question's error is the fieldset's.
            var items = ""
            for (offset, field) in input.fields.enumerated() {
                var inner = question
                inner.id = fieldID(question.id, offset)
                inner.title = field.label
                inner.description = nil
                inner.isRequired = field.isRequired
                inner.input = field.input
                inner.answer = question.answer?[field.name]
                inner.error = nil
                inner.content = nil
                inner.commentArea = nil
                items += Self.question(
                    inner, index: index, strings: strings, focused: focused && offset == 0, key: "\(index)-\(offset)")
            }
            return fieldset(title: title, description: description, error: error, described: described + required) {
                items
            }
        case .fileReference, .repeating:
            return unsupported(title, description)
        }
    }

    /// Whether a field of `input` can be answered on a page (a composite's fields may be).
    static func isAskedOnAPage(_ input: InputPrimitive) -> Bool {
        switch input {
        case .freeText, .number, .date, .boolean, .singleChoice: true
        case .multipleChoice(let choices): !choices.isOrdered
        default: false
        }
    }

    /// The form name of field `offset` of composite question `questionID` (after `a:` or `o:`).
    static func fieldID(_ questionID: String, _ offset: Int) -> String { "\(questionID)/\(offset)" }

    static func fieldset(title: String, description: String, error: String, described: String, items: () -> String)
        -> String
    {
        "<fieldset\(described)><legend>\(title)</legend>\(description)\(error)\(items())</fieldset>"
    }

    static func unsupported(_ title: String, _ description: String) -> String {
        "<div class=\"question\"><h2>\(title)</h2>\(description)"
            + "<p class=\"note\">This kind of question cannot be answered on this page yet.</p></div>"
    }

    static func textType(_ presentation: String?) -> String {
        switch presentation {
        case "email": "email"
        case "phone": "tel"
        default: "text"
        }
    }

    /// The answers a posted form gives for the questions of `step` that it changes, as the protocol's
    /// answer values (a field left empty clears an answer; the engine checks every value).
    static func answers(from form: FormData, step: StepPresentation) -> [(String, JSONValue)] {
        var result: [(String, JSONValue)] = []
        for question in step.questions where question.collectsAnswer && !question.isReadOnly {
            var value: JSONValue
            if case .composite(let input) = question.input {
                guard input.fields.allSatisfy({ isAskedOnAPage($0.input) }) else { continue }
                var members: [String: JSONValue] = [:]
                for (offset, field) in input.fields.enumerated() {
                    let fieldValue = self.value(of: field.input, id: fieldID(question.id, offset), form: form) ?? .null
                    if fieldValue != .null { members[field.name] = fieldValue }
                }
                value = members.isEmpty ? .null : .object(members)
            } else {
                guard let read = self.value(of: question.input, id: question.id, form: form) else { continue }
                value = read
                // A kept number sent back unchanged stays the number (survey-core keeps it until edited).
                if case .string(let text) = read, case .number(let number)? = question.answer,
                    JSONValue.format(number: number) == text
                {
                    value = .number(number)
                }
            }
            if value != (question.answer ?? .null) { result.append((question.id, value)) }
        }
        return result
    }

    /// The answer a form gives for an input named `a:{id}` (and `o:{id}` for Other's text): `.null`
    /// when it is left empty, `nil` for an input not asked on a page.
    static func value(of input: InputPrimitive, id: String, form: FormData) -> JSONValue? {
        let name = "a:" + id
        let other = form.first("o:" + id)?.trimmingCharacters(in: .whitespaces) ?? ""
        switch input {
        case .freeText, .date:
            let text = form.first(name) ?? ""
            return text.isEmpty ? .null : .string(text)
        case .number:
            let text = (form.first(name) ?? "").trimmingCharacters(in: .whitespaces)
            return text.isEmpty ? .null : Double(text).map(JSONValue.number) ?? .string(text)
        case .boolean:
            return form.first(name).map { .bool($0 == "true") } ?? .null
        case .singleChoice(let choices):
            guard let chosen = form.first(name) else { return .null }
            let isOther = choices.choices.contains { $0.isOther && $0.value == chosen }
            return .string(isOther && !other.isEmpty ? other : chosen)
        case .multipleChoice(let choices) where !choices.isOrdered:
            let others = Set(choices.choices.filter(\.isOther).map(\.value))
            let chosen = form.all(name).map { others.contains($0) && !other.isEmpty ? other : $0 }
            return chosen.isEmpty ? .null : .array(chosen.map(JSONValue.string))
        default:
            return nil
        }
    }
}

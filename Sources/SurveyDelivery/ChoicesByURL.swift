import Foundation
import SurveyCore

/// Choices fetched from a URL (SurveyJS's `choicesByUrl`): before a survey loads, every choice
/// question whose `options` has `choicesByUrl` gets its `choices` from the service's JSON, through
/// a ``RemoteFetcher`` (so the list is cached, and offline the cached list is used).
///
/// ```json
/// { "id": "country", "type": "dropdown",
///   "options": { "choicesByUrl": { "url": "https://example.com/countries.json", "path": "data;items",
///                                   "valueName": "code", "titleName": "name" },
///                "choices": ["Other"] } }
/// ```
///
/// Members: `url` (required; `http://` or `https://`, no `{placeholders}`), `path` (where the list
/// is in the response: member names separated by `;` or `,`; default: the response itself),
/// `valueName` (the member of each item holding its value; default `value`; an item that is a
/// string or number is its own value), `titleName` (the member holding its label; default `text`,
/// then `title`, then the value), `imageLinkName` (the member holding an image URL, for
/// image-choice), `allowEmptyResponse` (an empty list is accepted; default `false`). `choices`
/// given as well are used only when nothing can be fetched and nothing is cached.
public enum ChoicesByURL {
    /// The result: the survey with its fetched choices, and warnings for the user.
    public struct Resolution: Sendable {
        public var survey: JSONValue
        public var warnings: [String]
        /// How many questions got choices from a URL.
        public var resolved: Int
    }

    /// Whether `text` may have a `choicesByUrl` (a cheap check before parsing).
    public static func mayContain(_ text: String) -> Bool { text.containsUTF8(marker) }

    /// The text whose absence from a survey's JSON means it has no `choicesByUrl` (the key, quoted).
    public static let marker = "\"choicesByUrl\""

    /// Fetches the choices of every `choicesByUrl` in `survey` (a survey in this engine's format).
    /// - Throws: ``SurveyLoadError`` with every problem at once (JSON paths into `survey`): a malformed `choicesByUrl`, a list that cannot be fetched
    ///   (and is not cached, and no `choices` are given), a response without a list where `path` says.
    /// - Parameter offUnreachable: a question whose list cannot be fetched (and is not cached) and
    ///   which lists no `choices` of its own is switched off (`"enabled": false`), or when it may be
    ///   required offers one choice that is never shown (so it stops the survey, as there), with a warning
    ///   instead of refusing the survey: survey-core shows such a question with no choices, which no
    ///   respondent can answer (for SurveyJS surveys; a survey in this engine's format is refused).
    public static func resolve(
        _ survey: JSONValue, with fetcher: RemoteFetcher, offUnreachable: Bool = false
    ) throws(SurveyLoadError) -> Resolution {
        var problems: [SurveyError] = []
        var warnings: [String] = []
        var resolved = 0
        var result = survey
        /// Fills in `options`' list; `false` when it cannot be had and the question (or item) is off.
        func fill(_ options: inout [String: JSONValue], at path: JSONPath, stepID: String?, required: Bool = false)
            -> Bool
        {
            // The items of a repeat and the columns of a matrix have kinds and options of their own.
            for key in ["items", "columns"] {
                guard case .array(var parts) = options[key] else { continue }
                var kept: [JSONValue] = []
                for (index, part) in parts.enumerated() {
                    guard case .object(var members) = part, case .object(var inner) = members["options"] else {
                        kept.append(part)
                        continue
                    }
                    let at = path.appending(key).appending(index).appending("options")
                    if fill(&inner, at: at, stepID: stepID) {
                        members["options"] = .object(inner)
                        kept.append(.object(members))
                    } else {
                        warnings.append(
                            "the \(key == "items" ? "item" : "column") '\(members["name"]?.stringValue ?? "?")' of step '\(stepID ?? "?")' is left out: its choices cannot be fetched (survey-core shows it with no choices)"
                        )
                    }
                }
                parts = kept
                options[key] = .array(parts)
            }
            guard let source = options["choicesByUrl"] else { return true }
            let at = path.appending("choicesByUrl")
            do throws(SurveyError) {
                let (fetched, warning) = try fetchChoices(
                    source, at: at, stepID: stepID, fallback: options["choices"], offUnreachable: offUnreachable,
                    required: required, with: fetcher)
                if let warning { warnings.append(warning) }
                // A stand-in choice keeps an unreachable list's kind loadable; the question is never asked.
                options["choices"] = .array(
                    fetched ?? [["value": "unavailable", "label": "(the list could not be fetched)"]])
                options["choicesByUrl"] = nil
                resolved += 1
                return fetched != nil
            } catch {
                problems.append(error)
                return true
            }
        }
        func visit(_ value: inout JSONValue, at path: JSONPath) {
            guard case .object(var members) = value else { return }
            if case .array(var steps) = members["steps"] {
                for index in steps.indices { visit(&steps[index], at: path.appending("steps").appending(index)) }
                members["steps"] = .array(steps)
            }
            if case .object(var options) = members["options"] {
                let required = members["required"] == .bool(true) || members["requiredIf"] != nil
                let reachable = fill(
                    &options, at: path.appending("options"), stepID: members["id"]?.stringValue, required: required)
                if !reachable, required {
                    // survey-core shows it with no choices, and a required one stops the survey there:
                    // the stand-in choice is never offered, so no answer passes it here either.
                    options["choices"] = [
                        ["value": "unavailable", "label": "(the list could not be fetched)", "visibleIf": "false"]
                    ]
                } else if !reachable {
                    members["enabled"] = false
                    members["visibleIf"] = nil
                }
                members["options"] = .object(options)
            }
            value = .object(members)
        }
        visit(&result, at: JSONPath())
        guard problems.isEmpty else { throw SurveyLoadError(errors: problems) }
        return Resolution(survey: result, warnings: warnings, resolved: resolved)
    }

    /// The members a `choicesByUrl` may have.
    static let members: Set<String> = ["url", "path", "valueName", "titleName", "imageLinkName", "allowEmptyResponse"]

    /// The choices for one `choicesByUrl` (the listed `choices` when nothing can be fetched), and a
    /// warning; `nil` choices when nothing can be had and `offUnreachable` says to switch the question off.
    static func fetchChoices(
        _ source: JSONValue, at path: JSONPath, stepID: String?, fallback: JSONValue?, offUnreachable: Bool = false,
        required: Bool = false, with fetcher: RemoteFetcher
    ) throws(SurveyError) -> ([JSONValue]?, String?) {
        func problem(_ message: String, _ member: String? = nil) -> SurveyError {
            SurveyError(.invalidOptions, message, path: member.map { path.appending($0) } ?? path, stepID: stepID)
        }
        guard case .object(let settings) = source else {
            throw problem(
                "'choicesByUrl' must be an object such as {\"url\": \"https://…\"}, got \(source.kindDescription)")
        }
        if let unknown = settings.keys.sorted().first(where: { !members.contains($0) }) {
            throw problem(
                "unknown member '\(unknown)' (known: \(members.sorted().joined(separator: ", ")))", unknown)
        }
        guard let url = settings["url"]?.stringValue, !url.isEmpty else {
            throw problem("'url' is required and must be a text", "url")
        }
        // A relative address (SurveyJS: resolved against the page the survey is on) cannot be had here:
        // for a SurveyJS survey it is a list that cannot be fetched.
        guard RemoteFetcher.isRemote(url) || offUnreachable else {
            throw problem("'url' must start with http:// or https://", "url")
        }
        if url.contains("{") {
            throw problem(
                "'url' has a {placeholder}: choices that depend on answers are not supported (the list is fetched once, when the survey loads)",
                "url")
        }
        var names: [String: String] = [:]
        for member in ["path", "valueName", "titleName", "imageLinkName"] {
            guard let value = settings[member] else { continue }
            guard let text = value.stringValue else { throw problem("'\(member)' must be a text", member) }
            names[member] = text
        }
        var allowsEmpty = false
        if let flag = settings["allowEmptyResponse"] {
            guard case .bool(let value) = flag else {
                throw problem("'allowEmptyResponse' must be true or false", "allowEmptyResponse")
            }
            allowsEmpty = value
        }
        let segments = (names["path"] ?? "").split(whereSeparator: { $0 == ";" || $0 == "," }).map {
            $0.trimmingCharacters(in: .whitespaces)
        }.filter { !$0.isEmpty }
        let read = { (body: Data) throws(ResponseError) -> [JSONValue] in
            try choices(
                in: body, path: segments, valueName: names["valueName"], titleName: names["titleName"],
                imageName: names["imageLinkName"], allowsEmpty: allowsEmpty)
        }
        let document: RemoteFetcher.Document
        do throws(FetchError) {
            guard RemoteFetcher.isRemote(url) else {
                throw FetchError(
                    url: url, reason: "a relative address (a browser fetches it from the page the survey is on)")
            }
            // A response without a usable list is refused, so it never replaces a cached good one.
            document = try fetcher.fetch(url) { body in _ = try read(body) }
        } catch {
            if let fallback, case .array(let list) = fallback, !list.isEmpty {
                return (list, "\(error.description); step '\(stepID ?? "?")' offers its listed 'choices' instead")
            }
            if offUnreachable {
                return (
                    nil,
                    "the choices cannot be fetched: \(error.description); step '\(stepID ?? "?")' "
                        + (required
                            ? "offers nothing, and as it is required no answer passes it (survey-core shows it with no choices)"
                            : "is not asked (survey-core shows it with no choices)")
                )
            }
            throw problem("the choices cannot be fetched: \(error.description)", "url")
        }
        do {
            return (try read(document.body), document.warning)
        } catch {
            throw problem("the cached choices of \(url) cannot be read: \(error)", "url")
        }
    }

    /// Why a response holds no usable list.
    struct ResponseError: Error, CustomStringConvertible {
        var description: String
    }

    /// The choices in a response body.
    static func choices(
        in body: Data, path: [String], valueName: String?, titleName: String?, imageName: String?, allowsEmpty: Bool
    ) throws(ResponseError) -> [JSONValue] {
        guard let text = String(data: body, encoding: .utf8) else {
            throw ResponseError(description: "the response is not UTF-8 text")
        }
        var value: JSONValue
        do {
            value = try JSONParser.parse(text)
        } catch {
            throw ResponseError(description: "the response is not JSON (\(error.position): \(error.message))")
        }
        var walked: [String] = []
        for segment in path {
            walked.append(segment)
            guard case .object(let members) = value, let next = members[segment] else {
                throw ResponseError(description: "the response has no '\(walked.joined(separator: ";"))'")
            }
            value = next
        }
        guard case .array(let items) = value else {
            throw ResponseError(
                description:
                    "the response\(path.isEmpty ? "" : " at '\(path.joined(separator: ";"))'") is \(value.kindDescription), not a list (set 'path' to where the list is)"
            )
        }
        if items.isEmpty, !allowsEmpty {
            throw ResponseError(description: "the list is empty (set 'allowEmptyResponse' to accept that)")
        }
        var result: [JSONValue] = []
        var seen = Set<String>()
        for (index, item) in items.enumerated() {
            var choice: [String: JSONValue] = [:]
            switch item {
            case .string, .number:
                choice["value"] = item
            case .object(let members):
                let valueKey = valueName ?? "value"
                guard let value = members[valueKey], value.stringValue != nil || value.numberValue != nil else {
                    throw ResponseError(
                        description: "item \(index) has no text or number '\(valueKey)' (set 'valueName')")
                }
                choice["value"] = value
                let label = titleName.flatMap { members[$0] } ?? members["text"] ?? members["title"]
                if let label, label.stringValue != nil || label.numberValue != nil {
                    choice["label"] = .string(label.displayText)
                }
                if let imageName, let image = members[imageName]?.stringValue { choice["image"] = .string(image) }
            default:
                throw ResponseError(
                    description: "item \(index) is \(item.kindDescription), not a text, number or object")
            }
            let key = choice["value"]?.displayText ?? ""
            guard seen.insert(key).inserted else {
                throw ResponseError(description: "item \(index) repeats the value '\(key)'")
            }
            result.append(.object(choice))
        }
        return result
    }
}

import Foundation
import SurveyCore
import SurveyRendering
import SurveyReports
import SurveyResponses
import Synchronization

/// The web front end: server-rendered HTML pages that work with JavaScript off (plain forms, then a
/// redirect), built from the same ``StepPresentation`` the other front ends show, for the
/// respondents' browsers.
///
/// | method and path | does |
/// |---|---|
/// | `GET /` | the surveys served (a redirect when there is one) |
/// | `GET /s/{surveyId}` | the respondent's current page: starts or continues their response |
/// | `POST /s/{surveyId}` | the page's answers and the button pressed; then a redirect back (`303`) |
///
/// A browser is a respondent through two cookies, both `HttpOnly` and `SameSite=Lax`: a random
/// respondent id (kept a year, so the respondent continues where they stopped) and the session's token.
/// Each form carries the session's form token, and a post without it changes nothing. Every survey
/// and respondent text is escaped with the report's escaper (``Markup/escape(_:)``), and pages are
/// served with a strict Content-Security-Policy (no script; the one style element by nonce).
///
/// Free text, single and multiple choice (with Other), numbers, yes/no, dates, and composites (matrices,
/// forms) whose fields are of those kinds are asked; other kinds show a note that they are answered
/// through the JSON API for now.
final class WebFrontEnd: Sendable {
    let api: SurveyAPI

    static let respondentCookie = "survey-respondent"
    static let sessionCookie = "survey-session"

    init(api: SurveyAPI) {
        self.api = api
    }

    /// The answer to a request outside `/v1`; `nil` when no page is at its path.
    func respond(to request: HTTPRequest) -> HTTPResponse? {
        let segments = request.pathSegments
        if segments.isEmpty {
            guard request.method == "GET" else { return nil }
            let ids = api.surveys.keys.sorted()
            if ids.count == 1 { return Self.redirect(to: Self.path(ofSurvey: ids[0])) }
            return page(
                title: "Surveys", locale: "en",
                body: "<h1>Surveys</h1><ul>"
                    + ids.map {
                        "<li><a href=\"\(Markup.escape(Self.path(ofSurvey: $0)))\">\(Markup.escape($0))</a></li>"
                    }
                    .joined() + "</ul>")
        }
        guard segments.count == 2, segments[0] == "s", let survey = api.surveys[String(segments[1])] else {
            return nil
        }
        switch request.method {
        case "GET": return show(survey, request: request)
        case "POST": return submit(survey, request: request)
        default:
            var response = message(status: 405, title: "Method not allowed", text: "Use GET or POST.", locale: "en")
            response.headers.append(("Allow", "GET, POST"))
            return response
        }
    }

    /// `GET /s/{id}`: the current page of the respondent's session, opened when there is none.
    func show(_ survey: Survey, request: HTTPRequest) -> HTTPResponse {
        let cookies = Self.cookies(request)
        var setCookies: [String] = []
        let respondentCookie = cookies[Self.respondentCookie].flatMap { Self.isToken($0) ? $0 : nil }
        let respondent = respondentCookie ?? SessionToken.make(bytes: 16)
        if respondentCookie == nil {
            setCookies.append(Self.cookie(Self.respondentCookie, respondent, maxAge: 365 * 86_400))
        }
        let webRespondent = "web-" + respondent
        var shown: (title: String, step: StepPresentation?)?
        var revision: String?
        var handle: SessionHandle?
        if let token = cookies[Self.sessionCookie], let found = api.handle(token: token),
            case .success(let (presented, current)) = api.use(
                found, { (Self.presentation(of: $0, survey: survey.id, respondent: webRespondent), Revision.of($0)) }),
            let presented
        {
            (handle, shown, revision) = (found, presented, current)
        }
        if handle == nil {
            let start = SessionStart(
                survey: survey, respondentID: webRespondent, locale: Self.locale(request, survey: survey))
            switch api.open(start) {
            case .failure(let error):
                return message(status: error.status, title: "Not available", text: error.message, locale: "en")
            case .notAsked(let event):
                return message(
                    status: 200, title: UIStrings(locale: start.locale ?? "en")[.notAsked],
                    text: event["message"]?.stringValue ?? "", locale: start.locale ?? "en")
            case .finished(let events):
                return finished(events, locale: start.locale ?? "en")
            case .session(let opened, _, let current):
                handle = opened
                revision = current
                setCookies.append(Self.cookie(Self.sessionCookie, opened.token, maxAge: nil))
                if case .success(let presented) = api.use(
                    opened, { Self.presentation(of: $0, survey: survey.id, respondent: webRespondent) })
                {
                    shown = presented
                }
            }
        }
        guard let handle, let shown, let step = shown.step else {
            return Self.redirect(to: Self.path(ofSurvey: survey.id))
        }
        let title = shown.title
        var response = page(
            title: title, locale: step.locale,
            body: WebPage(
                surveyID: survey.id, title: title, step: step, formToken: handle.formToken, revision: revision
            ).html)
        for cookie in setCookies { response.headers.append(("Set-Cookie", cookie)) }
        return response
    }

    /// `POST /s/{id}`: the page's answers, then its button (`next`, `back` or `dismiss`).
    ///
    /// `next` is not pressed when an answer was refused, or when the answers made a hidden question of
    /// the page appear (the respondent sees it first). A page with errors (a refused answer, a blocked
    /// `next`) is the response itself, with the refused values as they were typed; any other page is a
    /// redirect (`303`) to `GET /s/{id}`. A form whose `revision` is not the response's (sent twice,
    /// or from a page left open in another tab after the respondent went on) changes nothing: its
    /// answers would land on another page; the respondent is shown the current page.
    func submit(_ survey: Survey, request: HTTPRequest) -> HTTPResponse {
        let cookies = Self.cookies(request)
        guard let respondent = cookies[Self.respondentCookie], let token = cookies[Self.sessionCookie],
            let handle = api.handle(token: token)
        else {
            // No session (it ended, or its cookie is gone): the page is shown again from the store.
            return Self.redirect(to: Self.path(ofSurvey: survey.id))
        }
        let form = FormData(body: request.body)
        let isFormTokenRight = form.first("form-token").map { Self.constantTimeEqual($0, handle.formToken) } ?? false
        let webRespondent = "web-" + respondent
        let result = api.use(handle) { exchange -> (page: HTTPResponse?, events: [JSONValue], locale: String)? in
            guard let shown = Self.presentation(of: exchange, survey: survey.id, respondent: webRespondent),
                let step = shown.step
            else { return nil }
            guard isFormTokenRight else {
                return (
                    message(
                        status: 403, title: "Forbidden", text: "This form is out of date; reload the page.",
                        locale: step.locale), [], step.locale
                )
            }
            if let sent = form.first("revision"), !Revision.matches(Revision.entityTag(sent), Revision.of(exchange)) {
                return (nil, [], step.locale)
            }
            var events: [JSONValue] = []
            var refused: [String: JSONValue] = [:]
            for (stepID, value) in WebPage.answers(from: form, step: step) where !exchange.isFinished {
                let produced = exchange.perform(.answer(stepID: stepID, value: value))
                if produced.contains(where: { $0["event"] == "validation-error" }) { refused[stepID] = value }
                events += produced
            }
            let action = form.first("action")
            switch action {
            case "back": if !exchange.isFinished { events += exchange.perform(.back) }
            case "dismiss": if !exchange.isFinished { events += exchange.perform(.dismiss) }
            default:
                let shownIDs = Set(step.questions.map(\.id))
                let appeared = exchange.session.currentStep?.questions.contains { !shownIDs.contains($0.id) } ?? false
                if refused.isEmpty, !appeared, !exchange.isFinished { events += exchange.perform(.next) }
            }
            if exchange.isFinished { return (nil, events, step.locale) }
            guard var current = exchange.session.currentStep, !current.errors.isEmpty else {
                return (nil, [], step.locale)
            }
            // The page with its errors at once (on any server of the store, with what was typed).
            for index in current.questions.indices {
                if let value = refused[current.questions[index].id] { current.questions[index].answer = value }
            }
            return (
                page(
                    title: shown.title, locale: current.locale,
                    body: WebPage(
                        surveyID: survey.id, title: shown.title, step: current, formToken: handle.formToken,
                        revision: Revision.of(exchange)
                    ).html), [], current.locale
            )
        }
        guard case .success(let done?) = result else { return Self.redirect(to: Self.path(ofSurvey: survey.id)) }
        if let page = done.page { return page }
        guard !done.events.isEmpty else { return Self.redirect(to: Self.path(ofSurvey: survey.id)) }
        var response = finished(done.events, locale: done.locale)
        response.headers.append(("Set-Cookie", Self.cookie(Self.sessionCookie, "", maxAge: 0)))
        return response
    }

    /// The survey's title and the current unit as the front ends present it (`step` is `nil` once the
    /// session ended), when the session is this web respondent's, for this survey.
    static func presentation(of exchange: EventExchange, survey surveyID: String, respondent: String) -> (
        title: String, step: StepPresentation?
    )? {
        guard let response = exchange.recordedResponse, response.respondentID == respondent,
            response.surveyID == surveyID
        else { return nil }
        let session = exchange.session
        let definition = session.survey.definition
        let context = PresentationContext(locale: session.locale, defaultLocale: definition.defaultLocale)
        return (session.pipe(context.text(definition.title)), session.currentStep)
    }

    /// The last page: the completion message (or a full quota's end message), that the survey had nothing
    /// to show, or that it was dismissed.
    func finished(_ events: [JSONValue], locale: String) -> HTTPResponse {
        let strings = UIStrings(locale: locale)
        if let completed = events.last(where: { $0["event"] == "completed" || $0["event"] == "ended" }) {
            // Where the survey sends the respondent next (`completionRedirects`), as survey-core navigates
            // there: an http(s) address with nothing a header could not hold.
            if let address = completed["redirect"]?.stringValue, Self.isRedirectable(address) {
                return HTTPResponse(
                    status: 303, headers: [("Location", address), ("Cache-Control", "no-store")], body: [])
            }
            // A full quota's end is not a completion: its heading says the survey ended.
            let title = strings[completed["event"] == "ended" ? .surveyEnded : .completed]
            return message(status: 200, title: title, text: completed["message"]?.stringValue ?? "", locale: locale)
        }
        if events.contains(where: { $0["event"] == "empty" }) {
            return message(status: 200, title: strings[.surveyEmpty], text: "", locale: locale)
        }
        return message(status: 200, title: strings[.dismissed], text: "", locale: locale)
    }

    /// Whether `address` may be a redirect's `Location`: `http` or `https`, printable ASCII without
    /// spaces (a piped answer cannot add a header or another scheme).
    static func isRedirectable(_ address: String) -> Bool {
        let lowered = address.lowercased()
        guard lowered.hasPrefix("https://") || lowered.hasPrefix("http://"), address.utf8.count <= 4096 else {
            return false
        }
        return address.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }
    }

    func message(status: Int, title: String, text: String, locale: String) -> HTTPResponse {
        var response = page(
            title: title, locale: locale,
            body: "<h1>\(Markup.escape(title))</h1>" + (text.isEmpty ? "" : "<p>\(Markup.escape(text))</p>"))
        response.status = status
        return response
    }

    /// A whole HTML page: one self-contained document, its style by nonce, no script.
    func page(title: String, locale: String, body: String) -> HTTPResponse {
        let nonce = SessionToken.make(bytes: 16)
        let html = """
            <!doctype html>
            <html lang="\(Markup.escape(locale))"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(Markup.escape(title))</title>
            <style nonce="\(nonce)">\(WebPage.style)</style>
            </head><body><main>\(body)</main></body></html>
            """
        return HTTPResponse(
            status: 200,
            headers: [
                ("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-store"),
                (
                    "Content-Security-Policy",
                    "default-src 'none'; style-src 'nonce-\(nonce)'; form-action 'self'; frame-ancestors 'none'; "
                        + "base-uri 'none'"
                ),
                ("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "no-referrer"),
            ],
            body: Array(html.utf8))
    }

    // MARK: requests and cookies

    static func path(ofSurvey id: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove("/")
        return "/s/" + (id.addingPercentEncoding(withAllowedCharacters: allowed) ?? id)
    }

    static func redirect(to path: String) -> HTTPResponse {
        HTTPResponse(status: 303, headers: [("Location", path), ("Cache-Control", "no-store")])
    }

    static func cookie(_ name: String, _ value: String, maxAge: Int?) -> String {
        "\(name)=\(value); Path=/; HttpOnly; SameSite=Lax" + (maxAge.map { "; Max-Age=\($0)" } ?? "")
    }

    static func cookies(_ request: HTTPRequest) -> [String: String] {
        var result: [String: String] = [:]
        for part in (request.header("Cookie") ?? "").split(separator: ";") {
            let pair = part.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { continue }
            result[pair[0].trimmingCharacters(in: .whitespaces)] = pair[1].trimmingCharacters(in: .whitespaces)
        }
        return result
    }

    /// Whether `text` looks like a value this server made (base64url, 22 to 64 characters).
    static func isToken(_ text: String) -> Bool {
        (22...64).contains(text.utf8.count)
            && text.utf8.allSatisfy { byte in
                (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                    || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
                    || byte == UInt8(ascii: "_")
            }
    }

    static func constantTimeEqual(_ left: String, _ right: String) -> Bool {
        let a = Array(left.utf8)
        let b = Array(right.utf8)
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }

    /// `?locale=`, else the first language of `Accept-Language` the survey or the built-in strings know.
    static func locale(_ request: HTTPRequest, survey: Survey) -> String? {
        if let asked = request.query["locale"], SessionStart.isLocale(asked) { return asked }
        let known = Set((survey.definition.locales ?? []) + UIStrings.supportedLocales)
        for part in (request.header("Accept-Language") ?? "").split(separator: ",") {
            let tag = part.split(separator: ";")[0].trimmingCharacters(in: .whitespaces)
            if known.contains(tag) { return tag }
            let language = String(tag.prefix { $0 != "-" })
            if known.contains(language) { return language }
        }
        return nil
    }
}

/// A posted form (`application/x-www-form-urlencoded`): every value of each name, in order.
struct FormData {
    var values: [String: [String]] = [:]

    init(body: [UInt8]) {
        let text = String(decoding: body, as: UTF8.self)
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = Self.decode(parts[0])
            values[name, default: []].append(parts.count > 1 ? Self.decode(parts[1]) : "")
        }
    }

    func first(_ name: String) -> String? { values[name]?.first }

    func all(_ name: String) -> [String] { values[name] ?? [] }

    static func decode(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}

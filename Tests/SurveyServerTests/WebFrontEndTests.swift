import Foundation
import SurveyCore
import SurveyResponses
import SurveyServer
import Testing

/// The web front end with JavaScript off: plain forms posted, redirects followed, cookies kept.
@Suite struct WebFrontEndTests {
    /// A browser without JavaScript: its cookies and the last page's form token.
    struct Browser {
        let client: TinyClient
        var cookies: [String: String] = [:]
        var formToken = ""
        /// The `revision` field of the last page's form (sent back as a browser would).
        var revision: String?

        mutating func get(_ path: String = "/s/habitly-onboarding") throws -> ClientResponse {
            let response = try client.request("GET", path, headers: cookieHeader)
            keep(response)
            let page = String(decoding: response.body, as: UTF8.self)
            if let range = page.range(of: #"name="form-token" value="[^"]*""#, options: .regularExpression) {
                formToken = String(page[range].dropFirst(#"name="form-token" value=""#.count).dropLast())
            }
            revision = page.range(of: #"name="revision" value="[^"]*""#, options: .regularExpression).map {
                String(page[$0].dropFirst(#"name="revision" value=""#.count).dropLast())
            }
            return response
        }

        /// Posts `fields` (form-encoded) with the page's form token, as a form does.
        mutating func post(_ fields: [(String, String)], path: String = "/s/habitly-onboarding") throws
            -> ClientResponse
        {
            var allowed = CharacterSet.alphanumerics
            allowed.insert(charactersIn: "-._")
            let body = ([("form-token", formToken)] + (revision.map { [("revision", $0)] } ?? []) + fields).map {
                "\($0.0.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")="
                    + ($0.1.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")
            }.joined(separator: "&")
            var headers = cookieHeader
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            let response = try client.send(
                raw: Array(
                    ("POST \(path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
                        + headers.map { "\($0.key): \($0.value)\r\n" }.joined()
                        + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)").utf8))
            keep(response)
            // A browser follows the redirect: the next form is the page it shows.
            if response.status == 303, let location = response.headers["location"] { _ = try get(location) }
            return response
        }

        var cookieHeader: [String: String] {
            cookies.isEmpty ? [:] : ["Cookie": cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")]
        }

        mutating func keep(_ response: ClientResponse) {
            for line in (response.headers["set-cookie"] ?? "").split(separator: "\n") {
                let pair = line.split(separator: ";")[0].split(separator: "=", maxSplits: 1)
                guard pair.count == 2 else { continue }
                cookies[String(pair[0])] = pair[1].isEmpty ? nil : String(pair[1])
            }
        }
    }

    static func text(_ response: ClientResponse) -> String { String(decoding: response.body, as: UTF8.self) }

    @Test func aBrowserTakesTheSurveyWithPlainFormsAndItIsStored() throws {
        let server = try TestServer()
        defer { server.stop() }
        var browser = Browser(client: server.client)
        let root = try browser.get("/")
        #expect(root.status == 303)
        #expect(root.headers["location"] == "/s/habitly-onboarding")
        let welcome = try browser.get()
        #expect(welcome.status == 200)
        #expect(welcome.headers["content-type"] == "text/html; charset=utf-8")
        #expect(welcome.headers["content-security-policy"]?.hasPrefix("default-src 'none'") == true)
        #expect(welcome.headers["set-cookie"]?.contains("HttpOnly; SameSite=Lax") == true)
        #expect(Self.text(welcome).contains("Welcome to Habitly"))
        #expect(!browser.formToken.isEmpty)

        #expect(try browser.post([("action", "next")]).status == 303)
        let discovery = Self.text(try browser.get())
        #expect(discovery.contains("<legend>How did you hear about us?</legend>"))
        #expect(discovery.contains(#"type="radio" name="a:discovery" value="google""#))
        #expect(try browser.post([("a:discovery", "google"), ("action", "next")]).status == 303)
        let goals = Self.text(try browser.get())
        #expect(goals.contains(#"type="checkbox" name="a:goals" value="fitness""#))
        #expect(goals.contains("Question 2 of 5"))
        _ = try browser.post([("a:goals", "fitness"), ("a:goals", "sleep"), ("action", "next")])
        #expect(Self.text(try browser.get()).contains("Have you used a habit tracker before?"))
        let done = try browser.post([("a:experience", "skip"), ("action", "next")])
        #expect(done.status == 200)
        #expect(Self.text(done).contains("Thank you! The survey is complete."))

        let respondent = try #require(browser.cookies["survey-respondent"])
        let stored = try #require(
            try server.store.latestResponse(respondent: "web-" + respondent, survey: JSONAPITests.surveyID))
        #expect(stored.status == .completed)
        #expect(stored.answers["goals"] == ["fitness", "sleep"])
        // Back again: not asked again, and not told that they completed something now.
        let again = Self.text(try browser.get())
        #expect(again.contains("already completed"))
        #expect(again.contains("<h1>There is no survey for you at the moment.</h1>"), "\(again)")
    }

    /// A number a text question keeps (`keepNumbers`) is shown as written, and stays a number when
    /// it is sent back unchanged; an edited one is the text typed.
    @Test func aKeptNumberIsShownAndSentBackUnchangedStaysANumber() throws {
        let server = try TestServer(surveys: ["Tests/Fixtures/kept-number.json"])
        defer { server.stop() }
        var browser = Browser(client: server.client)
        let page = Self.text(try browser.get("/s/kept-number"))
        #expect(page.contains(#"name="a:year" value="2026""#))
        _ = try browser.post([("a:year", "2026"), ("action", "next")], path: "/s/kept-number")
        _ = try browser.get("/s/kept-number")
        let done = try browser.post([("a:note", "8"), ("action", "next")], path: "/s/kept-number")
        #expect(Self.text(done).contains("complete"))
        let respondent = try #require(browser.cookies["survey-respondent"])
        let stored = try #require(
            try server.store.latestResponse(respondent: "web-" + respondent, survey: "kept-number"))
        #expect(stored.answers["year"] == 2026)
        #expect(stored.answers["note"] == "8")
    }

    /// `completionRedirects`: the last page is answered with 303 to the address, when it is an http(s)
    /// address a header can hold; otherwise the completion page is shown.
    @Test(arguments: [("ada", "https://app.example.com/welcome?user=ada"), ("ada lovelace", nil)])
    func theLastPageRedirectsWhereTheSurveySendsTheRespondent(_ user: String, _ location: String?) throws {
        let server = try TestServer(surveys: ["Tests/Fixtures/completion-redirect.json"])
        defer { server.stop() }
        var browser = Browser(client: server.client)
        _ = try browser.get("/s/completion-redirect")
        let done = try browser.post([("a:who", user), ("action", "next")], path: "/s/completion-redirect")
        if let location {
            #expect(done.status == 303)
            #expect(done.headers["location"] == location)
        } else {
            #expect(done.status == 200)
            #expect(Self.text(done).contains("complete"))
        }
        let respondent = try #require(browser.cookies["survey-respondent"])
        let stored = try #require(
            try server.store.latestResponse(respondent: "web-" + respondent, survey: "completion-redirect"))
        #expect(stored.status == .completed)
    }

    @Test func aMissingRequiredAnswerShowsItsErrorTiedToTheFieldAndBackWorks() throws {
        let server = try TestServer()
        defer { server.stop() }
        var browser = Browser(client: server.client)
        _ = try browser.get()
        _ = try browser.post([("action", "next")])
        _ = try browser.get()
        // The page with its error is the response itself (no redirect: any server of the store shows it).
        let blocked = try browser.post([("action", "next")])
        #expect(blocked.status == 200)
        let page = Self.text(blocked)
        #expect(page.contains(#"<fieldset aria-describedby="e0" aria-invalid="true" aria-required="true">"#))
        #expect(page.contains(#"<p class="error" id="e0">Please answer this question.</p>"#))
        #expect(page.contains("autofocus"))
        _ = try browser.post([("action", "back")])
        #expect(Self.text(try browser.get()).contains("Welcome to Habitly"))
    }

    /// Takes `browser` from the start to the onboarding survey's e-mail question.
    static func reachTheEmailQuestion(_ browser: inout Browser) throws {
        _ = try browser.get()
        for fields in [
            [("action", "next")], [("a:discovery", "google"), ("action", "next")],
            [("a:goals", "fitness"), ("action", "next")], [("a:experience", "sometimes"), ("action", "next")],
            [("a:tips-opt-in", "true"), ("action", "next")],
        ] {
            #expect(try browser.post(fields).status == 303)
            _ = try browser.get()
        }
    }

    @Test func aRefusedAnswerIsShownAsTypedWithItsMessageAndNextIsNotPressed() throws {
        let server = try TestServer()
        defer { server.stop() }
        var browser = Browser(client: server.client)
        try Self.reachTheEmailQuestion(&browser)
        let refused = try browser.post([("a:tips-email", "not <an> address"), ("action", "next")])
        #expect(refused.status == 200)
        let page = Self.text(refused)
        #expect(page.contains(#"value="not &lt;an&gt; address""#))
        #expect(page.contains(#"aria-describedby="e0" aria-invalid="true""#))
        #expect(page.contains(#"<p class="error" id="e0">The answer is not in the expected format.</p>"#))
        // Not stored, and the respondent is still on the question.
        let respondent = try #require(browser.cookies["survey-respondent"])
        let stored = try #require(
            try server.store.latestResponse(respondent: "web-" + respondent, survey: JSONAPITests.surveyID))
        #expect(stored.status == .inProgress)
        #expect(stored.currentUnitID == "tips-email")
        #expect(try browser.post([("a:tips-email", "ada@example.com"), ("action", "next")]).status == 303)
        #expect(Self.text(try browser.get()).contains("You&#39;re all set!"))
    }

    @Test func aQuestionTheAnswersMakeAppearIsShownBeforeNext() throws {
        let server = try TestServer()
        defer { server.stop() }
        var browser = Browser(client: server.client)
        _ = try browser.get()
        _ = try browser.post([("action", "next")])
        _ = try browser.post([("a:discovery", "google"), ("action", "next")])
        let before = Self.text(try browser.get())
        #expect(before.contains(#"name="a:goals""#) && !before.contains(#"name="a:team-size""#))
        #expect(try browser.post([("a:goals", "work"), ("action", "next")]).status == 303)
        let after = Self.text(try browser.get())
        #expect(after.contains(#"value="work" checked"#))
        #expect(after.contains(#"name="a:team-size""#))
        #expect(!after.contains(#"class="error""#))
        // With nothing new appearing, Next goes on.
        _ = try browser.post([("a:goals", "work"), ("action", "next")])
        #expect(Self.text(try browser.get()).contains("Have you used a habit tracker before?"))
    }

    @Test func aFormWithoutItsTokenChangesNothing() throws {
        let server = try TestServer()
        defer { server.stop() }
        var browser = Browser(client: server.client)
        _ = try browser.get()
        browser.formToken = "forged"
        let refused = try browser.post([("action", "next")])
        #expect(refused.status == 403)
        #expect(Self.text(try browser.get()).contains("Welcome to Habitly"))
        // Another browser's cookies reach another respondent's session, not this one.
        var other = Browser(client: server.client)
        _ = try other.get()
        #expect(other.cookies["survey-respondent"] != browser.cookies["survey-respondent"])
    }

    /// A page posted twice (a double tap, a resent form) moves on once: the second post's revision is
    /// no longer the response's, so none of it lands on the next page.
    @Test func aFormSentTwiceIsAppliedOnce() throws {
        let server = try TestServer()
        defer { server.stop() }
        var browser = Browser(client: server.client)
        _ = try browser.get()
        #expect(try browser.post([("action", "next")]).status == 303)
        #expect(Self.text(try browser.get()).contains("How did you hear about us?"))
        let sent = try #require(browser.revision)
        #expect(try browser.post([("a:discovery", "google"), ("action", "next")]).status == 303)
        browser.revision = sent
        #expect(try browser.post([("a:discovery", "google"), ("action", "next")]).status == 303)
        let page = Self.text(try browser.get())
        #expect(page.contains("Question 2 of 5"))
        #expect(page.contains(#"type="checkbox" name="a:goals" value="fitness""#))
        #expect(browser.revision != sent)
        // The page goes on as usual with the revision it shows.
        _ = try browser.post([("a:goals", "fitness"), ("action", "next")])
        #expect(Self.text(try browser.get()).contains("Have you used a habit tracker before?"))
    }

    @Test func aMatrixIsAskedRowByRowAndItsAnswerKept() throws {
        let server = try TestServer(surveys: ["Tests/Fixtures/exit-poll.json"])
        defer { server.stop() }
        var browser = Browser(client: server.client)
        let path = "/s/exit-poll"
        _ = try browser.get(path)
        #expect(try browser.post([("a:mood", "true"), ("action", "next")], path: path).status == 303)
        _ = try browser.get(path)
        #expect(try browser.post([("action", "next")], path: path).status == 303)
        let page = Self.text(try browser.get(path))
        // Each row is a group of radio buttons with its own legend, inside the question's fieldset.
        #expect(page.contains("<legend>Sync</legend>"))
        #expect(page.contains(#"type="radio" name="a:importance/1" value="Neutral""#))
        let answered = try browser.post(
            [("a:importance/0", "Important"), ("a:importance/1", "Neutral"), ("action", "next")], path: path)
        #expect(answered.status == 303)
        _ = try browser.get(path)
        _ = try browser.post([("action", "back")], path: path)
        let again = Self.text(try browser.get(path))
        #expect(again.contains(#"name="a:importance/0" value="Important" checked"#))
        #expect(again.contains(#"name="a:importance/1" value="Neutral" checked"#))
        // A row answered with a value that is not a column is refused, and shown as it was sent.
        let refused = try browser.post([("a:importance/0", "Vital"), ("action", "next")], path: path)
        #expect(refused.status == 200)
        #expect(Self.text(refused).contains(#"class="error""#))
    }

    @Test func respondentTextIsEscaped() throws {
        let server = try TestServer()
        defer { server.stop() }
        var browser = Browser(client: server.client)
        _ = try browser.get()
        _ = try browser.post([("action", "next")])
        _ = try browser.get()
        _ = try browser.post([("a:discovery", "google"), ("action", "next")])
        _ = try browser.get()
        let script = "<script>alert(\"x\")</script>"
        _ = try browser.post([("a:goals", "other"), ("o:goals", script), ("action", "back")])
        // The discovery page again: a browser sends its checked radio.
        #expect(Self.text(try browser.get()).contains(#"value="google" checked"#))
        _ = try browser.post([("a:discovery", "google"), ("action", "next")])
        let page = Self.text(try browser.get())
        #expect(page.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;"))
        #expect(!page.contains("<script>"))
    }
}

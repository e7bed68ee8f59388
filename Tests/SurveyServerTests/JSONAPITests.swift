import Foundation
import SurveyCore
import SurveyResponses
import SurveyServer
import Testing

/// The JSON API v1 on a real server (127.0.0.1, a port the system chose), driven by a tiny client.
@Suite struct JSONAPITests {
    static let surveyID = "habitly-onboarding"

    /// Starts a session for `respondent` and returns its token and first events.
    static func start(_ client: TinyClient, respondent: String) throws -> (token: String, response: ClientResponse) {
        let response = try client.post(
            "/v1/sessions", ["surveyId": .string(surveyID), "respondentId": .string(respondent), "locale": "en"])
        #expect(response.status == 201, "\(String(decoding: response.body, as: UTF8.self))")
        let token = try #require(response.json?["token"]?.stringValue)
        return (token, response)
    }

    static func command(_ client: TinyClient, _ token: String, _ command: JSONValue) throws -> ClientResponse {
        let response = try client.post("/v1/sessions/\(token)/commands", command)
        #expect(response.status == 200, "\(command): \(String(decoding: response.body, as: UTF8.self))")
        return response
    }

    /// The unit the last `step` event of `response` shows.
    static func unit(_ response: ClientResponse) -> String? {
        response.events.last { $0["event"] == "step" }?["step"]?["unitId"]?.stringValue
    }

    @Test func onboardingIsTakenToCompletionAndStored() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = server.client
        let (token, started) = try Self.start(client, respondent: "ada")
        #expect(token.count >= 22)
        #expect(started.eventKinds == ["started", "step", "progress"])
        #expect(started.events.first?["protocol"] == 1)
        #expect(started.json?["respondentId"] == "ada")
        #expect(started.headers["location"] == "/v1/sessions/\(token)")
        #expect(Self.unit(started) == "welcome")

        #expect(Self.unit(try Self.command(client, token, ["command": "next"])) == "discovery")
        let answered = try Self.command(client, token, ["command": "answer", "stepId": "discovery", "value": "google"])
        #expect(answered.eventKinds.first == "answered")
        #expect(Self.unit(try Self.command(client, token, "next")) == "about-you")
        // Several commands in one request, applied in order.
        let batch = try Self.command(
            client, token, [["command": "answer", "stepId": "goals", "value": ["fitness"]], ["command": "next"]])
        #expect(batch.eventKinds.first == "answered")
        #expect(Self.unit(batch) == "experience")
        _ = try Self.command(client, token, ["command": "answer", "stepId": "experience", "value": "sometimes"])
        #expect(Self.unit(try Self.command(client, token, "next")) == "tips-opt-in")
        _ = try Self.command(client, token, ["command": "answer", "stepId": "tips-opt-in", "value": true])
        #expect(Self.unit(try Self.command(client, token, "next")) == "tips-email")
        let refused = try Self.command(client, token, ["command": "answer", "stepId": "tips-email", "value": "nope"])
        #expect(refused.eventKinds == ["validation-error"])
        _ = try Self.command(client, token, ["command": "answer", "stepId": "tips-email", "value": "ada@example.com"])
        #expect(Self.unit(try Self.command(client, token, "next")) == "thank-you")
        let completed = try Self.command(client, token, "next")
        #expect(completed.eventKinds == ["completed"])
        #expect(completed.events.first?["answers"]?["discovery"] == "google")

        let stored = try #require(try server.store.latestResponse(respondent: "ada", survey: Self.surveyID))
        #expect(stored.status == .completed)
        #expect(stored.answers["tips-email"] == "ada@example.com")
        #expect(stored.path.contains("about-you"))
        // The session is over: its token is no longer known.
        #expect(try client.get("/v1/sessions/\(token)").status == 404)
        // And the respondent is not asked again (the survey's askAgain is never).
        let again = try client.post("/v1/sessions", ["surveyId": .string(Self.surveyID), "respondentId": "ada"])
        #expect(again.status == 200)
        #expect(again.eventKinds == ["not-asked"])
        #expect(again.json?["token"] == nil)
    }

    @Test func everyAcceptedCommandIsInTheStoreAndTheRespondentResumes() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = server.client
        let (token, _) = try Self.start(client, respondent: "bo")
        _ = try Self.command(client, token, "next")
        _ = try Self.command(client, token, ["command": "answer", "stepId": "discovery", "value": "reddit"])
        _ = try Self.command(client, token, "next")
        // What the store holds now is what a new start of the same respondent replays.
        let stored = try #require(try server.store.latestResponse(respondent: "bo", survey: Self.surveyID))
        #expect(stored.status == .inProgress)
        let (newToken, resumed) = try Self.start(client, respondent: "bo")
        // The same response goes on, under the same token.
        #expect(newToken == token)
        #expect(resumed.events.first?["resumed"] == true)
        #expect(Self.unit(resumed) == "about-you")
        let current = try client.get("/v1/sessions/\(newToken)")
        #expect(current.status == 200)
        #expect(current.eventKinds == ["started", "step", "progress"])
        #expect(Self.unit(current) == "about-you")
        let back = try Self.command(client, newToken, "back")
        #expect(Self.unit(back) == "discovery")
        #expect(
            back.events.first { $0["event"] == "step" }?["step"]?["questions"]?.arrayValue?.first?["answer"] == "reddit"
        )
    }

    /// A command sent again with the `If-Match` it was first sent with (its reply was lost) is
    /// refused with 412 and the current unit; `*` and no `If-Match` apply whatever the revision.
    @Test func aCommandSentAgainWithIfMatchIsAppliedOnce() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = server.client
        let (token, started) = try Self.start(client, respondent: "cy")
        let first = try #require(started.headers["etag"])
        #expect(first.hasPrefix("\"") && first.hasSuffix("\""))
        let path = "/v1/sessions/\(token)/commands"
        func next(_ ifMatch: String?) throws -> ClientResponse {
            try client.request(
                "POST", path, body: Array(#""next""#.utf8), headers: ifMatch.map { ["If-Match": $0] } ?? [:])
        }
        let moved = try next(first)
        #expect(moved.status == 200)
        #expect(Self.unit(moved) == "discovery")
        let second = try #require(moved.headers["etag"])
        #expect(second != first)
        // The same request again: nothing applied, the current unit and its revision.
        let again = try next(first)
        #expect(again.status == 412)
        #expect(again.json?["error"]?["code"] == "revisionChanged")
        #expect(again.eventKinds == ["started", "step", "progress"])
        #expect(Self.unit(again) == "discovery")
        #expect(again.headers["etag"] == second)
        #expect(try client.get("/v1/sessions/\(token)").headers["etag"] == second)
        // A tag that was never handed out, or a list without the current one, applies nothing either.
        #expect(try next(#""0.0""#).status == 412)
        #expect(try next(#""0.0", W/"1.1""#).status == 412)
        // The current revision (weak or in a list) and * are taken.
        _ = try Self.command(client, token, ["command": "answer", "stepId": "discovery", "value": "google"])
        let current = try #require(try client.get("/v1/sessions/\(token)").headers["etag"])
        #expect(Self.unit(try next(#""0.0", W/"# + current)) == "about-you")
        _ = try Self.command(client, token, ["command": "answer", "stepId": "goals", "value": ["sleep"]])
        #expect(Self.unit(try next("*")) == "experience")
    }

    @Test func aRespondentCannotReachAnothersSession() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = server.client
        let (first, _) = try Self.start(client, respondent: "first")
        let (second, _) = try Self.start(client, respondent: "second")
        #expect(first != second)
        _ = try Self.command(client, first, "next")
        _ = try Self.command(client, first, ["command": "answer", "stepId": "discovery", "value": "tiktok"])
        // The second respondent's token shows the second session, untouched by the first's answers.
        let seen = try client.get("/v1/sessions/\(second)")
        #expect(Self.unit(seen) == "welcome")
        #expect(!String(decoding: seen.body, as: UTF8.self).contains("tiktok"))
        // A token that is not one handed out (a changed character, a prefix, another's with the
        // respondent's name) reaches nothing.
        var changed = Array(first)
        changed[changed.count - 1] = changed.last == "A" ? "B" : "A"
        for forged in [String(changed), String(first.dropLast()), "first", first + "x"] {
            let response = try client.post("/v1/sessions/\(forged)/commands", ["command": "next"])
            #expect(response.status == 404)
            #expect(response.errorCode == "sessionNotFound")
            #expect(try client.get("/v1/sessions/\(forged)").status == 404)
        }
        let stored = try #require(try server.store.latestResponse(respondent: "second", survey: Self.surveyID))
        #expect(stored.status == .inProgress)
    }

    static let badBodies: [(name: String, path: String, body: [UInt8], code: String)] = [
        ("invalid JSON", "/v1/sessions", Array("{\"surveyId\":".utf8), "invalidJSON"),
        ("not UTF-8", "/v1/sessions", [0x22, 0xFF, 0xFE, 0x22], "invalidUTF8"),
        ("not an object", "/v1/sessions", Array("[1, 2]".utf8), "notAnObject"),
        ("unknown member", "/v1/sessions", Array(#"{"surveyId": "habitly-onboarding", "x": 1}"#.utf8), "unknownField"),
        ("unknown survey", "/v1/sessions", Array(#"{"surveyId": "nope"}"#.utf8), "unknownSurvey"),
        ("bad locale", "/v1/sessions", Array(#"{"locale": "<script>"}"#.utf8), "invalidLocale"),
        ("empty respondent", "/v1/sessions", Array(#"{"respondentId": ""}"#.utf8), "invalidRespondent"),
        ("undeclared variable", "/v1/sessions", Array(#"{"variables": {"plan": "pro"}}"#.utf8), "unknownVariable"),
        ("invalid JSON command", "COMMANDS", Array("{next".utf8), "invalidJSON"),
        ("unknown command", "COMMANDS", Array(#"{"command": "jump"}"#.utf8), "unknownCommand"),
        ("missing stepId", "COMMANDS", Array(#"{"command": "answer", "value": 1}"#.utf8), "missingField"),
        ("resume", "COMMANDS", Array(#"{"command": "resume", "state": {}}"#.utf8), "invalidState"),
        ("empty array", "COMMANDS", Array("[]".utf8), "noCommand"),
        (
            "too many commands", "COMMANDS",
            Array(("[" + Array(repeating: "\"next\"", count: 101).joined(separator: ",") + "]").utf8),
            "tooManyCommands"
        ),
    ]

    @Test(arguments: badBodies.indices)
    func aMalformedBodyGets4xxWithATypedError(index: Int) throws {
        let bad = Self.badBodies[index]
        let server = try TestServer()
        defer { server.stop() }
        let client = server.client
        var path = bad.path
        if path == "COMMANDS" { path = "/v1/sessions/\(try Self.start(client, respondent: "r").token)/commands" }
        let response = try client.request("POST", path, body: bad.body)
        #expect((400..<500).contains(response.status), "\(bad.name): \(response.status)")
        #expect(response.errorCode == bad.code, "\(bad.name): \(String(decoding: response.body, as: UTF8.self))")
        #expect(response.json?["error"]?["message"]?.stringValue?.isEmpty == false)
        #expect(response.headers["content-type"]?.hasPrefix("application/json") == true)
    }

    @Test func anOversizedBodyGets413() throws {
        let server = try TestServer(maximumBodyBytes: 1024)
        defer { server.stop() }
        let client = server.client
        let big = Array(("{\"respondentId\": \"" + String(repeating: "a", count: 4000) + "\"}").utf8)
        let response = try client.request("POST", "/v1/sessions", body: big)
        #expect(response.status == 413)
        #expect(response.errorCode == "bodyTooLarge")
        // Announced larger than the limit: refused before the body is read.
        let announced = try client.send(
            raw: Array("POST /v1/sessions HTTP/1.1\r\nHost: x\r\nContent-Length: 100000000\r\n\r\n{".utf8))
        #expect(announced.status == 413)
        // Chunked, no length announced: refused once it grows past the limit.
        let chunk = String(repeating: "b", count: 900)
        let chunked = try client.send(
            raw: Array(
                ("POST /v1/sessions HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
                    + "384\r\n\(chunk)\r\n384\r\n\(chunk)\r\n0\r\n\r\n").utf8))
        #expect(chunked.status == 413)
        // The server goes on.
        #expect(try client.get("/v1/health").status == 200)
    }

    @Test func healthReadinessAndRoutes() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = server.client
        let health = try client.get("/v1/health")
        #expect(health.status == 200)
        #expect(health.json?["status"] == "ok")
        let ready = try client.get("/v1/ready")
        #expect(ready.status == 200)
        #expect(ready.json?["surveys"] == [.string(Self.surveyID)])
        let missing = try client.get("/v2/health")
        #expect(missing.status == 404)
        #expect(missing.errorCode == "notFound")
        let wrongMethod = try client.request("DELETE", "/v1/sessions")
        #expect(wrongMethod.status == 405)
        #expect(wrongMethod.headers["allow"] == "POST")
        #expect(try client.request("POST", "/v1/health", body: []).status == 405)
        #expect(server.service.url.hasPrefix("http://127.0.0.1:"))
    }
}

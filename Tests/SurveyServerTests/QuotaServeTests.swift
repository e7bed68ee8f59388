import Foundation
import SurveyCore
import SurveyResponses
import SurveyServer
import Testing

/// Quotas over HTTP: the server goes through the library's session driver, which asks the store
/// which quotas are full before each Next, as `survey run` does (docs/targeting.md, "Quotas").
@Suite struct QuotaServeTests {
    static let surveyID = "quota-panel"

    static func start(_ client: TinyClient, respondent: String) throws -> String {
        let response = try client.post(
            "/v1/sessions", ["surveyId": .string(surveyID), "respondentId": .string(respondent), "locale": "en"])
        #expect(response.status == 201, "\(String(decoding: response.body, as: UTF8.self))")
        return try #require(response.json?["token"]?.stringValue)
    }

    static func commands(_ client: TinyClient, _ token: String, _ commands: JSONValue) throws -> ClientResponse {
        let response = try client.post("/v1/sessions/\(token)/commands", commands)
        #expect(response.status == 200, "\(String(decoding: response.body, as: UTF8.self))")
        return response
    }

    @Test func aRespondentOverAFullQuotaGetsItsEndOverTheJSONAPI() throws {
        let server = try TestServer(surveys: ["Tests/Fixtures/quota-panel.json"])
        defer { server.stop() }
        let client = server.client
        // The first young respondent completes and takes the quota's only place.
        let first = try Self.start(client, respondent: "a")
        _ = try Self.commands(client, first, [["command": "answer", "stepId": "age", "value": "young"], "next"])
        let done = try Self.commands(client, first, "next")
        #expect(done.eventKinds == ["completed"])
        #expect(try server.store.quotaCounts(survey: Self.surveyID)["young"] == 1)

        // The second is over the quota at their first Next: the quota's end, with its message.
        let second = try Self.start(client, respondent: "b")
        let ended = try Self.commands(
            client, second, [["command": "answer", "stepId": "age", "value": "young"], "next"])
        let event = try #require(ended.events.last)
        #expect(event["event"] == "ended")
        #expect(event["reason"] == "quota")
        #expect(event["quota"]?["quotaId"] == "young")
        #expect(event["message"] == "Thank you! We have heard from enough young people.")
        let stored = try #require(try server.store.latestResponse(respondent: "b", survey: Self.surveyID))
        #expect(stored.status == .endedByQuota)
        #expect(stored.answers["age"] == "young", "the answers so far are kept")
        #expect(stored.quotasReached.map(\.quotaID) == ["young"])
        #expect(try server.store.quotaCounts(survey: Self.surveyID)["young"] == 1, "not counted")

        // A flag quota (closed: limit 0) lets the respondent go on, and the response keeps the flag.
        let third = try Self.start(client, respondent: "c")
        let flagged = try Self.commands(
            client, third, [["command": "answer", "stepId": "age", "value": "old"], "next"])
        #expect(flagged.events.last { $0["event"] == "step" }?["step"]?["unitId"] == "habits")
        #expect(try Self.commands(client, third, "next").eventKinds == ["completed"])
        let kept = try #require(try server.store.latestResponse(respondent: "c", survey: Self.surveyID))
        #expect(kept.status == .completed)
        #expect(kept.quotasReached == [QuotaReached(quotaID: "old", action: .flag)])
        #expect(ResponseExport.jsonLine(of: kept).contains(#""quotasReached":[{"action":"flag","quotaId":"old"}]"#))
    }

    @Test func aBrowserOverAFullQuotaReadsItsEndMessage() throws {
        let server = try TestServer(surveys: ["Tests/Fixtures/quota-panel.json"])
        defer { server.stop() }
        let path = "/s/quota-panel"
        var first = WebFrontEndTests.Browser(client: server.client)
        _ = try first.get(path)
        _ = try first.post([("a:age", "young"), ("action", "next")], path: path)
        _ = try first.get(path)
        let done = try first.post([("a:apps", "none"), ("action", "next")], path: path)
        #expect(WebFrontEndTests.text(done).contains("Thank you! The survey is complete."))

        var second = WebFrontEndTests.Browser(client: server.client)
        _ = try second.get(path)
        let ended = WebFrontEndTests.text(try second.post([("a:age", "young"), ("action", "next")], path: path))
        #expect(ended.contains("Thank you! We have heard from enough young people."), "\(ended)")
        // Screened out, not completed: the heading says the survey ended.
        #expect(ended.contains("<h1>Thank you for your time. The survey has ended.</h1>"))
        #expect(!ended.contains("The survey is complete."))
        let respondent = try #require(second.cookies["survey-respondent"])
        let stored = try #require(
            try server.store.latestResponse(respondent: "web-" + respondent, survey: Self.surveyID))
        #expect(stored.status == .endedByQuota)
    }
}

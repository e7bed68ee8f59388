import Foundation
import SurveyCore
import SurveyResponses
import SurveyServer
import Testing

/// Many respondents at once, and sessions let go of when idle.
@Suite struct ConcurrencyTests {
    /// Takes `respondent` through the onboarding survey's shortest path.
    static func complete(_ client: TinyClient, respondent: String) throws -> ClientResponse {
        let (token, _) = try JSONAPITests.start(client, respondent: respondent)
        return try client.post(
            "/v1/sessions/\(token)/commands",
            [
                "next", ["command": "answer", "stepId": "discovery", "value": "google"], "next",
                ["command": "answer", "stepId": "goals", "value": ["sleep"]], "next",
                ["command": "answer", "stepId": "experience", "value": "skip"], "next",
            ])
    }

    @Test func manyRespondentsAtOnceAreAllStored() async throws {
        let server = try TestServer(threadCount: 4)
        defer { server.stop() }
        let client = server.client
        let count = 24
        let results = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<count {
                group.addTask {
                    let response = try? Self.complete(client, respondent: "r\(index)")
                    return response?.eventKinds.last == "completed"
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results.filter { $0 }.count == count)
        for index in 0..<count {
            let stored = try server.store.latestResponse(respondent: "r\(index)", survey: JSONAPITests.surveyID)
            #expect(stored?.status == .completed)
            #expect(stored?.answers["goals"] == ["sleep"])
        }
    }

    @Test func anIdleSessionIsLetGoOfAndRebuiltFromTheStore() throws {
        let server = try TestServer(idleSessionSeconds: 1)
        defer { server.stop() }
        let client = server.client
        let (token, _) = try JSONAPITests.start(client, respondent: "idle")
        _ = try JSONAPITests.command(client, token, "next")
        Thread.sleep(forTimeInterval: 2.2)
        // Another start looks for idle sessions: the first one is let go of.
        _ = try JSONAPITests.start(client, respondent: "other")
        #expect(server.service.api.sessionsInMemory == 1)
        // Its token still reaches it: the session is rebuilt from the store.
        let current = try client.get("/v1/sessions/\(token)")
        #expect(current.status == 200)
        #expect(JSONAPITests.unit(current) == "discovery")
        let (_, resumed) = try JSONAPITests.start(client, respondent: "idle")
        #expect(resumed.events.first?["resumed"] == true)
        #expect(JSONAPITests.unit(resumed) == "discovery")
    }
}

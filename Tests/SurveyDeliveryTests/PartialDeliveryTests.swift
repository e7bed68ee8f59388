import Foundation
import SurveyBuiltins
import SurveyCore
import SurveyDelivery
import SurveyResponses
import SurveyStoreSQLite
import SurveyTestFixtures
import Testing

/// Partial responses delivered (`deliverPartial`), against the real test server: each version of an
/// unfinished response (each time it got an answer) is sent once with its answers so far and
/// `"finished": false`, the completed response once more; an unchanged response is not sent again.
@Suite(.serialized) struct PartialDeliveryTests {
    static let survey = """
        {"formatVersion": 1, "id": "partial-delivery", "version": "4", "title": "Partial", "steps": [
          {"id": "p1", "type": "page", "steps": [
            {"id": "mood", "type": "single-choice", "options": {"choices": ["good", "bad"]}},
            {"id": "why", "type": "text"}]},
          {"id": "score", "type": "rating"}]}
        """

    static func configuration(_ server: TestServer, kind: String) throws -> DeliveryConfiguration {
        try DeliveryConfiguration(
            text: """
                {"targets": [{"name": "\(kind)", "type": "\(kind)", "url": "\(server.url(kind == "webhook" ? "hook" : ""))",
                  "maxAttempts": 5, "timeoutSeconds": 2}],
                 "backoff": {"initialSeconds": 0.02, "maximumSeconds": 0.1}, "deliverPartial": true}
                """, file: "delivery.json")
    }

    @Test func eachVersionOfAPartialResponseIsSentOnceThenTheCompletedOne() throws {
        let server = try TestServer(files: [:])
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("partial-\(UUID().uuidString).sqlite")
            .path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let store = try SQLiteResponseStore(path: path, synchronous: .normal)
        let survey = try SurveyLoader(registry: .builtins()).load(text: Self.survey)
        var deliverer = Deliverer(store: store, configuration: try Self.configuration(server, kind: "webhook"))
        deliverer.surveys = [survey.id: survey]
        var session = SurveySession(survey: survey)
        var recorder = try ResponseRecorder(store: store, respondentID: "halfway", session: session)
        recorder.deliveryTargets = ["webhook"]
        recorder.deliversPartial = true
        // Recorded by hand, without a driver: the session keeps every answer as the recorder needs.
        session.keepsEveryAnswer = recorder.keepsEveryAnswer
        let id = recorder.response.id.rawValue
        func deliver() throws -> Deliverer.Report {
            try deliverer.deliverAll(until: Date().addingTimeInterval(20))
        }

        // Nothing answered yet: nothing to send.
        #expect(try deliver().delivered == 0)
        try session.answer("good", for: "mood")
        try recorder.record(session)
        #expect(try deliver().delivered == 1)
        // Unchanged: not sent again.
        #expect(try deliver().delivered == 0)
        // The same step answered again: a version of its own, sent under its own count.
        try session.answer("bad", for: "mood")
        try recorder.record(session)
        #expect(try deliver().delivered == 1)
        // Two more answers before the deliverer runs: one send, of the latest version.
        try session.answer("good", for: "mood")
        try recorder.record(session)
        try session.answer("slow", for: "why")
        try recorder.record(session)
        #expect(try deliver().delivered == 1)
        // A Next changes no answer: nothing is queued.
        session.next()
        try recorder.record(session)
        #expect(try deliver().delivered == 0)
        try session.answer(4, for: "score")
        try recorder.record(session)
        #expect(try deliver().delivered == 1)
        session.next()
        try recorder.record(session)
        #expect(session.status == .completed)
        #expect(try deliver().delivered == 1)
        #expect(try deliver().delivered == 0)

        let stored = try server.stored()
        #expect(stored.replays == 0, "nothing was sent twice: \(stored.replays) replays")
        #expect(
            Set(stored.records.keys) == ["\(id).1", "\(id).2", "\(id).4", "\(id).6", id],
            "\(stored.records.keys.sorted())")
        #expect(stored.records.values.allSatisfy { $0 == 1 })
        let first = try #require(stored.bodies["\(id).1"])
        #expect(first["finished"] as? Bool == false && first["partial"] as? Bool == true)
        #expect(first["status"] as? String == "in-progress" && first["responseVersion"] as? Int == 1)
        #expect(first["answers"] as? [String: String] == ["mood": "good"])
        #expect(try #require(stored.bodies["\(id).2"])["answers"] as? [String: String] == ["mood": "bad"])
        let second = try #require(stored.bodies["\(id).4"])
        #expect(second["answers"] as? [String: String] == ["mood": "good", "why": "slow"])
        #expect(second["path"] as? [String] == ["p1"])
        let last = try #require(stored.bodies[id])
        #expect(last["finished"] as? Bool == true && last["partial"] == nil)
        #expect((last["answers"] as? [String: Any])?["score"] as? Int == 4)
        #expect(try store.deliveries(status: nil).map(\.status) == [.delivered])
    }

    /// Without the survey, an unfinished response cannot be replayed: the job waits, saying what it needs.
    @Test func aPartialResponseWaitsForItsSurvey() throws {
        let server = try TestServer(files: [:])
        let store = InMemoryResponseStore()
        let survey = try SurveyLoader(registry: .builtins()).load(text: Self.survey)
        var session = SurveySession(survey: survey)
        var recorder = try ResponseRecorder(store: store, respondentID: "r", session: session)
        recorder.deliveryTargets = ["firebase"]
        recorder.deliversPartial = true
        try session.answer("good", for: "mood")
        try recorder.record(session)
        let blind = Deliverer(store: store, configuration: try Self.configuration(server, kind: "firebase"))
        let report = try blind.deliverDue()
        #expect(report.retried == 1 && report.delivered == 0)
        let job = try #require(try store.deliveries(status: .pending).first)
        #expect(job.lastError?.contains("survey deliver --survey FILE") == true, "\(job)")
        var seeing = blind
        seeing.surveys = [survey.id: survey]
        #expect(try seeing.deliverAll(until: Date().addingTimeInterval(20)).delivered == 1)
        let body = try #require(try server.stored().bodies[recorder.response.id.rawValue])
        #expect(body["answers"] as? [String: String] == ["mood": "good"] && body["finished"] as? Bool == false)
    }
}

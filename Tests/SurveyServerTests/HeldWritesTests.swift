import Foundation
import SurveyCore
import SurveyResponses
import SurveyStoreSQL
import SurveyStoreSQLite
import SurveyTestFixtures
import Testing

@testable import SurveyServer

/// One write per request (`HeldWrites`): the store ends exactly as with one write per action, a
/// request's commands reach the store as one write, and a write the store refuses is applied again one
/// action at a time, as it was before writes were held.
@Suite struct HeldWritesTests {
    static let clock: @Sendable () -> Date = { Date(timeIntervalSince1970: 1_800_000_000) }

    /// Requests of the onboarding survey, each the actions of one request: an answer changed at once
    /// (its action replaced), a Back and the Next that undoes it (both leave the log), a page of answers.
    static let requests: [[SessionAction]] = [
        [.next],
        [.answer(stepID: "discovery", value: "google"), .answer(stepID: "discovery", value: "reddit"), .next],
        [.answer(stepID: "goals", value: ["fitness"]), .next],
        [.back],
        [.next],
        [.answer(stepID: "experience", value: "sometimes"), .next, .back, .next],
        [.answer(stepID: "tips-opt-in", value: true), .next],
        [.answer(stepID: "tips-email", value: "ada@example.com"), .next],
        [.next],
    ]

    /// Takes `requests` on `store`, each action recorded as it is taken; through `held` (holding
    /// `store`), each request's writes held and committed when it is done.
    static func take(store: any ResponseStore, held: HeldWrites?, id: ResponseID) throws {
        let survey = try TestServer.survey("Examples/onboarding.json")
        var session = SurveySession(survey: survey, seed: 5, locale: "en", today: "2026-05-01")
        var recorder = try ResponseRecorder(
            store: held ?? store, respondentID: "ada", session: session, id: id, clock: clock)
        for actions in requests {
            held?.hold(id)
            for action in actions {
                let taken = session.apply(action)
                #expect(taken, "\(action) was not taken")
                try recorder.record(session)
            }
            if let failure = held?.release(id) { throw failure.error }
        }
        #expect(session.status == .completed)
    }

    @Test(arguments: [false, true])
    func oneWritePerRequestLeavesTheStoreAsOneWritePerAction(inSQLite: Bool) throws {
        func makeStore() throws -> any ResponseStore {
            inSQLite
                ? try SQLiteResponseStore(path: Scratch.file("held-writes", suffix: ".sqlite").path)
                : InMemoryResponseStore()
        }
        let id = ResponseID.make()
        let each = try makeStore()
        try Self.take(store: each, held: nil, id: id)
        let together = try makeStore()
        try Self.take(store: together, held: HeldWrites(base: together, table: HeldWrites.Table()), id: id)

        let expected = try #require(try each.response(id))
        #expect(try together.response(id) == expected)
        #expect(expected.status == .completed && expected.answers["discovery"] == "reddit")
        #expect(try together.actions(of: id) == each.actions(of: id))
        let events = { (store: any ResponseStore) throws -> Set<String> in
            Set(try store.funnelEvents(of: id).map { "\($0.kind.rawValue) \($0.stepID ?? "")" })
        }
        #expect(try events(together) == events(each))
        #expect(
            try together.funnelCounts(survey: "habitly-onboarding") == each.funnelCounts(survey: "habitly-onboarding"))
    }

    @Test func aRequestsCommandsReachTheStoreAsOneWrite() throws {
        let store = try SQLiteResponseStore(path: Scratch.file("held-writes", suffix: ".sqlite").path)
        let api = try SurveyAPI(surveys: [TestServer.survey("Examples/onboarding.json")], store: store)
        let session = try APISession(api, respondent: "ada")
        _ = session.post(#""next""#)
        let before = store.committer.counts.writes
        let reply = session.post(
            #"[{"command": "answer", "stepId": "discovery", "value": "google"}, {"command": "next"}]"#)
        #expect(reply.status == 200)
        #expect(store.committer.counts.writes == before + 1, "an answer and its Next: one write")
        let stored = try #require(try store.latestResponse(respondent: "ada", survey: "habitly-onboarding"))
        #expect(stored.actionCount == 3 && stored.currentUnitID == "about-you")
        #expect(
            try store.actions(of: stored.id).map(\.action) == [
                .next, .answer(stepID: "discovery", value: "google"), .next,
            ])
    }

    /// The store refuses the request's write: the commands are applied again one at a time, each
    /// answered as it was before writes were held (an `error` event `storeFailed` for the answer, which
    /// is not taken), and the session is as the store has it; sent again once the store is back, they
    /// are taken.
    @Test func aRefusedWriteIsAppliedAgainOneActionAtATime() throws {
        let store = InMemoryResponseStore()
        let api = try SurveyAPI(surveys: [TestServer.survey("Examples/onboarding.json")], store: store)
        let session = try APISession(api, respondent: "bo")
        func post(_ commands: String) throws -> [JSONValue] {
            let reply = session.post(commands)
            #expect(reply.status == 200, "\(String(decoding: reply.body, as: UTF8.self))")
            return try JSONParser.parse(bytes: reply.body)["events"]?.arrayValue ?? []
        }
        _ = try post(#""next""#)
        let page = #"[{"command": "answer", "stepId": "discovery", "value": "google"}, {"command": "next"}]"#
        store.failingWrites = StoreError(.unavailable, "the disk is full", store: store.name)
        let refused = try post(page)
        // The answer is not kept, so the required question blocks the Next: as without holding.
        let kinds = refused.compactMap { $0["event"]?.stringValue }
        #expect(kinds.first == "error" && refused.first?["code"] == "storeFailed", "\(refused)")
        #expect(kinds.contains("validation-error") && !kinds.contains("answered"), "\(refused)")
        store.failingWrites = nil
        let stored = try #require(try store.latestResponse(respondent: "bo", survey: "habitly-onboarding"))
        #expect(stored.actionCount == 1)
        let taken = try post(page)
        #expect(taken.first?["event"] == "answered")
        #expect(taken.contains { $0["event"] == "step" && $0["step"]?["unitId"] == "about-you" })
        let after = try #require(try store.latestResponse(respondent: "bo", survey: "habitly-onboarding"))
        #expect(
            try store.actions(of: after.id).map(\.action) == [
                .next, .answer(stepID: "discovery", value: "google"), .next,
            ])
    }
}

/// A session of the onboarding survey started through `api` directly (no socket), and its commands.
struct APISession {
    let api: SurveyAPI
    let token: String

    init(_ api: SurveyAPI, respondent: String) throws {
        self.api = api
        let body = #"{"surveyId": "habitly-onboarding", "respondentId": "\#(respondent)", "locale": "en"}"#
        let started = api.respond(to: HTTPRequest(method: "POST", path: "/v1/sessions", body: Array(body.utf8)))
        token = try #require(try JSONParser.parse(bytes: started.body)["token"]?.stringValue)
    }

    /// Sends `commands` (the body's JSON text).
    func post(_ commands: String) -> HTTPResponse {
        api.respond(to: HTTPRequest(method: "POST", path: "/v1/sessions/\(token)/commands", body: Array(commands.utf8)))
    }
}

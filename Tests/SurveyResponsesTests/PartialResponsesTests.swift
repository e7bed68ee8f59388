import Foundation
import SurveyCore
import SurveyResponses
import SurveyStoreSQLite
import Testing

/// Unfinished responses in exports and lists: their path and answers so far, replayed from their
/// stored actions, marked partial.
@Suite struct PartialResponsesTests {
    let survey: Survey

    init() throws {
        survey = try Surveys.load(Surveys.branching)
    }

    /// A response of `respondent` recorded through the actions of `steps` (one recorder write each).
    func record(
        _ respondent: String, in store: any ResponseStore, _ steps: (inout SurveySession) throws -> Void...
    ) throws -> ResponseRecorder {
        var session = SurveySession(survey: survey, seed: 2, today: "2026-05-01")
        var recorder = try ResponseRecorder(store: store, respondentID: respondent, session: session)
        for step in steps {
            try step(&session)
            try recorder.record(session)
        }
        return recorder
    }

    @Test(arguments: [false, true])
    func unfinishedResponsesShowTheirAnswersSoFar(inSQLite: Bool) throws {
        let store: any ResponseStore =
            inSQLite ? try SQLiteResponseStore(path: temporaryStorePath()) : InMemoryResponseStore()
        let going = try record(
            "going", in: store, { $0.next() }, { _ = try $0.answer(4, for: "rating") }, { $0.next() },
            { _ = try $0.answer(true, for: "wants-contact") })
        let done = try record(
            "done", in: store, { $0.next() }, { _ = try $0.answer(5, for: "rating") }, { $0.next() },
            { _ = try $0.answer(false, for: "wants-contact") }, { $0.next() },
            { _ = try $0.answer("dev", for: "role") }, { $0.next() })
        var left = try record("left", in: store, { $0.next() }, { _ = try $0.answer(2, for: "rating") })
        let leftID = left.response.id
        try left.restart(with: SurveySession(survey: survey, seed: 3, today: "2026-05-01"))
        #expect(try store.response(done.response.id)?.status == .completed)

        let partial = PartialResponses(survey: survey, store: store)
        func soFar(_ id: ResponseID) throws -> PartialResponses.SoFar? {
            try store.response(id).flatMap { try partial.soFar(of: $0) }
        }
        let goingSoFar = try #require(try soFar(going.response.id))
        #expect(goingSoFar.path == ["welcome", "rating", "wants-contact"])
        #expect(goingSoFar.answers == ["rating": 4, "wants-contact": true])
        #expect(try soFar(done.response.id) == nil, "a completed response keeps its stored answers")
        let abandoned = try #require(try soFar(leftID))
        #expect(abandoned.path == ["welcome", "rating"] && abandoned.answers == ["rating": 2])
        #expect(try store.response(leftID)?.status == .abandoned)

        let stored = try #require(try store.response(going.response.id))
        let (shown, isPartial) = try partial.completing(stored)
        #expect(isPartial && shown.answers == goingSoFar.answers && shown.path == goingSoFar.path)
        let line = ResponseExport.jsonLine(of: shown, isPartial: true)
        #expect(line.contains(#""partial":true"#) && line.contains(#""answers":{"rating":4,"wants-contact":true}"#))
        #expect(!ResponseExport.jsonLine(of: stored).contains("partial"))

        var bytes: [UInt8] = []
        _ = try ResponseExport.write(
            .csv, from: store, matching: ResponseQuery(respondentID: "going"), columns: ["rating", "wants-contact"],
            partial: partial
        ) { bytes += $0 }
        #expect(
            String(decoding: bytes, as: UTF8.self).hasSuffix(
                ",in-progress,\(ResponseExport.timestamp(stored.createdAt)),\(ResponseExport.timestamp(stored.updatedAt)),,4,true\r\n"
            ))
    }

    /// A response of another version is replayed as it would be carried over to the survey given
    /// (by step id), its answers that no longer fit shown as orphaned; nothing is written.
    @Test func anotherVersionIsReplayedByStepID() throws {
        let store = InMemoryResponseStore()
        let going = try record(
            "going", in: store, { $0.next() }, { _ = try $0.answer(4, for: "rating") }, { $0.next() },
            { _ = try $0.answer(true, for: "wants-contact") })
        let changed = try Surveys.load(
            Surveys.branching.replacingOccurrences(of: #""version": "2""#, with: #""version": "3""#)
                .replacingOccurrences(of: #""type": "boolean""#, with: #""type": "text""#))
        let stored = try #require(try store.response(going.response.id))
        let partial = PartialResponses(survey: changed, store: store)
        #expect(partial.replays(stored) && !partial.isShownAsStored(stored))
        let (shown, isPartial) = try partial.completing(stored)
        #expect(isPartial)
        #expect(shown.answers == ["rating": 4])
        #expect(shown.orphaned.map(\.stepID) == ["wants-contact"])
        #expect(shown.orphaned.map(\.reason) == [.refused])
        #expect(shown.surveyVersion == "2")
        #expect(try store.response(going.response.id) == stored, "nothing is written")
        #expect(!PartialResponses().replays(stored))
    }
}

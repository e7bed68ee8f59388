import Foundation
import SurveyCore
import SurveyRendering
import SurveyResponses
import SurveyStoreSQLite
import Testing

@Suite struct RecorderTests {
    let survey: Survey

    init() throws {
        survey = try Surveys.load(Surveys.branching)
    }

    /// A step answered again right after its answer, when nothing but that answer was written (no
    /// trigger, value rule or default reads it): the new answer replaces the stored one, in the write
    /// that acknowledges it, so changing one's mind a thousand times keeps one action; continuing gives
    /// the same session. An answer to another step in between keeps both.
    @Test(arguments: [false, true])
    func anAnswerChangedAtOnceReplacesTheStoredOne(inSQLite: Bool) throws {
        let store: any ResponseStore =
            inSQLite ? try SQLiteResponseStore(path: temporaryStorePath()) : InMemoryResponseStore()
        var session = SurveySession(survey: survey, seed: 1, today: "2026-05-01")
        var recorder = try ResponseRecorder(store: store, respondentID: "eve", session: session)
        session.next()
        try recorder.record(session)
        for stars in 0..<1_000 {
            try session.answer(.number(Double(stars % 5 + 1)), for: "rating")
            try recorder.record(session)
        }
        let id = recorder.response.id
        #expect(try store.actions(of: id).map(\.action) == [.next, .answer(stepID: "rating", value: 5)])
        #expect(try store.response(id)?.actionCount == 2)
        // Recorded late, with a Next after it: the replaced answer and the Next are both written.
        try session.answer(2, for: "rating")
        session.next()
        try recorder.record(session)
        try session.answer(true, for: "wants-contact")
        try recorder.record(session)
        #expect(
            try store.actions(of: id).map(\.action) == [
                .next, .answer(stepID: "rating", value: 2), .next, .answer(stepID: "wants-contact", value: true),
            ])
        let header = try #require(try store.response(id))
        let (resumed, _) = try ResponseRecorder.resume(header, from: store, survey: survey)
        #expect(resumed.state == session.state)
        #expect(try store.funnelEvents(of: id).contains { $0.kind == .answered && $0.stepID == "rating" })
    }

    /// A recorder that delivers partial responses sends each version under its action count, so every
    /// answer counts: a driver with such a recorder keeps every answer in its session's log, each
    /// stored; continuing the response keeps the stored actions as they are (no version count reused).
    @Test func aRecorderDeliveringPartialResponsesKeepsEveryAnswer() throws {
        let store = InMemoryResponseStore()
        var recorder = try ResponseRecorder(
            store: store, respondentID: "eve", session: SurveySession(survey: survey, seed: 1, today: "2026-05-01"))
        recorder.deliversPartial = true
        #expect(recorder.keepsEveryAnswer)
        let driver = SurveyDriver(
            session: SurveySession(survey: survey, seed: 1, today: "2026-05-01"), recorder: recorder)
        var session = driver.session
        #expect(session.keepsEveryAnswer)
        #expect(!SurveyDriver(session: SurveySession(survey: survey)).session.keepsEveryAnswer)
        session.next()
        try recorder.record(session)
        for stars in [3, 4, 5] {
            try session.answer(.number(Double(stars)), for: "rating")
            try recorder.record(session)
        }
        let id = recorder.response.id
        #expect(try store.response(id)?.actionCount == 4)
        #expect(try store.actions(of: id).map(\.action).last == .answer(stepID: "rating", value: 5))
        // Continued by a recorder that does not deliver partial responses: the four actions stay.
        let header = try #require(try store.response(id))
        var (resumed, continuing) = try ResponseRecorder.resume(header, from: store, survey: survey)
        #expect(resumed.actionCount == 4)
        #expect(try store.response(id)?.actionCount == 4)
        #expect(resumed.state == session.state)
        // From then on a changed answer takes the place of the one just given, in the store too.
        try resumed.answer(2, for: "rating")
        try continuing.record(resumed)
        #expect(resumed.actionCount == 4)
        #expect(try store.actions(of: id).map(\.action).last == .answer(stepID: "rating", value: 2))
    }

    /// A Back and the Next that undoes it leave the session's log, and the store's too: going back
    /// and forth keeps the stored response at its size, and continuing it gives the same session.
    @Test(arguments: [false, true])
    func aBackUndoneByNextLeavesTheStore(inSQLite: Bool) throws {
        let store: any ResponseStore =
            inSQLite ? try SQLiteResponseStore(path: temporaryStorePath()) : InMemoryResponseStore()
        var session = SurveySession(survey: survey, seed: 1, today: "2026-05-01")
        var recorder = try ResponseRecorder(store: store, respondentID: "eve", session: session)
        session.next()
        try session.answer(3, for: "rating")
        session.next()
        try recorder.record(session)
        let kept: [SessionAction] = [.next, .answer(stepID: "rating", value: 3), .next]
        for _ in 0..<1_000 {
            try session.back()
            try recorder.record(session)
            session.next()
            try recorder.record(session)
        }
        let id = recorder.response.id
        #expect(try store.actions(of: id).map(\.action) == kept)
        #expect(try store.response(id)?.actionCount == 3)
        #expect(try store.response(id)?.currentUnitID == "wants-contact")
        // A Back that stays is stored, and numbered after what is kept.
        try session.back()
        try recorder.record(session)
        #expect(try store.actions(of: id).map(\.sequence) == [1, 2, 3, 4])
        let header = try #require(try store.response(id))
        let (resumed, _) = try ResponseRecorder.resume(header, from: store, survey: survey)
        #expect(resumed.state == session.state)
    }

    /// A response stored before pairs were dropped is stored again without them when it continues.
    @Test func anOlderLogIsStoredAgainWithoutItsPairs() throws {
        let store = InMemoryResponseStore()
        var session = SurveySession(survey: survey, seed: 1, today: "2026-05-01")
        let recorder = try ResponseRecorder(store: store, respondentID: "eve", session: session)
        let older: [SessionAction] = [.next, .answer(stepID: "rating", value: 3), .next, .back, .next, .back, .next]
        var header = recorder.response
        header.actionCount = older.count
        try store.write(
            ResponseWrite(
                response: header,
                actions: older.enumerated().map {
                    RecordedAction(sequence: $0.offset + 1, action: $0.element, recordedAt: Date())
                }))
        let (resumed, continuing) = try ResponseRecorder.resume(header, from: store, survey: survey)
        for action in older { session.apply(action) }
        #expect(resumed.state == session.state)
        #expect(resumed.actionCount == 3)
        #expect(try store.actions(of: header.id).map(\.action) == Array(older.prefix(3)))
        #expect(continuing.response.actionCount == 3)
        #expect(try store.response(header.id)?.actionCount == 3)
    }

    @Test func recordsEachAcceptedActionWithItsFunnelEvents() throws {
        let store = InMemoryResponseStore()
        var session = SurveySession(survey: survey, seed: 9, locale: "fr", today: "2026-05-01")
        var recorder = try ResponseRecorder(store: store, respondentID: "ada", session: session)
        let id = recorder.response.id
        #expect(try store.response(id)?.status == .inProgress)
        #expect(try store.funnelEvents(of: id).map(\.kind) == [.invitationShown, .stepSeen])

        session.next()
        try recorder.record(session)
        #expect(throws: SessionError.self) { try session.answer(9, for: "rating") }
        try recorder.record(session)  // the refused answer is not an action
        try session.answer(4, for: "rating")
        try recorder.record(session)
        try recorder.record(session)  // nothing new
        #expect(try store.actions(of: id).map(\.action) == [.next, .answer(stepID: "rating", value: 4)])
        let header = try store.response(id)
        #expect(header?.actionCount == 2)
        #expect(header?.currentUnitID == "rating")
        #expect(header?.seed == 9 && header?.locale == "fr" && header?.today == "2026-05-01")
        #expect(header?.surveyVersion == "2")

        session.next()
        try session.answer(true, for: "wants-contact")
        try recorder.record(session)
        session.next()
        try recorder.record(session)
        try session.answer("ada@example.com", for: "contact")
        try recorder.record(session)
        session.next()
        try recorder.record(session)
        try session.answer("dev", for: "role")
        try recorder.record(session)
        let outcome = session.next()
        try recorder.record(session)
        guard case .completed(let result) = outcome else {
            Issue.record("expected completion, got \(outcome)")
            return
        }
        let done = try #require(try store.response(id))
        #expect(done.status == .completed)
        #expect(done.completedAt != nil)
        #expect(done.answers == result.answers)
        #expect(done.path == result.path)
        let counts = try store.funnelCounts(survey: "branching")
        #expect(counts.survey == [.invitationShown: 1, .started: 1, .completed: 1])
        #expect(counts.steps["contact"] == [.stepSeen: 1, .answered: 1])
        #expect(counts.steps["notes"] == [.stepSeen: 1])
        #expect(counts.steps["role"] == [.stepSeen: 1, .answered: 1])
        #expect(counts.stoppedAt.isEmpty)
    }

    @Test func resumesExactlyWhereTheRespondentStopped() throws {
        let path = temporaryStorePath()
        var session = SurveySession(survey: survey, seed: 3, today: "2026-05-01")
        do {
            let store = try SQLiteResponseStore(path: path)
            var recorder = try ResponseRecorder(store: store, respondentID: "bob", session: session)
            for step in [
                { (s: inout SurveySession) in _ = s.next() }, { try $0.answer(5, for: "rating") },
                { _ = $0.next() }, { try $0.answer(false, for: "wants-contact") }, { _ = $0.next() }, { try $0.back() },
            ] as [(inout SurveySession) throws -> Void] {
                try step(&session)
                try recorder.record(session)
            }
        }
        let reopened = try SQLiteResponseStore(path: path)
        let latest = try #require(try reopened.latestResponse(respondent: "bob", survey: "branching"))
        let (resumed, _) = try ResponseRecorder.resume(latest, from: reopened, survey: survey)
        #expect(resumed.state == session.state)
        #expect(resumed.currentUnitID == "wants-contact")
        #expect(resumed.progress == session.progress)
    }

    @Test func resumesOnAnotherVersionAndRefusesAFinishedResponse() throws {
        let store = InMemoryResponseStore()
        var session = SurveySession(survey: survey)
        var recorder = try ResponseRecorder(store: store, respondentID: "cy", session: session)
        session.next()
        try recorder.record(session)
        let response = try #require(try store.response(recorder.response.id))
        let changed = try Surveys.load(
            Surveys.branching.replacingOccurrences(of: "\"version\": \"2\"", with: "\"version\": \"3\""))
        let carried = try ResponseRecorder.resume(response, from: store, survey: changed)
        #expect(carried.session.currentUnitID == "rating")
        #expect(carried.recorder.response.surveyVersion == "3")
        #expect(try store.response(recorder.response.id)?.surveyVersion == "3")
        session.dismiss()
        try recorder.record(session)
        let dismissed = try #require(try store.response(recorder.response.id))
        #expect(dismissed.status == .dismissed)
        #expect(dismissed.currentUnitID == "rating")
        #expect(throws: ResumeError.self) { try ResponseRecorder.resume(dismissed, from: store, survey: survey) }
        let counts = try store.funnelCounts(survey: "branching")
        #expect(counts.survey[.dismissed] == 1)
        #expect(counts.steps["rating"]?[.dismissed] == 1)
        #expect(counts.stoppedAt == ["rating": 1])
    }

    @Test func aDismissalBeforeAnyActionIsNotAStart() throws {
        let store = InMemoryResponseStore()
        var session = SurveySession(survey: survey)
        var recorder = try ResponseRecorder(store: store, respondentID: "dee", session: session)
        session.dismiss()
        try recorder.record(session)
        let counts = try store.funnelCounts(survey: "branching")
        #expect(counts.survey == [.invitationShown: 1, .dismissed: 1])
        #expect(counts.steps["welcome"] == [.stepSeen: 1, .dismissed: 1])
    }

    @Test func anEmptyRespondentIDIsRefused() {
        #expect(throws: StoreError.self) {
            try ResponseRecorder(
                store: InMemoryResponseStore(), respondentID: "", session: SurveySession(survey: survey))
        }
    }

    @Test func theDriverAcknowledgesOnlyWhatTheStoreKept() throws {
        let store = InMemoryResponseStore()
        let session = SurveySession(survey: survey)
        let recorder = try ResponseRecorder(store: store, respondentID: "eve", session: session)
        store.failingWrites = StoreError(.unavailable, "disk full", store: "memory")
        var output: [String] = []
        var renderer = JSONEventRenderer(
            input: ArrayLineSource([#"{"command":"next"}"#, #"{"command":"answer","stepId":"rating","value":3}"#])
        ) { output.append($0) }
        var driver = SurveyDriver(session: session, recorder: recorder)
        let outcome = driver.run(with: &renderer)
        let events = output.compactMap { try? JSONParser.parse($0) }
        #expect(events.contains { $0["code"]?.stringValue == "storeFailed" })
        #expect(!events.contains { $0["event"]?.stringValue == "answered" })
        guard case .quit(let state, _) = outcome else {
            Issue.record("expected quit at the end of input, got \(outcome)")
            return
        }
        #expect(state.actions.isEmpty, "the undone actions are not in the session")
        #expect(state.path == ["welcome"])
        #expect(try store.actions(of: recorder.response.id).isEmpty)
    }

    @Test func askAgainFollowsTheSurveySetting() throws {
        let day: TimeInterval = 86_400
        let finished = (status: ResponseStatus.completed, at: Date(timeIntervalSince1970: 1_780_000_000))
        #expect(!AskDecision.decide(policy: .never, last: finished, now: finished.at + 400 * day).shouldAsk)
        #expect(AskDecision.decide(policy: .always, last: finished, now: finished.at).shouldAsk)
        let thirtyDays = try #require(AskAgainPolicy("P30D"))
        #expect(!AskDecision.decide(policy: thirtyDays, last: finished, now: finished.at + 29 * day).shouldAsk)
        #expect(AskDecision.decide(policy: thirtyDays, last: finished, now: finished.at + 30 * day).shouldAsk)
        #expect(AskAgainPolicy("PT12H") == .after(ISODuration(hours: 12)))
        #expect(AskAgainPolicy("P1Y2M3W4DT5H6M7S")?.description == "P1Y2M3W4DT5H6M7S")
        for bad in ["", "P", "PT", "30D", "P1H", "PT1D", "P1D1Y", "P-1D", "P1234567D", "sometimes"] {
            #expect(AskAgainPolicy(bad) == nil, "'\(bad)' is not a policy")
        }
        // The decision from the store: a respondent who never finished is asked.
        let store = InMemoryResponseStore()
        #expect(try store.shouldAsk(respondent: "new", survey: survey).shouldAsk)
        var session = SurveySession(survey: survey)
        var recorder = try ResponseRecorder(store: store, respondentID: "old", session: session)
        session.dismiss()
        try recorder.record(session)
        #expect(!(try store.shouldAsk(respondent: "old", survey: survey).shouldAsk))
    }

    @Test func aBadAskAgainSettingIsALoadError() {
        let text = Surveys.branching.replacingOccurrences(
            of: "\"title\": \"Branching\",", with: "\"title\": \"Branching\", \"settings\": {\"askAgain\": \"P30\"},")
        #expect {
            try Surveys.load(text)
        } throws: { error in
            "\(error)".contains("askAgain") && "\(error)".contains("ISO-8601")
        }
    }

    @Test func responseIDsAreVersion7AndOrderedByTime() {
        let early = ResponseID.make(at: Date(timeIntervalSince1970: 1_700_000_000))
        let late = ResponseID.make(at: Date(timeIntervalSince1970: 1_700_000_001))
        #expect(early < late)
        let text = early.rawValue
        #expect(text.count == 36)
        #expect(Array(text)[14] == "7")
        #expect("89ab".contains(Array(text)[19]))
        #expect(Set((0..<1000).map { _ in ResponseID.make().rawValue }).count == 1000)
    }
}

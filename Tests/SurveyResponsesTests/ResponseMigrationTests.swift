import Foundation
import SurveyCore
import SurveyRendering
import SurveyResponses
import SurveyStoreSQLite
import Testing

/// Live edits: an unfinished response carried over to a new version of its survey, in every store
/// (PostgreSQL when `SURVEY_TEST_POSTGRES_URL` names a server: `scripts/with-postgres.sh`).
@Suite struct ResponseMigrationTests {
    static let postgresURL = ProcessInfo.processInfo.environment["SURVEY_TEST_POSTGRES_URL"]
    static let stores = ["memory", "sqlite"] + (postgresURL == nil ? [] : ["postgres"])

    static func open(_ kind: String) throws -> any ResponseStore {
        switch kind {
        case "sqlite": return try SQLiteResponseStore(path: temporaryStorePath())
        case "postgres": return try openPostgres(postgresURL ?? "")
        default: return InMemoryResponseStore()
        }
    }

    /// Version 1: p1 (name, role) → p2 (rating, notes) → p3 (last).
    static let first = """
        {"formatVersion": 1, "id": "live", "version": "1", "title": "Live", "steps": [
        {"id": "p1", "type": "page", "steps": [{"id": "name", "type": "text", "title": "Name"}, \
        {"id": "role", "type": "single-choice", "title": "Role", "options": {"choices": ["dev", "pm", "qa"]}}]},
        {"id": "p2", "type": "page", "steps": [\
        {"id": "rating", "type": "rating", "title": "Rate", "options": {"stars": 5}}, \
        {"id": "notes", "type": "text", "title": "Notes"}]},
        {"id": "p3", "type": "page", "steps": [{"id": "last", "type": "text", "title": "Last"}]}
        ]}
        """

    /// Version 2 of ``first``: `edit` applied to its text.
    static func second(_ edit: (String) -> String) throws -> Survey {
        try Surveys.load(edit(first.replacingOccurrences(of: "\"version\": \"1\"", with: "\"version\": \"2\"")))
    }

    /// A respondent (in its own namespace) who answered p1 and p2 of version 1 and is on p3.
    static func answeredTwoPages(in store: any ResponseStore) throws -> (respondent: String, response: ResponseID) {
        let respondent = "ada-\(UUID().uuidString)"
        var session = SurveySession(survey: try Surveys.load(first), seed: 5, today: "2026-06-01")
        var recorder = try ResponseRecorder(store: store, respondentID: respondent, session: session)
        for action: SessionAction in [
            .answer(stepID: "name", value: "Ada"), .answer(stepID: "role", value: "pm"), .next,
            .answer(stepID: "rating", value: 4), .answer(stepID: "notes", value: "fine"), .next,
        ] {
            let applied = session.apply(action)
            #expect(applied)
            try recorder.record(session)
        }
        #expect(session.currentUnitID == "p3")
        return (respondent, recorder.response.id)
    }

    /// Begins `respondent`'s response to `survey`, expecting it to continue.
    static func resume(_ respondent: String, on survey: Survey, in store: any ResponseStore) throws -> (
        session: SurveySession, recorder: ResponseRecorder
    ) {
        let start = try ResponseStart.begin(survey: survey, respondent: respondent, store: store)
        guard case .resumed(let session, let recorder, _) = start else {
            throw ResumeError(response: .make(), reason: "expected the response to continue, got \(start)")
        }
        return (session, recorder)
    }

    /// The stored response carried over: on version 2, with `orphaned`, and continued again exactly.
    static func expectStored(
        _ id: ResponseID, respondent: String, survey: Survey, in store: any ResponseStore,
        orphaned: [(String, JSONValue, OrphanedAnswer.Reason)], session: SurveySession
    ) throws {
        let stored = try #require(try store.response(id))
        #expect(stored.status == .inProgress)
        #expect(stored.surveyVersion == "2")
        #expect(stored.orphaned.map(\.stepID) == orphaned.map(\.0))
        #expect(stored.orphaned.map(\.value) == orphaned.map(\.1))
        #expect(stored.orphaned.map(\.reason) == orphaned.map(\.2))
        #expect(stored.orphaned.allSatisfy { $0.surveyVersion == "1" && $0.orphanedOn == "2" })
        #expect(stored.actionCount == session.actionCount)
        // The next run (same version now) replays the stored log exactly, and sets nothing more aside.
        let again = try resume(respondent, on: survey, in: store)
        #expect(again.recorder.migration == nil)
        #expect(again.session.currentUnitID == session.currentUnitID)
        #expect(again.session.completionResult().answers == session.completionResult().answers)
        #expect(try store.response(id)?.orphaned.count == orphaned.count)
    }

    @Test(arguments: stores)
    func anAddedStepKeepsEveryAnswer(store kind: String) throws {
        let store = try Self.open(kind)
        let (respondent, id) = try Self.answeredTwoPages(in: store)
        let survey = try Self.second {
            $0.replacingOccurrences(
                of: #"{"id": "notes""#, with: #"{"id": "team", "type": "text", "title": "Team"}, {"id": "notes""#)
        }
        let (session, recorder) = try Self.resume(respondent, on: survey, in: store)
        #expect(session.currentUnitID == "p3")
        #expect(session.answer(for: "name") == "Ada")
        #expect(session.answer(for: "role") == "pm")
        #expect(session.answer(for: "rating") == .number(4))
        #expect(session.answer(for: "notes") == "fine")
        #expect(recorder.migration?.orphaned == [])
        #expect(recorder.migration?.keptCount == 4)
        try Self.expectStored(id, respondent: respondent, survey: survey, in: store, orphaned: [], session: session)
    }

    @Test(arguments: stores)
    func anAddedRequiredStepIsWhereTheRespondentContinues(store kind: String) throws {
        let store = try Self.open(kind)
        let (respondent, id) = try Self.answeredTwoPages(in: store)
        let survey = try Self.second {
            $0.replacingOccurrences(
                of: #"{"id": "notes""#,
                with: #"{"id": "email", "type": "text", "title": "Email", "required": true}, {"id": "notes""#)
        }
        let (session, _) = try Self.resume(respondent, on: survey, in: store)
        #expect(session.currentUnitID == "p2")
        #expect(session.answer(for: "rating") == .number(4))
        #expect(session.answer(for: "notes") == "fine")
        #expect(session.answer(for: "name") == "Ada")
        try Self.expectStored(id, respondent: respondent, survey: survey, in: store, orphaned: [], session: session)
    }

    @Test(arguments: stores)
    func aRemovedStepsAnswerIsKeptAsOrphaned(store kind: String) throws {
        let store = try Self.open(kind)
        let (respondent, id) = try Self.answeredTwoPages(in: store)
        let survey = try Self.second {
            $0.replacingOccurrences(of: #", {"id": "notes", "type": "text", "title": "Notes"}"#, with: "")
        }
        #expect(survey.stepIndex(of: "notes") == nil)
        let (session, recorder) = try Self.resume(respondent, on: survey, in: store)
        #expect(session.currentUnitID == "p3")
        #expect(session.answer(for: "rating") == .number(4))
        #expect(recorder.migration?.orphaned.first?.reason == .removedStep)
        #expect(
            recorder.migration?.summary
                == "the survey changed from version '1' to '2' since the response was started: 3 answers kept, "
                + "1 set aside as orphaned (notes: removed-step)")
        try Self.expectStored(
            id, respondent: respondent, survey: survey, in: store, orphaned: [("notes", "fine", .removedStep)],
            session: session)
        // Exports and lists show it by step id, with the reason.
        let line = ResponseExport.jsonLine(of: try #require(try store.response(id)))
        #expect(line.contains(#""orphaned":[{"#), "\(line)")
        #expect(line.contains(#""stepId":"notes""#) && line.contains(#""reason":"removed-step""#), "\(line)")
    }

    @Test(arguments: stores)
    func aRenamedChoicesAnswerIsKeptAsOrphaned(store kind: String) throws {
        let store = try Self.open(kind)
        let (respondent, id) = try Self.answeredTwoPages(in: store)
        let survey = try Self.second { $0.replacingOccurrences(of: #""pm""#, with: #""product""#) }
        let (session, recorder) = try Self.resume(respondent, on: survey, in: store)
        #expect(session.currentUnitID == "p3")
        #expect(session.answer(for: "role") == nil)
        #expect(session.answer(for: "name") == "Ada")
        #expect(recorder.migration?.keptCount == 3)
        let orphan = try #require(recorder.migration?.orphaned.first)
        #expect(orphan.reason == .refused)
        #expect(!orphan.message.isEmpty)
        try Self.expectStored(
            id, respondent: respondent, survey: survey, in: store, orphaned: [("role", "pm", .refused)],
            session: session)
    }

    @Test(arguments: stores)
    func aStepOfAnotherKindKeepsTheAnswerAsOrphaned(store kind: String) throws {
        let store = try Self.open(kind)
        let (respondent, id) = try Self.answeredTwoPages(in: store)
        let survey = try Self.second {
            $0.replacingOccurrences(
                of: #"{"id": "name", "type": "text", "title": "Name"}"#,
                with: #"{"id": "name", "type": "boolean", "title": "Named?"}"#)
        }
        let (session, _) = try Self.resume(respondent, on: survey, in: store)
        #expect(session.currentUnitID == "p3")
        #expect(session.answer(for: "name") == nil)
        try Self.expectStored(
            id, respondent: respondent, survey: survey, in: store, orphaned: [("name", "Ada", .refused)],
            session: session)
    }

    @Test(arguments: stores)
    func reorderedStepsKeepTheirAnswers(store kind: String) throws {
        let store = try Self.open(kind)
        let (respondent, id) = try Self.answeredTwoPages(in: store)
        // rating moves to the first page, name to the second; the pages keep their ids.
        let name = #"{"id": "name", "type": "text", "title": "Name"}"#
        let rating = #"{"id": "rating", "type": "rating", "title": "Rate", "options": {"stars": 5}}"#
        let survey = try Self.second {
            $0.replacingOccurrences(of: name, with: "NAME").replacingOccurrences(of: rating, with: name)
                .replacingOccurrences(of: "NAME", with: rating)
        }
        #expect(survey.definition.version == "2")
        let (session, recorder) = try Self.resume(respondent, on: survey, in: store)
        #expect(session.currentUnitID == "p3")
        #expect(session.completionResult().path == ["p1", "p2", "p3"])
        #expect(session.answer(for: "name") == "Ada")
        #expect(session.answer(for: "role") == "pm")
        #expect(session.answer(for: "rating") == .number(4))
        #expect(session.answer(for: "notes") == "fine")
        #expect(recorder.migration?.orphaned == [])
        try Self.expectStored(id, respondent: respondent, survey: survey, in: store, orphaned: [], session: session)
    }

    @Test(arguments: stores)
    func reorderedPagesContinueAtTheFirstThatChanged(store kind: String) throws {
        let store = try Self.open(kind)
        let (respondent, id) = try Self.answeredTwoPages(in: store)
        // A new required page comes first: the respondent continues there, everything else kept.
        let survey = try Self.second {
            $0.replacingOccurrences(
                of: #""steps": [\#n{"id": "p1""#,
                with: #""steps": [{"id": "consent", "type": "boolean", "title": "OK?", "required": true}, {"id": "p1""#)
        }
        #expect(survey.stepIndex(of: "consent") != nil)
        let (session, recorder) = try Self.resume(respondent, on: survey, in: store)
        #expect(session.currentUnitID == "consent")
        // The answers to steps of pages not reached yet are kept, as orphaned (not reached): asked again.
        #expect(recorder.migration?.keptCount == 0)
        try Self.expectStored(
            id, respondent: respondent, survey: survey, in: store,
            orphaned: [
                ("name", "Ada", .notReached), ("role", "pm", .notReached), ("rating", 4, .notReached),
                ("notes", "fine", .notReached),
            ],
            session: session)
    }

    @Test(arguments: stores)
    func aResponseNoneOfWhoseAnswersFitsIsAbandonedWithTheReason(store kind: String) throws {
        let store = try Self.open(kind)
        let (respondent, id) = try Self.answeredTwoPages(in: store)
        let survey = try Surveys.load(
            """
            {"formatVersion": 1, "id": "live", "version": "2", "title": "Live",
             "steps": [{"id": "q", "type": "text", "title": "Q"}, {"id": "r", "type": "text", "title": "R"}]}
            """)
        let start = try ResponseStart.begin(survey: survey, respondent: respondent, store: store)
        guard case .new(let new) = start else {
            Issue.record("expected a new response, got \(start)")
            return
        }
        #expect(new.abandoned?.response == id)
        let stored = try #require(try store.response(id))
        #expect(stored.status == .abandoned)
        #expect(stored.surveyVersion == "1")
        #expect(stored.abandonedReason == new.abandoned?.reason)
        #expect(stored.abandonedReason?.contains("none of its 4 answers fits") == true, "\(stored)")
        #expect(stored.orphaned.map(\.stepID) == ["name", "role", "rating", "notes"])
        #expect(stored.orphaned.map(\.reason) == Array(repeating: .removedStep, count: 4))
        #expect(try store.actions(of: id).count == 6, "the actions are kept as they were")
    }

    /// Answers set aside as not reached are given back when the respondent reaches their page on the
    /// new version (recorded as answers, no longer orphaned); the funnel counts the carry-over and the
    /// questions shown then; a partial delivery hears of the carried-over version at the next write.
    @Test(arguments: stores)
    func notReachedAnswersAreGivenBackWhenTheirPageIsReached(store kind: String) throws {
        let store = try Self.open(kind)
        let (respondent, id) = try Self.answeredTwoPages(in: store)
        let survey = try Self.second {
            $0.replacingOccurrences(
                of: #""steps": [\#n{"id": "p1""#,
                with: #""steps": [{"id": "consent", "type": "boolean", "title": "OK?", "required": true}, {"id": "p1""#)
        }
        var (session, recorder) = try Self.resume(respondent, on: survey, in: store)
        #expect(session.currentUnitID == "consent")
        let events = try store.funnelEvents(of: id)
        #expect(events.filter { $0.kind == .carriedOver }.count == 1)
        #expect(events.contains { $0.kind == .stepSeen && $0.stepID == "consent" })
        #expect(try store.deliveries(status: nil).filter { $0.responseID == id } == [])

        // The carried-over version is queued with the next write, a Next though it is.
        recorder.deliveryTargets = ["crm"]
        recorder.deliversPartial = true
        var driver = SurveyDriver(session: session, recorder: recorder)
        var renderer = ScriptedRenderer(actions: [.answer(stepID: "consent", value: true), .next])
        _ = driver.run(with: &renderer)
        session = driver.session
        #expect(session.currentUnitID == "p1")
        #expect(session.answer(for: "name") == "Ada")
        #expect(session.answer(for: "role") == "pm")
        #expect(session.answer(for: "rating") == nil, "p2 is not reached yet")
        var stored = try #require(try store.response(id))
        #expect(stored.orphaned.map(\.stepID) == ["rating", "notes"])
        #expect(stored.actionCount == session.actionCount)
        #expect(try store.deliveries(status: nil).filter { $0.responseID == id }.map(\.target) == ["crm"])

        // The next run continues exactly; going on to p2 gives back the rest.
        var again = try Self.resume(respondent, on: survey, in: store)
        #expect(again.recorder.migration == nil)
        #expect(again.session.completionResult().answers == session.completionResult().answers)
        var next = SurveyDriver(session: again.session, recorder: again.recorder)
        var onward = ScriptedRenderer(actions: [.next])
        _ = next.run(with: &onward)
        again.session = next.session
        #expect(again.session.currentUnitID == "p2")
        #expect(again.session.answer(for: "rating") == .number(4))
        #expect(again.session.answer(for: "notes") == "fine")
        stored = try #require(try store.response(id))
        #expect(stored.orphaned == [])
        let answered = try store.funnelEvents(of: id).filter { $0.kind == .answered }.compactMap(\.stepID)
        #expect(Set(answered) == ["name", "role", "rating", "notes", "consent"])
        // The stored log, replayed, is the session.
        let replayed = try ResponseRecorder.resume(stored, from: store, survey: survey)
        #expect(replayed.session.completionResult().answers == again.session.completionResult().answers)
        #expect(replayed.session.currentUnitID == "p2")
    }

    /// A not-reached answer the step refuses when it is reached (its choice was removed too) stays
    /// orphaned, now as refused; the others of its page are given back.
    @Test(arguments: stores)
    func aNotReachedAnswerRefusedWhenReachedStaysOrphanedAsRefused(store kind: String) throws {
        let store = try Self.open(kind)
        let (respondent, id) = try Self.answeredTwoPages(in: store)
        let survey = try Self.second {
            $0.replacingOccurrences(
                of: #""steps": [\#n{"id": "p1""#,
                with: #""steps": [{"id": "consent", "type": "boolean", "title": "OK?", "required": true}, {"id": "p1""#
            ).replacingOccurrences(of: #"["dev", "pm", "qa"]"#, with: #"["dev", "qa"]"#)
        }
        let (session, recorder) = try Self.resume(respondent, on: survey, in: store)
        #expect(recorder.migration?.orphaned.first { $0.stepID == "role" }?.reason == .notReached)
        var driver = SurveyDriver(session: session, recorder: recorder)
        var renderer = ScriptedRenderer(actions: [.answer(stepID: "consent", value: true), .next])
        _ = driver.run(with: &renderer)
        #expect(driver.session.answer(for: "name") == "Ada")
        #expect(driver.session.answer(for: "role") == nil)
        let stored = try #require(try store.response(id))
        #expect(stored.orphaned.map(\.stepID) == ["role", "rating", "notes"])
        #expect(stored.orphaned.map(\.reason) == [.refused, .notReached, .notReached])
        #expect(stored.orphaned.first?.value == "pm")
    }
}

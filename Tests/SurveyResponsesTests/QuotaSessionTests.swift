import Foundation
import SurveyCore
import SurveyRendering
import SurveyResponses
import SurveyStoreSQLite
import Testing

/// Quotas in sessions: checked at Next against the store's counts, claimed exactly at completion,
/// their actions (end with a message, skip, flag) applied, again on resume.
@Suite struct QuotaSessionTests {
    static func survey(
        action: String = #""message": {"en": "Thanks, we have enough answers like yours."}"#, limit: Int = 1,
        id: String = "panel"
    )
        throws -> Survey
    {
        try Surveys.load(
            """
            {"formatVersion": 1, "id": "\(id)", "title": "Panel",
             "quotas": [{"id": "young", "when": "{age} = 'young'", "limit": \(limit), \(action)}],
             "steps": [{"id": "p1", "type": "page", "steps": [{"id": "age", "type": "text", "title": "Age group"}]},
                       {"id": "p2", "type": "page", "steps": [{"id": "why", "type": "text", "title": "Why?"}]},
                       {"id": "p3", "type": "page", "steps": [{"id": "last", "type": "text", "title": "Anything else?"}]}]}
            """)
    }

    /// One respondent's run: answers `age`, then Next through every page (the store read before each).
    static func run(_ survey: Survey, _ respondent: String, age: String, store: any ResponseStore) throws -> (
        session: SurveySession, recorder: ResponseRecorder, outcomes: [NextOutcome]
    ) {
        var session = SurveySession(survey: survey)
        var recorder = try ResponseRecorder(store: store, respondentID: respondent, session: session)
        try session.answer(.string(age), for: "age")
        try recorder.record(session)
        var outcomes: [NextOutcome] = []
        while session.status == .inProgress {
            try recorder.prepareNext(of: &session)
            outcomes.append(session.next())
            try recorder.record(session)
        }
        return (session, recorder, outcomes)
    }

    @Test(arguments: [false, true])
    func aFullQuotaEndsTheSurveyAtNextWithItsMessageAndCountsNoMore(inSQLite: Bool) throws {
        let store: any ResponseStore =
            inSQLite ? try SQLiteResponseStore(path: temporaryStorePath()) : InMemoryResponseStore()
        let survey = try Self.survey()
        let first = try Self.run(survey, "r1", age: "young", store: store)
        #expect(first.session.status == .completed && first.session.quotasReached.isEmpty)
        #expect(first.recorder.countedQuotas == ["young"])
        #expect(try store.quotaCounts(survey: "panel") == ["young": 1])
        // The second young respondent is over the quota: ended at the first Next, with its message.
        let second = try Self.run(survey, "r2", age: "young", store: store)
        #expect(second.outcomes.count == 1)
        guard case .completed(let result) = second.outcomes.first else {
            Issue.record("expected the quota's end, got \(second.outcomes)")
            return
        }
        #expect(result.quota?.quotaID == "young")
        #expect(result.message == "Thanks, we have enough answers like yours.")
        #expect(result.path == ["p1"])
        #expect(try store.quotaCounts(survey: "panel") == ["young": 1])
        // Kept with its own status, not counted; the JSON protocol says it ended on a quota, not that it completed.
        let ended = try store.latestResponse(respondent: "r2", survey: "panel")
        #expect(ended?.status == .endedByQuota)
        #expect(ended?.quotasReached.map(\.quotaID) == ["young"])
        #expect(ended?.quotasReached.first?.message == "Thanks, we have enough answers like yours.")
        let event = EventProtocol.json(of: .completed(result))
        #expect(event["event"]?.stringValue == "ended" && event["reason"]?.stringValue == "quota")
        #expect(event["quota"]?["quotaId"]?.stringValue == "young")
        // Someone outside the quota is not concerned.
        let other = try Self.run(survey, "r3", age: "old", store: store)
        #expect(other.outcomes.count == 3 && other.session.quotasReached.isEmpty)
        #expect(other.recorder.countedQuotas.isEmpty)
    }

    @Test func aQuotaFilledWhileTheRespondentFinishesEndsTheirSurveyAtCompletion() throws {
        let store = InMemoryResponseStore()
        let survey = try Self.survey()
        // Both respondents pass the first Next while the quota is empty.
        var sessions: [SurveySession] = []
        var recorders: [ResponseRecorder] = []
        for respondent in ["a", "b"] {
            var session = SurveySession(survey: survey)
            var recorder = try ResponseRecorder(store: store, respondentID: respondent, session: session)
            try session.answer("young", for: "age")
            try recorder.prepareNext(of: &session)
            session.next()
            session.next()
            try recorder.record(session)
            sessions.append(session)
            recorders.append(recorder)
        }
        // Both read the store before either completes: the quota is not full for either.
        for index in 0..<2 {
            try recorders[index].prepareNext(of: &sessions[index])
            #expect(sessions[index].fullQuotas.isEmpty)
        }
        for index in 0..<2 {
            guard case .completed(let result) = sessions[index].next() else {
                Issue.record("expected a completion")
                return
            }
            #expect(result.quota == nil)
            try recorders[index].record(sessions[index])
        }
        #expect(recorders[0].countedQuotas == ["young"] && recorders[0].completionQuota == nil)
        #expect(recorders[1].countedQuotas.isEmpty)
        #expect(recorders[1].completionQuota?.quotaID == "young")
        #expect(recorders[1].completionQuota?.message == "Thanks, we have enough answers like yours.")
        #expect(try store.quotaCounts(survey: "panel") == ["young": 1])
        let completed = try store.responses(matching: ResponseQuery(surveyID: "panel", statuses: [.completed]))
        let ended = try store.responses(matching: ResponseQuery(surveyID: "panel", statuses: [.endedByQuota]))
        #expect(completed.count == 1 && ended.count == 1, "no response is lost; the one over the quota says so")
        #expect(ended.first?.quotasReached.map(\.quotaID) == ["young"])
        #expect(ended.first?.answers.isEmpty == false, "its answers are kept")
        // The funnel counts the late one as ended by the quota, not as a completion as well.
        let funnel = FunnelReport(counts: try store.funnelCounts(survey: "panel"), survey: survey)
        #expect(funnel.completed == 1 && funnel.endedByQuota == 1)
    }

    @Test func skipAndFlagActions() throws {
        let store = InMemoryResponseStore()
        let skipping = try Self.survey(action: #""action": "skip", "skipTo": "p3""#)
        _ = try Self.run(skipping, "r1", age: "young", store: store)
        let skipped = try Self.run(skipping, "r2", age: "young", store: store)
        #expect(skipped.session.pathIDs == ["p1", "p3"])
        #expect(skipped.session.quotasReached.map(\.quotaID) == ["young"])
        #expect(skipped.session.status == .completed)
        let flagStore = InMemoryResponseStore()
        let flagging = try Self.survey(action: #""action": "flag""#)
        _ = try Self.run(flagging, "r1", age: "young", store: flagStore)
        let flagged = try Self.run(flagging, "r2", age: "young", store: flagStore)
        #expect(flagged.session.pathIDs == ["p1", "p2", "p3"])
        #expect(flagged.session.quotasReached == [QuotaReached(quotaID: "young", action: .flag)])
    }

    @Test func aStartedQuotaCountsAtTheFirstMatchingNext() throws {
        let store = InMemoryResponseStore()
        let survey = try Self.survey(action: #""count": "started""#)
        var session = SurveySession(survey: survey)
        var recorder = try ResponseRecorder(store: store, respondentID: "s1", session: session)
        try session.answer("young", for: "age")
        try recorder.prepareNext(of: &session)
        session.next()
        try recorder.record(session)
        #expect(try store.quotaCounts(survey: "panel") == ["young": 1])
        // Its own place does not make the quota full for it.
        try recorder.prepareNext(of: &session)
        #expect(session.fullQuotas.isEmpty)
        #expect(session.next() == .moved(to: "p3"))
    }

    @Test func aRespondentWhoResumesAfterTheQuotaFilledGetsTheAction() throws {
        let store = InMemoryResponseStore()
        let survey = try Self.survey()
        // r1 answers and goes on while the quota is empty, then stops.
        var session = SurveySession(survey: survey)
        var recorder = try ResponseRecorder(store: store, respondentID: "r1", session: session)
        try session.answer("young", for: "age")
        try recorder.prepareNext(of: &session)
        session.next()
        try recorder.record(session)
        // r2 fills the quota.
        _ = try Self.run(survey, "r2", age: "young", store: store)
        // r1 comes back: the quota's end, in the store too.
        guard
            case .resumed(let resumed, let resumedRecorder, _) = try ResponseStart.begin(
                survey: survey, respondent: "r1", store: store)
        else {
            Issue.record("expected r1's response to continue")
            return
        }
        #expect(resumed.endingQuota?.quotaID == "young")
        #expect(resumed.completionResult().message == "Thanks, we have enough answers like yours.")
        #expect(resumedRecorder.response.status == .endedByQuota)
        #expect(try store.latestResponse(respondent: "r1", survey: "panel")?.status == .endedByQuota)
        #expect(try store.quotaCounts(survey: "panel") == ["young": 1])
    }

    @Test(arguments: [false, true])
    func erasingARespondentFreesTheirPlaces(inSQLite: Bool) throws {
        try Self.erasure(
            in: inSQLite ? try SQLiteResponseStore(path: temporaryStorePath()) : InMemoryResponseStore())
    }

    /// `scripts/with-postgres.sh swift test --filter QuotaSessionTests` sets the URL. The database is
    /// shared with every other PostgreSQL test of the run, so the survey and respondents are this run's own.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["SURVEY_TEST_POSTGRES_URL"] != nil))
    func erasingARespondentFreesTheirPlacesInPostgreSQL() throws {
        try Self.erasure(
            in: try openPostgres(ProcessInfo.processInfo.environment["SURVEY_TEST_POSTGRES_URL"] ?? ""),
            unique: "-" + UUID().uuidString.prefix(8).lowercased())
    }

    /// Two young respondents fill a quota of 2; erasing one frees a place, which the next one takes.
    /// `unique` is appended to the survey's and the respondents' ids.
    static func erasure(in store: any ResponseStore, unique: String = "") throws {
        let id = "panel" + unique
        let survey = try Self.survey(limit: 2, id: id)
        _ = try Self.run(survey, "r1" + unique, age: "young", store: store)
        _ = try Self.run(survey, "r2" + unique, age: "young", store: store)
        #expect(try store.quotaCounts(survey: id) == ["young": 2])
        #expect(try store.deleteResponses(respondent: "r1" + unique) == 1)
        #expect(try store.quotaCounts(survey: id) == ["young": 1])
        // The freed place is taken by the next young respondent, and then the quota is full again.
        let third = try Self.run(survey, "r3" + unique, age: "young", store: store)
        #expect(third.recorder.countedQuotas == ["young"])
        let fourth = try Self.run(survey, "r4" + unique, age: "young", store: store)
        #expect(fourth.session.endingQuota?.quotaID == "young")
        #expect(try store.quotaCounts(survey: id) == ["young": 2])
    }
}

import Foundation
import SurveyCore
import SurveyResponses
import Testing

@Suite struct ResponseStartTests {
    /// welcome (content) → rating, with `settings.askAgain` and a version.
    static func survey(version: String = "1", askAgain: String = "never") throws -> Survey {
        try Surveys.load(
            """
            {"formatVersion": 1, "id": "pulse", "title": "Pulse", "version": "\(version)", "settings": {"askAgain": "\(askAgain)"},
             "steps": [
               {"id": "welcome", "type": "content", "title": "Hello"},
               {"id": "rating", "type": "rating", "title": "Rate us", "required": true, "options": {"stars": 5}}
             ]}
            """)
    }

    static let finished = Date(timeIntervalSince1970: 1_780_000_000)

    /// Records a response of `respondent` that took `actions` (all at `time`).
    @discardableResult
    static func record(
        _ survey: Survey, respondent: String = "ada", in store: any ResponseStore, at time: Date = finished,
        _ actions: (inout SurveySession) throws -> Void
    ) throws -> ResponseRecorder {
        var session = SurveySession(survey: survey, seed: 3, today: "2026-05-01")
        var recorder = try ResponseRecorder(
            store: store, respondentID: respondent, session: session, clock: { time })
        try actions(&session)
        try recorder.record(session)
        return recorder
    }

    @Test func aRespondentWithoutResponsesIsAskedInANewResponse() throws {
        let store = InMemoryResponseStore()
        let survey = try Self.survey()
        guard case .new(let new) = try ResponseStart.begin(survey: survey, respondent: "ada", store: store) else {
            Issue.record("expected a new response")
            return
        }
        #expect(new.abandoned == nil)
        #expect(try store.latestResponse(respondent: "ada", survey: "pulse") == nil)
        let recorder = try new.start(SurveySession(survey: survey))
        #expect(try store.latestResponse(respondent: "ada", survey: "pulse")?.id == recorder.response.id)
        #expect(try store.response(recorder.response.id)?.status == .inProgress)
    }

    @Test func anUnfinishedResponseContinuesWhereItStopped() throws {
        let store = InMemoryResponseStore()
        let survey = try Self.survey()
        let earlier = try Self.record(survey, in: store) { session in
            session.next()
            try session.answer(4, for: "rating")
        }
        let start = try ResponseStart.begin(survey: survey, respondent: "ada", store: store)
        guard case .resumed(let session, let recorder, let response) = start else {
            Issue.record("expected the response to be resumed, got \(start)")
            return
        }
        #expect(response.id == earlier.response.id)
        #expect(recorder.response.id == earlier.response.id)
        #expect(session.actionCount == 2)
        #expect(session.answer(for: "rating") == .number(4))
        #expect(start.abandoned == nil)
    }

    @Test func anUnfinishedResponseToAnOlderVersionContinuesOnTheNewOne() throws {
        let store = InMemoryResponseStore()
        let earlier = try Self.record(try Self.survey(version: "1"), in: store) { session in
            session.next()
            try session.answer(4, for: "rating")
        }
        let start = try ResponseStart.begin(survey: try Self.survey(version: "2"), respondent: "ada", store: store)
        guard case .resumed(let session, let recorder, let response) = start else {
            Issue.record("expected the response to continue, got \(start)")
            return
        }
        #expect(response.id == earlier.response.id)
        #expect(session.answer(for: "rating") == .number(4))
        #expect(recorder.migration?.fromVersion == "1")
        #expect(recorder.migration?.toVersion == "2")
        #expect(start.abandoned == nil)
        let stored = try store.response(earlier.response.id)
        #expect(stored?.status == .inProgress)
        #expect(stored?.surveyVersion == "2")
    }

    @Test func anUnfinishedResponseNoneOfWhoseAnswersFitsIsAbandonedAndANewOneAsked() throws {
        let store = InMemoryResponseStore()
        let earlier = try Self.record(try Self.survey(version: "1"), in: store) { session in
            session.next()
            try session.answer(4, for: "rating")
        }
        let now = Self.finished.addingTimeInterval(60)
        let changed = try Surveys.load(
            """
            {"formatVersion": 1, "id": "pulse", "title": "Pulse", "version": "2",
             "steps": [{"id": "score", "type": "rating", "title": "Rate us", "options": {"stars": 5}}]}
            """)
        let start = try ResponseStart.begin(survey: changed, respondent: "ada", store: store, now: now)
        guard case .new(let new) = start else {
            Issue.record("expected a new response, got \(start)")
            return
        }
        #expect(new.abandoned?.response == earlier.response.id)
        #expect(
            new.abandoned?.reason
                == "it was started on version '1' of the survey, which is now '2', and none of its 1 answers fits "
                + "the new version (their steps were removed or changed)")
        let stored = try store.response(earlier.response.id)
        #expect(stored?.status == .abandoned)
        #expect(stored?.updatedAt == now)
        #expect(stored?.abandonedReason == new.abandoned?.reason)
        #expect(stored?.orphaned.map(\.stepID) == ["rating"])
    }

    @Test(arguments: [(false, "completed"), (true, "dismissed")])
    func aFinishedRespondentIsNotAskedWhenAskAgainIsNever(dismisses: Bool, status: String) throws {
        let store = InMemoryResponseStore()
        let survey = try Self.survey(askAgain: "never")
        try Self.record(survey, in: store) { session in
            if dismisses {
                session.dismiss()
            } else {
                session.next()
                try session.answer(5, for: "rating")
                session.next()
            }
        }
        let start = try ResponseStart.begin(survey: survey, respondent: "ada", store: store)
        guard case .notAsked(let reason) = start else {
            Issue.record("expected not to ask, got \(start)")
            return
        }
        #expect(reason.status?.rawValue == status)
        #expect(reason.finishedAt == Self.finished)
        #expect(reason.askedAgainFrom == nil)
        #expect(reason.policy == .never)
        #expect(reason.abandoned == nil)
    }

    @Test func askAgainAfterADurationAsksOnceItHasPassed() throws {
        let store = InMemoryResponseStore()
        let survey = try Self.survey(askAgain: "P30D")
        try Self.record(survey, in: store) { $0.dismiss() }
        let again = Self.finished.addingTimeInterval(30 * 86_400)
        let before = try ResponseStart.begin(
            survey: survey, respondent: "ada", store: store, now: again.addingTimeInterval(-1))
        guard case .notAsked(let reason) = before else {
            Issue.record("expected not to ask before 30 days, got \(before)")
            return
        }
        #expect(reason.askedAgainFrom == again)
        #expect(reason.policy == AskAgainPolicy("P30D"))
        let after = try ResponseStart.begin(survey: survey, respondent: "ada", store: store, now: again)
        guard case .new = after else {
            Issue.record("expected a new response after 30 days, got \(after)")
            return
        }
    }

    @Test func ignoringAskAgainAsksAnyway() throws {
        let store = InMemoryResponseStore()
        let survey = try Self.survey(askAgain: "never")
        try Self.record(survey, in: store) { $0.dismiss() }
        let start = try ResponseStart.begin(survey: survey, respondent: "ada", store: store, ignoresAskAgain: true)
        guard case .new = start else {
            Issue.record("expected a new response, got \(start)")
            return
        }
    }

    @Test func otherRespondentsDoNotCount() throws {
        let store = InMemoryResponseStore()
        let survey = try Self.survey()
        try Self.record(survey, respondent: "bob", in: store) { $0.dismiss() }
        guard case .new = try ResponseStart.begin(survey: survey, respondent: "ada", store: store) else {
            Issue.record("expected a new response for ada")
            return
        }
    }

    /// A session the caller restored itself (a state file) is neither merged with the stored
    /// unfinished response nor checked against askAgain, and the stored response is left as it is.
    @Test func aRestoredSessionStartsANewResponseAndLeavesTheStoredOne() throws {
        let store = InMemoryResponseStore()
        let survey = try Self.survey()
        try Self.record(survey, in: store) { $0.dismiss() }
        let earlier = try Self.record(survey, in: store, at: Self.finished.addingTimeInterval(10)) { $0.next() }
        let start = try ResponseStart.begin(survey: survey, respondent: "ada", store: store, isRestored: true)
        guard case .new(let new) = start else {
            Issue.record("expected a new response, got \(start)")
            return
        }
        #expect(new.abandoned == nil)
        #expect(try store.response(earlier.response.id)?.status == .inProgress)
    }
}

import Foundation
import SurveyCore
import SurveyResponses
import SurveyStoreSQLite
import Testing

/// ``Eligibility``: one decision, every rule's verdict, the history it reads.
@Suite struct EligibilityTests {
    static let day: TimeInterval = 86_400
    static let start = ResponseStartTests.finished

    static func survey(settings: String = "{}", id: String = "pulse") throws -> Survey {
        try Surveys.load(
            """
            {"formatVersion": 1, "id": "\(id)", "title": "Pulse", "settings": \(settings),
             "steps": [{"id": "rating", "type": "rating", "title": "Rate us", "options": {"stars": 5}}]}
            """)
    }

    /// Records one response of `respondent` to `survey` at `time`: completed, dismissed or left unfinished.
    static func respond(
        _ survey: Survey, _ respondent: String, _ status: ResponseStatus, at time: Date, in store: any ResponseStore
    ) throws {
        try ResponseStartTests.record(survey, respondent: respondent, in: store, at: time) { session in
            switch status {
            case .completed:
                try session.answer(4, for: "rating")
                session.next()
            case .dismissed: session.dismiss()
            default: try session.answer(2, for: "rating")
            }
        }
    }

    @Test func theSQLiteHistoryIsTheHistoryReadFromTheResponses() throws {
        let memory = InMemoryResponseStore()
        let sqlite = try SQLiteResponseStore(path: temporaryStorePath())
        let pulse = try Self.survey()
        let other = try Self.survey(id: "nps")
        for store in [memory, sqlite] as [any ResponseStore] {
            try Self.respond(pulse, "ada", .completed, at: Self.start, in: store)
            try Self.respond(pulse, "ada", .dismissed, at: Self.start + Self.day, in: store)
            try Self.respond(pulse, "ada", .inProgress, at: Self.start + 2 * Self.day, in: store)
            try Self.respond(other, "ada", .completed, at: Self.start + 3 * Self.day, in: store)
            try Self.respond(other, "bob", .completed, at: Self.start + 4 * Self.day, in: store)
        }
        let history = try sqlite.history(respondent: "ada")
        #expect(history == (try memory.history(respondent: "ada")))
        #expect(history["pulse"].displays == 3)
        #expect(history["pulse"].completions == 1)
        #expect(history["pulse"].dismissals == 1)
        #expect(history["pulse"].unfinished == 1)
        #expect(history["pulse"].lastFinished?.status == .dismissed)
        #expect(history["pulse"].lastDismissedAt == Self.start + Self.day)
        #expect(history.lastDisplayedAt == Self.start + 3 * Self.day, "nps, not bob's later one")
        #expect(try sqlite.history(respondent: "nobody") == RespondentHistory())
    }

    @Test func askAgainNeverSkipsAfterACompletionAndSaysWhichRule() throws {
        let store = InMemoryResponseStore()
        let survey = try Self.survey()
        #expect(try Eligibility.decide(respondent: "ada", survey: survey, store: store, at: Self.start).asks)
        try Self.respond(survey, "ada", .completed, at: Self.start, in: store)
        let report = try Eligibility.decide(respondent: "ada", survey: survey, store: store, at: Self.start + Self.day)
        guard case .skip(let skip) = report.decision else {
            Issue.record("expected a skip, got \(report.decision)")
            return
        }
        #expect(skip.rule == .display)
        #expect(skip.reason == "completed")
        #expect(skip.until == nil)
        #expect(report.verdicts.map(\.rule) == [.display, .recontact])
        #expect(report.verdicts.map(\.outcome) == [.skip, .off])
        #expect(
            skip.message(respondent: "ada")
                == "'ada' already completed 'pulse' on \(ResponseExport.timestamp(Self.start)); not asking again (askAgain is never)"
        )
        let event = skip.event(respondent: "ada")
        #expect(event["rule"] == .string("display"))
        #expect(event["reason"] == .string("completed"))
        #expect(event["askedAgainFrom"] == .null)
    }

    @Test func anAskAgainDurationIsARecontactWaitFromTheLastFinish() throws {
        let store = InMemoryResponseStore()
        let survey = try Self.survey(settings: #"{"askAgain": "P7D"}"#)
        try Self.respond(survey, "ada", .dismissed, at: Self.start, in: store)
        let before = try Eligibility.decide(
            respondent: "ada", survey: survey, store: store, at: Self.start + 7 * Self.day - 1)
        guard case .skip(let skip) = before.decision else {
            Issue.record("expected a skip, got \(before.decision)")
            return
        }
        #expect(skip.rule == .recontact)
        #expect(skip.reason == "dismissed")
        #expect(skip.until == Self.start + 7 * Self.day)
        #expect(before.verdicts.first?.outcome == .pass, "display is always")
        #expect(
            try Eligibility.decide(respondent: "ada", survey: survey, store: store, at: Self.start + 7 * Self.day).asks)
    }

    @Test func askAgainAlwaysAsksEveryTime() throws {
        let store = InMemoryResponseStore()
        let survey = try Self.survey(settings: #"{"askAgain": "always"}"#)
        try Self.respond(survey, "ada", .completed, at: Self.start, in: store)
        #expect(try Eligibility.decide(respondent: "ada", survey: survey, store: store, at: Self.start).asks)
    }
}

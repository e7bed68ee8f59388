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
        #expect(report.verdicts.map(\.rule) == [.schedule, .display, .recontact, .cooldown, .audience, .rollout])
        #expect(report.verdicts.map(\.outcome) == [.off, .skip, .off, .off, .off, .off])
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
        #expect(before.verdicts.first { $0.rule == .display }?.outcome == .pass, "display is always")
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

/// The rules of `settings` beyond `askAgain`: display, recontactDays, the global cooldown, rollout, schedule.
@Suite struct DisplayRuleTests {
    typealias T = EligibilityTests
    static let day = T.day
    static let start = T.start

    func skip(_ report: Eligibility.Report) -> Eligibility.Skip? {
        if case .skip(let skip) = report.decision { return skip }
        return nil
    }

    @Test func untilSubmittedAsksAgainAfterADismissalButNotAfterACompletion() throws {
        let store = InMemoryResponseStore()
        let survey = try T.survey(settings: #"{"display": "untilSubmitted"}"#)
        try T.respond(survey, "ada", .dismissed, at: Self.start, in: store)
        #expect(try Eligibility.decide(respondent: "ada", survey: survey, store: store, at: Self.start).asks)
        try T.respond(survey, "ada", .completed, at: Self.start + Self.day, in: store)
        let report = try Eligibility.decide(
            respondent: "ada", survey: survey, store: store, at: Self.start + 2 * Self.day)
        #expect(skip(report)?.reason == "completed")
        #expect(skip(report)?.message(respondent: "ada").hasSuffix("(display is untilSubmitted)") == true)
    }

    @Test func aDisplayLimitCountsEveryResponse() throws {
        let store = InMemoryResponseStore()
        let survey = try T.survey(settings: #"{"display": 2}"#)
        try T.respond(survey, "ada", .dismissed, at: Self.start, in: store)
        #expect(try Eligibility.decide(respondent: "ada", survey: survey, store: store, at: Self.start).asks)
        try T.respond(survey, "ada", .completed, at: Self.start + Self.day, in: store)
        let report = try Eligibility.decide(
            respondent: "ada", survey: survey, store: store, at: Self.start + 2 * Self.day)
        #expect(skip(report)?.reason == "displayLimit")
        #expect(report.verdicts.first { $0.rule == .display }?.detail == "at most 2: shown 2 times")
    }

    @Test func recontactDaysWaitsAfterTheLastFinish() throws {
        let store = InMemoryResponseStore()
        let survey = try T.survey(settings: #"{"display": "always", "recontactDays": 7}"#)
        try T.respond(survey, "ada", .completed, at: Self.start, in: store)
        let report = try Eligibility.decide(
            respondent: "ada", survey: survey, store: store, at: Self.start + 7 * Self.day - 1)
        #expect(skip(report)?.rule == .recontact)
        #expect(skip(report)?.until == Self.start + 7 * Self.day)
        #expect(
            try Eligibility.decide(respondent: "ada", survey: survey, store: store, at: Self.start + 7 * Self.day).asks)
    }

    @Test func theGlobalCooldownCountsEverySurveyAndComesFromTheStoreUnlessGiven() throws {
        let store = try SQLiteResponseStore(path: temporaryStorePath())
        let onboarding = try T.survey(id: "onboarding")
        let pulse = try T.survey(settings: #"{"display": "always"}"#)
        try T.respond(onboarding, "ada", .completed, at: Self.start, in: store)
        let at = Self.start + 3 * Self.day
        #expect(try Eligibility.decide(respondent: "ada", survey: pulse, store: store, at: at).asks, "no cooldown set")
        try store.setSetting(named: Eligibility.cooldownSetting, to: "P7D")
        let report = try Eligibility.decide(respondent: "ada", survey: pulse, store: store, at: at)
        #expect(skip(report)?.rule == .cooldown)
        #expect(skip(report)?.reason == "cooldown")
        #expect(skip(report)?.until == Self.start + 7 * Self.day)
        #expect(skip(report)?.explanation.contains("last shown 'onboarding'") == true)
        #expect(try Eligibility.decide(respondent: "bob", survey: pulse, store: store, at: at).asks, "bob saw nothing")
        #expect(
            try Eligibility.decide(respondent: "ada", survey: pulse, store: store, at: at, cooldown: .fixed(nil)).asks)
        #expect(
            try Eligibility.decide(
                respondent: "ada", survey: pulse, store: store, at: at, cooldown: .fixed(ISODuration(days: 2))
            ).asks)
        try store.setSetting(named: Eligibility.cooldownSetting, to: nil)
        #expect(try store.setting(named: Eligibility.cooldownSetting) == nil)
    }

    @Test func theScheduleOpensAndCloses() throws {
        let survey = try T.survey(
            settings: #"{"display": "always", "schedule": {"start": "2026-06-01", "end": "2026-07-01T12:00:00Z"}}"#)
        let opens = try #require(Targeting.parseTime("2026-06-01"))
        let closes = try #require(Targeting.parseTime("2026-07-01T12:00:00Z"))
        let history = RespondentHistory()
        let early = Eligibility.decide(respondent: "ada", survey: survey, history: history, at: opens - 1)
        #expect(skip(early)?.reason == "notStarted")
        #expect(skip(early)?.until == opens)
        #expect(Eligibility.decide(respondent: "ada", survey: survey, history: history, at: opens).asks)
        #expect(
            skip(Eligibility.decide(respondent: "ada", survey: survey, history: history, at: closes))?.reason == "ended"
        )
    }

    @Test(arguments: [25.0, 50, 2.5, 90])
    func aRolloutAsksItsShareOfAHundredThousandRespondentsWithinOnePercent(percentage: Double) throws {
        let survey = try T.survey(settings: #"{"display": "always", "rollout": \#(percentage)}"#)
        let history = RespondentHistory()
        let now = Self.start
        var asked = 0
        for index in 0..<100_000
        where Eligibility.decide(
            respondent: "user-\(index)", survey: survey, history: history, at: now
        ).asks {
            asked += 1
        }
        let share = Double(asked) / 1_000
        #expect(abs(share - percentage) <= 1, "\(share) % asked of a \(percentage) % rollout")
    }

    @Test func aRolloutIsTheSameForTheSameRespondentAndDiffersBetweenSurveys() throws {
        #expect(
            Eligibility.rolloutBucket(respondent: "user-42", surveyID: "nps")
                == Eligibility.rolloutBucket(respondent: "user-42", surveyID: "nps"))
        // Pinned: the bucket must not change between versions, or respondents would move in and out.
        #expect(
            Eligibility.rolloutBucket(respondent: "user-42", surveyID: "nps") == 1875,
            "computed independently in Python")
        let differing = (0..<1_000).filter {
            Eligibility.rolloutBucket(respondent: "u\($0)", surveyID: "a")
                != Eligibility.rolloutBucket(respondent: "u\($0)", surveyID: "b")
        }
        #expect(differing.count > 990, "the buckets of two surveys are independent")
        let all = try T.survey(settings: #"{"rollout": 100}"#)
        let none = try T.survey(settings: #"{"rollout": 0}"#)
        for index in 0..<1_000 {
            #expect(Eligibility.decide(respondent: "u\(index)", survey: all, history: .init(), at: Self.start).asks)
            #expect(!Eligibility.decide(respondent: "u\(index)", survey: none, history: .init(), at: Self.start).asks)
        }
    }

    @Test func theSettingsAreCheckedAndWrittenBack() throws {
        #expect(throws: (any Error).self) { try T.survey(settings: #"{"askAgain": "never", "display": "once"}"#) }
        #expect(throws: (any Error).self) { try T.survey(settings: #"{"display": "twice"}"#) }
        #expect(throws: (any Error).self) { try T.survey(settings: #"{"rollout": 101}"#) }
        #expect(throws: (any Error).self) {
            try T.survey(settings: #"{"schedule": {"start": "2026-02-01", "end": "2026-01-01"}}"#)
        }
        #expect(throws: (any Error).self) { try T.survey(settings: #"{"schedule": {"start": "soon"}}"#) }
        let survey = try T.survey(
            settings: #"{"display": 3, "recontactDays": 14, "rollout": 12.5, "schedule": {"start": "2026-06-01"}}"#)
        let settings = survey.definition.settings
        #expect(settings.display == .atMost(3))
        #expect(settings.recontactDays == 14)
        #expect(settings.rollout == 12.5)
        let written = try #require(survey.definition.jsonValue["settings"])
        #expect(written["display"] == .number(3))
        #expect(written["schedule"]?["start"] == .string("2026-06-01T00:00:00.000Z"))
        let again = try SurveyDefinition(json: survey.definition.jsonValue)
        #expect(again.settings == settings)
    }
}

/// Respondent attributes in the stores, and `settings.audience` over them and the history.
@Suite struct AudienceTests {
    typealias T = EligibilityTests
    static let day = T.day
    static let start = T.start
    static let audience =
        #"{@plan} = 'pro' and {@country} anyof ['fr','de'] and completed('onboarding', 'P30D') and not dismissed('nps')"#

    static func survey() throws -> Survey {
        try T.survey(
            settings:
                #"{"display": "always", "audience": "\#(audience.replacingOccurrences(of: "'", with: "\\u0027"))"}"#)
    }

    @Test(arguments: [false, true])
    func attributesAreStoredMergedAndErasedWithTheResponses(inSQLite: Bool) throws {
        let store: any ResponseStore =
            inSQLite ? try SQLiteResponseStore(path: temporaryStorePath()) : InMemoryResponseStore()
        try store.setAttributes(["plan": "free", "country": "fr", "seats": 3], of: "ada", at: Self.start)
        try store.setAttributes(["plan": "pro", "seats": .null], of: "ada", at: Self.start + Self.day)
        #expect(try store.attributes(of: "ada") == ["plan": "pro", "country": "fr"])
        #expect(try store.attributes(of: "bob") == [:])
        try T.respond(try T.survey(), "ada", .completed, at: Self.start, in: store)
        #expect(try store.deleteResponses(respondent: "ada") == 1)
        #expect(try store.attributes(of: "ada") == [:], "the right to erasure covers attributes")
    }

    @Test func theAudienceReadsAttributesAndHistory() throws {
        let store = InMemoryResponseStore()
        let survey = try Self.survey()
        let onboarding = try T.survey(id: "onboarding")
        let nps = try T.survey(id: "nps")
        let at = Self.start + 10 * Self.day
        func decide(_ respondent: String, _ given: [String: JSONValue] = [:]) throws -> Eligibility.Report {
            try Eligibility.decide(respondent: respondent, survey: survey, store: store, at: at, attributes: given)
        }
        try store.setAttributes(["plan": "pro", "country": "fr"], of: "ada", at: Self.start)
        let before = try decide("ada")
        #expect(!before.asks, "ada has not completed onboarding")
        #expect(before.verdicts.first { $0.rule == .audience }?.detail.contains(#"@plan="pro""#) == true)
        try T.respond(onboarding, "ada", .completed, at: Self.start, in: store)
        #expect(try decide("ada").asks)
        #expect(!(try decide("ada", ["country": "us"]).asks), "a given attribute wins over the stored one")
        #expect(try decide("ada", ["country": "de"]).asks)
        try T.respond(nps, "ada", .dismissed, at: Self.start + Self.day, in: store)
        guard case .skip(let skip) = try decide("ada").decision else {
            Issue.record("a dismissal of nps excludes ada")
            return
        }
        #expect(skip.rule == .audience)
        #expect(skip.reason == "audience")
        // The window: onboarding completed 40 days before is too long ago.
        try store.setAttributes(["plan": "pro", "country": "de"], of: "bob", at: Self.start)
        try T.respond(onboarding, "bob", .completed, at: at - 40 * Self.day, in: store)
        #expect(!(try decide("bob").asks))
        try T.respond(onboarding, "bob", .completed, at: at - 30 * Self.day, in: store)
        #expect(try decide("bob").asks, "exactly 30 days is within P30D")
    }

    @Test func countsOfTheHistory() throws {
        let survey = try T.survey(settings: #"{"audience": "displays('nps') >= 2 and completions('nps') = 0"}"#)
        var history = RespondentHistory()
        history.add(
            surveyID: "nps", status: .dismissed, count: 2, lastCreatedAt: Self.start, lastFinishedAt: Self.start)
        #expect(Eligibility.decide(respondent: "a", survey: survey, history: history, at: Self.start).asks)
        history.add(
            surveyID: "nps", status: .completed, count: 1, lastCreatedAt: Self.start, lastFinishedAt: Self.start)
        #expect(!Eligibility.decide(respondent: "a", survey: survey, history: history, at: Self.start).asks)
    }

    @Test func anAudienceIsCheckedWhenLoading() throws {
        #expect(throws: (any Error).self) { try T.survey(settings: #"{"audience": "{plan} = 'pro'"}"#) }
        #expect(throws: (any Error).self) { try T.survey(settings: #"{"audience": "completed()"}"#) }
        #expect(throws: (any Error).self) { try T.survey(settings: #"{"audience": "{@plan} = "}"#) }
        do {
            _ = try T.survey(settings: #"{"audience": "{plan} = 'pro'"}"#)
        } catch {
            #expect("\(error)".contains("written {@name}"), "\(error)")
        }
    }
}

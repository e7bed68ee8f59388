import Foundation
import SurveyCore
import SurveyResponses
import SurveyStoreSQLite
import Testing

/// docs/targeting.md's "A survey with every rule", end to end on a SQLite store: `display: untilSubmitted`,
/// a 7-day global cooldown kept in the store, a 25 % rollout, an audience and a quota, over several
/// respondents and an injected clock; every decision names the rule that decided it.
@Suite struct TargetingEndToEndTests {
    static let day: TimeInterval = 86_400
    static let t0 = EligibilityTests.start
    static let message = "Enough ratings, thank you."

    static func pulse() throws -> Survey {
        try Surveys.load(
            """
            {"formatVersion": 1, "id": "pulse", "title": "Pulse",
             "settings": {"display": "untilSubmitted", "rollout": 25,
                          "audience": "{@plan} = 'pro' and {@country} anyof ['fr','de']"},
             "quotas": [{"id": "raters", "when": "{rating} >= 1", "limit": 2, "message": {"en": "\(message)"}}],
             "steps": [{"id": "rating", "type": "rating", "title": "Rate us", "options": {"stars": 5}}]}
            """)
    }

    /// Runs `respondent` through `survey` at `time`: answers and presses Next (the recorder checking the
    /// quotas first, as `survey run` does), or dismisses it.
    static func run(
        _ survey: Survey, _ respondent: String, dismiss: Bool = false, at time: Date, in store: any ResponseStore
    ) throws -> (SurveySession, ResponseRecorder) {
        var session = SurveySession(survey: survey, seed: 3, today: "2026-05-01")
        var recorder = try ResponseRecorder(store: store, respondentID: respondent, session: session, clock: { time })
        if dismiss {
            session.dismiss()
        } else {
            try session.answer(4, for: "rating")
            try recorder.record(session)
            try recorder.prepareNext(of: &session)
            session.next()
        }
        try recorder.record(session)
        return (session, recorder)
    }

    func skip(_ report: Eligibility.Report) -> Eligibility.Skip? {
        if case .skip(let skip) = report.decision { return skip }
        return nil
    }

    func outcome(_ report: Eligibility.Report, _ rule: Eligibility.Rule) -> Eligibility.Verdict.Outcome? {
        report.verdicts.first { $0.rule == rule }?.outcome
    }

    @Test func aSurveyWithEveryRuleBehavesAsDocumentedAcrossRespondents() throws {
        let store = try SQLiteResponseStore(path: temporaryStorePath())
        let pulse = try Self.pulse()
        let other = try EligibilityTests.survey(settings: #"{"display": "always"}"#, id: "other")
        try store.setSetting(named: Eligibility.cooldownSetting, to: "P7D")
        let t0 = Self.t0
        let day = Self.day
        func decide(_ respondent: String, _ survey: Survey? = nil, at: Date) throws -> Eligibility.Report {
            try Eligibility.decide(respondent: respondent, survey: survey ?? pulse, store: store, at: at)
        }

        // Buckets computed independently (Python: FNV-1a of "pulse", a zero byte and the id, then
        // SplitMix64's finalizer, mod 10000): below 2500 is inside the 25 % rollout.
        let buckets = ["u6": 446, "u11": 1230, "u22": 265, "u35": 2015, "u0": 6234, "u1": 5855]
        for (respondent, bucket) in buckets {
            #expect(Eligibility.rolloutBucket(respondent: respondent, surveyID: "pulse") == bucket, "\(respondent)")
        }
        for respondent in ["u6", "u11", "u22", "u0", "u1"] {
            try store.setAttributes(
                ["plan": "pro", "country": respondent == "u1" ? "de" : "fr"], of: respondent, at: t0)
        }
        try store.setAttributes(["plan": "free", "country": "fr"], of: "u35", at: t0)

        // Outside the audience (though inside the rollout): the audience decides.
        let outsider = try decide("u35", at: t0)
        #expect(skip(outsider)?.rule == .audience)
        #expect(skip(outsider)?.reason == "audience")
        #expect(outcome(outsider, .rollout) == .pass, "bucket 2015 is inside the rollout")
        #expect(skip(outsider)?.event(respondent: "u35")["reason"] == .string("audience"))

        // In the audience, outside the rollout: the rollout decides, the same way every time.
        for respondent in ["u0", "u1"] {
            for at in [t0, t0 + 30 * day] {
                let report = try decide(respondent, at: at)
                #expect(skip(report)?.rule == .rollout, "\(respondent)")
                #expect(skip(report)?.reason == "rollout")
                #expect(outcome(report, .audience) == .pass)
                #expect(
                    report.verdicts.first { $0.rule == .rollout }?.detail
                        == "25 %: bucket \(buckets[respondent] ?? -1) of 10000 is outside")
            }
        }

        // In the audience and the rollout: asked; every rule used passes, in the documented order.
        let first = try decide("u6", at: t0)
        #expect(first.asks)
        #expect(first.verdicts.map(\.rule) == [.schedule, .display, .recontact, .cooldown, .audience, .rollout])
        #expect(first.verdicts.map(\.outcome) == [.off, .pass, .off, .pass, .pass, .pass])

        // u6 dismisses: untilSubmitted does not count it, the 7-day global cooldown spaces the asking.
        _ = try Self.run(pulse, "u6", dismiss: true, at: t0, in: store)
        for at in [t0 + day, t0 + 7 * day - 1] {
            let report = try decide("u6", at: at)
            #expect(skip(report)?.rule == .cooldown)
            #expect(skip(report)?.reason == "cooldown")
            #expect(skip(report)?.until == t0 + 7 * day)
            #expect(outcome(report, .display) == .pass, "a dismissal does not count for untilSubmitted")
        }
        #expect(try decide("u6", at: t0 + 7 * day).asks, "asked again once the cooldown has passed")

        // u6 completes it: never asked it again, whenever.
        let (completed, _) = try Self.run(pulse, "u6", at: t0 + 7 * day, in: store)
        #expect(completed.status == .completed)
        for at in [t0 + 8 * day, t0 + 365 * day] {
            let report = try decide("u6", at: at)
            #expect(skip(report)?.rule == .display)
            #expect(skip(report)?.reason == "completed")
            #expect(skip(report)?.until == nil)
            #expect(skip(report)?.message(respondent: "u6").hasSuffix("(display is untilSubmitted)") == true)
        }

        // Another survey: not within 7 days of having been shown pulse, then asked.
        let another = try decide("u6", other, at: t0 + 8 * day)
        #expect(skip(another)?.rule == .cooldown)
        #expect(skip(another)?.until == t0 + 14 * day)
        #expect(skip(another)?.explanation.contains("last shown 'pulse'") == true)
        #expect(try decide("u6", other, at: t0 + 14 * day).asks)

        // The quota (limit 2): u6 took one place; u11 takes the second; u22, the third matching
        // respondent, is asked (a quota is not an eligibility rule) and ends with the quota's message.
        #expect(try store.quotaCounts(survey: "pulse") == ["raters": 1])
        #expect(try decide("u11", at: t0).asks)
        let (second, secondRecorder) = try Self.run(pulse, "u11", at: t0, in: store)
        #expect(second.status == .completed)
        #expect(secondRecorder.completionQuota == nil)
        #expect(try store.quotaCounts(survey: "pulse") == ["raters": 2])
        #expect(try decide("u22", at: t0).asks)
        let (third, _) = try Self.run(pulse, "u22", at: t0, in: store)
        #expect(third.completionResult().message == Self.message)
        #expect(try store.quotaCounts(survey: "pulse") == ["raters": 2], "never more than the limit")
        // Ended by the quota: stored as such (not a completion, its answer kept), and untilSubmitted
        // does not ask again (they submitted what they were asked).
        let screened = try #require(try store.latestResponse(respondent: "u22", survey: "pulse"))
        #expect(screened.status == .endedByQuota)
        #expect(screened.answers["rating"] == 4)
        let after = try decide("u22", at: t0 + 30 * day)
        #expect(skip(after)?.reason == "endedByQuota")
        #expect(skip(after)?.explanation.hasPrefix("was already screened out of 'pulse' by a full quota") == true)
        #expect(try store.history(respondent: "u22")["pulse"].completions == 0, "completed(…) does not count it")
    }
}

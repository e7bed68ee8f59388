import Foundation
import SurveyCore
import SurveyResponses
import Testing

/// docs/targeting.md: its examples load and decide, and its table names every rule in order.
@Suite struct TargetingDocumentationTests {
    static let page: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return (try? String(contentsOf: root.appendingPathComponent("docs/targeting.md"), encoding: .utf8)) ?? ""
    }()

    /// The ```json blocks of the page.
    static var examples: [String] {
        Self.page.components(separatedBy: "```json\n").dropFirst().compactMap {
            $0.components(separatedBy: "\n```").first
        }
    }

    @Test func everySettingsExampleLoadsAndIsDecided() throws {
        let examples = Self.examples
        #expect(examples.count >= 5, "\(examples.count) examples")
        for example in examples where !example.contains("\"quotas\"") {
            let json = try JSONParser.parse(example)
            let settings = try #require(json["settings"], "\(example)")
            let survey = try EligibilityTests.survey(settings: JSONWriter.string(from: settings))
            // A respondent with attributes and a history the audience example wants, in June 2026.
            var history = RespondentHistory()
            let at = try #require(Targeting.parseTime("2026-06-15T00:00:00Z"))
            history.add(
                surveyID: "onboarding", status: .completed, count: 1, lastCreatedAt: at - 86_400,
                lastFinishedAt: at - 86_400)
            let report = Eligibility.decide(
                respondent: "user-1", survey: survey, history: history, at: at,
                attributes: ["plan": "pro", "country": "fr"])
            #expect(report.verdicts.count == Eligibility.Rule.allCases.count)
            let usedRules = report.verdicts.filter { $0.outcome != .off }.map(\.rule)
            #expect(!usedRules.isEmpty, "the example \(example) sets a rule")
            if settings["audience"] != nil {
                #expect(report.verdicts.first { $0.rule == .audience }?.outcome == .pass, "\(example)")
            }
        }
    }

    /// The quota example runs as the page says: two French 18–24-year-olds complete it and a student
    /// starts it; the counts are the page's, and a third French 18–24-year-old reads the quota's message.
    @Test func theQuotaExampleRunsAsDocumented() throws {
        let example = try #require(Self.examples.first { $0.contains("\"quotas\"") })
        let survey = try Surveys.load(example)
        let store = InMemoryResponseStore()
        func respond(_ respondent: String, age: String, job: String, pages: Int) throws -> SurveySession {
            var session = SurveySession(survey: survey)
            var recorder = try ResponseRecorder(store: store, respondentID: respondent, session: session)
            try session.answer(.string(age), for: "age")
            try session.answer("fr", for: "country")
            try session.answer(.string(job), for: "job")
            try recorder.record(session)
            for _ in 0..<pages where session.status == .inProgress {
                try recorder.prepareNext(of: &session)
                session.next()
                try recorder.record(session)
            }
            return session
        }
        for respondent in ["u1", "u2"] { _ = try respond(respondent, age: "18-24", job: "nurse", pages: 3) }
        let student = try respond("s1", age: "25-64", job: "student", pages: 1)
        #expect(student.currentUnitID == "habits")
        let report = try QuotaReport(survey: survey, store: store)
        let documented = try #require(
            Self.page.components(separatedBy: "```text\n").dropFirst().first?.components(separatedBy: "```").first)
        #expect(report.text == documented)
        let third = try respond("u3", age: "18-24", job: "nurse", pages: 3)
        #expect(third.pathIDs == ["about"])
        #expect(third.completionResult().message == "Thank you! We have heard from enough people like you.")
        #expect(Self.page.contains(#"reads, after the first page, "Thank you! We have heard from enough"#))
    }

    @Test func theRuleTableListsEveryRuleInOrder() {
        let rows = Self.page.split(separator: "\n").filter { $0.hasPrefix("| `") }.compactMap {
            $0.split(separator: "`").dropFirst().first.map(String.init)
        }
        let rules = Eligibility.Rule.allCases.map(\.rawValue)
        #expect(Array(rows.prefix(rules.count)) == rules)
        for reason in [
            "completed", "dismissed", "displayLimit", "notStarted", "ended", "cooldown", "audience", "rollout",
        ] {
            #expect(Self.page.contains("`\(reason)`"), "the page names the reason \(reason)")
        }
    }
}

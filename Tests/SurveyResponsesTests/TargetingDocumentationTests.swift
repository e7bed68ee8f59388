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
        for example in examples {
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

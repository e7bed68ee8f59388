import Foundation
import Testing

/// docs/targeting.md's survey with every rule (`display: untilSubmitted`, a 7-day global cooldown kept
/// in the store, a 25 % rollout, an audience) and a quota, on the built binary: `survey run` and
/// `survey eligible` for several respondents over an injected clock (`--at`), each decision and its
/// explanation asserted. The library's version is `TargetingEndToEndTests`.
@Suite struct CombinedTargetingCLITests {
    static let surveyText = """
        {"formatVersion": 1, "id": "pulse", "title": "Pulse",
         "settings": {"display": "untilSubmitted", "rollout": 25,
                      "audience": "{@plan} = 'pro' and {@country} anyof ['fr','de']"},
         "quotas": [{"id": "raters", "when": "{rating} >= 1", "limit": 2,
                     "message": {"en": "Enough ratings, thank you."}}],
         "steps": [{"id": "rating", "type": "rating", "title": "Rate us", "options": {"stars": 5}}]}
        """

    @Test func everyRuleAndTheQuotaDecideAsDocumentedAcrossRespondents() throws {
        let directory = try Fixtures.temporaryDirectory()
        let environment = ["XDG_DATA_HOME": directory.appendingPathComponent("xdg").path]
        func survey(_ arguments: [String], stdin: String = "") throws -> SurveyBinary.Result {
            try SurveyBinary.run(arguments, stdin: stdin, environment: environment, directory: directory)
        }
        let file = directory.appendingPathComponent("pulse.json").path
        try Data(Self.surveyText.utf8).write(to: URL(fileURLWithPath: file))
        func eligible(_ respondent: String, at: String) throws -> SurveyBinary.Result {
            try survey(["eligible", file, "--respondent", respondent, "--at", at])
        }
        func run(_ respondent: String, at: String, stdin: String, attributes: [String] = []) throws
            -> SurveyBinary.Result
        {
            try survey(
                ["run", file, "--respondent", respondent, "--at", at] + attributes.flatMap { ["--attr", $0] },
                stdin: stdin)
        }
        let pro = ["plan=pro", "country=fr"]

        // u35 (rollout bucket 2015: inside) is on the free plan: the audience says no, in its own words.
        let free = try run("u35", at: "2026-03-01", stdin: "4\n", attributes: ["plan=free", "country=fr"])
        #expect(free.status == 0)
        #expect(free.stdout.isEmpty)
        #expect(
            free.stderr.contains(
                "'u35' is not in the audience of 'pulse' ({@plan} = 'pro' and {@country} anyof ['fr','de']); "
                    + "not asking them (only the audience is asked)"), "\(free.stderr)")
        // The 7-day global cooldown, kept in the store (which u35's run created).
        #expect(try survey(["responses", "cooldown", "P7D"]).stdout == "global cooldown: P7D\n")
        let freeDecision = try eligible("u35", at: "2026-03-02")
        #expect(freeDecision.status == 3)
        #expect(
            freeDecision.stdout.hasPrefix("skip: audience — 'u35' is not in the audience"), "\(freeDecision.stdout)")
        #expect(freeDecision.stdout.contains("  rollout    pass  25 %: bucket 2015 of 10000"))

        // u0 (bucket 6234) is in the audience, outside the rollout: the rollout says no, every time.
        let outside = try run("u0", at: "2026-03-01", stdin: "4\n", attributes: pro)
        #expect(outside.stdout.isEmpty)
        #expect(
            outside.stderr.contains(
                "'u0' is outside the 25 % rollout of 'pulse'; not asking them (only the rollout is asked)"),
            "\(outside.stderr)")
        for at in ["2026-03-02", "2026-09-01"] {
            let decision = try eligible("u0", at: at)
            #expect(decision.status == 3)
            // docs/targeting.md's example line, exactly.
            #expect(
                decision.stdout.hasPrefix(
                    "skip: rollout — 'u0' is outside the 25 % rollout of 'pulse'; not asking them (only the rollout is asked)\n"
                ), "\(decision.stdout)")
            #expect(decision.stdout.contains("  audience   pass"))
            #expect(decision.stdout.contains("  rollout    skip  25 %: bucket 6234 of 10000 is outside"))
        }

        // u6 (bucket 446) is asked: every rule used passes, in the documented order.
        let first = try survey(
            ["eligible", file, "--respondent", "u6", "--at", "2026-03-01"] + pro.flatMap { ["--attr", $0] })
        #expect(first.status == 0, "\(first.stdout)\(first.stderr)")
        let rules = first.stdout.split(separator: "\n").dropFirst().map {
            $0.split(separator: " ").first.map(String.init) ?? ""
        }
        #expect(first.stdout.hasPrefix("ask\n"))
        #expect(rules == ["schedule", "display", "recontact", "cooldown", "audience", "rollout"], "\(first.stdout)")
        #expect(first.stdout.contains("  display    pass  untilSubmitted: never completed"))
        #expect(first.stdout.contains("  cooldown   pass  P7D: never shown a survey"))
        // u6 dismisses it: untilSubmitted asks again, but not within the 7-day cooldown.
        let dismissed = try run("u6", at: "2026-03-01T09:00:00Z", stdin: "d\n", attributes: pro)
        #expect(dismissed.stdout.contains("Survey dismissed."), "\(dismissed.stdout)\(dismissed.stderr)")
        let cooling = try eligible("u6", at: "2026-03-03")
        #expect(cooling.status == 3)
        #expect(
            cooling.stdout.hasPrefix(
                "skip: cooldown — 'u6' was last shown 'pulse' on 2026-03-01T09:00:00.000Z (global cooldown P7D); "
                    + "not asking now (it can be asked from 2026-03-08T09:00:00.000Z)"), "\(cooling.stdout)")
        #expect(cooling.stdout.contains("  display    pass  untilSubmitted: never completed"))
        #expect(try eligible("u6", at: "2026-03-08T09:00:00Z").status == 0, "asked once the cooldown has passed")
        // u6 completes it: never asked it again.
        let completed = try run("u6", at: "2026-03-09", stdin: "4\n")
        #expect(completed.status == 0)
        #expect(completed.stdout.contains("Rate us"), "\(completed.stderr)")
        for at in ["2026-03-20", "2027-03-01"] {
            let decision = try eligible("u6", at: at)
            #expect(decision.status == 3)
            #expect(
                decision.stdout.hasPrefix(
                    "skip: completed — 'u6' already completed 'pulse' on 2026-03-09T00:00:00.000Z; "
                        + "not asking again (display is untilSubmitted)"), "\(decision.stdout)")
        }

        // The quota (2 places): u6 took one, u11 (bucket 1230) takes the second, and u22 (bucket 265),
        // asked as the rules allow, reads the quota's message: screened out, not counted.
        let second = try run("u11", at: "2026-03-09", stdin: "4\n", attributes: pro)
        #expect(second.status == 0)
        #expect(!second.stdout.contains("Enough ratings"), "\(second.stdout)")
        #expect(try eligible("u22", at: "2026-03-09").status == 3, "no attributes stored yet: not in the audience")
        let third = try run("u22", at: "2026-03-09", stdin: "4\n", attributes: ["plan=pro", "country=de"])
        #expect(third.stdout.contains("Enough ratings, thank you."), "\(third.stdout)\(third.stderr)")
        let quotas = try survey(["responses", "quotas", file])
        #expect(quotas.stdout == "raters  completed  2/2  full  1 ended-by-quota  {rating} >= 1\n", "\(quotas.stdout)")
        let listed = try survey(["responses", "list", "--survey", "pulse", "--respondent", "u22"])
        #expect(listed.stdout.contains("ended-by-quota"), "\(listed.stdout)")
        let exported = try survey(["responses", "export", file, "--format", "jsonl"])
        let line = try #require(exported.stdout.split(separator: "\n").first { $0.contains(#""respondentId":"u22""#) })
        #expect(line.contains(#""status":"ended-by-quota""#))
        #expect(line.contains(#""answers":{"rating":4}"#), "its answers are kept: \(line)")
        #expect(
            line.contains(
                #""quotasReached":[{"action":"end","message":"Enough ratings, thank you.","quotaId":"raters"}]"#))
        // Screened out: not asked again (they submitted what they were asked), nor counted as a completion.
        let after = try eligible("u22", at: "2027-01-01")
        #expect(after.status == 3)
        #expect(
            after.stdout.hasPrefix(
                "skip: endedByQuota — 'u22' was already screened out of 'pulse' by a full quota on "
                    + "2026-03-09T00:00:00.000Z; not asking again (display is untilSubmitted)"), "\(after.stdout)")
        let funnel = try survey(["responses", "funnel", file])
        #expect(funnel.stdout.hasPrefix("Survey pulse: 4 invited"), "\(funnel.stdout)")
        #expect(funnel.stdout.contains("2 completed"), "\(funnel.stdout)")
        #expect(funnel.stdout.contains("1 ended by a quota"), "\(funnel.stdout)")
    }
}

import Foundation
import Testing

/// `survey eligible`, and `survey run`'s decision at `--at`, on the built binary.
@Suite struct EligibleCommandTests {
    let directory: URL
    let environment: [String: String]

    init() throws {
        directory = try Fixtures.temporaryDirectory()
        environment = ["XDG_DATA_HOME": directory.appendingPathComponent("xdg").path]
    }

    func survey(_ arguments: [String], stdin: String = "") throws -> SurveyBinary.Result {
        try SurveyBinary.run(arguments, stdin: stdin, environment: environment, directory: directory)
    }

    static let feedback = ResponseStoreCLITests.feedback

    @Test func eligibleExplainsTheDecisionBeforeAndAfterACompletion() throws {
        let before = try survey(["eligible", Self.feedback, "--respondent", "ada"])
        #expect(before.status == 0, "\(before.stderr)")
        let lines = before.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "ask")
        #expect(lines.contains { $0.hasPrefix("  display") && $0.contains("pass") && $0.contains("once") })
        #expect(lines.contains { $0.hasPrefix("  recontact") && $0.contains("off") })

        let run = try survey(
            ["run", Self.feedback, "--respondent", "ada", "--at", "2026-03-01T10:00:00Z"], stdin: "4\n")
        #expect(run.status == 0, "\(run.stderr)")
        let after = try survey(["eligible", Self.feedback, "--respondent", "ada", "--at", "2026-03-02"])
        #expect(after.status == 3, "a skip exits 3: \(after.stdout)\(after.stderr)")
        #expect(
            after.stdout.hasPrefix(
                "skip: completed — 'ada' already completed 'in-app-feedback' on 2026-03-01T10:00:00.000Z"),
            "the time is --at's: \(after.stdout)")
        #expect(after.stdout.contains("  display    skip  once: already completed"))
        let other = try survey(["eligible", Self.feedback, "--respondent", "bob"])
        #expect(other.status == 0, "another respondent is asked")
    }

    @Test func anUnfinishedResponseIsNotDecided() throws {
        _ = try survey(["run", Self.feedback, "--respondent", "kim", "--renderer", "json"], stdin: "")
        let result = try survey(["eligible", Self.feedback, "--respondent", "kim"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("ask: continues unfinished response "), "\(result.stdout)")
    }

    @Test func eligibleNeedsARespondentAndHasHelp() throws {
        let missing = try survey(["eligible", Self.feedback])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("--respondent ID is required"))
        let help = try survey(["eligible", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("3 skip"))
        let badTime = try survey(["eligible", Self.feedback, "--respondent", "a", "--at", "soon"])
        #expect(badTime.status == 2)
    }
}

/// The display rules across runs of several respondents, the clock given with `--at`.
@Suite struct DisplayRulesCLITests {
    let directory: URL
    let environment: [String: String]
    let file: String

    init() throws {
        directory = try Fixtures.temporaryDirectory()
        environment = ["XDG_DATA_HOME": directory.appendingPathComponent("xdg").path]
        let text = try String(contentsOfFile: ResponseStoreCLITests.feedback, encoding: .utf8)
            .replacingOccurrences(
                of: #""defaultLocale": "en","#,
                with: #""defaultLocale": "en", "settings": {"display": "untilSubmitted", "rollout": 25},"#)
        file = directory.appendingPathComponent("targeted.json").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
    }

    func survey(_ arguments: [String], stdin: String = "") throws -> SurveyBinary.Result {
        try SurveyBinary.run(arguments, stdin: stdin, environment: environment, directory: directory)
    }

    @Test func untilSubmittedACooldownAndARolloutAcrossRuns() throws {
        var inside: [String] = []
        for index in 0..<40 {
            let result = try survey(["eligible", file, "--respondent", "r\(index)", "--at", "2026-03-01"])
            if result.status == 0 {
                inside.append("r\(index)")
            } else {
                #expect(result.status == 3)
                #expect(result.stdout.hasPrefix("skip: rollout"), "\(result.stdout)")
            }
        }
        #expect((4...16).contains(inside.count), "about a quarter of 40: \(inside.count)")
        let ada = try #require(inside.first)
        let outside = try #require((0..<40).map { "r\($0)" }.first { !inside.contains($0) })
        let notAsked = try survey(["run", file, "--respondent", outside, "--at", "2026-03-01"], stdin: "4\n")
        #expect(notAsked.status == 0)
        #expect(notAsked.stdout.isEmpty)
        #expect(notAsked.stderr.contains("is outside the 25 % rollout of 'in-app-feedback'"), "\(notAsked.stderr)")

        let dismissed = try survey(["run", file, "--respondent", ada, "--at", "2026-03-01T09:00:00Z"], stdin: "d\n")
        #expect(dismissed.stdout.contains("Survey dismissed."), "\(dismissed.stderr)")
        // untilSubmitted asks again after a dismissal, but the 7-day cooldown says not yet.
        let soon = try survey([
            "run", file, "--respondent", ada, "--at", "2026-03-03", "--cooldown", "P7D", "--renderer", "json",
        ])
        let event = try #require(try RunEndingTests.events(soon.stdout).first)
        #expect(event["event"] as? String == "not-asked")
        #expect(event["rule"] as? String == "cooldown")
        #expect(event["askedAgainFrom"] as? String == "2026-03-08T09:00:00.000Z")
        // The store's setting is the same as --cooldown.
        #expect(try survey(["responses", "cooldown", "P7D"]).stdout == "global cooldown: P7D\n")
        let explained = try survey(["eligible", file, "--respondent", ada, "--at", "2026-03-03"])
        #expect(explained.status == 3)
        #expect(
            explained.stdout.contains(
                "  cooldown   skip  P7D: last shown 'in-app-feedback' on 2026-03-01T09:00:00.000Z"))
        #expect(explained.stdout.contains("  display    pass  untilSubmitted: never completed"))
        #expect(explained.stdout.contains("  rollout    pass  25 %"))
        let later = try survey(["run", file, "--respondent", ada, "--at", "2026-03-09"], stdin: "4\n")
        #expect(later.stdout.contains("How useful"), "asked again after the cooldown: \(later.stderr)")
        let after = try survey(["eligible", file, "--respondent", ada, "--at", "2026-06-01"])
        #expect(after.status == 3)
        #expect(after.stdout.hasPrefix("skip: completed"), "\(after.stdout)")
        // Another respondent inside the rollout is held back by nothing but their own history.
        if inside.count > 1 {
            #expect(try survey(["eligible", file, "--respondent", inside[1], "--at", "2026-03-03"]).status == 0)
        }
        #expect(try survey(["responses", "cooldown", "none"]).stdout == "global cooldown: none\n")
        // The decisions of survey run are counted in the funnel (survey eligible only reads).
        let funnel = try survey(["responses", "funnel", file])
        #expect(funnel.stdout.contains("\nNot asked: 2 (cooldown 1, rollout 1)\n"), "\(funnel.stdout)")
        let json = try survey(["responses", "funnel", file, "--format", "json"])
        #expect(json.stdout.contains(#""notAsked""#), "\(json.stdout)")
    }
}

/// `--attr` on `survey run` (stored) and `survey eligible` (given), for an audience.
@Suite struct AudienceCLITests {
    @Test func attributesGivenToARunAreStoredForTheAudience() throws {
        let directory = try Fixtures.temporaryDirectory()
        let environment = ["XDG_DATA_HOME": directory.appendingPathComponent("xdg").path]
        func survey(_ arguments: [String], stdin: String = "") throws -> SurveyBinary.Result {
            try SurveyBinary.run(arguments, stdin: stdin, environment: environment, directory: directory)
        }
        let text = try String(contentsOfFile: ResponseStoreCLITests.feedback, encoding: .utf8)
            .replacingOccurrences(
                of: #""defaultLocale": "en","#,
                with:
                    #""defaultLocale": "en", "settings": {"audience": "{@plan} = 'pro' and {@country} anyof ['fr','de']"},"#
            )
        let file = directory.appendingPathComponent("pro.json").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        let free = try survey(["run", file, "--respondent", "ada", "--attr", "plan=free", "--attr", "country=fr"])
        #expect(free.status == 0)
        #expect(free.stdout.isEmpty)
        #expect(free.stderr.contains("'ada' is not in the audience of 'in-app-feedback'"), "\(free.stderr)")
        let explained = try survey(["eligible", file, "--respondent", "ada"])
        #expect(explained.status == 3, "the stored attributes are read")
        #expect(
            explained.stdout.contains(
                #"  audience   skip  {@plan} = 'pro' and {@country} anyof ['fr','de'] with @plan="free", @country="fr" is false"#
            ), "\(explained.stdout)")
        #expect(try survey(["eligible", file, "--respondent", "ada", "--attr", "plan=pro"]).status == 0)
        #expect(try survey(["eligible", file, "--respondent", "ada"]).status == 3, "eligible does not store --attr")
        let pro = try survey(["run", file, "--respondent", "ada", "--attr", "plan=pro"], stdin: "4\n")
        #expect(pro.stdout.contains("How useful"), "\(pro.stderr)")
        let bad = try survey(["eligible", file, "--respondent", "ada", "--attr", "=x"])
        #expect(bad.status == 2)
    }
}

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

import Foundation
import Testing

@Suite("survey CLI, end to end")
struct CLITests {
    static let onboarding = "Tests/Fixtures/onboarding.json"
    static let exitPoll = "Tests/Fixtures/exit-poll.json"

    @Test(arguments: [
        "run", "test", "validate", "lint", "graph", "types", "responses", "simulate", "paths", "coverage",
    ])
    func everyCommandHasHelp(command: String) throws {
        let result = try SurveyBinary.run([command, "--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("Usage: survey \(command)"))
    }

    @Test func overviewAndUsageErrors() throws {
        #expect(try SurveyBinary.run(["--help"]).stdout.contains("validate"))
        let unknown = try SurveyBinary.run(["frobnicate"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("unknown command 'frobnicate'"))
        let badOption = try SurveyBinary.run(["run", Self.onboarding, "--colour"])
        #expect(badOption.status == 2)
        #expect(badOption.stderr.contains("unknown option '--colour'"))
        let badRenderer = try SurveyBinary.run(["run", Self.onboarding, "--renderer", "html"])
        #expect(badRenderer.status == 2)
        let missing = try SurveyBinary.run(["test", Self.onboarding])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("--answers"))
        #expect(try SurveyBinary.run(["validate"]).status == 2)
    }

    @Test(arguments: ["2026-02-30", "2025-02-29", "2026-13-01", "2026-1-5", "+202-01-01", "2026-01-15T10:00", "today"])
    func todayMustBeARealDate(today: String) throws {
        for arguments in [
            ["run", Self.onboarding, "--state-file", "/dev/null", "--today", today],
            ["test", Self.onboarding, "--answers", "Examples/answers/onboarding-skip.json", "--today", today],
        ] {
            let result = try SurveyBinary.run(arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderr.contains("--today must be a real date written YYYY-MM-DD, got '\(today)'"))
        }
    }

    @Test func aLeapDayIsATodayLikeAnyOther() throws {
        let result = try SurveyBinary.run(
            [
                "test", "Examples/onboarding.json", "--answers", "Examples/answers/onboarding-skip.json", "--today",
                "2028-02-29",
            ])
        #expect(result.status == 0, "\(result.stderr)")
    }

    @Test func missingFileIsAnInputProblem() throws {
        let result = try SurveyBinary.run(["run", "no-such-survey.json"])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("no-such-survey.json: cannot read the file"))
    }

    @Test func aMissingPluginIsAnInputProblem() throws {
        let result = try SurveyBinary.run(["types", "--plugin", "libcolor.so"])
        #expect(result.status == 1)
        #expect(result.stderr == "libcolor.so: plugin file not found\n")
    }

    @Test func typesListsEveryBuiltIn() throws {
        let result = try SurveyBinary.run(["types"])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count >= 15)
        #expect(lines.contains { $0.hasPrefix("discovery-source ") })
    }

    @Test func validateAcceptsGoodFiles() throws {
        let result = try SurveyBinary.run(["validate", Self.onboarding, Self.exitPoll])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
    }

    @Test func validateReportsEveryProblemWithItsPlace() throws {
        let directory = try Fixtures.temporaryDirectory()
        let good = try Fixtures.text("onboarding.json")
        try Data("{\"formatVersion\": 1, \"id\": \"x\",\n  \"title\": \"x\" \"steps\": []}\n".utf8).write(
            to: directory.appendingPathComponent("syntax.json"))
        try Data(good.replacingOccurrences(of: "\"type\": \"rating\"", with: "\"type\": \"ratting\"").utf8).write(
            to: directory.appendingPathComponent("unknown-type.json"))
        try Data(good.replacingOccurrences(of: "\"id\": \"goals\"", with: "\"id\": \"source\"").utf8).write(
            to: directory.appendingPathComponent("duplicate.json"))
        let result = try SurveyBinary.run(
            ["validate", "syntax.json", "unknown-type.json", "duplicate.json"], directory: directory)
        #expect(result.status == 1)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("syntax.json:2:16: ") })
        #expect(
            lines.contains { $0.hasPrefix("unknown-type.json:16:") && $0.contains("ratting") && $0.contains("rating") })
        #expect(lines.contains { $0.hasPrefix("duplicate.json:") && $0.contains("source") })
    }

    // MARK: survey test

    @Test func testPassesWithExpectations() throws {
        let result = try SurveyBinary.run([
            "test", Self.onboarding, "--answers", "Tests/Fixtures/scripts/onboarding.answers.json",
            "--expect-path", "welcome,source,goals,rating,contact-me,contact,thanks",
            "--expect-answers", "Tests/Fixtures/scripts/onboarding.expected.json",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let last = try #require(result.stdout.split(separator: "\n").last)
        #expect(last.hasPrefix(#"{"answers":{"contact":{"email":"ada@example.com","name":"Ada"}"#))
        #expect(last.contains(#""event":"completed""#))
    }

    @Test func testFailsWithAReadableDiff() throws {
        let directory = try Fixtures.temporaryDirectory()
        try Data(#"{"source": "google", "rating": 4, "goals": []}"#.utf8).write(
            to: directory.appendingPathComponent("expected.json"))
        let result = try SurveyBinary.run([
            "test", Self.onboarding, "--answers", "Tests/Fixtures/scripts/onboarding.answers.json", "--quiet",
            "--expect-path", "welcome,source,goals,rating,thanks", "--expect-answers",
            directory.appendingPathComponent("expected.json").path,
        ])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("Tests/Fixtures/onboarding.json: the path differs from --expect-path:"))
        #expect(result.stderr.contains("  expected: welcome → source → goals → rating → thanks"))
        #expect(result.stderr.contains("first difference at step 5: expected 'thanks', got 'contact-me'"))
        #expect(result.stderr.contains("  rating: expected 4, got 2"))
        #expect(result.stderr.contains("  goals: expected [], got [\"track\",\"Dogs\"]"))
        #expect(result.stderr.contains("  contact-me: not expected, got true"))
    }

    @Test func testFailsWhenARequiredAnswerIsMissing() throws {
        let directory = try Fixtures.temporaryDirectory()
        let script = directory.appendingPathComponent("answers.json")
        try Data(#"{"source": "google"}"#.utf8).write(to: script)
        let result = try SurveyBinary.run(["test", Self.onboarding, "--answers", script.path])
        #expect(result.status == 1)
        #expect(
            result.stderr
                == "\(script.path): step 'rating' is required but the script has no answer for it (at 'rating')\n")
        #expect(result.stdout.split(separator: "\n").last?.contains(#""event":"error""#) == true)
    }

    @Test func testReportsABadScript() throws {
        let directory = try Fixtures.temporaryDirectory()
        let script = directory.appendingPathComponent("answers.json")
        try Data("{\"source\": ".utf8).write(to: script)
        let result = try SurveyBinary.run(["test", Self.onboarding, "--answers", script.path])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("\(script.path):1:12: invalid JSON"))
    }

    // MARK: survey run

    @Test(arguments: [
        ("onboarding.json", "onboarding.stdin.txt", "en", "onboarding.en.txt"),
        ("onboarding.json", "onboarding-fr.stdin.txt", "fr", "onboarding.fr.txt"),
        ("exit-poll.json", "exit-poll.stdin.txt", "en", "exit-poll.en.txt"),
    ])
    func textFrontEndMatchesGoldenFile(survey: String, stdin: String, locale: String, golden: String) throws {
        let directory = try Fixtures.temporaryDirectory()
        let result = try SurveyBinary.run(
            ["run", Fixtures.path(survey), "--locale", locale, "--today", "2026-01-15"],
            stdin: try Fixtures.text("scripts/" + stdin), directory: directory)
        #expect(result.status == 0, "\(result.stderr)")
        let goldenURL = Fixtures.directory.appendingPathComponent("golden/" + golden)
        if ProcessInfo.processInfo.environment["UPDATE_GOLDEN"] != nil {
            try Data(result.stdout.utf8).write(to: goldenURL)
        }
        let expected = try String(contentsOf: goldenURL, encoding: .utf8)
        #expect(
            result.stdout == expected, "text output differs from golden/\(golden); rerun with UPDATE_GOLDEN=1 to accept"
        )
    }

    @Test func quitSavesTheStateAndResumeContinues() throws {
        let directory = try Fixtures.temporaryDirectory()
        let first = try SurveyBinary.run(
            ["run", Fixtures.path("onboarding.json"), "--no-store"], stdin: "\ngoogle\n", directory: directory)
        #expect(first.status == 0)
        #expect(first.stdout.hasSuffix("Your answers were saved to onboarding.state.json.\n"))
        let state = try String(contentsOf: directory.appendingPathComponent("onboarding.state.json"), encoding: .utf8)
        #expect(state.contains(#""source": "google""#))
        let second = try SurveyBinary.run(
            [
                "run", Fixtures.path("onboarding.json"), "--no-store", "--resume", "onboarding.state.json", "--result",
                "result.json",
            ],
            stdin: "\n5\n\n", directory: directory)
        #expect(second.status == 0, "\(second.stderr)")
        let result = try String(contentsOf: directory.appendingPathComponent("result.json"), encoding: .utf8)
        #expect(result.contains(#""rating": 5"#))
        #expect(result.contains(#""source": "google""#))
        // While it was unfinished, a new run would not have overwritten it (checked below on a copy).
        // The state file was continued to the end: it cannot be submitted a second time.
        let third = try SurveyBinary.run(
            ["run", Fixtures.path("onboarding.json"), "--no-store", "--resume", "onboarding.state.json"],
            stdin: "\n5\n\n", directory: directory)
        #expect(third.status == 1)
        #expect(third.stderr.contains("already completed and cannot continue"), "\(third.stderr)")
    }

    @Test func aNewRunDoesNotOverwriteAnUnfinishedStateFile() throws {
        let directory = try Fixtures.temporaryDirectory()
        let first = try SurveyBinary.run(
            ["run", Fixtures.path("onboarding.json"), "--no-store"], stdin: "\ngoogle\n", directory: directory)
        #expect(first.status == 0)
        let saved = try String(contentsOf: directory.appendingPathComponent("onboarding.state.json"), encoding: .utf8)
        let second = try SurveyBinary.run(
            ["run", Fixtures.path("onboarding.json"), "--no-store"], stdin: "\n", directory: directory)
        #expect(second.status == 1)
        #expect(second.stderr.contains("onboarding.state.json: holds an unfinished session of 'onboarding'"))
        let after = try String(contentsOf: directory.appendingPathComponent("onboarding.state.json"), encoding: .utf8)
        #expect(after == saved)
    }

    @Test func badResumeStateIsReportedWithItsPlace() throws {
        let directory = try Fixtures.temporaryDirectory()
        try Data(#"{"surveyId": "onboarding", "seed": 5}"#.utf8).write(to: directory.appendingPathComponent("s.json"))
        let result = try SurveyBinary.run(
            ["run", Fixtures.path("onboarding.json"), "--resume", "s.json"], directory: directory)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("s.json:1:"))
    }

    @Test func localeComesFromTheEnvironment() throws {
        let result = try SurveyBinary.run(
            ["run", Self.onboarding, "--state-file", "/dev/null"], stdin: "",
            environment: ["LANG": "fr_FR.UTF-8"])
        #expect(result.stdout.hasPrefix("Bienvenue à bord"))
        // Saving the state to a device writes into it: /dev/null is never replaced by a file.
        let type = try FileManager.default.attributesOfItem(atPath: "/dev/null")[.type] as? FileAttributeType
        #expect(type == .typeCharacterSpecial)
    }

    // MARK: The same result from every front end

    @Test func allFrontEndsProduceTheSameResult() throws {
        let directory = try Fixtures.temporaryDirectory()
        let headless = try SurveyBinary.run([
            "test", Fixtures.path("onboarding.json"), "--answers", Fixtures.path("scripts/onboarding.answers.json"),
        ])
        #expect(headless.status == 0, "\(headless.stderr)")
        let completed = try #require(headless.stdout.split(separator: "\n").last.map(String.init))

        let text = try SurveyBinary.run(
            ["run", Fixtures.path("onboarding.json"), "--result", "result.json"],
            stdin: try Fixtures.text("scripts/onboarding.stdin.txt"), directory: directory)
        #expect(text.status == 0, "\(text.stderr)")
        let textResult = try String(contentsOf: directory.appendingPathComponent("result.json"), encoding: .utf8)

        func normalized(_ json: String) throws -> NSDictionary {
            var object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] ?? [:]
            object.removeValue(forKey: "event")
            return object as NSDictionary
        }
        #expect(try normalized(completed) == normalized(textResult))

        guard let python = Self.python3 else {
            print("note: python3 is not installed; skipping the Python client part of this test")
            return
        }
        let client = Process()
        client.executableURL = URL(fileURLWithPath: python)
        client.arguments = [
            Fixtures.directory.deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("clients/python/survey_client.py").path,
            SurveyBinary.url.path, Fixtures.path("onboarding.json"), Fixtures.path("scripts/onboarding.answers.json"),
        ]
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_DATA_HOME"] = directory.appendingPathComponent("xdg").path
        client.environment = environment
        let output = Pipe()
        client.standardOutput = output
        try client.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        client.waitUntilExit()
        #expect(client.terminationStatus == 0)
        let fromPython = try normalized(String(decoding: data, as: UTF8.self))
        let fromHeadless = try normalized(completed)
        #expect(fromPython["path"] as? NSArray == fromHeadless["path"] as? NSArray)
        #expect(fromPython["answers"] as? NSDictionary == fromHeadless["answers"] as? NSDictionary)
    }

    static let python3: String? = ["/usr/bin/python3", "/usr/local/bin/python3", "/bin/python3"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }
}

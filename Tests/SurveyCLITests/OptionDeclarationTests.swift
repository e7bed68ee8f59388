import Foundation
import Testing

/// Every command reads its options through the constants that declare them (a misspelt name does
/// not compile), and reading an option its spec does not declare stops a debug build. These runs
/// drive each command with `--help` and with every option it declares, through the paths that read
/// them, so such a read fails here instead of silently reading as absent.
@Suite struct OptionDeclarationTests {
    static let commands = [
        "run", "test", "validate", "lint", "graph", "types", "responses", "simulate", "paths", "coverage", "import",
        "deliver", "report", "serve",
    ]

    @Test(arguments: commands)
    func everyCommandExplainsItsOptions(command: String) throws {
        let result = try SurveyBinary.run([command, "--help"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Usage: survey \(command)"))
    }

    /// Runs `arguments` and checks that the command ended by itself (0, 1 or 2), not on a failed check.
    static func expectNoMisread(_ arguments: [String], stdin: String = "") throws {
        let result = try SurveyBinary.run(arguments, stdin: stdin)
        #expect([0, 1, 2].contains(result.status), "\(arguments): status \(result.status)\n\(result.stderr)")
        #expect(!result.stderr.contains("Fatal error"), "\(arguments): \(result.stderr)")
        #expect(!result.stderr.contains("Assertion failed"), "\(arguments): \(result.stderr)")
    }

    @Test func everyOptionOfEveryCommandIsReadAsDeclared() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
        let survey = Fixtures.path("onboarding.json")
        let script = Fixtures.path("scripts/onboarding.answers.json")
        let store = path("store.sqlite")
        let plugins = ["--isolate-plugins", "--plugin-timeout", "5"]
        let day = ["--today", "2026-01-01", "--seed", "1"]
        try Data("{}".utf8).write(to: URL(fileURLWithPath: path("profile.json")))
        try Data(#"{"a": 1}"#.utf8).write(to: URL(fileURLWithPath: path("answers.json")))
        try Data(#"{"targets": [{"name": "h", "type": "webhook", "url": "http://127.0.0.1:9/h"}]}"#.utf8)
            .write(to: URL(fileURLWithPath: path("delivery.json")))
        try Data(#"{"pages": [{"name": "p", "elements": [{"type": "text", "name": "t"}]}]}"#.utf8)
            .write(to: URL(fileURLWithPath: path("surveyjs.json")))

        let runs: [[String]] = [
            [
                "run", survey, "--no-store", "--renderer", "json", "--locale", "en", "--state-file", path("state.json"),
                "--result", path("result.json"),
            ] + day + plugins,
            ["run", survey, "--no-store", "--resume", path("state.json"), "--plain"],
            [
                "run", survey, "--store", store, "--respondent", "r", "--ask-again", "--delivery",
                path("delivery.json"),
                "--var", "x=1",
            ] + day + plugins,
            ["run", survey, "--store", store, "--respondent", "r"],
            [
                "test", survey, "--answers", script, "--expect-path", "a", "--expect-answers", path("answers.json"),
                "--quiet", "--allow-extra", "--store", store, "--respondent", "t", "--locale", "en", "--var", "x=1",
            ]
                + day + plugins,
            [
                "test", survey, "--answers", script, "--junit", path("junit.xml"), "--allow-extra", "--store", store,
                "--locale", "en",
            ] + day + plugins,
            ["validate", survey] + plugins,
            ["types"] + plugins,
            ["graph", survey, "--format", "mermaid", "--locale", "en"] + plugins,
            [
                "lint", survey, "--format", "json", "--warnings-as-errors", "--disable", "missing-translation",
                "--today", "2026-01-01",
            ] + plugins,
            ["simulate", survey, "--respondents", "3", "--profile", path("profile.json"), "--format", "json"] + day
                + plugins,
            ["paths", survey, "--out", path("paths"), "--all", "--max", "2", "--time-limit", "5", "--format", "json"]
                + day + plugins,
            ["coverage", survey, "--answers", path("paths"), "--format", "json", "--locale", "en"] + day + plugins,
            ["import", "surveyjs", path("surveyjs.json"), "--out", path("converted.json"), "--id", "x", "--strict"]
                + plugins,
            [
                "responses", "list", "--store", store, "--survey", "onboarding", "--respondent", "r", "--status", "all",
                "--since", "2026-01-01", "--until", "2100-01-01", "--survey-version", "1", "--locale", "en",
                "--limit", "5", "--format", "jsonl",
            ] + plugins,
            ["responses", "export", survey, "--store", store, "--format", "csv", "--out", path("export.csv")],
            ["responses", "funnel", survey, "--store", store, "--format", "json"],
            ["responses", "delete", "--store", store, "--respondent", "t"],
            [
                "report", survey, "--store", store, "--format", "csv", "--out", path("report.csv"), "--since",
                "2026-01-01", "--until", "2100-01-01", "--survey-version", "1", "--locale", "en", "--status", "all",
                "--bom",
            ] + plugins,
            ["report", survey, "--store", store, "--format", "json"],
            ["deliver", "--store", store, "--status"],
            [
                "deliver", "--store", store, "--delivery", path("delivery.json"), "--retry-failed", "--wait", "0",
                "--concurrency", "2", "--survey", survey,
            ],
        ]
        // serve reads every option before it checks --listen, so a wrong address ends it before it listens.
        let serve = [
            "serve", survey, "--listen", "nowhere", "--threads", "2", "--store", store, "--data-shape", "engine",
        ]
        for arguments in runs + [serve + plugins] { try Self.expectNoMisread(arguments) }
    }
}

import Foundation
import Testing

/// `survey lint` and `survey graph`, end to end on the built binary.
@Suite("survey lint and survey graph")
struct LintCommandTests {
    static let broken = "Tests/Fixtures/lint/broken.json"
    static let deadEnds = "Tests/Fixtures/lint/dead-ends.json"
    static let examples = [
        "Examples/coffee-habits.json", "Examples/exit-poll.json", "Examples/feedback.json",
        "Examples/kitchen-sink.json", "Examples/onboarding.json",
    ]

    @Test(arguments: ["lint", "graph"])
    func hasHelp(command: String) throws {
        let result = try SurveyBinary.run([command, "--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("Usage: survey \(command)"))
    }

    @Test func everyExampleLintsClean() throws {
        let result = try SurveyBinary.run(["lint", "--warnings-as-errors"] + Self.examples)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "5 files linted: 0 errors, 0 warnings, 0 info\n")
    }

    @Test func textOutputMatchesGoldenFile() throws {
        let result = try SurveyBinary.run(["lint", Self.broken, Self.deadEnds])
        #expect(result.status == 1)
        let golden = try Fixtures.text("golden/lint-broken.txt")
        #expect(result.stdout == golden, "\(result.stdout)")
        #expect(result.stderr.hasPrefix("2 files linted: "))
    }

    @Test func everyFindingHasFileLineColumnSeverityAndRule() throws {
        let result = try SurveyBinary.run(["lint", Self.broken])
        let lines = result.stdout.split(separator: "\n")
        #expect(!lines.isEmpty)
        for line in lines {
            #expect(
                line.wholeMatch(
                    of: /Tests\/Fixtures\/lint\/broken\.json:\d+:\d+: (error|warning|info): .+ \[[a-z-]+\].*/)
                    != nil, "\(line)")
        }
    }

    @Test func jsonOutput() throws {
        let result = try SurveyBinary.run(["lint", Self.broken, "--format", "json"])
        #expect(result.status == 1)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let findings = try #require(object["findings"] as? [[String: Any]])
        let typo = try #require(findings.first { ($0["message"] as? String)?.contains("'gren'") == true })
        #expect(typo["rule"] as? String == "unknown-choice-value")
        #expect(typo["severity"] as? String == "error")
        #expect(typo["file"] as? String == Self.broken)
        #expect(typo["line"] as? Int == 8)
        #expect(typo["stepId"] as? String == "color")
        #expect(typo["path"] as? String == "$.steps[0].branches[1].if")
        let summary = try #require(object["summary"] as? [String: Any])
        #expect((summary["errors"] as? Int ?? 0) > 0)
    }

    @Test func sarifOutput() throws {
        let result = try SurveyBinary.run(["lint", Self.broken, "--format", "sarif"])
        #expect(result.status == 1)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["version"] as? String == "2.1.0")
        let run = try #require((object["runs"] as? [[String: Any]])?.first)
        let driver = try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
        let rules = try #require(driver["rules"] as? [[String: Any]])
        #expect(rules.compactMap { $0["id"] as? String }.contains("dead-end"))
        let results = try #require(run["results"] as? [[String: Any]])
        #expect(!results.isEmpty)
        for result in results {
            #expect(["error", "warning", "note"].contains(result["level"] as? String ?? ""))
            let location = try #require((result["locations"] as? [[String: Any]])?.first)
            let physical = try #require(location["physicalLocation"] as? [String: Any])
            #expect((physical["artifactLocation"] as? [String: Any])?["uri"] as? String == Self.broken)
            #expect(((physical["region"] as? [String: Any])?["startLine"] as? Int ?? 0) > 0)
            let index = try #require(result["ruleIndex"] as? Int)
            #expect(rules[index]["id"] as? String == result["ruleId"] as? String)
        }
    }

    @Test func warningsAsErrorsAndDisabledRules() throws {
        let directory = try Fixtures.temporaryDirectory()
        let file = directory.appendingPathComponent("warn.json")
        try Data(
            #"{"formatVersion": 1, "id": "w", "title": "W", "calculatedValues": [{"name": "x", "expression": "1"}], "steps": [{"id": "q", "type": "text"}]}"#
                .utf8
        ).write(to: file)
        #expect(try SurveyBinary.run(["lint", file.path]).status == 0)
        let strict = try SurveyBinary.run(["lint", file.path, "--warnings-as-errors"])
        #expect(strict.status == 1)
        #expect(strict.stdout.contains("[unused-calculated-value]"))
        let disabled = try SurveyBinary.run([
            "lint", file.path, "--warnings-as-errors", "--disable", "unused-calculated-value",
        ])
        #expect(disabled.status == 0, "\(disabled.stdout)")
        let unknown = try SurveyBinary.run(["lint", file.path, "--disable", "unused-calculated"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("did you mean 'unused-calculated-value'"))
        #expect(try SurveyBinary.run(["lint", file.path, "--format", "xml"]).status == 2)
    }

    @Test func invalidSurveysAreReportedLikeValidate() throws {
        let directory = try Fixtures.temporaryDirectory()
        try Data("{\"formatVersion\": 1, \"id\": \"x\",\n  \"title\": \"x\" \"steps\": []}\n".utf8).write(
            to: directory.appendingPathComponent("syntax.json"))
        let result = try SurveyBinary.run(["lint", "syntax.json", "missing.json"], directory: directory)
        #expect(result.status == 1)
        #expect(result.stdout.contains("syntax.json:2:16: error: invalid JSON"))
        #expect(result.stdout.contains("[invalid-survey]"))
        #expect(result.stdout.contains("missing.json: cannot read the file"))
    }

    @Test func pluginsAreLoadedForLint() throws {
        let plugins = ["libHealthFunctions.so", "libColorPicker.so", "libCStarPlugin.so"].flatMap {
            ["--plugin", SurveyBinary.buildDirectory.appendingPathComponent($0).path]
        }
        let result = try SurveyBinary.run(["lint", "Plugins/Examples/health-check.json"] + plugins)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    }

    @Test func graphDotMatchesGoldenFile() throws {
        let result = try SurveyBinary.run(["graph", "Examples/onboarding.json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == (try Fixtures.text("golden/onboarding.dot")))
    }

    @Test func graphMarksUnreachableStepsAndSpeaksMermaid() throws {
        let dot = try SurveyBinary.run(["graph", Self.deadEnds, "--format", "dot"])
        #expect(dot.status == 0)
        #expect(dot.stdout.contains("UNREACHABLE"))
        #expect(dot.stdout.contains("color=red"))
        let mermaid = try SurveyBinary.run(["graph", Self.deadEnds, "--format", "mermaid"])
        #expect(mermaid.status == 0)
        #expect(mermaid.stdout.hasPrefix("flowchart TD\n"))
        #expect(mermaid.stdout.contains("class "))
        #expect(mermaid.stdout.contains(" unreachable\n"))
        #expect(try SurveyBinary.run(["graph", Self.deadEnds, "--format", "png"]).status == 2)
    }
}

import Foundation
import SurveyTestFixtures
import Testing

/// `survey plugin check` through the built binary: exit codes, the text and JSON reports, `--survey`.
/// (Each rule against its fixture is in SurveyPluginLoaderTests' PluginCheckerTests.)
@Suite("survey plugin check")
struct PluginCheckTests {
    static func fixture(_ name: String) -> String {
        BrokenPlugins.library(name, repositoryRoot: PluginTests.root.path)
    }

    @Test func anExamplePluginPassesWithStatusZero() throws {
        let result = try PluginNewTests.run(
            "survey", ["plugin", "check", PluginTests.library("ColorPicker"), "--survey", PluginTests.survey],
            in: PluginTests.root)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("1 kind, 1 function, "))
        #expect(result.stderr.hasSuffix(" calls: passed\n"))
    }

    @Test func aBrokenPluginFailsWithStatusOneAndItsRuleInTextAndJSON() throws {
        let path = Self.fixture("CheckResultShape")
        let text = try PluginNewTests.run("survey", ["plugin", "check", path])
        #expect(text.status == 1)
        #expect(
            text.stdout.hasPrefix(
                "\(path): error: kind 'shapeless', normalize: expected an object with 'ok' or 'error'"))
        #expect(text.stdout.hasSuffix(" [result-shape]\n"))
        #expect(text.stderr.contains("1 problem"))

        let json = try PluginNewTests.run("survey", ["plugin", "check", path, "--format", "json"])
        #expect(json.status == 1)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(report["passed"] as? Bool == false)
        let findings = try #require(report["findings"] as? [[String: Any]])
        #expect(findings.map { $0["rule"] as? String } == ["result-shape"])
        #expect(findings.first?["subject"] as? String == "kind 'shapeless'")
    }

    @Test func theSARIFReportNamesTheRuleThePluginAndTheCallback() throws {
        let path = Self.fixture("CheckNotIdempotent")
        let result = try PluginNewTests.run("survey", ["plugin", "check", path, "--format", "sarif"])
        #expect(result.status == 1)
        let sarif = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(sarif["version"] as? String == "2.1.0")
        let run = try #require((sarif["runs"] as? [[String: Any]])?.first)
        let driver = (run["tool"] as? [String: Any])?["driver"] as? [String: Any]
        #expect((driver?["rules"] as? [[String: Any]])?.count == 14)
        let results = try #require(run["results"] as? [[String: Any]])
        #expect(results.map { $0["ruleId"] as? String } == ["not-idempotent"])
        let location = try #require((results.first?["locations"] as? [[String: Any]])?.first)
        let artifact = (location["physicalLocation"] as? [String: Any])?["artifactLocation"] as? [String: Any]
        #expect(artifact?["uri"] as? String == path)
        #expect(
            (location["logicalLocations"] as? [[String: Any]])?.first?["name"] as? String == "kind 'exclaim', normalize"
        )
    }

    @Test func aPluginThatHangsIsStoppedAfterTheTimeout() throws {
        let started = Date()
        let result = try PluginNewTests.run(
            "survey", ["plugin", "check", Self.fixture("CheckTimeout"), "--timeout", "0.5"], timeout: 60)
        #expect(result.status == 1)
        #expect(result.stdout.contains("normalize did not answer within 0.5 s"))
        #expect(result.stdout.contains("[timeout]"))
        #expect(Date().timeIntervalSince(started) < 30)
    }

    @Test func wrongUsageExitsTwo() throws {
        for arguments in [
            ["plugin", "check"], ["plugin", "check", "x.so", "--format", "xml"],
            ["plugin", "check", "x.so", "--timeout", "0"], ["plugin", "check", "a.so", "b.so"],
        ] {
            let result = try PluginNewTests.run("survey", arguments)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
        }
        let missing = try PluginNewTests.run("survey", ["plugin", "check", "/nonexistent/libx.so"])
        #expect(missing.status == 1)
        #expect(missing.stdout.contains("plugin file not found [not-a-plugin]"))
        let help = try PluginNewTests.run("survey", ["plugin", "check", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("Rules: not-a-plugin, missing-entry-symbol"))
    }
}

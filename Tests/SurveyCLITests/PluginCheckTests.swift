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
            ["plugin", "check"], ["plugin", "check", "x.so", "--format", "sarif"],
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

import Foundation
import SurveyCore
import SurveyPluginLoader
import SurveyTestFixtures
import Testing

/// The plugin conformance checker (`survey plugin check`): each deliberately broken fixture of
/// `Tests/PluginFixtures` is caught by exactly the rule meant for it, and the example plugins pass.
@Suite("Plugin checker")
struct PluginCheckerTests {
    static let host = PluginFixtures.binDirectory + "/survey"

    static func check(_ path: String, options: [String: [JSONValue]] = [:]) -> PluginCheckReport {
        PluginChecker(isolation: PluginIsolation(executable: host, timeout: 1), options: options).check(path: path)
    }

    static func fixture(_ name: String) -> String {
        BrokenPlugins.library(name, repositoryRoot: PluginFixtures.repositoryRoot)
    }

    @Test(arguments: [
        ("CheckLeak", PluginRule.leak), ("CheckNondeterministic", .nondeterministic),
        ("CheckNotIdempotent", .notIdempotent), ("CheckTimeout", .timeout),
        ("CheckErrorWithoutMessage", .errorWithoutMessage), ("CheckResultShape", .resultShape),
        ("CheckNullResult", .nullResult), ("CheckCrash", .crash), ("CheckMissingNormalize", .invalidDescriptor),
        ("BrokenInvalidJSON", .invalidJSON), ("BrokenABIVersion", .abiVersion), ("BrokenStructSize", .structSize),
        ("BrokenNoEntry", .missingEntrySymbol), ("BrokenCrashing", .crash),
    ])
    func eachBrokenFixtureIsCaughtByItsRule(fixture: String, rule: PluginRule) {
        let report = Self.check(Self.fixture(fixture))
        #expect(!report.passes)
        #expect(Set(report.findings.map(\.rule)) == [rule], "\(report.text)")
    }

    @Test func everyRuleHasAFixture() {
        let covered: Set<PluginRule> = [
            .leak, .nondeterministic, .notIdempotent, .timeout, .errorWithoutMessage, .resultShape, .nullResult,
            .crash, .invalidDescriptor, .invalidJSON, .abiVersion, .structSize, .missingEntrySymbol, .notAPlugin,
        ]
        #expect(covered == Set(PluginRule.allCases))
    }

    @Test func aFileThatIsNoLibraryIsNotAPlugin() throws {
        let directory = try PluginFixtures.temporaryDirectory()
        let path = directory + "/libtext.so"
        try "not a library".write(toFile: path, atomically: true, encoding: .utf8)
        let report = Self.check(path)
        #expect(report.findings.map(\.rule) == [.notAPlugin])
        #expect(report.findings.first?.message.contains("not a loadable shared library") == true)
    }

    @Test(arguments: ["CStarPlugin", "HealthFunctions", "ColorPicker"])
    func theExamplePluginsPass(name: String) {
        let report = Self.check(PluginFixtures.library(name))
        #expect(report.passes, "\(report.text)")
        #expect(report.calls > 100)
        #expect(report.kinds.count + report.functions.count > 0)
    }

    /// A plugin that refuses wrong answers with a message, and whose check_options refuses some options, conforms.
    @Test func refusingEveryAnswerWithAMessageConforms() {
        let report = Self.check(Self.fixture("BrokenFailingNormalize"), options: ["always-fails": [["reject": true]]])
        #expect(report.passes, "\(report.text)")
        #expect(report.kinds == ["always-fails"])
    }

    @Test func aCrashNamesTheKindTheCallbackAndTheInputAndTheCheckGoesOn() throws {
        let report = Self.check(Self.fixture("BrokenCrashing"))
        let crash = try #require(report.findings.first)
        #expect(crash.subject == "function 'double_or_crash'")
        #expect(crash.callback == "call")
        #expect(crash.message.contains("crashed (signal 11"))
        #expect(crash.input == "[-1]")
        // The kind declared before the function was checked, and the calls after the crash were made.
        #expect(report.kinds == ["crashy"])
        #expect(report.functions == ["double_or_crash"])
    }

    @Test func theReportReadsAsTextAndAsJSON() throws {
        let path = Self.fixture("CheckNullResult")
        let report = Self.check(path)
        #expect(
            report.text
                == "\(path): error: kind 'nothing', normalize: normalize returned no result (NULL) (input: 0) (4 inputs) [null-result]\n"
        )
        // The example line of docs/plugin-abi.md, "Check a plugin", is this report.
        let guide = try String(contentsOfFile: PluginFixtures.repositoryRoot + "/docs/plugin-abi.md", encoding: .utf8)
        let line = report.text.replacingOccurrences(of: path, with: "libCheckNullResult.so")
        #expect(guide.contains("```\n" + line + "```\n"))
        let finding = try #require(report.json["findings"]?.arrayValue?.first)
        #expect(finding["rule"] == "null-result")
        #expect(finding["subject"] == "kind 'nothing'")
        #expect(finding["callback"] == "normalize")
        #expect(finding["input"] == "0")
        #expect(finding["occurrences"] == 4)
        #expect(report.json["passed"] == false)
    }
}

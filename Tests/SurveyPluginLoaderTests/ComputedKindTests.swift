import Foundation
import SurveyCore
import SurveyPluginLoader
import Testing

/// ABI 1.2's `computed_expression`: a computed (read-only, expression-like) plugin kind
/// (`Tests/PluginFixtures/ComputedV12`), while plugins built against the 1.1 header (kept verbatim
/// in `Tests/PluginFixtures/LegacyV11`) and the 1.0 header still load.
@Suite struct ComputedKindTests {
    static let computedSource = PluginFixtures.repositoryRoot + "/Tests/PluginFixtures/ComputedV12/computed_plugin.c"
    static let header11 = PluginFixtures.repositoryRoot + "/Tests/PluginFixtures/LegacyV11"

    static func computedLibrary() throws -> String {
        let directory = try PluginFixtures.temporaryDirectory()
        let source = try String(contentsOfFile: Self.computedSource, encoding: .utf8)
        return try PluginFixtures.compile(source, name: "libcomputed", in: directory)
    }

    @Test func aComputedKindsQuestionTakesTheExpressionItsPluginReturns() throws {
        let library = try Self.computedLibrary()
        for loader in [PluginLoader(), PluginLoader(isolation: PluginIsolation(executable: IsolationTests.host))] {
            let plugin = try #require(try loader.load(paths: [library], environment: [:]).first)
            #expect(plugin.abiMinor == 2)
            let type = try #require(plugin.questionTypes.first)
            #expect(try PluginFixtures.configure(type, ["of": "weight"]).computedValue == "{weight} * 2")
            // The plugin's error, at its path under the question's options.
            let error = PluginFixtures.error { () throws(SurveyError) in _ = try PluginFixtures.configure(type, [:]) }
            #expect(error?.message == "'of' names the question to double")
            #expect(error?.path?.description == "$.steps[0].options.of")
        }
    }

    /// `survey plugin check` calls computed_expression with each option set: the fixture passes; a
    /// plugin returning something else than an expression breaks `result-shape`.
    @Test func theCheckerCallsComputedExpression() throws {
        let library = try Self.computedLibrary()
        let report = PluginCheckerTests.check(library, options: ["doubled": [["of": "a"]]])
        #expect(report.passes, "\(report.text)")
        let directory = try PluginFixtures.temporaryDirectory()
        let source = try String(contentsOfFile: Self.computedSource, encoding: .utf8)
            .replacingOccurrences(
                of: #"strcpy(result, "{\"ok\":\"{");"#, with: #"strcpy(result, "{\"ok\":3, \"x\":\"{");"#)
        #expect(source.contains(#"{\"ok\":3"#))
        let broken = try PluginFixtures.compile(source, name: "libnotanexpression", in: directory)
        let refused = PluginCheckerTests.check(broken, options: ["doubled": [["of": "a"]]])
        #expect(refused.findings.map(\.rule) == [.resultShape], "\(refused.text)")
        #expect(refused.findings.first?.callback == "computed_expression")
    }

    @Test func aPluginBuiltAgainstThe11HeaderStillLoadsAndIsNotComputed() throws {
        let directory = try PluginFixtures.temporaryDirectory()
        let library = try PluginFixtures.compile(
            ABICompatibilityTests.modernPlugin, name: "modern11", in: directory, includeDirectory: Self.header11)
        let plugin = try PluginLoader().load(path: library)
        #expect(plugin.abiMinor == 1)
        let question = try PluginFixtures.configure(try #require(plugin.questionTypes.first), ["size": 3])
        #expect(question.computedValue == nil)
        let french = PresentationContext(locale: "fr", defaultLocale: "en")
        let error = PluginFixtures.error { () throws(AnswerError) in _ = try question.normalize("x", in: french) }
        #expect(error?.message == "Réponse refusée (taille 3).")
    }
}

import Foundation
import SurveyAnalysis
import SurveyCore
import Testing

/// Every bundled example lints clean: no error, no warning.
@Suite("Examples lint clean")
struct ExamplesLintTests {
    static let examples: [String] = {
        let directory = repositoryRoot.appendingPathComponent("Examples")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted()
    }()

    @Test func thereAreExamples() {
        #expect(Self.examples.count >= 5)
    }

    @Test(arguments: examples)
    func exampleLintsClean(name: String) throws {
        let text = try String(contentsOf: repositoryRoot.appendingPathComponent("Examples/" + name), encoding: .utf8)
        let found = try lint(text)
        #expect(found.isEmpty, "\(listing(found))")
    }
}

import Foundation
import SurveyAnalysis
import SurveyCore
import Testing

/// The examples of docs/lint.md: each rule's survey produces a finding of that rule, and the output
/// shown under it is the linter's.
@Suite("docs/lint.md")
struct DocumentationTests {
    struct Example: Sendable, CustomStringConvertible {
        var rule: String
        var survey: String
        var output: [String]
        var description: String { rule }
    }

    static let examples: [Example] = {
        let text =
            (try? String(contentsOf: repositoryRoot.appendingPathComponent("docs/lint.md"), encoding: .utf8)) ?? ""
        var result: [Example] = []
        let sections = text.components(separatedBy: "\n### ").dropFirst()
        for fullSection in sections {
            let section = fullSection.components(separatedBy: "\n## ").first ?? fullSection
            let rule = String(section.prefix { $0 != "\n" })
            let blocks = section.components(separatedBy: "```")
            // Odd pieces are code blocks: "json\n…" or "text\n…".
            var survey: String?
            var output: [String] = []
            for (index, block) in blocks.enumerated() where index % 2 == 1 {
                if block.hasPrefix("json\n"), survey == nil { survey = String(block.dropFirst(5)) }
                if block.hasPrefix("text\n") {
                    output += block.dropFirst(5).split(separator: "\n").map(String.init)
                }
            }
            if let survey { result.append(Example(rule: rule, survey: survey, output: output)) }
        }
        return result
    }()

    @Test func everyRuleHasAnExample() {
        let documented = Set(Self.examples.map(\.rule))
        for rule in LintRule.allCases where rule != .invalidSurvey {
            #expect(documented.contains(rule.id), "docs/lint.md has no example for \(rule.id)")
        }
    }

    @Test(arguments: examples)
    func exampleProducesItsRule(example: Example) throws {
        let found = try lint(example.survey)
        #expect(found.contains { $0.rule.id == example.rule }, "\(listing(found))")
        for line in example.output {
            #expect(found.contains { $0.description.contains(line) }, "not found: \(line)\n\(listing(found))")
        }
    }
}

import Foundation
import SurveyAnalysis
import SurveyCore
import Testing

@Suite("LintReport")
struct LintReportTests {
    static let findings = [
        LintFinding(
            rule: .deadEnd, severity: .error, message: "stuck", stepID: "q",
            path: JSONPath([.key("steps"), .index(1)]),
            position: SourcePosition(line: 3, column: 5), file: "my survey.json"),
        LintFinding(rule: .unreachableStep, severity: .info, message: "not decided", file: "/tmp/s.json"),
    ]

    @Test func textAndSummary() {
        let report = LintReport(findings: Self.findings)
        #expect(
            report.rendered(as: .text)
                == "my survey.json:3:5: error: stuck [dead-end] (step 'q')\n/tmp/s.json: info: not decided [unreachable-step]\n"
        )
        #expect(report.summary == "1 error, 0 warnings, 1 info")
        #expect(report.fails(warningsAsErrors: false))
        #expect(!LintReport(findings: [Self.findings[1]]).fails(warningsAsErrors: true))
    }

    @Test func sarif() throws {
        let text = LintReport(findings: Self.findings).rendered(as: .sarif)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["version"] as? String == "2.1.0")
        let run = try #require((object["runs"] as? [[String: Any]])?.first)
        let results = try #require(run["results"] as? [[String: Any]])
        #expect(results.map { $0["level"] as? String } == ["error", "note"])
        let uris = results.compactMap {
            ((($0["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])?["artifactLocation"]
                as? [String: Any])?["uri"] as? String
        }
        #expect(uris == ["my%20survey.json", "file:///tmp/s.json"])
    }

    @Test func json() throws {
        let text = LintReport(findings: Self.findings).rendered(as: .json)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let first = try #require((object["findings"] as? [[String: Any]])?.first)
        #expect(first["rule"] as? String == "dead-end")
        #expect(first["line"] as? Int == 3)
        #expect(first["path"] as? String == "$.steps[1]")
    }
}

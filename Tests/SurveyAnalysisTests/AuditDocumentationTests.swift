import Foundation
import SurveyAnalysis
import SurveyBuiltins
import SurveyCore
import SurveyImport
import Testing

/// The Swift example of docs/audit.md runs, as written there.
@Suite("docs/audit.md")
struct AuditDocumentationTests {
    /// The server example of docs/audit.md, as written there (between the markers), on the document's survey.
    @Test func theServerExampleOfTheDocumentation() throws {
        let doc = try String(contentsOf: repositoryRoot.appendingPathComponent("docs/audit.md"), encoding: .utf8)
        let blocks = doc.components(separatedBy: "```")
        let surveyText = try #require(blocks.first { $0.hasPrefix("json\n") }).dropFirst(5).description
        // docs/audit.md begin
        let survey = try SurveySource(loader: SurveyLoader(registry: .builtins())).load(surveyText, file: "signup.json")
        let audit = ResponseAudit(survey: survey, today: "2026-12-07")

        /// What a POST handler answers: 422 with the problems, or 200 and the cleaned response to store.
        func check(_ body: String) -> (status: Int, body: JSONValue) {
            guard let response = try? JSONParser.parse(body) else { return (400, "not JSON") }
            let report = audit.audit(response: response)
            guard report.isClean else { return (422, .array(report.problems.map(\.jsonValue))) }
            return (200, .object(report.cleaned))
        }
        // docs/audit.md end
        let source = try String(contentsOfFile: #filePath, encoding: .utf8)
        let marked = source.components(separatedBy: "// docs/audit.md begin\n")[1]
            .components(separatedBy: "        // docs/audit.md end")[0]
        let unindented = marked.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix("        ") ? String($0.dropFirst(8)) : String($0) }.joined(separator: "\n")
        let swiftBlock = try #require(blocks.first { $0.hasPrefix("swift\n") }).dropFirst(6).description
        #expect(unindented == swiftBlock, "docs/audit.md's Swift example is this test's code")

        #expect(check("not json").status == 400)
        let clean = check(#"{"consent": "yes", "age": 20, "plan": "basic", "double": 40, "name": "Ann"}"#)
        #expect(clean.status == 200)
        #expect(clean.body["name"] == "Ann")
        let tampered = check(
            #"{"consent": "yes", "age": 20, "pets": ["dog"], "plan": "basic", "double": 40, "name": "A"}"#)
        #expect(tampered.status == 422)
        #expect(tampered.body.arrayValue?.first?["code"] == "hidden-answer")
    }
}

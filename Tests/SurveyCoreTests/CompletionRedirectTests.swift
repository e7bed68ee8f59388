import Foundation
import SurveyBuiltins
import SurveyCore
import Testing

/// Where a respondent who completes goes next (`completionRedirects`, docs/rules.md).
@Suite struct CompletionRedirectTests {
    static func documentedSurvey() throws -> Survey {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        let page = try String(contentsOf: url.appendingPathComponent("docs/rules.md"), encoding: .utf8)
        let start = try #require(page.range(of: "<!-- completion-redirects-example:begin -->\n```json\n"))
        let end = try #require(page.range(of: "```\n<!-- completion-redirects-example:end -->"))
        return try SurveyLoader(registry: .builtins()).load(
            text: String(page[start.upperBound..<end.lowerBound]), source: "docs/rules.md")
    }

    @Test(arguments: [
        ("pro", "https://shop.example.com/pay?plan=pro"), ("free", "https://app.example.com/welcome"),
    ])
    func theFirstAddressWhoseConditionHoldsIsPiped(_ plan: String, _ address: String) throws {
        var session = SurveySession(survey: try Self.documentedSurvey())
        try session.answer(.string(plan), for: "plan")
        guard case .completed(let result) = session.next() else {
            Issue.record("did not complete")
            return
        }
        #expect(result.redirect == address)
        #expect(result.jsonValue["redirect"] == .string(address))
    }

    @Test func itIsWrittenBackAndAnEntryWithoutAnAddressIsALoadError() throws {
        let written = try Self.documentedSurvey().definition.jsonValue
        #expect(written["completionRedirects"]?.arrayValue?.count == 2)
        let text = #"""
            {"formatVersion": 1, "id": "s", "title": "S", "steps": [{"id": "a", "type": "text", "title": "A"}],
             "completionRedirects": [{"if": "{a} = 'x'"}]}
            """#
        do {
            _ = try SurveyLoader(registry: .builtins()).load(text: text)
            Issue.record("a redirect without a url loaded")
        } catch {
            #expect("\(error)".contains("a completion redirect needs a 'url'"), "\(error)")
        }
        let plain = try SurveyLoader(registry: .builtins()).load(
            text:
                #"{"formatVersion": 1, "id": "s", "title": "S", "steps": [{"id": "a", "type": "text", "title": "A"}]}"#)
        var session = SurveySession(survey: plain)
        guard case .completed(let result) = session.next() else {
            Issue.record("did not complete")
            return
        }
        #expect(result.redirect == nil && result.jsonValue["redirect"] == nil)
    }
}

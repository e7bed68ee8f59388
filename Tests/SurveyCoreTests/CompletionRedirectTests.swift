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

    @Test func aQuotaThatEndsTheSurveyGivesItsMessageAndNoRedirect() throws {
        let survey = try SurveyLoader(registry: .builtins()).load(
            text: #"""
                {"formatVersion": 1, "id": "s", "title": "S",
                 "steps": [{"id": "age", "type": "text", "title": "Age group"}, {"id": "why", "type": "text", "title": "Why?"}],
                 "quotas": [{"id": "young", "when": "{age} = 'young'", "limit": 1, "message": "We have enough answers like yours."}],
                 "completionRedirects": [{"url": "https://panel.example.com/complete"}]}
                """#)
        var session = SurveySession(survey: survey)
        session.fullQuotas = ["young"]
        try session.answer("young", for: "age")
        guard case .completed(let ended) = session.next() else {
            Issue.record("the full quota did not end the survey")
            return
        }
        #expect(ended.quota?.quotaID == "young")
        #expect(ended.message == "We have enough answers like yours.")
        #expect(ended.redirect == nil && ended.jsonValue["redirect"] == nil)
        // Whoever the quota does not concern completes and goes on to the address.
        var other = SurveySession(survey: survey)
        other.fullQuotas = ["young"]
        try other.answer("old", for: "age")
        other.next()
        guard case .completed(let completed) = other.next() else {
            Issue.record("did not complete")
            return
        }
        #expect(completed.quota == nil && completed.redirect == "https://panel.example.com/complete")
    }
}

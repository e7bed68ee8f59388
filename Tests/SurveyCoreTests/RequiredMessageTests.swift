import Foundation
import SurveyBuiltins
import SurveyCore
import Testing

/// A question's own message for a required answer left out (`requiredMessage`, docs/rules.md).
@Suite struct RequiredMessageTests {
    static func documentedSurvey() throws -> Survey {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        let page = try String(contentsOf: url.appendingPathComponent("docs/rules.md"), encoding: .utf8)
        let start = try #require(page.range(of: "<!-- required-message-example:begin -->\n```json\n"))
        let end = try #require(page.range(of: "```\n<!-- required-message-example:end -->"))
        return try SurveyLoader(registry: .builtins()).load(
            text: String(page[start.upperBound..<end.lowerBound]), source: "docs/rules.md")
    }

    @Test(arguments: [("en", "Who is Ana bringing?"), ("fr", "Qui Ana amène-t-il ?")])
    func theDocumentedMessageIsPipedInTheRespondentsLanguage(_ locale: String, _ message: String) throws {
        var session = SurveySession(survey: try Self.documentedSurvey(), locale: locale)
        try session.answer("Ana", for: "host")
        #expect(session.next() == .moved(to: "guest"))
        guard case .blocked(let errors) = session.next() else {
            Issue.record("an unanswered required question was let through")
            return
        }
        #expect(errors.map(\.stepID) == ["guest"])
        #expect(errors.first?.error.code == "required")
        #expect(errors.first?.message == message)
        #expect(errors.first?.error.message == message)
    }

    @Test func aQuestionWithoutOneKeepsTheBuiltInMessage() throws {
        let survey = try SurveyLoader(registry: .builtins()).load(
            text:
                #"{"formatVersion": 1, "id": "s", "title": "S", "steps": [{"id": "a", "type": "text", "title": "A", "required": true}]}"#
        )
        var session = SurveySession(survey: survey, locale: "en")
        guard case .blocked(let errors) = session.next() else {
            Issue.record("an unanswered required question was let through")
            return
        }
        #expect(errors.first?.message == "Please answer this question.")
    }

    @Test func itIsWrittenBackAndRefusedOnPagesAndPanels() throws {
        let survey = try Self.documentedSurvey()
        let written = survey.definition.jsonValue
        let guest = try #require(written["steps"]?.arrayValue?.last)
        #expect(guest["requiredMessage"]?["en"] == "Who is {host} bringing?")
        for (steps, message) in [
            (
                #"[{"id": "p", "type": "page", "requiredMessage": "No", "steps": [{"id": "a", "type": "text", "title": "A"}]}]"#,
                "pages cannot have 'requiredMessage'"
            ),
            (
                #"[{"id": "p", "type": "page", "steps": [{"id": "g", "type": "panel", "requiredMessage": "No", "steps": [{"id": "a", "type": "text", "title": "A"}]}]}]"#,
                "panels do not have 'requiredMessage'"
            ),
        ] {
            let text = #"{"formatVersion": 1, "id": "s", "title": "S", "steps": "# + steps + "}"
            do {
                _ = try SurveyLoader(registry: .builtins()).load(text: text)
                Issue.record("loaded with \(message)")
            } catch {
                #expect("\(error)".contains(message), "\(error)")
            }
        }
    }
}

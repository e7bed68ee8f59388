import Foundation
import SurveyBuiltins
import SurveyCore
import SurveyRendering
import Testing

/// The example of docs/choices.md offers its items as the page says.
@Suite struct ChoicesDocumentationTests {
    static let example: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        let text = (try? String(contentsOf: url.appendingPathComponent("docs/choices.md"), encoding: .utf8)) ?? ""
        return text.components(separatedBy: "```json\n").dropFirst().first?.components(separatedBy: "```").first ?? ""
    }()

    static func survey() throws -> Survey {
        try SurveyLoader(registry: .builtins()).load(
            text: """
                {"formatVersion": 1, "id": "choices", "title": "Choices", "steps": [
                  {"id": "sex", "type": "single-choice", "options": {"choices": ["female", "male"]}},
                  \(example)]}
                """)
    }

    @Test func theItemsComeInTheDocumentedOrder() throws {
        var session = SurveySession(survey: try Self.survey(), locale: "fr")
        try session.answer("male", for: "sex")
        session.next()
        let input = try #require(session.currentStep?.questions.first?.input.choiceInput)
        #expect(input.selectAllLabel == "Tout sélectionner")
        #expect(input.choices.map(\.value) == ["fitness", "sleep", "none", "other"])
        #expect(input.choices[2].label == "Rien pour l'instant")
        #expect(input.selectAllValues == ["fitness", "sleep"])
        #expect(throws: SessionError.self) { try session.answer(["none", "sleep"], for: "goals") }
        try session.answer(["none"], for: "goals")
        guard case .completed(let result) = session.next() else { Issue.record("did not complete"); return }
        #expect(result.answers["goals"] == ["none"])
    }

    @Test func selectAllInTheTerminalPicksTheChoicesShown() throws {
        let (outcome, text) = runText(try Self.survey(), ["1", "0"])
        #expect(
            text.contains("  0) Select all\n  1) fitness\n  2) sleep\n  3) cycle\n  4) Nothing for now\n  5) Other …"))
        #expect(outcome.result?.answers["goals"] == ["fitness", "sleep", "cycle"])
    }
}

import SurveyAnalysis
import SurveyCore
import Testing

@Suite("empty-page")
struct EmptyPageTests {
    @Test func pageWhoseQuestionsAreAllHidden() throws {
        let found = try findings(
            .emptyPage,
            steps: """
                {"id": "kind", "type": "single-choice", "required": true, "options": {"choices": ["a", "b"]}},
                {"id": "p", "type": "page", "steps": [
                  {"id": "x", "type": "text", "visibleIf": "{kind} = 'a' and {kind} = 'b'"},
                  {"id": "y", "type": "text", "visibleIf": "{kind} empty"}
                ]}
                """)
        #expect(found.map(\.stepID) == ["p"], "\(listing(found))")
        #expect(found.first?.severity == .warning)
    }

    @Test func pageWithEverythingSwitchedOffIsInfo() throws {
        let found = try findings(
            .emptyPage,
            steps: """
                {"id": "p", "type": "page", "steps": [{"id": "x", "type": "text", "enabled": false}]},
                {"id": "q", "type": "text"}
                """)
        #expect(found.map(\.severity) == [.info], "\(listing(found))")
    }

    @Test func pageWithAVisibleQuestionIsFine() throws {
        let found = try findings(
            .emptyPage,
            steps: """
                {"id": "kind", "type": "single-choice", "options": {"choices": ["a", "b"]}},
                {"id": "p", "type": "page", "steps": [
                  {"id": "x", "type": "text", "visibleIf": "{kind} = 'a'"},
                  {"id": "y", "type": "text", "visibleIf": "{kind} = 'b'"}
                ]}
                """)
        #expect(found.isEmpty, "\(listing(found))")
    }
}

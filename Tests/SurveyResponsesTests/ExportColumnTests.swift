import SurveyBuiltins
import SurveyCore
import SurveyResponses
import Testing

/// The CSV columns of a survey: its questions in order, a comment box's text after its question.
@Suite struct ExportColumnTests {
    @Test func commentColumnsFollowTheirQuestions() throws {
        let survey = try SurveyLoader(registry: .builtins()).load(
            text: """
                {"formatVersion": 1, "id": "e", "title": "E", "steps": [
                  {"id": "intro", "type": "content", "title": "Hi"},
                  {"id": "p", "type": "page", "steps": [
                    {"id": "a", "type": "rating", "showCommentArea": true},
                    {"id": "g", "type": "panel", "steps": [{"id": "b", "type": "text"}, {"id": "c", "type": "number", "enabled": false}]}
                  ]},
                  {"id": "d", "type": "boolean", "showCommentArea": true}
                ]}
                """)
        #expect(ResponseExport.stepColumns(of: survey) == ["a", "a-Comment", "b", "d", "d-Comment"])
    }
}

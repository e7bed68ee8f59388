import Foundation
import SurveyBuiltins
import SurveyCore
import SurveyResponses
import SurveyTestFixtures

enum Surveys {
    static func load(_ text: String) throws -> Survey {
        try SurveyLoader(registry: .builtins()).load(text: text, source: "test.json")
    }

    /// welcome (content) → rating → wants-contact → [contact if yes] → page "about" (role, other)
    static let branching = """
        {"formatVersion": 1, "id": "branching", "version": "2", "title": "Branching",
         "steps": [
           {"id": "welcome", "type": "content", "title": "Hello"},
           {"id": "rating", "type": "rating", "title": "Rate us", "required": true, "options": {"stars": 5}},
           {"id": "wants-contact", "type": "boolean", "title": "Contact you?", "required": true},
           {"id": "contact", "type": "text", "title": "Your email", "visibleIf": "{wants-contact} = true"},
           {"id": "about", "type": "page", "title": "About you", "steps": [
             {"id": "role", "type": "single-choice", "title": "Role",
              "options": {"choices": ["dev", "pm", "other"]}, "required": true},
             {"id": "notes", "type": "text", "title": "Notes"}
           ]}
         ]}
        """
}

func temporaryStorePath() -> String {
    Scratch.file("survey-test", suffix: ".sqlite").path
}

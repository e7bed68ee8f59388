import SurveyAnalysis
import SurveyCore
import Testing

@Suite("missing-translation")
struct MissingTranslationTests {
    @Test func declaredLocaleMissingFromTitlesAndOptionTexts() throws {
        let found = try findings(
            .missingTranslation,
            steps: """
                {"id": "q", "type": "single-choice", "title": {"en": "Colour?", "fr": "Couleur ?"},
                 "options": {"choices": [{"value": "red", "label": {"en": "Red"}}, "green"]}},
                {"id": "r", "type": "text", "title": {"en": "Why?", "de": "Warum?"}}
                """, extra: #""locales": ["en", "fr", "de"]"#)
        #expect(
            found.map(\.path?.description) == [
                "$.steps[0].title", "$.steps[0].options.choices[0].label", "$.steps[1].title",
            ], "\(listing(found))")
        #expect(found.first?.message.contains("'de'") == true)
    }

    @Test func completeTranslationsPlainTextsAndUndeclaredLocalesAreFine() throws {
        let complete = try findings(
            .missingTranslation,
            steps: #"{"id": "q", "type": "text", "title": {"en": "Why?", "fr": "Pourquoi ?"}, "description": "Brand"}"#,
            extra: #""locales": ["en", "fr"]"#)
        #expect(complete.isEmpty, "\(listing(complete))")
        let undeclared = try findings(
            .missingTranslation, steps: #"{"id": "q", "type": "text", "title": {"en": "Why?"}}"#)
        #expect(undeclared.isEmpty, "\(listing(undeclared))")
    }
}

import Foundation
import SurveyBuiltins
import SurveyCore
import Testing

/// `displayValue('q')`: an answer as the respondent reads it, in their language.
struct DisplayValueTests {
    static let text = """
        {"formatVersion": 1, "id": "d", "title": "D", "defaultLocale": "en",
         "calculatedValues": [
           {"name": "color", "expression": "displayValue('c')"},
           {"name": "picked", "expression": "displayValue('m')"},
           {"name": "flag", "expression": "displayValue('b')"},
           {"name": "given", "expression": "displayValue('c', 'g')"},
           {"name": "typed", "expression": "displayValue('t')"}
         ],
         "steps": [{"id": "p", "type": "page", "steps": [
           {"id": "c", "type": "single-choice", "options": {"choices": [
             {"value": "r", "label": {"en": "Red", "fr": "Rouge"}}, {"value": "g", "label": {"en": "Green", "fr": "Vert"}}],
             "other": true}},
           {"id": "m", "type": "multiple-choice", "options": {"choices": [{"value": 1, "label": "One"}, {"value": 2, "label": "Two"}]}},
           {"id": "b", "type": "boolean"},
           {"id": "t", "type": "text", "title": "{color}"}
         ]}]}
        """

    @Test func readsLabelsInTheRespondentsLanguage() throws {
        let survey = try SurveyLoader(registry: .builtins()).load(text: Self.text)
        var session = SurveySession(survey: survey, locale: "fr")
        #expect(session.calculatedValue("color") == .null)
        #expect(session.calculatedValue("given") == "Vert")
        try session.answer("r", for: "c")
        try session.answer([2, 1], for: "m")
        try session.answer(true, for: "b")
        try session.answer("hello", for: "t")
        #expect(session.calculatedValue("color") == "Rouge")
        #expect(session.calculatedValue("picked") == "Two, One")
        #expect(session.calculatedValue("flag") == .string(UIStrings(locale: "fr")[.yes]))
        #expect(session.calculatedValue("typed") == "hello")
        // Re-evaluated when the answer changes, like any reference; an Other text reads as typed.
        try session.answer("Purple", for: "c")
        #expect(session.calculatedValue("color") == "Purple")
        #expect(session.currentStep?.questions.last?.title == "Purple")
    }

    @Test func theNameIsCheckedWhenTheSurveyLoads() {
        func message(_ expression: String) -> String? {
            let text = Self.text.replacingOccurrences(of: "displayValue('t')", with: expression)
            do {
                _ = try SurveyLoader(registry: .builtins()).load(text: text)
                return nil
            } catch {
                return error.errors.first?.message
            }
        }
        #expect(message("displayValue('nope')")?.contains("no question or calculated value is called 'nope'") == true)
        #expect(message("displayValue({t})")?.contains("takes the question's name as a quoted string") == true)
    }
}

import SurveyAnalysis
import SurveyCore
import Testing

@Suite("type-mismatch")
struct TypeMismatchTests {
    @Test func ratingComparedWithText() throws {
        let found = try findings(
            .typeMismatch,
            steps: """
                {"id": "stars", "type": "rating", "options": {"stars": 5}},
                {"id": "a", "type": "text", "visibleIf": "{stars} = 'high'"}
                """)
        #expect(found.map(\.stepID) == ["a"], "\(listing(found))")
        #expect(found.first?.severity == .error)
    }

    @Test func yesNoComparedWithYes() throws {
        let found = try findings(
            .typeMismatch,
            steps: """
                {"id": "ok", "type": "boolean"},
                {"id": "a", "type": "text", "visibleIf": "{ok} = 'yes'"}
                """)
        #expect(found.first?.message.contains("{ok} = true") == true, "\(listing(found))")
    }

    /// survey-core 3.0.4 compares true with 1 and false with 0 as numbers (`{ok} = 1` holds for
    /// yes), and no other number.
    @Test func yesNoComparedWithOneOrZeroHoldsAsInSurveyCore() throws {
        let found = try findings(
            .typeMismatch,
            steps: """
                {"id": "ok", "type": "boolean"},
                {"id": "a", "type": "text", "visibleIf": "{ok} = 1"},
                {"id": "b", "type": "text", "visibleIf": "{ok} != 0"},
                {"id": "c", "type": "text", "visibleIf": "{ok} = 2"}
                """)
        #expect(found.map(\.stepID) == ["c"], "\(listing(found))")
    }

    @Test func containsOnASingleValue() throws {
        let found = try findings(
            .typeMismatch,
            steps: """
                {"id": "size", "type": "single-choice", "options": {"choices": ["small", "large"]}},
                {"id": "n", "type": "number"},
                {"id": "a", "type": "text", "visibleIf": "{size} contains 'medium'"},
                {"id": "b", "type": "text", "visibleIf": "{n} contains 3"},
                {"id": "c", "type": "text", "visibleIf": "{size} contains 'l'"}
                """)
        #expect(found.map(\.stepID) == ["a", "b", "c"], "\(listing(found))")
        #expect(found.map(\.severity) == [.error, .error, .warning])
    }

    @Test func listComparedWithOneValue() throws {
        let found = try findings(
            .typeMismatch,
            steps: """
                {"id": "tags", "type": "multiple-choice", "options": {"choices": ["a", "b"]}},
                {"id": "x", "type": "text", "visibleIf": "{tags} = 'a'"},
                {"id": "y", "type": "text", "visibleIf": "{tags} > 1"}
                """)
        #expect(found.map(\.stepID) == ["x", "y"], "\(listing(found))")
    }

    @Test func matchingTypesAreNotReported() throws {
        let found = try findings(
            .typeMismatch,
            steps: """
                {"id": "stars", "type": "rating", "options": {"stars": 5}},
                {"id": "ok", "type": "boolean"},
                {"id": "tags", "type": "multiple-choice", "options": {"choices": ["a", "b"]}},
                {"id": "contact", "type": "contact-form", "options": {"fields": ["email"]}},
                {"id": "a", "type": "text",
                 "visibleIf": "{stars} >= '4' and {ok} = 'true' and {tags} = ['a'] and {contact} contains 'email'"}
                """)
        #expect(found.isEmpty, "\(listing(found))")
    }
}

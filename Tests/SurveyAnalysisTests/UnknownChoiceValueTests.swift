import SurveyAnalysis
import SurveyCore
import Testing

@Suite("unknown-choice-value")
struct UnknownChoiceValueTests {
    static let fruit = """
        {"id": "fruit", "type": "single-choice", "options": {"choices": ["apple", "banana", "cherry"]}}
        """

    @Test func typoGetsADidYouMean() throws {
        let found = try findings(
            .unknownChoiceValue,
            steps: """
                \(Self.fruit),
                {"id": "pie", "type": "text", "visibleIf": "{fruit} = 'aple'"}
                """)
        #expect(found.count == 1, "\(listing(found))")
        #expect(found.first?.severity == .error)
        #expect(found.first?.message.contains("did you mean 'apple'") == true)
        #expect(found.first?.stepID == "pie")
    }

    @Test func valuesInListsAndMultipleChoice() throws {
        let found = try findings(
            .unknownChoiceValue,
            steps: """
                {"id": "tags", "type": "multiple-choice", "options": {"choices": ["red", "green"]}},
                {"id": "a", "type": "text", "visibleIf": "{tags} contains 'blue'"},
                {"id": "b", "type": "text", "visibleIf": "{tags} anyof ['red', 'yellow']"}
                """)
        #expect(found.map(\.stepID) == ["a", "b"], "\(listing(found))")
        // 'yellow' beside a known 'red' is a stale entry: the condition still holds for red (a warning).
        #expect(found.map(\.severity) == [.error, .warning], "\(listing(found))")
    }

    /// A value that is no choice in a negated comparison makes the condition always hold: the step
    /// is shown (survey-core shows it), so it is a warning, not an error about a hidden step.
    @Test func aNegatedComparisonWithAnUnknownValueIsAWarning() throws {
        let found = try findings(
            .unknownChoiceValue,
            steps: """
                {"id": "preq", "type": "single-choice", "options": {"choices": ["Sí", "No"]}},
                {"id": "a", "type": "text", "visibleIf": "{preq} != Yes"},
                {"id": "b", "type": "text", "visibleIf": "{preq} noneof ['Maybe']"},
                {"id": "c", "type": "text", "visibleIf": "{preq} = 'Yes'"}
                """)
        #expect(found.map(\.stepID) == ["a", "b", "c"], "\(listing(found))")
        #expect(found.map(\.severity) == [.warning, .warning, .error], "\(listing(found))")
    }

    /// As in SurveyJS, an Other answer reads 'other' and its text `{q-Comment}`.
    @Test func otherIsTheValueOfAnOtherAnswer() throws {
        let found = try findings(
            .unknownChoiceValue,
            steps: """
                {"id": "heard", "type": "single-choice", "options": {"choices": ["tv", "radio"], "other": true}},
                {"id": "which", "type": "text", "visibleIf": "{heard} = 'other' and {heard-Comment} notempty"},
                {"id": "tools", "type": "multiple-choice", "options": {"choices": ["a", "b"], "other": true}},
                {"id": "more", "type": "text", "visibleIf": "{tools} contains 'other'"}
                """)
        #expect(found.isEmpty, "\(listing(found))")
        let all = try lint(
            surveyJSON(
                """
                {"id": "heard", "type": "single-choice", "options": {"choices": ["tv", "radio"], "other": true}},
                {"id": "which", "type": "text", "visibleIf": "{heard} = 'other' and {heard-Comment} notempty"},
                {"id": "tools", "type": "multiple-choice", "options": {"choices": ["a", "b"], "other": true}},
                {"id": "more", "type": "text", "visibleIf": "{tools} contains 'other'"}
                """))
        #expect(all.isEmpty, "\(listing(all))")
    }

    @Test func aValueThatIsNoChoiceNeverHoldsEvenWithOther() throws {
        let found = try findings(
            .unknownChoiceValue,
            steps: """
                {"id": "heard", "type": "single-choice", "options": {"choices": ["tv", "radio"], "other": true}},
                {"id": "which", "type": "text", "visibleIf": "{heard} = 'podcast'"}
                """)
        #expect(found.map(\.severity) == [.error], "\(listing(found))")
        #expect(found.first?.message.contains("{heard-Comment}") == true, "\(listing(found))")
    }

    @Test func ratingOutOfRangeAndUnknownFormField() throws {
        let found = try findings(
            .unknownChoiceValue,
            steps: """
                {"id": "stars", "type": "rating", "options": {"stars": 5}},
                {"id": "contact", "type": "contact-form", "options": {"fields": ["name", "email"]}},
                {"id": "a", "type": "text", "visibleIf": "{stars} = 6"},
                {"id": "b", "type": "text", "visibleIf": "{contact.emial} notempty or {contact.emial} = 'x'"}
                """)
        #expect(found.map(\.stepID) == ["a", "b"], "\(listing(found))")
        #expect(found.last?.message.contains("did you mean 'email'") == true)
    }

    @Test func knownValuesAreNotReported() throws {
        let found = try findings(
            .unknownChoiceValue,
            steps: """
                \(Self.fruit),
                {"id": "tags", "type": "multiple-choice", "options": {"choices": ["1", "2"], "other": true}},
                {"id": "m", "type": "matrix", "options": {"rows": ["price"], "columns": ["low", "high"]}},
                {"id": "a", "type": "text", "visibleIf": "{fruit} anyof ['apple', 'cherry'] or {tags} contains 1"},
                {"id": "b", "type": "text", "visibleIf": "{m.price} = 'high'"}
                """)
        #expect(found.isEmpty, "\(listing(found))")
    }
}

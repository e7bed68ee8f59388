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
                {"id": "c", "type": "text", "visibleIf": "{preq} = 'Yes'"},
                {"id": "d", "type": "text", "visibleIf": "!({preq} = 'not')"},
                {"id": "e", "type": "text", "visibleIf": "!(!({preq} = 'Maybe'))"}
                """)
        #expect(found.map(\.stepID) == ["a", "b", "c", "d", "e"], "\(listing(found))")
        // `!` around `=` is a negated comparison too; under two `!`s it is not.
        #expect(found.map(\.severity) == [.warning, .warning, .error, .warning, .error], "\(listing(found))")
    }

    /// A value that is no choice as one alternative of an `or` whose other alternatives can hold: the
    /// step is still shown, so a stale alternative is a warning; when no alternative can hold, errors.
    @Test func anUnknownValueBesideAnAlternativeThatHoldsIsAWarning() throws {
        let found = try findings(
            .unknownChoiceValue,
            steps: """
                {"id": "use", "type": "single-choice", "options": {"choices": ["Tap water", "Garden", "Cattle"]}},
                {"id": "a", "type": "text", "visibleIf": "{use} = 'Tap' or {use} = 'Garden' or ({use} = 'Cattle' and {use} notempty)"},
                {"id": "b", "type": "text", "visibleIf": "{use} = 'Tap' or {use} = 'Pond'"},
                {"id": "c", "type": "text", "visibleIf": "{use} = 'Tap' and {use} notempty"}
                """)
        #expect(found.map(\.stepID) == ["a", "b", "b", "c"], "\(listing(found))")
        #expect(found.map(\.severity) == [.warning, .error, .error, .error], "\(listing(found))")
    }

    /// A SurveyJS survey's second question of a name shares the first's value (as survey-core stores
    /// it), so a comparison of that name may name a choice of either question.
    @Test func aValueOfASecondQuestionOfTheNameIsKnown() throws {
        let json = """
            {"pages": [{"name": "p1", "elements": [
              {"type": "checkbox", "name": "unit", "choices": ["North", "South"]},
              {"type": "checkbox", "name": "team", "visibleIf": "{unit} contains 'North'", "choices": ["N1", "N2"]},
              {"type": "checkbox", "name": "team", "visibleIf": "{unit} contains 'South'", "choices": ["S1"]}
            ]}, {"name": "p2", "elements": [
              {"type": "text", "name": "s1", "visibleIf": "{team} contains 'S1'"},
              {"type": "text", "name": "n2", "visibleIf": "{team} contains 'N2'"},
              {"type": "text", "name": "w", "visibleIf": "{team} contains 'W9'"}
            ]}]}
            """
        let found = try lint(json).filter { $0.rule == .unknownChoiceValue }
        #expect(found.map(\.stepID) == ["w"], "\(listing(found))")
        #expect(found.first?.severity == .error)
        #expect(found.first?.message.contains("'S1'") == true, "the choices listed include the second question's")
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

import SurveyAnalysis
import SurveyCore
import Testing

@Suite("always-true-condition")
struct AlwaysTrueConditionTests {
    @Test func conditionOnARequiredEarlierAnswer() throws {
        let found = try findings(
            .alwaysTrueCondition,
            steps: """
                {"id": "name", "type": "text", "required": true},
                {"id": "thanks", "type": "content", "visibleIf": "{name} notempty", "options": {"body": "Thanks"}}
                """)
        #expect(found.map(\.stepID) == ["thanks"], "\(listing(found))")
        #expect(found.first?.severity == .warning)
    }

    /// A page of one question is shown only when that question is visible, so where the page is shown
    /// the question's condition holds; but it is what decides whether the page shows at all.
    @Test func theConditionThatDecidesAOneQuestionPageIsNotReported() throws {
        let found = try findings(
            .alwaysTrueCondition,
            steps: """
                {"id": "p0", "type": "page", "steps": [{"id": "a", "type": "single-choice", "options": {"choices": ["a", "b"]}}]},
                {"id": "p1", "type": "page", "steps": [{"id": "t", "type": "text", "visibleIf": "{a} = 'a'"}]},
                {"id": "p2", "type": "page", "steps": [{"id": "z", "type": "text"}]}
                """)
        #expect(found.isEmpty, "\(listing(found))")
        let onPage = try findings(
            .alwaysTrueCondition,
            steps: """
                {"id": "p0", "type": "page", "steps": [{"id": "a", "type": "single-choice", "options": {"choices": ["a", "b"]}, "required": true}]},
                {"id": "p1", "type": "page", "steps": [{"id": "t", "type": "text", "visibleIf": "{a} notempty"}]}
                """)
        #expect(onPage.map(\.stepID) == ["t"], "\(listing(onPage))")
    }

    @Test func tautology() throws {
        let found = try findings(
            .alwaysTrueCondition,
            steps: """
                {"id": "age", "type": "number", "options": {"min": 0, "max": 120}},
                {"id": "q", "type": "text", "visibleIf": "{age} >= 18 or {age} < 18 or {age} empty"}
                """)
        #expect(found.map(\.stepID) == ["q"], "\(listing(found))")
        #expect(found.first?.message.contains("whatever the answers") == true)
    }

    @Test func branchThatAlwaysFires() throws {
        let found = try findings(
            .alwaysTrueCondition,
            steps: """
                {"id": "ok", "type": "boolean", "required": true,
                 "branches": [{"if": "{ok} = true or {ok} = false", "goto": "end"}]},
                {"id": "middle", "type": "text"},
                {"id": "end", "type": "content", "options": {"body": "Bye"}}
                """)
        #expect(found.map(\.stepID) == ["ok"], "\(listing(found))")
    }

    @Test func requiredIfOnARequiredQuestion() throws {
        let found = try findings(
            .alwaysTrueCondition,
            steps: """
                {"id": "a", "type": "boolean"},
                {"id": "b", "type": "text", "required": true, "requiredIf": "{a} = true"}
                """)
        #expect(found.map(\.stepID) == ["b"], "\(listing(found))")
    }

    @Test func conditionsThatDependOnTheAnswerAreNotReported() throws {
        let found = try findings(
            .alwaysTrueCondition,
            steps: """
                {"id": "name", "type": "text"},
                {"id": "age", "type": "number", "options": {"min": 0, "max": 120}},
                {"id": "thanks", "type": "content", "visibleIf": "{name} notempty", "options": {"body": "Thanks"}},
                {"id": "adult", "type": "boolean", "visibleIf": "{age} >= 18", "requiredIf": "{name} empty"}
                """)
        #expect(found.isEmpty, "\(listing(found))")
    }
}

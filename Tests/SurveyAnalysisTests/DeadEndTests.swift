import SurveyAnalysis
import SurveyCore
import Testing

@Suite("dead-end")
struct DeadEndTests {
    @Test func requiredQuestionWithAllChoicesHidden() throws {
        let found = try findings(
            .deadEnd,
            steps: """
                {"id": "plan", "type": "single-choice", "required": true, "options": {"choices": ["free", "pro"]}},
                {"id": "feature", "type": "single-choice", "required": true, "options": {"choices": [
                  {"value": "sync", "visibleIf": "{plan} = 'pro'"}, {"value": "share", "visibleIf": "{plan} = 'pro'"}]}}
                """)
        #expect(found.map(\.stepID) == ["feature"], "\(listing(found))")
        #expect(found.first?.severity == .error)
        #expect(found.first?.message.contains("plan = 'free'") == true)
    }

    @Test func loopWithoutAWayOut() throws {
        let found = try findings(
            .deadEnd,
            steps: """
                {"id": "start", "type": "text"},
                {"id": "a", "type": "content", "options": {"body": "A"}, "branches": [{"goto": "b"}]},
                {"id": "b", "type": "content", "options": {"body": "B"}, "branches": [{"goto": "a"}]},
                {"id": "end", "type": "text"}
                """)
        #expect(found.map(\.stepID) == ["a"], "\(listing(found))")
        #expect(found.first?.severity == .error)
    }

    @Test func rankingWithAHiddenItem() throws {
        let found = try findings(
            .deadEnd,
            steps: """
                {"id": "vip", "type": "boolean"},
                {"id": "order", "type": "ranking", "required": true, "options": {"items": [
                  "price", "speed", {"value": "lounge", "visibleIf": "{vip} = true"}]}}
                """)
        #expect(found.map(\.stepID) == ["order"], "\(listing(found))")
    }

    @Test func hiddenChoicesThatTheSamePageCanBringBackAreNoDeadEnd() throws {
        // Picking 'pro' on the same page offers the choices again, so nobody is stuck.
        let found = try findings(
            .deadEnd,
            steps: """
                {"id": "p", "type": "page", "steps": [
                  {"id": "plan", "type": "single-choice", "required": true, "options": {"choices": ["free", "pro"]}},
                  {"id": "feature", "type": "single-choice", "required": true, "options": {"choices": [
                    {"value": "sync", "visibleIf": "{plan} = 'pro'"}]}}
                ]}
                """)
        #expect(found.filter { $0.severity == .error }.isEmpty, "\(listing(found))")
    }

    @Test func optionalQuestionsAndLoopsWithAnExitAreFine() throws {
        let found = try findings(
            .deadEnd,
            steps: """
                {"id": "plan", "type": "single-choice", "required": true, "options": {"choices": ["free", "pro"]}},
                {"id": "feature", "type": "single-choice", "options": {"choices": [
                  {"value": "sync", "visibleIf": "{plan} = 'pro'"}]}},
                {"id": "again", "type": "boolean", "required": true, "branches": [{"if": "{again} = true", "goto": "plan"}]}
                """)
        #expect(found.isEmpty, "\(listing(found))")
    }
}

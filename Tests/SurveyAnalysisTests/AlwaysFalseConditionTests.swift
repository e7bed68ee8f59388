import SurveyAnalysis
import SurveyCore
import Testing

@Suite("always-false-condition")
struct AlwaysFalseConditionTests {
    @Test func branchThatNeverFires() throws {
        let found = try findings(
            .alwaysFalseCondition,
            steps: """
                {"id": "n", "type": "number", "required": true, "options": {"min": 1, "max": 10},
                 "branches": [{"if": "{n} > 10", "goto": "end"}]},
                {"id": "middle", "type": "text"},
                {"id": "end", "type": "content", "options": {"body": "Bye"}}
                """)
        #expect(found.map(\.stepID) == ["n"], "\(listing(found))")
        #expect(found.first?.severity == .warning)
        #expect(found.first?.path?.description == "$.steps[0].branches[0].if")
    }

    @Test func choiceThatIsNeverOffered() throws {
        let found = try findings(
            .alwaysFalseCondition,
            steps: """
                {"id": "plan", "type": "single-choice", "required": true, "options": {"choices": ["free", "pro"]}},
                {"id": "extra", "type": "single-choice", "options": {"choices": [
                  "none", {"value": "sync", "visibleIf": "{plan} = 'pro' and {plan} = 'free'"}]}}
                """)
        #expect(found.map(\.stepID) == ["extra"], "\(listing(found))")
        #expect(found.first?.path?.description == "$.steps[1].options.choices[1].visibleIf")
    }

    @Test func requiredIfThatNeverHolds() throws {
        let found = try findings(
            .alwaysFalseCondition,
            steps: """
                {"id": "ok", "type": "boolean", "required": true},
                {"id": "why", "type": "text", "requiredIf": "{ok} empty"}
                """)
        #expect(found.map(\.stepID) == ["why"], "\(listing(found))")
    }

    @Test func branchAfterAnUnconditionalOneIsNeverEvaluated() throws {
        let found = try findings(
            .alwaysFalseCondition,
            steps: """
                {"id": "a", "type": "boolean", "branches": [{"goto": "end"}, {"if": "{a} = true", "goto": "b"}]},
                {"id": "b", "type": "text"},
                {"id": "end", "type": "content", "options": {"body": "Bye"}}
                """)
        #expect(found.count == 1, "\(listing(found))")
        #expect(found.first?.message.contains("never evaluated") == true)
    }

    @Test func conditionsThatCanHoldAreNotReported() throws {
        let found = try findings(
            .alwaysFalseCondition,
            steps: """
                {"id": "n", "type": "number", "options": {"min": 1, "max": 10},
                 "branches": [{"if": "{n} >= 10", "goto": "end"}]},
                {"id": "plan", "type": "single-choice", "options": {"choices": ["free", {"value": "pro", "visibleIf": "{n} > 5"}]}},
                {"id": "end", "type": "content", "options": {"body": "Bye"}}
                """)
        #expect(found.isEmpty, "\(listing(found))")
    }
}

@Suite("always-false-condition of quotas")
struct QuotaConditionLintTests {
    @Test func aQuotaWhoseConditionCanNeverHoldIsReported() throws {
        let steps = """
            {"id": "age", "type": "single-choice", "options": {"choices": ["young", "old"]}},
            {"id": "n", "type": "number", "options": {"min": 1, "max": 10}},
            {"id": "job", "type": "text"}
            """
        let found = try findings(
            .alwaysFalseCondition, steps: steps,
            extra: #"""
                "quotas": [{"id": "never", "when": "{age} = 'young' and {age} = 'old'", "limit": 5},
                             {"id": "beyond", "when": "{n} > 10", "limit": 5},
                             {"id": "fine", "when": "{age} = 'young' and {n} > 5", "limit": 5},
                             {"id": "text", "when": "{job} = 'student' or {job} contains 'retired'", "limit": 5}]
                """#)
        #expect(found.map(\.path?.description) == ["$.quotas[0].when", "$.quotas[1].when"], "\(listing(found))")
        #expect(found.first?.severity == .warning)
        #expect(found.first?.message.contains("quota 'never'") == true)
    }
}

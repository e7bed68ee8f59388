import SurveyAnalysis
import SurveyCore
import Testing

@Suite("unreachable-step")
struct UnreachableStepTests {
    static let color = """
        {"id": "color", "type": "single-choice", "required": true, "options": {"choices": ["red", "green", "blue"]}}
        """

    @Test func contradictoryConditionIsAnError() throws {
        let found = try findings(
            .unreachableStep,
            steps: """
                \(Self.color),
                {"id": "shade", "type": "text", "visibleIf": "{color} = 'red' and {color} = 'blue'"}
                """)
        #expect(found.count == 1, "\(listing(found))")
        #expect(found.first?.stepID == "shade")
        #expect(found.first?.severity == .error)
        #expect(found.first?.message.contains("never holds") == true)
        #expect(found.first?.position?.line == 4)
    }

    @Test func conditionOnAValueTheQuestionCannotTake() throws {
        let found = try findings(
            .unreachableStep,
            steps: """
                {"id": "stars", "type": "rating", "required": true, "options": {"stars": 5}},
                {"id": "wow", "type": "text", "visibleIf": "{stars} > 5"}
                """)
        #expect(found.map(\.stepID) == ["wow"], "\(listing(found))")
    }

    @Test func everyPathJumpsOverIt() throws {
        let found = try findings(
            .unreachableStep,
            steps: """
                \(Self.color.dropLast()), "branches": [{"if": "{color} = 'red'", "goto": "end"}, {"goto": "end"}]},
                {"id": "skipped", "type": "text"},
                {"id": "end", "type": "content", "options": {"body": "Bye"}}
                """)
        #expect(found.map(\.stepID) == ["skipped"], "\(listing(found))")
        #expect(found.first?.message.contains("no path leads to it") == true)
    }

    @Test func answersChosenByABranchHideTheStep() throws {
        // Red answers jump past 'shade', so whoever sees it did not answer red.
        let found = try findings(
            .unreachableStep,
            steps: """
                \(Self.color.dropLast()), "branches": [{"if": "{color} = 'red'", "goto": "end"}]},
                {"id": "shade", "type": "text", "visibleIf": "{color} = 'red'"},
                {"id": "end", "type": "content", "options": {"body": "Bye"}}
                """)
        #expect(found.map(\.stepID) == ["shade"], "\(listing(found))")
        #expect(found.first?.message.contains("'green', 'blue'") == true)
    }

    @Test func pageConditionThatNeverHolds() throws {
        let found = try findings(
            .unreachableStep,
            steps: """
                {"id": "adult", "type": "boolean", "required": true},
                {"id": "p", "type": "page", "visibleIf": "{adult} = true and {adult} = false", "steps": [
                  {"id": "q", "type": "text"}
                ]}
                """)
        #expect(found.map(\.stepID) == ["p"], "\(listing(found))")
    }

    @Test func reachableStepsAreNotReported() throws {
        let found = try findings(
            .unreachableStep,
            steps: """
                \(Self.color.dropLast()), "branches": [{"if": "{color} = 'red'", "goto": "end"}]},
                {"id": "shade", "type": "text", "visibleIf": "{color} = 'green'"},
                {"id": "p", "type": "page", "visibleIf": "{color} <> 'blue'", "steps": [
                  {"id": "q", "type": "single-choice", "options": {"choices": ["a", "b"]}},
                  {"id": "r", "type": "text", "visibleIf": "{q} = 'b'"}
                ]},
                {"id": "end", "type": "content", "options": {"body": "Bye"}}
                """)
        #expect(found.isEmpty, "\(listing(found))")
    }

    @Test func switchedOffStepsAreNotReported() throws {
        let found = try findings(
            .unreachableStep,
            steps: """
                {"id": "a", "type": "text"},
                {"id": "b", "type": "text", "enabled": false}
                """)
        #expect(found.isEmpty, "\(listing(found))")
    }

    @Test func undecidableConditionsAreInfoNotErrors() throws {
        // `contains` on free text cannot be enumerated; no sample text contains both words.
        let found = try findings(
            .unreachableStep,
            steps: """
                {"id": "words", "type": "text"},
                {"id": "both", "type": "text", "visibleIf": "{words} contains 'alpha' and {words} contains 'beta'"}
                """)
        #expect(found.allSatisfy { $0.severity == .info }, "\(listing(found))")
    }
}

@Suite("unreachable-step: answers the analysis cannot construct")
struct UnconstructedAnswerTests {
    @Test func requiredTextWithAPatternDoesNotBlockTheRest() throws {
        // No sample text matches the pattern; the analysis must still assume the question can be answered.
        let found = try lint(
            surveyJSON(
                """
                {"id": "code", "type": "text", "required": true, "options": {"pattern": "^[A-Z]{3}-[0-9]{4}$"}},
                {"id": "after", "type": "text"},
                {"id": "known", "type": "text", "visibleIf": "{code} notempty"}
                """))
        #expect(found.filter { $0.severity == .error }.isEmpty, "\(listing(found))")
    }
}

import SurveyAnalysis
import SurveyCore
import Testing

@Suite("forward-reference")
struct ForwardReferenceTests {
    @Test func conditionOnALaterQuestion() throws {
        let found = try findings(
            .forwardReference,
            steps: """
                {"id": "intro", "type": "text", "visibleIf": "{age} >= 18"},
                {"id": "age", "type": "number"}
                """)
        #expect(found.map(\.stepID) == ["intro"], "\(listing(found))")
        #expect(found.first?.severity == .warning)
    }

    @Test func pageConditionOnItsOwnQuestion() throws {
        let found = try findings(
            .forwardReference,
            steps: """
                {"id": "p", "type": "page", "visibleIf": "{q} notempty", "steps": [{"id": "q", "type": "text"}]}
                """)
        #expect(found.map(\.stepID) == ["p"], "\(listing(found))")
    }

    @Test func pipedTitleOfALaterAnswer() throws {
        let found = try findings(
            .forwardReference,
            steps: """
                {"id": "hello", "type": "content", "title": "Hello {name}", "options": {"body": "Hi"}},
                {"id": "name", "type": "text"}
                """)
        #expect(found.map(\.path?.description) == ["$.steps[0].title"], "\(listing(found))")
    }

    @Test func throughACalculatedValue() throws {
        let found = try findings(
            .forwardReference,
            steps: """
                {"id": "intro", "type": "text", "visibleIf": "{double} > 4"},
                {"id": "n", "type": "number"}
                """, extra: "\"calculatedValues\": [{\"name\": \"double\", \"expression\": \"{n} * 2\"}]")
        #expect(found.map(\.stepID) == ["intro"], "\(listing(found))")
    }

    @Test func earlierQuestionsSamePageAndLoopsAreFine() throws {
        let found = try findings(
            .forwardReference,
            steps: """
                {"id": "age", "type": "number"},
                {"id": "p", "type": "page", "steps": [
                  {"id": "a", "type": "text", "visibleIf": "{b} = 'x' or {age} > 3"},
                  {"id": "b", "type": "text"}
                ]},
                {"id": "c", "type": "text", "visibleIf": "{d} notempty"},
                {"id": "d", "type": "boolean", "branches": [{"if": "{d} = true", "goto": "c"}]}
                """)
        #expect(found.isEmpty, "\(listing(found))")
    }
}

import Testing

@testable import SurveyCore

/// A step's `visibleIf` is kept in the step table as parts when it is a simple comparison (no
/// object), as a handle on its expression otherwise; cold code gets the same expression back.
@Suite struct StepConditionTests {
    static let text = surveyJSON([
        #"{"id": "a", "type": "t-choice", "options": {"choices": ["x", "y"]}}"#,
        #"""
        {"id": "p1", "type": "page", "steps": [
          {"id": "plain", "type": "t-text"},
          {"id": "simple", "type": "t-text", "visibleIf": "{a} = 'x'"},
          {"id": "long", "type": "t-text", "visibleIf": "{a} = 'a constant longer than fifteen bytes'"},
          {"id": "number", "type": "t-text", "visibleIf": "{a} <> 3"},
          {"id": "general", "type": "t-text", "visibleIf": "{a} = 'x' and {plain} notempty"},
          {"id": "box", "type": "panel", "visibleIf": "{a} = 'y'", "steps": [
            {"id": "inPanel", "type": "t-text"},
            {"id": "both", "type": "t-text", "visibleIf": "{plain} = 'p'"}
          ]}
        ]}
        """#,
    ])

    @Test func aConditionCellIs24Bytes() {
        #expect(MemoryLayout<StepCondition>.stride == 24)
    }

    @Test func coldCodeGetsEachConditionBackAsWritten() throws {
        let survey = try loadSurvey(Self.text)
        func condition(_ id: String) throws -> Expression? {
            survey.steps[try #require(survey.stepIndexByID[id])].visibleIf
        }
        #expect(try condition("plain") == nil)
        #expect(try condition("simple")?.source == "{a} = 'x'")
        #expect(try condition("simple")?.referencedNames == ["a"])
        #expect(try condition("long")?.source == "{a} = 'a constant longer than fifteen bytes'")
        #expect(try condition("number")?.source == "{a} <> 3")
        #expect(try condition("general")?.referencedNames == ["a", "plain"])
        // A panel's condition is folded into its steps' (not their own text): kept as an expression.
        #expect(try condition("inPanel")?.source == "({a} = 'y')")
        #expect(try condition("inPanel")?.referencedNames == ["a"])
        #expect(try condition("both")?.referencedNames.sorted() == ["a", "plain"])
        // The rebuilt expression evaluates as the original.
        let slot = try #require(survey.stepIndexByID["a"])
        var values = [JSONValue](repeating: .null, count: survey.steps.count)
        values[slot] = "x"
        #expect(try condition("simple")?.isTrue(values, context: FunctionContext(today: "2024-06-01")) == true)
        #expect(try condition("number")?.isTrue(values, context: FunctionContext(today: "2024-06-01")) == true)
        values[slot] = "y"
        #expect(try condition("simple")?.isTrue(values, context: FunctionContext(today: "2024-06-01")) == false)
    }

    @Test func sessionsShowWhatEachConditionSays() throws {
        let survey = try loadSurvey(Self.text)
        var session = SurveySession(survey: survey)
        try session.answer("x", for: "a")
        session.next()
        #expect(session.currentStepIDs == ["plain", "simple", "number"])
        try session.answer("p", for: "plain")
        #expect(session.currentStepIDs == ["plain", "simple", "number", "general"])
        try session.back()
        try session.answer("y", for: "a")
        session.next()
        #expect(session.currentStepIDs == ["plain", "number", "inPanel", "both"])
        try session.answer("q", for: "plain")
        #expect(session.currentStepIDs == ["plain", "number", "inPanel"])
    }
}

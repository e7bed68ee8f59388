import SurveyAnalysis
import SurveyBuiltins
import SurveyCore
import Testing

/// The analysis stays sound with triggers: a step a trigger answers may hold any answer at any
/// point, a skip trigger is a way on, a complete trigger a way to the end.
@Suite("Triggers in the analysis")
struct TriggerAnalysisTests {
    static let steps = """
        {"id": "a", "type": "single-choice", "options": {"choices": ["x", "y"]}},
        {"id": "p2", "type": "page", "visibleIf": "{late} = 'v'", "steps": [{"id": "shown", "type": "text"}]},
        {"id": "late", "type": "text"}
        """

    @Test func withoutTheTriggerTheConditionReadsALaterQuestion() throws {
        let found = try lint(surveyJSON(Self.steps))
        #expect(found.contains { $0.rule == .unreachableStep && $0.stepID == "p2" }, "\(listing(found))")
    }

    @Test func aStepATriggerAnswersCanBeReadBeforeItIsAsked() throws {
        let found = try lint(
            surveyJSON(
                Self.steps,
                extra: #""triggers": [{"type": "setvalue", "if": "{a} = 'x'", "target": "late", "value": "v"}]"#
            ))
        #expect(!found.contains { $0.severity == .error }, "\(listing(found))")
        #expect(!found.contains { $0.rule == .forwardReference }, "\(listing(found))")
    }

    @Test func aSkipTriggerIsAWayOn() throws {
        // A required question no answer passes blocks the way, unless a skip trigger jumps past it.
        let steps = """
            {"id": "a", "type": "single-choice", "options": {"choices": ["x", "y"]}, "required": true},
            {"id": "gate", "type": "single-choice", "options": {"choices": [{"value": "only", "visibleIf": "{a} = 'nothing'"}]}, "required": true},
            {"id": "end", "type": "text"}
            """
        let blocked = try lint(surveyJSON(steps))
        #expect(blocked.contains { $0.rule == .deadEnd }, "\(listing(blocked))")
        let skipped = try lint(
            surveyJSON(steps, extra: #""triggers": [{"type": "skip", "if": "{a} notempty", "goto": "end"}]"#))
        #expect(!skipped.contains { $0.rule == .unreachableStep && $0.stepID == "end" }, "\(listing(skipped))")
    }

    @Test func pathsCoverWhatOnlyATriggerMakesVisible() throws {
        let survey = try SurveyLoader(registry: .builtins()).load(
            text: surveyJSON(
                Self.steps,
                extra: #""triggers": [{"type": "setvalue", "if": "{a} = 'x'", "target": "late", "value": "v"}]"#
            ), source: "t.json")
        let result = PathGenerator(survey: survey, seed: 1, timeLimit: 5).generate()
        #expect(result.coverage.covered.contains(.shown(step: "shown")), "\(result.coverage.uncovered)")
    }
}

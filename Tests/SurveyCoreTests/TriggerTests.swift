import SurveyBuiltins
import SurveyCore
import Testing

/// `triggers` (SurveyJS's): setvalue, copyvalue and runexpression answer a step as soon as their
/// condition holds after an answer changes; skip moves on at once; complete ends the survey on Next.
@Suite struct TriggerTests {
    static func survey(_ triggers: String, steps: [String]? = nil) throws -> Survey {
        let defaultSteps = [
            #"{"id": "p1", "type": "page", "steps": [{"id": "a", "type": "t-text"}, {"id": "b", "type": "t-text"}, {"id": "c", "type": "t-text"}]}"#,
            #"{"id": "p2", "type": "page", "steps": [{"id": "e", "type": "t-text"}]}"#,
            #"{"id": "p3", "type": "page", "steps": [{"id": "f", "type": "t-text"}, {"id": "g", "type": "t-text"}]}"#,
        ]
        var text = surveyJSON(steps ?? defaultSteps)
        text.removeLast()
        return try loadSurvey(text + ", \"triggers\": [\(triggers)]}")
    }

    @Test func setValueAnswersTheTargetWhenItsConditionTurnsTrue() throws {
        let survey = try Self.survey(#"{"type": "setvalue", "if": "{a} = 'x'", "target": "b", "value": "set"}"#)
        var session = SurveySession(survey: survey)
        try session.answer("y", for: "a")
        #expect(session.answer(for: "b") == nil)
        try session.answer("x", for: "a")
        #expect(session.answer(for: "b") == "set")
        // The respondent may change it; only a change of {a} sets it again.
        try session.answer("mine", for: "b")
        try session.answer("x", for: "c")
        #expect(session.answer(for: "b") == "mine")
        try session.answer("z", for: "a")
        try session.answer("x", for: "a")
        #expect(session.answer(for: "b") == "set")
    }

    @Test func copyValueAndRunExpressionUseTheCurrentValues() throws {
        let survey = try Self.survey(
            #"""
            {"type": "copyvalue", "if": "{a} notempty", "from": "a", "target": "b"},
            {"type": "runexpression", "if": "{a} notempty", "run": "upper({a}) + '!'", "target": "c"}
            """#)
        var session = SurveySession(survey: survey)
        try session.answer("hi", for: "a")
        #expect(session.answer(for: "b") == "hi")
        #expect(session.answer(for: "c") == "HI!")
        try session.answer("yo", for: "a")
        #expect(session.answer(for: "b") == "yo")
        #expect(session.answer(for: "c") == "YO!")
    }

    @Test func triggersThatSetEachOthersConditionsStop() throws {
        let survey = try Self.survey(
            #"""
            {"type": "runexpression", "if": "{a} notempty", "run": "{b} + 'x'", "target": "b"},
            {"type": "runexpression", "if": "{b} notempty", "run": "{a} + 'y'", "target": "a"}
            """#)
        var session = SurveySession(survey: survey)
        try session.answer("start", for: "a")
        #expect(session.answer(for: "a") != nil)
        #expect(session.status == .inProgress)
    }

    @Test func skipMovesOnAtOnceAndReplaysTheSame() throws {
        let survey = try Self.survey(#"{"type": "skip", "if": "{e} = 'skip'", "goto": "g"}"#)
        var session = SurveySession(survey: survey)
        session.next()
        #expect(session.currentUnitID == "p2")
        try session.answer("skip", for: "e")
        #expect(session.currentUnitID == "p3")
        #expect(session.pathIDs == ["p1", "p2", "p3"])
        let resumed = try SurveySession(survey: survey, resuming: session.state)
        #expect(resumed.currentUnitID == "p3")
        #expect(resumed.pathIDs == session.pathIDs)
    }

    @Test func completeEndsTheSurveyOnNext() throws {
        let survey = try Self.survey(#"{"type": "complete", "if": "{a} = 'stop'"}"#)
        var session = SurveySession(survey: survey)
        try session.answer("stop", for: "a")
        #expect(session.currentUnitID == "p1")
        guard case .completed(let result) = session.next() else {
            Issue.record("not completed")
            return
        }
        #expect(result.path == ["p1"])
    }

    /// survey-core checks a complete trigger on Next only when its condition reads a question of the
    /// page being left (shown or not) or a calculated value: `{e} <> 'ja'` with `e` on a later page
    /// does not end the survey on the first page although empty differs from 'ja'.
    @Test func completeIsCheckedOnlyOnThePagesItReads() throws {
        let survey = try Self.survey(#"{"type": "complete", "if": "{e} <> 'ja'"}"#)
        var session = SurveySession(survey: survey)
        session.next()
        #expect(session.currentUnitID == "p2")
        try session.answer("ja", for: "e")
        session.next()
        #expect(session.currentUnitID == "p3")
        try session.back()
        try session.answer("nein", for: "e")
        guard case .completed(let result) = session.next() else {
            Issue.record("not completed")
            return
        }
        #expect(result.path == ["p1", "p2"])
    }

    @Test func aTriggerSetValueIsReplayedOnResume() throws {
        let survey = try Self.survey(#"{"type": "setvalue", "if": "{a} = 'x'", "target": "e", "value": "preset"}"#)
        var session = SurveySession(survey: survey)
        try session.answer("x", for: "a")
        session.next()
        let resumed = try SurveySession(survey: survey, resuming: session.state)
        #expect(resumed.answer(for: "e") == "preset")
        #expect(resumed.currentStep?.questions.first?.answer == "preset")
    }

    @Test(arguments: [
        (
            #"{"type": "setvalue", "if": "{a} = 1", "target": "nosuch", "value": 1}"#,
            "$.triggers[0].target", "the trigger's target 'nosuch' is not a step of this survey"
        ),
        (
            #"{"type": "setvalue", "if": "{nosuch} = 1", "target": "b", "value": 1}"#, "$.triggers[0].if",
            "unknown reference {nosuch}"
        ),
        (
            #"{"type": "setvalue", "if": "{a} = 1", "target": "b"}"#, "$.triggers[0]",
            "a setvalue trigger needs a 'value'"
        ),
        (#"{"type": "jump", "if": "{a} = 1"}"#, "$.triggers[0].type", "unknown trigger type 'jump'"),
        (
            #"{"type": "skip", "if": "{a} = 1", "goto": "nowhere"}"#, "$.triggers[0].goto",
            "the trigger skips to 'nowhere', which is no step or page of this survey"
        ),
        (
            #"{"type": "copyvalue", "if": "{a} = 1", "from": "zzz", "target": "b"}"#, "$.triggers[0].from",
            "the trigger copies from 'zzz'"
        ),
        (
            #"{"type": "setvalue", "if": "{a} = 1", "target": "b", "value": 1, "extra": 2}"#, "$.triggers[0].extra",
            "extra"
        ),
    ])
    func badTriggersAreLoadErrorsThatSayWhere(trigger: String, path: String, message: String) {
        do {
            _ = try Self.survey(trigger)
            Issue.record("loaded")
        } catch let error as SurveyLoadError {
            #expect(error.errors.contains { $0.path?.description == path && $0.message.contains(message) }, "\(error)")
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test func aSetValueTheTargetRefusesIsALoadError() {
        let steps = [
            #"{"id": "a", "type": "t-text"}"#,
            #"{"id": "pick", "type": "t-choice", "options": {"choices": ["x", "y"]}}"#,
        ]
        do {
            _ = try Self.survey(#"{"type": "setvalue", "if": "{a} = 1", "target": "pick", "value": "z"}"#, steps: steps)
            Issue.record("loaded")
        } catch let error as SurveyLoadError {
            #expect(error.errors.first?.path?.description == "$.triggers[0].value", "\(error)")
            #expect(error.errors.first?.message.contains("which its question refuses") == true, "\(error)")
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test func triggersRoundTripThroughTheFormat() throws {
        let survey = try Self.survey(
            #"""
            {"type": "setvalue", "if": "{a} = 1", "target": "b", "value": "v"},
            {"type": "copyvalue", "if": "{a} = 1", "from": "a", "target": "c"},
            {"type": "runexpression", "if": "{a} = 1", "run": "1 + 1"},
            {"type": "skip", "if": "{a} = 2", "goto": "p3"},
            {"type": "complete", "if": "{a} = 3"}
            """#)
        let again = try SurveyDefinition(json: survey.definition.jsonValue)
        #expect(again.triggers == survey.definition.triggers)
        #expect(again.triggers.map(\.typeName) == ["setvalue", "copyvalue", "runexpression", "skip", "complete"])
    }
}

/// The new rules are incremental: an answer re-evaluates only the triggers, defaults and enableIf
/// conditions that read it.
@Suite struct RuleIncrementalityTests {
    @Test func anUnrelatedAnswerEvaluatesNoRule() throws {
        var steps = [#"{"id": "x", "type": "t-text"}"#]
        var triggers: [String] = []
        for index in 0..<200 {
            steps.append(
                #"{"id": "q\#(index)", "type": "t-text", "enableIf": "{q\#(index + 1000)} = 'y'", "defaultValueExpression": "{q\#(index + 1000)} + '!'"}"#
            )
            steps.append(#"{"id": "q\#(index + 1000)", "type": "t-text"}"#)
            triggers.append(
                #"{"type": "setvalue", "if": "{q\#(index + 1000)} = 'z'", "target": "q\#(index)", "value": "v"}"#)
        }
        var text = surveyJSON(steps)
        text.removeLast()
        let survey = try loadSurvey(text + ", \"triggers\": [\(triggers.joined(separator: ","))]}")
        var session = SurveySession(survey: survey)
        let before = session.evaluationCount
        try session.answer("anything", for: "x")
        #expect(session.evaluationCount == before)
        session.next()
        session.next()
        #expect(session.currentUnitID == "q1000")
        let beforeRelated = session.evaluationCount
        try session.answer("z", for: "q1000")
        // One trigger, one enableIf, one default: a handful of evaluations, not hundreds.
        #expect(session.evaluationCount - beforeRelated <= 4)
        #expect(session.answer(for: "q0") == "v")
    }

    /// A condition that reads only members of a value (`{m.r1}`, a matrix cell) is checked when one of
    /// those members changes, not when another part of the value does, as survey-core compares the
    /// old and new value of each name it reads.
    @Test func aConditionOnAMatrixCellIgnoresChangesOfOtherCells() throws {
        let text = """
            {"formatVersion": 1, "id": "s", "title": "T", "steps": [{"id": "p1", "type": "page", "steps": [
              {"id": "m", "type": "matrix", "options": {"rows": ["r1", "r2"], "columns": ["x", "y"]}},
              {"id": "t", "type": "text"}, {"id": "whole", "type": "text"}]}],
             "triggers": [{"type": "setvalue", "if": "{m.r1} = 'x'", "target": "t", "value": "auto"},
                          {"type": "setvalue", "if": "{m} notempty", "target": "whole", "value": "auto"}]}
            """
        var session = SurveySession(survey: try SurveyLoader(registry: .builtins()).load(text: text, source: "s.json"))
        _ = try session.answer(["r1": "x"], for: "m")
        _ = try session.answer("mine", for: "t")
        _ = try session.answer("mine", for: "whole")
        _ = try session.answer(["r1": "x", "r2": "y"], for: "m")
        #expect(session.answer(for: "t") == "mine")
        #expect(session.answer(for: "whole") == "auto")
        _ = try session.answer(["r1": "y", "r2": "y"], for: "m")
        _ = try session.answer(["r1": "x", "r2": "y"], for: "m")
        #expect(session.answer(for: "t") == "auto")
    }

    @Test func aSetValueOfNullClearsTheTarget() throws {
        let survey = try TriggerTests.survey(#"{"type": "setvalue", "if": "{a} = 'x'", "target": "b", "value": null}"#)
        var session = SurveySession(survey: survey)
        try session.answer("typed", for: "b")
        try session.answer("x", for: "a")
        #expect(session.answer(for: "b") == nil)
    }
}

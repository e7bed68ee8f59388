import SurveyBuiltins
import SurveyCore
import SurveyRendering
import SurveyTestKit
import Testing

/// Validators and the None / Select all items as each front end shows them: the JSON-event
/// protocol's `validation-error` and input primitive, the terminal, and `survey test`.
@Suite struct ValidatorFrontEndTests {
    static let survey = """
        {"formatVersion": 1, "id": "v", "title": "Validators", "defaultLocale": "en",
         "steps": [
          {"id": "about", "type": "page", "steps": [
            {"id": "age", "type": "number", "title": "Age",
             "validators": [{"type": "numeric", "minValue": 18, "maxValue": 120}]},
            {"id": "email", "type": "text", "title": "Email",
             "validators": [{"type": "email", "text": {"en": "An email, please", "fr": "Un e-mail, s'il vous plaît"}}]}
          ]},
          {"id": "goals", "type": "multiple-choice", "title": "Goals", "required": true,
           "options": {"choices": ["fitness", {"value": "diet", "visibleIf": "{age} > 60"}, "sleep"],
                       "none": true, "other": true, "selectAll": true},
           "validators": [{"type": "answercount", "maxCount": 2}]},
          {"id": "end", "type": "text", "title": "End"}
         ]}
        """

    static func load() throws -> Survey {
        try SurveyLoader(registry: .builtins()).load(text: survey, source: "v.json")
    }

    @Test func jsonProtocolReportsEachValidatorErrorWithItsKind() throws {
        let (_, events) = runJSON(
            try Self.load(),
            [
                #"{"command":"answer","stepId":"age","value":7}"#,
                #"{"command":"answer","stepId":"email","value":"nope"}"#,
                #"{"command":"next"}"#,
                "quit",
            ], locale: "fr")
        let refusal = try #require(events.first { $0.event == "validation-error" })
        #expect(
            refusal["errors"] == [
                [
                    "stepId": "age", "code": "outOfRange", "validator": "numeric",
                    "message": "Saisissez une valeur comprise entre 18 et 120.",
                    "arguments": ["min": "18", "max": "120"],
                ],
                [
                    "stepId": "email", "code": "invalidEmail", "validator": "email",
                    "message": "Un e-mail, s'il vous plaît",
                ],
            ])
        // The answers were accepted; only Next was refused, and the step shows the errors.
        #expect(events.filter { $0.event == "answered" }.count == 2)
        #expect(!events.contains { $0.event == "step" && $0["step"]?["unitId"] == "goals" })
    }

    @Test func jsonProtocolDescribesNoneAndSelectAll() throws {
        let (_, events) = runJSON(
            try Self.load(),
            [
                #"{"command":"answer","stepId":"age","value":30}"#, #"{"command":"next"}"#,
                #"{"command":"answer","stepId":"goals","value":["none","sleep"]}"#,
                #"{"command":"answer","stepId":"goals","value":["fitness","sleep"]}"#, #"{"command":"next"}"#,
                "quit",
            ])
        let step = try #require(events.first { $0.event == "step" && $0["step"]?["unitId"] == "goals" })
        let input = try #require(step["step"]?["questions"]?.arrayValue?.first?["input"])
        #expect(input["selectAll"] == "Select all")
        // The hidden choice is left out; None and Other come last.
        #expect(
            input["choices"]?.arrayValue?.compactMap { $0["value"]?.stringValue } == [
                "fitness", "sleep", "none", "other",
            ])
        #expect(input["choices"]?.arrayValue?[2]["isExclusive"] == true)
        let refusal = try #require(events.first { $0.event == "validation-error" })
        let error = try #require(refusal["errors"]?.arrayValue?.first)
        #expect(error["code"] == "exclusiveChoice")
        #expect(error["message"] == "'None of the above' cannot be combined with other choices.")
        #expect(error["validator"] == nil)
        #expect(events.contains { $0.event == "step" && $0["step"]?["unitId"] == "end" })
    }

    @Test func theTerminalShowsTheMessagesAndAsksAgain() throws {
        let (_, text) = runText(try Self.load(), ["7", "nope", "30", "ada@example.com", "q"])
        #expect(text.contains("! Enter a value from 18 to 120."))
        #expect(text.contains("! An email, please"))
        #expect(text.contains("  0) Select all\n  1) fitness\n  2) sleep\n  3) None of the above\n  4) Other …"))
    }

    @Test func theTerminalsSelectAllAndNumbersFollowTheListShown() throws {
        // "0" picks every regular choice shown; 3 is None (the hidden 'diet' is not numbered).
        let (_, refused) = runText(try Self.load(), ["30", "", "0,3", "3", "", "q"])
        #expect(refused.contains("! 'None of the above' cannot be combined with other choices."))
        // Select all gives fitness and sleep: two, which the answercount validator allows.
        let (outcome, text) = runText(try Self.load(), ["30", "", "0", ""])
        #expect(!text.contains("\n! "), "\(text)")
        #expect(outcome.result?.answers == ["age": 30, "goals": ["fitness", "sleep"]])
        #expect(outcome.result?.path == ["about", "goals", "end"])
        // With 'diet' shown too, Select all gives three, more than answercount's maxCount 2.
        let (_, older) = runText(try Self.load(), ["70", "", "0", "q"])
        #expect(older.contains("! Select at most 2."), "\(older)")
    }

    @Test func surveyTestSaysWhichValidatorRefusedTheScript() throws {
        #expect {
            try SurveyRun(text: Self.survey, answers: ["age": 12, "goals": ["sleep"]])
        } throws: { error in
            guard let error = error as? SurveyRunError, let failure = error.run?.failure else { return false }
            return failure.stepID == "age"
                && failure.message
                    == "the scripted answer for 'age' fails its 'numeric' validator: Enter a value from 18 to 120."
        }
        let passing = try SurveyRun(text: Self.survey, answers: ["age": 40, "goals": ["none"], "end": "ok"])
        try passing.expectPath(["about", "goals", "end"])
        try passing.expectAnswers(["age": 40, "goals": ["none"], "end": "ok"])
    }
}

import SurveyBuiltins
import SurveyCore
import SurveyRendering
import Testing

@Suite("JSON-event protocol")
struct JSONEventProtocolTests {
    let survey: Survey

    init() throws {
        survey = try Fixtures.survey("onboarding.json")
    }

    static let completing = [
        #"{"command":"next"}"#,
        #"{"command":"answer","stepId":"source","value":"google"}"#, #"{"command":"next"}"#,
        #"{"command":"answer","stepId":"goals","value":["learn"]}"#, #"{"command":"next"}"#,
        #"{"command":"answer","stepId":"rating","value":5}"#, #"{"command":"next"}"#,
        #"{"command":"next"}"#,
    ]

    @Test func completesAndReportsPathAndAnswers() throws {
        let (outcome, events) = runJSON(survey, Self.completing)
        #expect(events.first?.event == "started")
        #expect(events.first?["protocol"] == 1)
        let completed = try #require(events.last)
        #expect(completed.event == "completed")
        #expect(completed["path"] == ["welcome", "source", "goals", "rating", "thanks"])
        #expect(completed["answers"] == ["source": "google", "goals": ["learn"], "rating": 5])
        #expect(outcome.result?.path == ["welcome", "source", "goals", "rating", "thanks"])
        #expect(events.filter { $0.event == "step" }.count == 5)
        #expect(events.contains { $0.event == "progress" && $0["text"] == "Question 3 of 4" })
    }

    @Test(
        "Bad input gives an error event and the session goes on",
        arguments: [
            ("{not json", "invalidJSON"),
            ("[1,2]", "notAnObject"),
            (#"{"stepId":"source"}"#, "missingCommand"),
            (#"{"command":"jump"}"#, "unknownCommand"),
            (#"{"command":7}"#, "wrongType"),
            (#"{"command":"answer","value":"google"}"#, "missingField"),
            (#"{"command":"answer","stepId":"source"}"#, "missingField"),
            (#"{"command":"answer","stepId":3,"value":1}"#, "wrongType"),
            (#"{"command":"answer","stepId":"nope","value":1}"#, "unknownStep"),
            (#"{"command":"answer","stepId":"rating","value":1}"#, "stepNotCurrent"),
            (#"{"command":"answer","stepId":"welcome","value":1}"#, "stepNotCurrent"),
            (#"{"command":"resume","state":{"surveyId":"x"}}"#, "invalidState"),
            (#"{"command":"resume"}"#, "missingField"),
            (#"{"command":"next","protocol":2}"#, "unsupportedProtocol"),
            (#"{"command":"next","extra":true}"#, "unknownField"),
        ])
    func badInput(line: String, code: String) throws {
        // The bad line comes on the first question, after one accepted answer: nothing is lost.
        let lines =
            [#"{"command":"next"}"#, #"{"command":"answer","stepId":"source","value":"google"}"#, line]
            + Self.completing.dropFirst(2)
        let (outcome, events) = runJSON(survey, lines)
        let error = try #require(events.first { $0.event == "error" })
        #expect(error["code"] == .string(code))
        #expect(error["message"]?.stringValue?.isEmpty == false)
        #expect(outcome.result?.answers["source"] == "google")
        #expect(events.last?.event == "completed")
    }

    @Test func wrongAnswerShapeIsAValidationErrorAndTheOldAnswerStays() throws {
        let lines = [
            #"{"command":"next"}"#, #"{"command":"answer","stepId":"source","value":"google"}"#,
            #"{"command":"next"}"#, #"{"command":"answer","stepId":"goals","value":{"a":1}}"#,
            #"{"command":"answer","stepId":"goals","value":["learn"]}"#, #"{"command":"next"}"#,
        ]
        let (_, events) = runJSON(survey, lines)
        let validation = try #require(events.first { $0.event == "validation-error" })
        #expect(validation["errors"]?.arrayValue?.first?["stepId"] == "goals")
        #expect(validation["errors"]?.arrayValue?.first?["code"] == "wrongShape")
        #expect(events.contains { $0.event == "answered" && $0["stepId"] == "goals" && $0["value"] == ["learn"] })
    }

    @Test func missingRequiredAnswerBlocksNext() throws {
        let (_, events) = runJSON(survey, [#"{"command":"next"}"#, #"{"command":"next"}"#])
        let validation = try #require(events.first { $0.event == "validation-error" })
        #expect(validation["errors"]?.arrayValue?.first?["code"] == "required")
        #expect(validation["errors"]?.arrayValue?.first?["message"] == "Please answer this question.")
    }

    @Test func backAtTheStartIsAnError() throws {
        let (_, events) = runJSON(survey, [#"{"command":"back"}"#])
        #expect(events.contains { $0.event == "error" && $0["code"] == "cannotGoBack" })
    }

    @Test func endOfInputQuitsWithTheState() throws {
        let (outcome, events) = runJSON(
            survey, [#"{"command":"next"}"#, #"{"command":"answer","stepId":"source","value":"google"}"#])
        let quit = try #require(events.last)
        #expect(quit.event == "quit")
        #expect(quit["state"]?["answers"] == ["source": "google"])
        guard case .quit(let state, _) = outcome else {
            Issue.record("expected quit, got \(outcome)")
            return
        }
        #expect(state.path == ["welcome", "source"])
    }

    @Test func resumeContinuesWhereTheStateStopped() throws {
        let (_, first) = runJSON(
            survey,
            [
                #"{"command":"next"}"#, #"{"command":"answer","stepId":"source","value":"google"}"#,
                #"{"command":"quit"}"#,
            ])
        let state = try #require(first.last?["state"])
        let resume = EventProtocol.line(["command": "resume", "state": state])
        let (outcome, events) = runJSON(survey, [resume] + Self.completing.dropFirst(2))
        #expect(events.filter { $0.event == "started" }.count == 2)
        #expect(events.filter { $0.event == "started" }.last?["resumed"] == true)
        #expect(outcome.result?.answers == ["source": "google", "goals": ["learn"], "rating": 5])
    }

    @Test func dismissEndsTheSession() throws {
        let (outcome, events) = runJSON(survey, [#"{"command":"dismiss"}"#])
        #expect(events.last?.event == "dismissed")
        guard case .dismissed = outcome else {
            Issue.record("expected dismissed")
            return
        }
    }

    /// A survey with nothing visible at the start ends with an `empty` event (no `completed`), in
    /// both front ends, and the driver's outcome says so.
    @Test func aSurveyWithNothingVisibleEndsWithAnEmptyEvent() throws {
        let text = #"""
            {"formatVersion": 1, "id": "hidden", "title": "Hidden",
             "steps": [{"id": "q", "type": "text", "visibleIf": "{plan} = 'pro'"}],
             "variables": [{"name": "plan"}]}
            """#
        let empty = try SurveyLoader(registry: .builtins()).load(text: text, source: "hidden.json")
        let (outcome, events) = runJSON(empty, [#"{"command":"next"}"#])
        #expect(events.map(\.event) == ["started", "empty"])
        #expect(events.last?["state"]?["status"] == "empty")
        guard case .empty(let state) = outcome else {
            Issue.record("expected the empty outcome, got \(outcome)")
            return
        }
        #expect(state.path.isEmpty)
        #expect(outcome.result == nil)
        let (_, text2) = runText(empty, [], locale: "fr")
        #expect(text2.contains("Ce questionnaire n'a rien à vous montrer."))
    }

    @Test func stepEventCarriesTheFullPresentation() throws {
        let (_, events) = runJSON(survey, [#"{"command":"next"}"#], locale: "fr")
        let step = try #require(events.filter { $0.event == "step" }.last?["step"])
        #expect(step["unitId"] == "source")
        let question = try #require(step["questions"]?.arrayValue?.first)
        #expect(question["title"] == "Où nous avez-vous connus ?")
        #expect(question["required"] == true)
        #expect(question["input"]?["kind"] == "single-choice")
        #expect(question["input"]?["choices"]?.arrayValue?.last?["isOther"] == true)
        #expect(question["answer"] == nil)
        #expect(step["progress"]?["text"] == "Question 1 sur 4")
    }

    @Test func commandsRoundTrip() throws {
        let actions: [RendererAction] = [.answer(stepID: "a", value: ["x": 1]), .next, .back, .dismiss, .quit]
        for action in actions {
            #expect(try EventProtocol.command(from: EventProtocol.json(of: action)) == action)
        }
        #expect(try EventProtocol.command(from: "next") == .next)
    }
}

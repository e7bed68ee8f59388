import SurveyCore
import SurveyRendering
import SurveyTestKit
import Testing

@Suite("Front ends")
struct FrontEndTests {
    let survey: Survey

    init() throws {
        survey = try Fixtures.survey("onboarding.json")
    }

    @Test func allThreeFrontEndsAgree() throws {
        let answers: [String: JSONValue] = [
            "source": "google", "goals": ["track", "Dogs"], "rating": 2, "contact-me": true,
            "contact": ["name": "Ada", "email": "ada@example.com"],
        ]
        let headless = HeadlessRun(survey: survey, script: .answers(answers))
        let json = runJSON(
            survey,
            [#"{"command":"next"}"#]
                + ["source", "goals", "rating", "contact-me", "contact"].flatMap { id in
                    [
                        EventProtocol.line(["command": "answer", "stepId": .string(id), "value": answers[id] ?? .null]),
                        #"{"command":"next"}"#,
                    ]
                } + [#"{"command":"next"}"#]
        ).0
        let text = runText(survey, ["", "google", "1,3", "Dogs", "2", "y", "Ada", "ada@example.com", ""]).0
        let expectedPath = ["welcome", "source", "goals", "rating", "contact-me", "contact", "thanks"]
        #expect(headless.failure == nil)
        #expect(headless.outcome.result?.path == expectedPath)
        #expect(headless.outcome.result == json.result)
        #expect(headless.outcome.result == text.result)
        #expect(text.result?.answers == answers)
    }

    @Test func headlessFailsWhenARequiredQuestionHasNoAnswer() {
        let run = HeadlessRun(survey: survey, script: .answers(["source": "google"]))
        #expect(run.failure?.message == "step 'rating' is required but the script has no answer for it")
        #expect(run.eventLines.last?.contains(#""event":"error""#) == true)
    }

    /// Without a transcript (what batch `survey test` asks for) a run checks the same things: only
    /// the events are missing.
    @Test(arguments: [
        #"{"source": "google", "goals": ["track"], "rating": 2, "contact-me": false}"#,
        #"{"source": "google"}"#, #"{"source": "google", "rating": 9}"#,
        #"{"actions": ["next", {"command":"answer","stepId":"source","value":"google"}, "next", "back", "next", "next"]}"#,
    ])
    func aRunWithoutATranscriptChecksTheSame(text: String) throws {
        let script = try AnswerScript(text: text)
        let full = HeadlessRun(survey: survey, script: script, seed: 3)
        var lines: [String] = []
        let bare = HeadlessRun(survey: survey, script: script, seed: 3, keepsTranscript: false)
        let printed = HeadlessRun(
            survey: survey, script: script, seed: 3, output: { lines.append($0) }, keepsTranscript: false)
        #expect(!full.eventLines.isEmpty && bare.eventLines.isEmpty && printed.eventLines.isEmpty)
        #expect(lines == full.eventLines)
        for run in [bare, printed] {
            #expect(run.failure == full.failure && run.outcome.result == full.outcome.result)
            #expect(run.path == full.path && run.finalState == full.finalState)
            #expect(run.progressTrail == full.progressTrail && run.shownSteps == full.shownSteps)
        }
    }

    @Test func headlessFailsOnAnInvalidAnswer() {
        let run = HeadlessRun(survey: survey, script: .answers(["source": "google", "rating": 9]))
        #expect(run.failure?.message.hasPrefix("the scripted answer for 'rating' is invalid") == true)
    }

    @Test func headlessActionsCanGoBackAndChangeAnAnswer() throws {
        let script = try AnswerScript(
            text: """
                {"actions": ["next", {"command":"answer","stepId":"source","value":"google"}, "next", "next",
                 {"command":"answer","stepId":"rating","value":1}, "next", "back",
                 {"command":"answer","stepId":"rating","value":5}, "next", "next"]}
                """)
        let run = HeadlessRun(survey: survey, script: script)
        #expect(run.failure == nil)
        #expect(run.path == ["welcome", "source", "goals", "rating", "thanks"])
        #expect(run.answers == ["source": "google", "rating": 5])
    }

    @Test func headlessActionsThatEndEarlyFail() throws {
        let run = HeadlessRun(survey: survey, script: .actions([.next]))
        #expect(run.failure?.code == "scriptEnded")
    }

    @Test func textAsksOtherTextAndReasksWithTheTypesMessage() {
        let (outcome, text) = runText(survey, ["", "15", "", "Podcast", "", "9", "5", ""])
        #expect(text.contains("Please describe your 'Other' answer."))
        #expect(text.contains("Enter a value of at most 5."))
        #expect(outcome.result?.answers == ["source": "podcast", "rating": 5])
    }

    @Test func textBackAndQuitKeepTheAnswers() {
        let (outcome, text) = runText(survey, ["", "google", "b", "", "q"])
        guard case .quit(let state, _) = outcome else {
            Issue.record("expected quit")
            return
        }
        #expect(state.answers == ["source": "google"])
        #expect(state.path == ["welcome", "source", "goals"])
        #expect(text.contains("= Google"))
    }

    @Test func textAsksAMatrixRowByRowAndARanking() throws {
        let poll = try Fixtures.survey("exit-poll.json")
        let (outcome, text) = runText(
            poll, ["y", "9", "3", "2", "3,1,2", "Nice app", "", "/tmp/note.m4a"])
        #expect(text.contains("☺ Happy"))
        #expect(text.contains("0  1  2  3  4  5  6  7  8  9  10"))
        #expect(
            outcome.result?.answers == [
                "mood": true, "likely": 9, "importance": ["Sync": "Important", "Widgets": "Neutral"],
                "order": ["Design", "Speed", "Price"], "why": "Nice app",
                "voice": ["file": "/tmp/note.m4a", "format": "m4a"],
            ])
    }

    @Test func testKitReportsWhatDiffered() throws {
        let run = try SurveyRun(text: Fixtures.text("onboarding.json"), answers: ["source": "google", "rating": 5])
        try run.expectPath(["welcome", "source", "goals", "rating", "thanks"])
        try run.expectAnswers(["source": "google", "rating": 5])
        try run.expectProgress([(0, 4), (1, 4), (2, 4), (3, 4), (3, 3)])
        let error = #expect(throws: SurveyRunError.self) {
            try run.expectPath(["welcome", "source", "rating"])
        }
        #expect(error?.message.contains("first difference at step 3: expected 'rating', got 'goals'") == true)
        let answersError = #expect(throws: SurveyRunError.self) { try run.expectAnswers(["source": "tiktok"]) }
        #expect(answersError?.message.contains(#"source: expected "tiktok", got "google""#) == true)
        #expect(answersError?.message.contains("rating: not expected, got 5") == true)
    }

    @Test func recordingRendererSeesEveryRequestAndEvent() {
        var recorder = RecordingRenderer(
            ScriptedRenderer(actions: [.next, .answer(stepID: "source", value: "x-nope")]))
        var driver = SurveyDriver(session: SurveySession(survey: survey))
        _ = driver.run(with: &recorder)
        #expect(recorder.requests.map(\.presentation.unitID) == ["welcome", "source", "source"])
        #expect(recorder.actions.last == .quit)
        #expect(recorder.events.contains { if case .answered(stepID: "source", _) = $0 { true } else { false } })
    }
}

@Test func theActionLimitGrowsWithTheSurvey() {
    #expect(HeadlessRenderer.defaultActionLimit(steps: 10) == 100_000)
    #expect(HeadlessRenderer.defaultActionLimit(steps: 100_000) == 2_000_020)
}

import SurveyCore
import SurveyRendering
import Testing

/// An exchange gives, command by command, exactly the events the JSON-event front end prints for the
/// same commands sent as lines.
@Suite struct EventExchangeTests {
    static let conversations: [[String]] = [
        [
            #""next""#, #"{"command":"answer","stepId":"source","value":"google"}"#, #""next""#,
            #"{"command":"answer","stepId":"goals","value":"oops"}"#,
            #"{"command":"answer","stepId":"goals","value":["track"]}"#,
            #""next""#, #""back""#, #""next""#, #"{"command":"answer","stepId":"rating","value":2}"#, #""next""#,
            #"{"command":"answer","stepId":"contact-me","value":true}"#, #""next""#,
            #"{"command":"answer","stepId":"contact","value":{"name":"Ada","email":"ada@example.com"}}"#, #""next""#,
            #""next""#,
        ],
        [#""back""#, #"{"command":"answer","stepId":"rating","value":5}"#, #""next""#, #""dismiss""#],
        [#""next""#, #""next""#],
    ]

    @Test(arguments: conversations.indices)
    func eventsAreThoseOfTheLineProtocol(index: Int) throws {
        let survey = try Fixtures.survey("onboarding.json")
        let lines = Self.conversations[index]
        let (_, expected) = runJSON(survey, lines)
        var exchange = EventExchange(driver: SurveyDriver(session: SurveySession(survey: survey)))
        var events = exchange.start()
        for line in lines where !exchange.isFinished {
            events += exchange.perform(try EventProtocol.command(fromLine: line))
        }
        // The line protocol's input ends after the last line: that is a quit.
        if !exchange.isFinished { events += exchange.perform(.quit) }
        #expect(events == expected)
        #expect(exchange.isFinished)
        #expect(exchange.perform(.next).first?["code"] == "finished")
    }

    @Test func restateShowsTheCurrentUnitAgainAndChangesNothing() throws {
        let survey = try Fixtures.survey("onboarding.json")
        var exchange = EventExchange(driver: SurveyDriver(session: SurveySession(survey: survey)))
        _ = exchange.start()
        _ = exchange.perform(.next)
        let before = exchange.session.state
        let events = exchange.restate()
        #expect(events.map { $0["event"] } == ["started", "step", "progress"])
        #expect(events.first?["resumed"] == true)
        #expect(events[1]["step"]?["unitId"] == "source")
        #expect(exchange.session.state == before)
        // The next command's events follow on from what was restated.
        #expect(exchange.perform(.answer(stepID: "source", value: "google")).map { $0["event"] } == ["answered"])
    }
}

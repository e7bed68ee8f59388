import SurveyBuiltins
import SurveyCore
import SurveyRendering
import SurveyTestKit
import Testing

/// Panels and validator notices as the JSON-event protocol and the terminal show them.
@Suite struct PanelAndNoticeFrontEndTests {
    static let survey = """
        {"formatVersion": 1, "id": "pn", "title": "Panels", "steps": [
          {"id": "p1", "type": "page", "title": "About you", "steps": [
            {"id": "name", "type": "text", "title": "Name"},
            {"id": "home", "type": "panel", "title": "Your home", "description": "Optional", "required": true, "steps": [
              {"id": "rooms", "type": "number", "title": "Rooms",
               "validators": [{"type": "numeric", "maxValue": 20, "notificationType": "warning", "text": "That is a lot of rooms."}]},
              {"id": "garden", "type": "panel", "title": "Garden", "steps": [{"id": "trees", "type": "text", "title": "Trees"}]}
            ]}
          ]},
          {"id": "end", "type": "text", "title": "End"}
        ]}
        """

    static func load() throws -> Survey {
        try SurveyLoader(registry: .builtins()).load(text: survey, source: "pn.json")
    }

    @Test func theStepEventListsPanelsAndEachQuestionsPanel() throws {
        let (_, events) = runJSON(
            try Self.load(),
            [
                #"{"command":"next"}"#, #"{"command":"answer","stepId":"rooms","value":30}"#, #"{"command":"next"}"#,
                "quit",
            ])
        let first = try #require(events.first { $0.event == "step" }?["step"])
        #expect(
            first["panels"] == [
                ["id": "home", "title": "Your home", "description": "Optional", "required": true],
                ["id": "garden", "parent": "home", "title": "Garden", "required": false],
            ])
        #expect(first["questions"]?.arrayValue?.map { $0["panel"] } == [nil, "home", "garden"])
        // Next without an answer in the panel: one error, on the panel.
        let refusal = try #require(events.first { $0.event == "validation-error" })
        #expect(refusal["errors"]?.arrayValue?.map { $0["stepId"] } == ["home"])
        #expect(refusal["errors"]?.arrayValue?.first?["code"] == "panelRequired")
        // The warning shows with the answer and does not block the second Next.
        let warned = events.last { $0.event == "step" && $0["step"]?["unitId"] == "p1" }
        let rooms = warned?["step"]?["questions"]?.arrayValue?.first { $0["id"] == "rooms" }
        #expect(rooms?["notices"]?.arrayValue?.first?["severity"] == "warning")
        #expect(rooms?["notices"]?.arrayValue?.first?["message"] == "That is a lot of rooms.")
        #expect(events.contains { $0.event == "step" && $0["step"]?["unitId"] == "end" })
    }

    @Test func theTerminalPrintsPanelHeadingsAndNotices() throws {
        let (_, output) = runText(try Self.load(), ["Ada", "30", "", "x"])
        #expect(output.contains("— Your home *\nOptional"), "\(output)")
        #expect(output.contains("— Garden"))
        #expect(output.contains("⚠ That is a lot of rooms."))
        #expect(output.contains("End"))
    }
}

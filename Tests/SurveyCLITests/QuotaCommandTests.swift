import Foundation
import Testing

/// Quotas through the built binary: `survey run --renderer json` ends an over-quota respondent's
/// survey with an `ended` event, and `survey responses quotas` shows the live counts.
@Suite struct QuotaCommandTests {
    let directory: URL
    let environment: [String: String]
    let file: String
    let store: String

    static let survey = """
        {"formatVersion": 1, "id": "panel", "title": "Panel",
         "quotas": [{"id": "young", "when": "{age} = 'young'", "limit": 1,
                     "message": {"en": "Thanks, we have enough answers like yours."}},
                    {"id": "old", "when": "{age} = 'old'", "limit": 5, "action": "flag"}],
         "steps": [{"id": "p1", "type": "page", "steps": [{"id": "age", "type": "text", "title": "Age group"}]},
                   {"id": "p2", "type": "page", "steps": [{"id": "why", "type": "text", "title": "Why?"}]}]}
        """

    init() throws {
        directory = try Fixtures.temporaryDirectory()
        environment = ["XDG_DATA_HOME": directory.appendingPathComponent("xdg").path]
        file = directory.appendingPathComponent("panel.json").path
        store = directory.appendingPathComponent("responses.sqlite").path
        try Self.survey.write(toFile: file, atomically: true, encoding: .utf8)
    }

    func survey(_ arguments: [String], stdin: String = "") throws -> SurveyBinary.Result {
        try SurveyBinary.run(arguments, stdin: stdin, environment: environment, directory: directory)
    }

    func respond(_ respondent: String, age: String) throws -> [[String: Any]] {
        let commands = [
            #"{"command":"answer","stepId":"age","value":"\#(age)"}"#, #"{"command":"next"}"#, #"{"command":"next"}"#,
        ]
        let result = try survey(
            ["run", file, "--respondent", respondent, "--store", store, "--renderer", "json"],
            stdin: commands.joined(separator: "\n") + "\n")
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    @Test func anOverQuotaRespondentGetsAnEndedEventAndTheCountsAreLive() throws {
        let first = try respond("a", age: "young")
        #expect(first.contains { $0["event"] as? String == "completed" })
        let second = try respond("b", age: "young")
        let ended = second.first { $0["event"] as? String == "ended" }
        #expect(ended?["reason"] as? String == "quota", "\(second)")
        #expect((ended?["quota"] as? [String: Any])?["quotaId"] as? String == "young")
        #expect(ended?["message"] as? String == "Thanks, we have enough answers like yours.")
        #expect(!second.contains { $0["event"] as? String == "completed" }, "never a silent end")
        _ = try respond("c", age: "old")

        let text = try survey(["responses", "quotas", file, "--store", store])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(
            text.stdout
                == "young  completed  1/1  full  1 ended-by-quota  {age} = 'young'\n"
                + "old    completed  1/5  4 left  {age} = 'old'\n")
        let json = try survey(["responses", "quotas", file, "--store", store, "--format", "json"])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let quotas = object?["quotas"] as? [[String: Any]]
        #expect(quotas?.map { $0["counted"] as? Int } == [1, 1])
        #expect(quotas?.first?["full"] as? Bool == true)
        let missing = try survey(["responses", "quotas", "--store", store])
        #expect(missing.status == 2 && missing.stderr.contains("quotas needs the survey FILE"))
    }
}

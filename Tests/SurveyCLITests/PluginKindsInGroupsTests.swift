import Foundation
import SurveyTestFixtures
import Testing

/// A plugin's kind where built-in kinds go: as a repeat's item and as a matrix-dropdown's column
/// (`Tests/Fixtures/plugin-kinds-in-groups.json`, the example plugin CStarPlugin's `emoji-rating`),
/// through `survey validate`, `survey test`, both front ends of `survey run` and `survey serve`.
@Suite("Plugin kinds in repeats and matrix-dropdowns")
struct PluginKindsInGroupsTests {
    static let survey = Fixtures.path("plugin-kinds-in-groups.json")
    static let plugin = ["--plugin", PluginTests.library("CStarPlugin")]
    static let visits = #"[{"place":"Paris","mood":3},{"place":"Oslo","mood":"1"}]"#
    static let teams = #"{"red":{"mood":5},"blue":{"mood":2}}"#
    static let normalAnswers =
        #"{"teams":{"blue":{"mood":2},"red":{"mood":5}},"visits":[{"mood":3,"place":"Paris"},{"mood":1,"place":"Oslo"}]}"#

    @Test func theSurveyLoadsWithThePluginAndNamesTheKindWithout() throws {
        let valid = try PluginTests.run(["validate", Self.survey] + Self.plugin)
        #expect(valid.status == 0, "\(valid.stderr)")
        let invalid = try PluginTests.run(["validate", Self.survey])
        #expect(invalid.status == 1)
        #expect(invalid.stderr.contains("unknown type 'emoji-rating'"))
        #expect(invalid.stderr.contains("at $.steps[0].options.items[1].type"))
        #expect(invalid.stderr.contains("unknown cellType 'emoji-rating'"))
        #expect(invalid.stderr.contains("at $.steps[1].options.columns[0].cellType"))
    }

    @Test func theItemAndTheCellAreNormalisedAndCheckedByThePlugin() throws {
        let directory = try Fixtures.temporaryDirectory()
        let script = directory.appendingPathComponent("answers.json")
        let expected = directory.appendingPathComponent("expected.json")
        try #"{"visits": \#(Self.visits), "teams": \#(Self.teams)}"#.write(
            to: script, atomically: true, encoding: .utf8)
        try Self.normalAnswers.write(to: expected, atomically: true, encoding: .utf8)
        let result = try PluginTests.run(
            ["test", Self.survey, "--answers", script.path, "--expect-answers", expected.path, "--quiet"]
                + Self.plugin)
        #expect(result.status == 0, "\(result.stderr)")

        // Four faces of three: the plugin's own message, about the instance's item.
        try #"{"visits": [{"place":"Paris","mood":4},{"place":"Oslo","mood":1}], "teams": \#(Self.teams)}"#.write(
            to: script, atomically: true, encoding: .utf8)
        let refused = try PluginTests.run(["test", Self.survey, "--answers", script.path, "--quiet"] + Self.plugin)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("the scripted answer for 'visits' is invalid: Choose a face from 1 to 3."))
    }

    @Test func completesThroughTheJSONEventFrontEnd() throws {
        let lines = [
            #"{"command":"answer","stepId":"visits","value":[{"place":"Paris","mood":5},{"place":"Oslo","mood":1}]}"#,
            #"{"command":"answer","stepId":"visits","value":\#(Self.visits)}"#, #"{"command":"next"}"#,
            #"{"command":"answer","stepId":"teams","value":\#(Self.teams)}"#, #"{"command":"next"}"#,
        ]
        let result = try PluginTests.run(
            ["run", Self.survey, "--renderer", "json", "--state-file", "/dev/null"] + Self.plugin,
            stdin: lines.joined(separator: "\n") + "\n")
        #expect(result.status == 0, "\(result.stderr)")
        let events = result.stdout.split(separator: "\n").map(String.init)
        // The item is presented by the plugin's input primitive, inside the repeat's fields.
        #expect(
            events.contains {
                $0.contains(#""id":"visits""#) && $0.contains(#""max":3,"maxLabel":"😍","min":1"#)
                    && $0.contains(#""presentation":"emoji""#)
            })
        #expect(
            events.contains {
                $0.contains(#""event":"validation-error""#) && $0.contains(#""field":"0.mood""#)
                    && $0.contains(#""message":"Choose a face from 1 to 3.""#)
            })
        let completed = try #require(events.last)
        #expect(completed.contains(#""event":"completed""#))
        #expect(completed.contains(#""answers":\#(Self.normalAnswers)"#))
    }

    @Test func completesThroughTheTextFrontEndWithPipedInput() throws {
        let directory = try Fixtures.temporaryDirectory()
        let resultFile = directory.appendingPathComponent("result.json")
        let result = try PluginTests.run(
            ["run", Self.survey, "--state-file", "/dev/null", "--plain", "--result", resultFile.path] + Self.plugin,
            stdin: ["Paris", "3", "Oslo", "1", "9", "2", "5"].joined(separator: "\n") + "\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("1 = 😞 · 3 = 😍"))
        #expect(result.stdout.contains("red › Mood › "))
        // 9 faces of 5 is refused by the plugin, and red is asked again.
        #expect(result.stdout.contains("! Choose a face from 1 to 5."))
        #expect(result.stdout.contains("The survey is complete."))
        let written = try String(contentsOf: resultFile, encoding: .utf8)
        #expect(
            written.replacingOccurrences(of: " ", with: "").replacingOccurrences(of: "\n", with: "").contains(
                #""answers":{"teams":{"blue":{"mood":2},"red":{"mood":5}}"#))
    }

    /// A POST with a JSON body over one connection; the status and the body.
    static func post(port: UInt16, path: String, body: String) throws -> (status: Int, body: String) {
        let request = Array(
            ("POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: application/json\r\n"
                + "Content-Length: \(body.utf8.count)\r\n\r\n" + body).utf8)
        let text = String(decoding: try LoopbackExchange.send(request, port: port), as: UTF8.self)
        let status = text.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return (status, text.range(of: "\r\n\r\n").map { String(text[$0.upperBound...]) } ?? "")
    }

    @Test func completesThroughTheHTTPAPI() throws {
        let (process, _, _, port) = try ServeCommandTests.start(
            [Self.survey, "--listen", "127.0.0.1:0", "--no-store", "--threads", "1"] + Self.plugin)
        defer {
            kill(process.processIdentifier, SIGTERM)
            _ = ServeCommandTests.waitForExit(process)
        }
        let started = try Self.post(port: port, path: "/v1/sessions", body: "{}")
        #expect(started.status == 201, "\(started.body)")
        #expect(started.body.contains(#""max":3,"maxLabel":"😍","min":1"#))
        let session = try JSONSerialization.jsonObject(with: Data(started.body.utf8)) as? [String: Any]
        let token = try #require(session?["token"] as? String)
        let commands = """
            [{"command":"answer","stepId":"visits","value":[{"place":"Paris","mood":5},{"place":"Oslo","mood":1}]},
             {"command":"answer","stepId":"visits","value":\(Self.visits)}, "next",
             {"command":"answer","stepId":"teams","value":\(Self.teams)}, "next"]
            """
        let answered = try Self.post(port: port, path: "/v1/sessions/\(token)/commands", body: commands)
        #expect(answered.status == 200, "\(answered.body)")
        #expect(answered.body.contains(#""message":"Choose a face from 1 to 3.""#))
        #expect(answered.body.contains(#""event":"completed""#))
        #expect(answered.body.contains(#""answers":\#(Self.normalAnswers)"#))
    }

    /// A plugin built against the ABI 1.0 header (`Tests/PluginFixtures/LegacyV10`) still loads, and
    /// its kind works as a repeat's item and a matrix-dropdown's column; it passes the checker.
    @Test func aPluginOfABI10WorksInsideGroupsToo() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let legacy = PluginTests.root.appendingPathComponent("Tests/PluginFixtures/LegacyV10")
        let library = directory.appendingPathComponent("liblegacy.so").path
        let compiled = try PluginNewTests.run(
            "cc",
            [
                "-shared", "-fPIC", "-I", legacy.path, "-o", library,
                legacy.appendingPathComponent("legacy_plugin.c").path,
            ])
        try #require(compiled.status == 0, "\(compiled.stderr)")
        let survey = directory.appendingPathComponent("legacy.json")
        try """
        {"formatVersion": 1, "id": "legacy", "title": "Legacy", "steps": [
          {"id": "words", "type": "repeat", "title": "Words", "options": {"count": 1, "items": [
            {"name": "word", "type": "legacy-text", "required": true}]}},
          {"id": "grid", "type": "matrix-dropdown", "title": "Grid", "options": {"rows": ["a"],
            "columns": [{"name": "word", "cellType": "legacy-text"}]}}]}
        """.write(to: survey, atomically: true, encoding: .utf8)
        let script = directory.appendingPathComponent("answers.json")
        try #"{"words": [{"word": "old"}], "grid": {"a": {"word": "old"}}}"#.write(
            to: script, atomically: true, encoding: .utf8)
        let passed = try PluginNewTests.run(
            "survey", ["test", survey.path, "--plugin", library, "--answers", script.path, "--quiet"])
        #expect(passed.status == 0, "\(passed.stderr)")
        try #"{"words": [{"word": "old"}], "grid": {"a": {"word": "new"}}}"#.write(
            to: script, atomically: true, encoding: .utf8)
        let refused = try PluginNewTests.run(
            "survey", ["test", survey.path, "--plugin", library, "--answers", script.path, "--quiet"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("Only 'old' will do."), "\(refused.stderr)")
        let checked = try PluginNewTests.run("survey", ["plugin", "check", library])
        #expect(checked.status == 0, "\(checked.stdout)")
    }

    /// A plugin's function in a repeat item's expressions (HealthFunctions' `initials` and `bmi`).
    @Test func aPluginFunctionWorksInARepeatItem() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let survey = directory.appendingPathComponent("people.json")
        try """
        {"formatVersion": 1, "id": "people", "title": "People", "steps": [
          {"id": "people", "type": "repeat", "title": "People", "options": {"count": 2, "items": [
            {"name": "name", "type": "text"}, {"name": "kg", "type": "number"}, {"name": "cm", "type": "number"},
            {"name": "tips", "type": "boolean", "visibleIf": "bmi({panel.kg}, {panel.cm}) >= 25"},
            {"name": "initials", "expression": "initials({panel.name})"}]}}]}
        """.write(to: survey, atomically: true, encoding: .utf8)
        let script = directory.appendingPathComponent("answers.json")
        try """
        {"answers": {"people": [{"name": "Ada Lovelace", "kg": 85, "cm": 175, "tips": true},
                                {"name": "Alan Turing", "kg": 62.5, "cm": 172, "tips": true}]},
         "expectAnswers": {"people": [{"name": "Ada Lovelace", "kg": 85, "cm": 175, "tips": true, "initials": "AL"},
                                      {"name": "Alan Turing", "kg": 62.5, "cm": 172, "initials": "AT"}]}}
        """.write(to: script, atomically: true, encoding: .utf8)
        let result = try PluginNewTests.run(
            "survey",
            [
                "test", survey.path, "--answers", script.path, "--quiet", "--plugin",
                PluginTests.library("HealthFunctions"),
            ])
        #expect(result.status == 0, "\(result.stderr)")
        let without = try PluginNewTests.run("survey", ["validate", survey.path])
        #expect(without.status == 1)
        #expect(without.stderr.contains("bmi"), "\(without.stderr)")
    }
}

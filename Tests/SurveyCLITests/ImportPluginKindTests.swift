import Foundation
import SurveyTestFixtures
import Testing

/// `survey import surveyjs --plugin LIB`: a custom SurveyJS question type named like a kind the
/// plugin registers becomes that kind (CStarPlugin's `emoji-rating`): its common members converted
/// as for any question, the others its options, checked by the plugin. Without the plugin, the
/// element is left out with a note, as before.
@Suite("SurveyJS custom types as plugin kinds")
struct ImportPluginKindTests {
    static let plugin = ["--plugin", PluginTests.library("CStarPlugin")]
    static let surveyJS = #"""
        {
          "pages": [{
            "name": "p1",
            "elements": [
              {"type": "boolean", "name": "happy", "title": "Happy?"},
              {"type": "emoji-rating", "name": "mood", "title": "How was it?", "isRequired": true,
               "visibleIf": "{happy} = true", "faces": 3, "width": "50%"}
            ]
          }]
        }
        """#

    static func write(_ text: String, _ name: String) throws -> String {
        let file = try Fixtures.temporaryDirectory().appendingPathComponent(name)
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    @Test func aCustomTypeBecomesThePluginKindWithItsOwnMembersAsOptions() throws {
        let file = try Self.write(Self.surveyJS, "custom.json")
        let result = try PluginTests.run(["import", "surveyjs", file] + Self.plugin)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("0 not converted, 1 ignored (layout only)"), "\(result.stderr)")
        #expect(result.stderr.contains("the result is valid"), "\(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let steps = try #require(json["steps"] as? [[String: Any]])
        let page = try #require(steps.first?["steps"] as? [[String: Any]])
        let mood = try #require(page.first { $0["id"] as? String == "mood" }, "\(result.stdout)")
        #expect(mood["type"] as? String == "emoji-rating")
        #expect(mood["options"] as? [String: Int] == ["faces": 3])
        #expect(mood["required"] as? Bool == true)
        #expect(mood["visibleIf"] as? String == "{happy} = true")
        #expect(mood["title"] as? String == "How was it?")
    }

    @Test func theConvertedKindRunsWithThePluginsOptions() throws {
        let file = try Self.write(Self.surveyJS, "custom.json")
        let three = try Self.write(#"{"answers": {"happy": true, "mood": 3}}"#, "three.json")
        let ok = try PluginTests.run(["test", file, "--answers", three, "--quiet"] + Self.plugin)
        #expect(ok.status == 0, "\(ok.stdout)\(ok.stderr)")
        // Three faces: 5 is refused by the plugin (the option reached it).
        let five = try Self.write(#"{"answers": {"happy": true, "mood": 5}}"#, "five.json")
        let refused = try PluginTests.run(["test", file, "--answers", five, "--quiet"] + Self.plugin)
        #expect(refused.status == 1, "\(refused.stdout)\(refused.stderr)")
        #expect(refused.stderr.contains("Choose a face from 1 to 3."), "\(refused.stdout)\(refused.stderr)")
    }

    @Test func withoutThePluginTheElementIsLeftOutWithANote() throws {
        let file = try Self.write(Self.surveyJS, "custom.json")
        let result = try PluginTests.run(["import", "surveyjs", file])
        #expect(result.stderr.contains("type 'emoji-rating'"), "\(result.stderr)")
        #expect(result.stderr.contains("not a SurveyJS question type the converter knows"), "\(result.stderr)")
        #expect(result.stderr.contains("1 not converted"), "\(result.stderr)")
        #expect(!result.stdout.contains("\"mood\""))
    }
}

import Foundation
import SurveyTestFixtures
import Testing

/// An ABI 1.2 computed plugin kind (`Tests/PluginFixtures/ComputedV12`, `doubled`) through
/// `survey test`, in process and with `--isolate-plugins`: never asked, its value kept up to date
/// from its expression, and read by a later condition.
@Suite("Computed plugin kinds")
struct PluginComputedKindTests {
    static let root = Fixtures.directory.deletingLastPathComponent().deletingLastPathComponent()
    static let survey = #"""
        {"formatVersion": 1, "id": "doubling", "title": "Doubling", "steps": [
          {"id": "a", "type": "number", "title": "A number?"},
          {"id": "twice", "type": "doubled", "title": "Twice that", "options": {"of": "a"}},
          {"id": "big", "type": "text", "title": "Why so big?", "visibleIf": "{twice} > 10"}
        ]}
        """#

    @Test func theComputedValueIsKeptAndReadByConditions() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let library = directory.appendingPathComponent("libcomputed.so").path
        let build = try PluginNewTests.run(
            "cc",
            [
                "-shared", "-fPIC", "-Wall", "-Werror", "-I", Self.root.path + "/Sources/CSurveyPluginABI/include",
                "-o", library, Self.root.path + "/Tests/PluginFixtures/ComputedV12/computed_plugin.c",
            ])
        try #require(build.status == 0, "\(build.stderr)")
        let survey = directory.appendingPathComponent("survey.json")
        try Self.survey.write(to: survey, atomically: true, encoding: .utf8)
        let scripts = [
            (
                "six.json",
                #"{"answers": {"a": 6, "big": "yes"}, "expectPath": ["a", "twice", "big"], "expectAnswers": {"a": 6, "twice": 12, "big": "yes"}}"#
            ),
            (
                "two.json",
                #"{"answers": {"a": 2}, "expectPath": ["a", "twice"], "expectAnswers": {"a": 2, "twice": 4}}"#
            ),
        ]
        for (name, text) in scripts {
            try text.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        for extra in [[], ["--isolate-plugins"]] {
            let result = try PluginTests.run(
                [
                    "test", survey.path, "--plugin", library, "--answers",
                    directory.appendingPathComponent("six.json").path,
                    "--answers", directory.appendingPathComponent("two.json").path,
                ] + extra)
            #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
            #expect(result.stdout.contains("2 passed"), "\(result.stdout)")
        }
        // A script answering the computed question is refused: it is read-only.
        try #"{"answers": {"a": 2, "twice": 5}}"#.write(
            to: directory.appendingPathComponent("set.json"), atomically: true, encoding: .utf8)
        let set = try PluginTests.run(
            ["test", survey.path, "--plugin", library, "--answers", directory.appendingPathComponent("set.json").path])
        #expect(set.status == 1, "\(set.stdout)\(set.stderr)")
        #expect(set.stderr.contains("the scripted answer for 'twice' is invalid: This answer cannot be changed."))
    }
}

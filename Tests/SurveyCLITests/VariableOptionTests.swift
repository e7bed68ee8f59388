import Foundation
import Testing

/// `--var NAME=VALUE`: values for the survey's declared variables.
@Suite struct VariableOptionTests {
    static let survey = """
        {"formatVersion": 1, "id": "v", "title": "V", "variables": [{"name": "plan", "default": "free"}, {"name": "seats"}],
         "steps": [{"id": "team", "type": "text", "visibleIf": "{plan} = 'pro' and {seats} > 2"}]}
        """

    func run(_ extra: [String]) throws -> SurveyBinary.Result {
        let directory = try Fixtures.temporaryDirectory()
        let file = directory.appendingPathComponent("v.json").path
        let script = directory.appendingPathComponent("a.json").path
        try Self.survey.write(toFile: file, atomically: true, encoding: .utf8)
        try #"{"team": "blue"}"#.write(toFile: script, atomically: true, encoding: .utf8)
        return try SurveyBinary.run(["test", file, "--answers", script, "--allow-extra", "--quiet"] + extra)
    }

    @Test func valuesAreJSONOrText() throws {
        let shown = try run(["--var", "plan=pro", "--var", "seats=3", "--expect-path", "team"])
        #expect(shown.status == 0, "\(shown.stderr)")
        // Without plan=pro (the default "free" applies) the question is hidden, so the path differs.
        let hidden = try run(["--var", "seats=3", "--expect-path", "team"])
        #expect(hidden.status == 1, "\(hidden.stderr)")
        #expect(hidden.stderr.contains("expected: team"), "\(hidden.stderr)")
    }

    @Test func anUndeclaredOrMalformedVariableIsAUsageError() throws {
        let unknown = try run(["--var", "tier=gold"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("--var tier: the survey declares no variable 'tier' (it declares plan, seats)"))
        let malformed = try run(["--var", "plan"])
        #expect(malformed.status == 2)
        #expect(malformed.stderr.contains("--var must be NAME=VALUE, got 'plan'"))
    }
}

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

    /// A test case's own `variables` (what `survey paths` writes for host values), in one file and in
    /// a folder of cases; they win over `--var`, and a name the survey does not declare is an error.
    @Test func aTestCaseGivesItsOwnVariables() throws {
        let directory = try Fixtures.temporaryDirectory()
        let file = directory.appendingPathComponent("v.json").path
        try Self.survey.write(toFile: file, atomically: true, encoding: .utf8)
        let cases = directory.appendingPathComponent("cases")
        try FileManager.default.createDirectory(at: cases, withIntermediateDirectories: true)
        let shown = cases.appendingPathComponent("shown.json").path
        try #"{"answers": {"team": "blue"}, "variables": {"plan": "pro", "seats": 3}, "expectPath": ["team"]}"#
            .write(toFile: shown, atomically: true, encoding: .utf8)
        let hidden = cases.appendingPathComponent("hidden.json").path
        try #"{"answers": {}, "variables": {"seats": 3}, "expectPath": []}"#
            .write(toFile: hidden, atomically: true, encoding: .utf8)
        let one = try SurveyBinary.run(["test", file, "--answers", shown, "--quiet"])
        #expect(one.status == 0, "\(one.stderr)")
        // The case's plan wins over --var's.
        let overridden = try SurveyBinary.run(["test", file, "--answers", shown, "--var", "plan=free", "--quiet"])
        #expect(overridden.status == 0, "\(overridden.stderr)")
        let folder = try SurveyBinary.run(["test", file, "--answers", cases.path])
        #expect(folder.status == 0, "\(folder.stdout)\(folder.stderr)")
        #expect(folder.stdout.contains("2 scripts: 2 passed"), "\(folder.stdout)")
        let typo = directory.appendingPathComponent("typo.json").path
        try #"{"answers": {}, "variables": {"plna": "pro"}, "expectPath": []}"#
            .write(toFile: typo, atomically: true, encoding: .utf8)
        let refused = try SurveyBinary.run(["test", file, "--answers", typo, "--quiet"])
        #expect(refused.status == 1)
        #expect(
            refused.stderr.contains("'variables' names what this survey does not declare: plna"), "\(refused.stderr)")
    }
}

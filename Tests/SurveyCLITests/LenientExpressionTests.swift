import Foundation
import Testing

/// `--lenient-expressions`: a SurveyJS survey with an expression neither survey-core nor this engine
/// parses loads as survey-core loads it (the expression left out, with a note placed in the file);
/// without the option it does not load, and the error says how survey-core reads it.
@Suite struct LenientExpressionTests {
    static let survey = """
        {"pages": [{"name": "p1", "elements": [
          {"type": "radiogroup", "name": "pets", "choices": ["yes", "no"]},
          {"type": "text", "name": "count", "visibleIf": "$pets === 'yes'"},
          {"type": "comment", "name": "why", "visibleIf": "{pets} = 'no'"}
        ]}]}
        """

    func file() throws -> String {
        let path = try Fixtures.temporaryDirectory().appendingPathComponent("pets.surveyjs.json").path
        try Self.survey.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func withoutTheOptionTheSurveyDoesNotLoad() throws {
        let path = try file()
        let result = try SurveyBinary.run(["validate", path])
        #expect(result.status == 1)
        #expect(
            result.stderr.contains("\(path):3:3: invalid visibleIf \"$pets === 'yes'\" at column 1"), "\(result.stderr)"
        )
        #expect(result.stderr.contains("(--lenient-expressions)"), "\(result.stderr)")
        let lint = try SurveyBinary.run(["lint", path])
        #expect(lint.status == 1)
        #expect(lint.stdout.contains("[invalid-survey]"), "\(lint.stdout)")
    }

    @Test func withItTheSurveyLoadsAsInSurveyCore() throws {
        let path = try file()
        let validated = try SurveyBinary.run(["validate", "--lenient-expressions", path])
        #expect(validated.status == 0, "\(validated.stderr)")
        #expect(
            validated.stderr.contains("\(path):3:50: not converted: visibleIf \"$pets === 'yes'\""),
            "\(validated.stderr)")
        // The condition is left out, as survey-core ignores it: `count` is on the page with `why`.
        let script = try Fixtures.temporaryDirectory().appendingPathComponent("a.json").path
        try #"{"pets": "no", "count": "2", "why": "allergic"}"#.write(toFile: script, atomically: true, encoding: .utf8)
        let tested = try SurveyBinary.run([
            "test", "--lenient-expressions", path, "--answers", script, "--quiet",
        ])
        #expect(tested.status == 0, "\(tested.stdout)\(tested.stderr)")
        let lint = try SurveyBinary.run(["lint", "--lenient-expressions", path])
        #expect(lint.status == 1)
        #expect(lint.stdout.contains("[invalid-expression]"), "\(lint.stdout)")
    }

    /// The findings of a converted survey come in the order of their places in the file, the
    /// expressions left out among the linter's own.
    @Test func lintFindingsAreInTheOrderOfTheFile() throws {
        let path = try Fixtures.temporaryDirectory().appendingPathComponent("order.surveyjs.json").path
        try """
        {"pages": [{"name": "p1", "elements": [
          {"type": "radiogroup", "name": "pets", "choices": ["yes", "no"]},
          {"type": "text", "name": "kind", "visibleIf": "{pets} = 'maybe'"},
          {"type": "text", "name": "count", "visibleIf": "$pets === 'yes'"}
        ]}]}
        """.write(toFile: path, atomically: true, encoding: .utf8)
        let lint = try SurveyBinary.run(["lint", "--lenient-expressions", path])
        let lines = lint.stdout.split(separator: "\n").map(String.init)
        let choice = try #require(lines.firstIndex { $0.contains("[unknown-choice-value]") }, "\(lint.stdout)")
        let expression = try #require(lines.firstIndex { $0.contains("[invalid-expression]") }, "\(lint.stdout)")
        #expect(choice < expression, "\(lint.stdout)")
    }
}

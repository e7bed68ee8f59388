import Foundation
import SurveyBuiltins
import SurveyCore
import SurveyRendering
import Testing

/// A repeat whose count comes from an earlier answer, through the session, the terminal and the
/// JSON-event protocol, with Back, resume and replay.
@Suite struct RepeatFrontEndTests {
    static let text = """
        {"formatVersion": 1, "id": "family", "title": "Family", "steps": [
          {"id": "children", "type": "number", "title": "How many children?", "required": true,
           "options": {"min": 0, "max": 10, "integer": true}},
          {"id": "kids", "type": "repeat", "title": "About your children", "visibleIf": "{children} > 0",
           "options": {"count": "{children}", "itemTitle": "Child {panelIndex}",
             "items": [{"name": "name", "title": "Name", "required": true},
                       {"name": "age", "title": "Age", "type": "number", "options": {"min": 0, "max": 25}},
                       {"name": "school", "title": "School", "visibleIf": "{panel.age} >= 6"}]}},
          {"id": "older", "type": "text", "title": "You have {kids[0].name} and more",
           "visibleIf": "sumInArray({kids}, 'age') > 10"}
        ]}
        """

    static func load() throws -> Survey {
        try SurveyLoader(registry: .builtins()).load(text: text, source: "family.json")
    }

    @Test func theCountComesFromTheEarlierAnswerAndTheResultHasAnObjectPerInstance() throws {
        var session = SurveySession(survey: try Self.load())
        try session.answer(2, for: "children")
        session.next()
        guard case .repeating(let group) = session.currentStep?.questions.first?.input else {
            Issue.record("not a repeat")
            return
        }
        #expect(group.count == 2 && group.instanceTitles == ["Child 1", "Child 2"])
        // Partial answers are accepted while filling in; Next wants every instance complete.
        try session.answer([["name": "Ada", "age": 8]], for: "kids")
        guard case .blocked(let errors) = session.next() else {
            Issue.record("an incomplete repeat went on")
            return
        }
        #expect(errors.map(\.error.code) == ["tooFewEntries"])
        try session.answer(
            [["name": "Ada", "age": 8, "school": "St Mary"], ["name": "Bob", "age": 3, "school": "x"]], for: "kids")
        session.next()
        #expect(session.currentStep?.questions.first?.title == "You have Ada and more")
        // Back, a smaller count, and the repeat asks for one instance only.
        try session.back()
        try session.back()
        try session.answer(1, for: "children")
        session.next()
        guard case .blocked(let fewer) = session.next() else {
            Issue.record("two instances for a count of one went on")
            return
        }
        #expect(fewer.map(\.error.code) == ["tooManyEntries"])
        try session.answer([["name": "Ada", "age": 12]], for: "kids")
        session.next()
        // Resume and replay give the same session.
        let resumed = try SurveySession(survey: try Self.load(), resuming: session.state)
        #expect(resumed.currentStepIDs == ["older"])
        var finishing = resumed
        guard case .completed(let result) = finishing.next() else {
            Issue.record("did not complete")
            return
        }
        #expect(result.answers["kids"] == [["name": "Ada", "age": 12]])
        #expect(result.answers["children"] == 1)
    }

    @Test func theTerminalAsksInstanceByInstanceAndSkipsHiddenItems() throws {
        let (outcome, output) = runText(try Self.load(), ["2", "Ada", "8", "St Mary", "Bob", "3", "fine"])
        #expect(output.contains("— Child 1 —") && output.contains("— Child 2 —"))
        let secondChild = try #require(output.range(of: "— Child 2 —"))
        #expect(!output[secondChild.upperBound...].contains("School ›"))
        let answers = try #require(outcome.result?.answers)
        #expect(answers["kids"] == [["name": "Ada", "age": 8, "school": "St Mary"], ["name": "Bob", "age": 3]])
        #expect(answers["older"] == "fine")
    }

    @Test func theTerminalGoesBackToTheItemAtFault() throws {
        // Child 2's name is skipped; Next refuses, and the terminal asks that name again.
        let (outcome, output) = runText(try Self.load(), ["2", "Ada", "1", "", "2", "Bob", ""])
        #expect(output.contains("Fill in 'Name'."))
        #expect(outcome.result?.answers["kids"] == [["name": "Ada", "age": 1], ["name": "Bob", "age": 2]])
    }

    @Test func anOpenRepeatAsksWhetherToAddAnother() throws {
        let survey = try SurveyLoader(registry: .builtins()).load(
            text: """
                {"formatVersion": 1, "id": "pets", "title": "Pets", "steps": [
                  {"id": "pets", "type": "repeat", "options": {"maxCount": 3, "items": [{"name": "kind"}]}}]}
                """, source: "pets.json")
        let (outcome, output) = runText(survey, ["y", "cat", "y", "dog", "n"])
        #expect(output.contains("Add an entry? [y/N]"))
        #expect(outcome.result?.answers["pets"] == [["kind": "cat"], ["kind": "dog"]])
    }

    @Test func theProtocolDescribesTheGroupAndTakesTheArray() throws {
        let (outcome, events) = runJSON(
            try Self.load(),
            [
                #"{"command":"answer","stepId":"children","value":2}"#, #"{"command":"next"}"#,
                #"{"command":"answer","stepId":"kids","value":[{"name":"Ada","age":30}]}"#,
                #"{"command":"answer","stepId":"kids","value":[{"name":"Ada","age":7},{"name":"Bob","age":2}]}"#,
                #"{"command":"next"}"#, #"{"command":"next"}"#,
            ])
        let steps = events.filter { $0.event == "step" }
        let input = try #require(
            steps.last { $0["step"]?["questions"]?.arrayValue?.first?["id"] == "kids" }?["step"]?["questions"]?
                .arrayValue?.first?["input"])
        #expect(input["kind"] == "repeat" && input["count"] == 2)
        #expect(input["hidden"] == [[], ["school"]])
        let refused = events.first { $0.event == "validation-error" }?["errors"]?.arrayValue?.first
        #expect(refused?["code"] == "aboveMaximum" && refused?["field"] == "0.age")
        #expect(outcome.result?.answers["kids"] == [["name": "Ada", "age": 7], ["name": "Bob", "age": 2]])
    }
}

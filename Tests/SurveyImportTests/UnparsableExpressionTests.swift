import SurveyBuiltins
import SurveyCore
import SurveyImport
import Testing

/// Expressions survey-core cannot parse either: it logs "Invalid expression" and runs the survey as
/// if the property were absent. By default the converter keeps them, so the load refuses the survey
/// with each one's place; with `lenientExpressions` it leaves them out with a note (checked against
/// survey-core 3.0.4: the question with the broken `visibleIf` shows, the broken `requiredIf` never
/// requires, the trigger never fires).
@Suite struct UnparsableExpressionTests {
    static let text = #"""
        {"pages": [
          {"name": "first", "elements": [
            {"type": "text", "name": "pets", "inputType": "number"},
            {"type": "text", "name": "petNames", "visibleIf": "$pets > 0"},
            {"type": "text", "name": "vet", "requiredIf": "if {pets} > 2"}]},
          {"name": "second", "visibleIf": "{pets} = 'unclosed", "elements": [{"type": "text", "name": "food"}]}],
         "triggers": [{"type": "setvalue", "expression": "{pets} ==== 3", "setToName": "food", "setValue": "kibble"}]}
        """#

    @Test func theyAreLeftOutWithANoteAndTheSurveyLoads() throws {
        let (conversion, survey) = try convertAndLoad(Self.text, lenientExpressions: true)
        #expect(
            conversion.unparsableExpressions.map(\.text) == [
                "$pets > 0", "if {pets} > 2", "{pets} = 'unclosed", "{pets} ==== 3",
            ])
        #expect(conversion.unparsableExpressions.first?.message.hasPrefix("column 1:") == true)
        #expect(conversion.unparsableExpressions.first?.path.description == "$.pages[0].elements[1].visibleIf")
        let notes = conversion.notes.filter { $0.kind == .notConverted && $0.description.contains("cannot be parsed") }
        #expect(notes.count == 4)
        #expect(survey.stepDefinition("petNames")?.visibleIf == nil)
        #expect(survey.stepDefinition("vet")?.requiredIf == nil)
    }

    @Test func anUnquotedWordBeyondASCIIIsNoExpressionInSurveyCore() throws {
        // survey-core's grammar spells unquoted words with [a-zA-Z_]: `== 예` fails there, `= '예'` parses.
        let (conversion, survey) = try convertAndLoad(
            #"""
            {"elements": [
              {"type": "radiogroup", "name": "smoke", "choices": ["예", "아니오"]},
              {"type": "text", "name": "since", "visibleIf": "{smoke} == 예"},
              {"type": "text", "name": "packs", "visibleIf": "{smoke} = '예'"}]}
            """#, lenientExpressions: true)
        #expect(conversion.unparsableExpressions.map(\.text) == ["{smoke} == 예"])
        #expect(survey.stepDefinition("since")?.visibleIf == nil)
        #expect(survey.stepDefinition("packs")?.visibleIf != nil)
    }

    @Test func theSurveyRunsAsIfTheyWereAbsent() throws {
        let (_, survey) = try convertAndLoad(Self.text, lenientExpressions: true)
        var session = SurveySession(survey: survey)
        #expect(session.currentStep?.questions.map(\.id) == ["pets", "petNames", "vet"])
        try session.answer(5, for: "pets")
        guard case .moved(let unit) = session.next() else {
            Issue.record("the page must pass: its requiredIf is left out")
            return
        }
        #expect(unit == "second")
        #expect(session.answer(for: "food") == nil)
    }

    @Test func byDefaultTheyAreKeptAndTheLoadRefusesEachWithItsPlaceAndAHint() throws {
        let conversion = try SurveyJSImporter.convert(text: Self.text, source: "in.json", id: "in")
        #expect(conversion.unparsableExpressions.isEmpty)
        let source = SurveySource(loader: SurveyLoader(registry: .builtins()))
        do {
            _ = try source.load(Self.text, file: "in.json")
            Issue.record("expected the load to refuse the survey")
        } catch {
            let syntax = error.errors.filter { $0.kind == .expressionSyntax }
            #expect(syntax.count == 4, "\(error.errors)")
            let first = try #require(syntax.first { $0.message.contains("$pets > 0") })
            #expect(first.description.hasPrefix("in.json:4:5:"), "\(first.description)")
            #expect(first.message.contains(#"invalid visibleIf "$pets > 0" at column 1"#))
            #expect(first.message.contains("--lenient-expressions"))
        }
        var lenient = source
        lenient.lenientExpressions = true
        let survey = try lenient.load(Self.text, file: "in.json")
        #expect(survey.stepDefinition("petNames")?.visibleIf == nil)
    }
}

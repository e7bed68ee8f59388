import SurveyCore
import SurveyImport
import Testing

/// Expressions survey-core accepts in a SurveyJS survey that read nothing it defines (issue 42): a
/// row, panel or choice name outside one, `displayValue()` of an unknown name. Each loads and reads
/// as empty, as in survey-core, instead of being a load error; and a column's `totalExpression`.
@Suite struct OutOfContextTests {
    @Test func rowAndPanelNamesOutsideARowAreEmptyHostVariables() throws {
        let (conversion, survey) = try convertAndLoad(
            #"""
            {"pages": [{"name": "p", "elements": [
              {"type": "text", "name": "qty", "inputType": "number"},
              {"type": "paneldynamic", "name": "kids", "panelCount": 1, "templateElements": [
                {"type": "text", "name": "age"},
                {"type": "text", "name": "school", "visibleIf": "{panel.age} > 5 and {panelIndex} = 0"}]},
              {"type": "text", "name": "a", "visibleIf": "{row.price} empty and {qty} > 1"},
              {"type": "text", "name": "b", "visibleIf": "{PanelIndex} = 0 or {item} notempty"}
            ]}]}
            """#)
        #expect(conversion.hostNames.map(\.name) == ["row", "PanelIndex", "item"])
        let note = try #require(conversion.notes.first { $0.kind == .hostVariable })
        #expect(note.why.contains("only inside a matrix row"))
        var session = SurveySession(survey: survey)
        #expect(!session.isVisible("a") && !session.isVisible("b"))
        try session.answer(2, for: "qty")
        #expect(session.isVisible("a") && !session.isVisible("b"))
        // Inside the dynamic panel the names keep their meaning.
        let entry = try #require(survey.stepDefinition("kids"))
        let school = try #require(entry.options["items"]?.arrayValue?.last)
        #expect(school["visibleIf"] == "{panel.age} > 5 and {panelIndex} = 0")
    }

    @Test func displayValueOfAnUnknownNameIsEmpty() throws {
        let (conversion, survey) = try convertAndLoad(
            #"""
            {"pages": [{"name": "p", "elements": [
              {"type": "dropdown", "name": "color", "choices": [{"value": "r", "text": "Red"}]},
              {"type": "text", "name": "a", "visibleIf": "displayValue('colour') empty and displayValue('color') = 'Red'"}
            ]}]}
            """#)
        #expect(conversion.hostNames.map(\.name) == ["colour"])
        var session = SurveySession(survey: survey)
        #expect(!session.isVisible("a"))
        try session.answer("r", for: "color")
        #expect(session.isVisible("a"))
    }

    @Test func aColumnsTotalExpressionIsInTheTotals() throws {
        let text = #"""
            {"pages": [{"name": "p", "elements": [
              {"type": "text", "name": "bonus", "inputType": "number"},
              {"type": "matrixdynamic", "name": "m", "rowCount": 2, "columns": [
                {"name": "n", "cellType": "text", "inputType": "number", "totalType": "sum"},
                {"name": "top", "cellType": "text", "totalExpression": "maxInArray({matrix}, 'n') + {bonus}"},
                {"name": "twice", "cellType": "text", "totalExpression": "{row.n} * 2"},
                {"name": "bad", "cellType": "text", "totalExpression": "nosuch("}]}]}]}
            """#
        let data = try SurveyJSDataShapeTests.completed(text, ["bonus": 100, "m": [["n": 3], ["n": 4]]])
        #expect(data["m-total"] == ["n": 7, "top": 104, "twice": 14])
        let empty = try SurveyJSDataShapeTests.completed(text, [:])
        #expect(empty["m-total"]?["n"] == 0 && empty["m-total"]?["twice"] == 0)
    }
}

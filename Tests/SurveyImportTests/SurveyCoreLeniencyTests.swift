import SurveyBuiltins
import SurveyCore
import SurveyImport
import Testing

/// What survey-core 3.0.4 accepts in a SurveyJS file and this engine once refused or read another
/// way (issue 41, holdout 8): each loads here and means what it means in survey-core.
@Suite struct SurveyCoreLeniencyTests {
    static func step(_ survey: Survey, _ id: String) throws -> StepDefinition {
        try #require(survey.stepDefinition(id))
    }

    @Test func aRepeatedKeyKeepsItsLastValueWithANoteAtItsPosition() throws {
        // The doc example of parseKeepingLastKey.
        let (value, repeated) = try JSONParser.parseKeepingLastKey(#"{"a": 1, "a": 2}"#)
        #expect(value["a"] == 2)
        #expect(repeated.map(\.key) == ["a"])
        #expect(repeated.map(\.position) == [SourcePosition(line: 1, column: 10)])
        // This engine's own format stays strict.
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(#"{"a": 1, "a": 2}"#) }

        let (conversion, survey) = try convertAndLoad(
            """
            {"pages": [{"name": "p", "elements": [
              {"type": "text", "name": "city", "isRequired": true,
               "isRequired": false}
            ]}]}
            """)
        #expect(try !Self.step(survey, "city").isRequired)
        let note = try #require(conversion.notes.first { $0.kind == .repeatedKey })
        #expect(note.position == SourcePosition(line: 3, column: 4))
        #expect(note.description.hasPrefix("in.json:3:4: repeated key: 'isRequired' given twice in one object"))
        #expect(conversion.isWhole)
    }

    @Test func textsTrueAndFalseOfBooleanPropertiesAreBooleans() throws {
        let (conversion, survey) = try convertAndLoad(
            #"""
            {"pages": [{"name": "p", "elements": [
              {"type": "text", "name": "a", "isRequired": "true", "startWithNewLine": "false"},
              {"type": "text", "name": "b", "isRequired": "FALSE"},
              {"type": "text", "name": "c", "visible": "false"}
            ]}]}
            """#)
        #expect(try Self.step(survey, "a").isRequired)
        #expect(try !Self.step(survey, "b").isRequired)
        #expect(try !Self.step(survey, "c").isEnabled)
        #expect(conversion.isWhole)
    }

    @Test func textsGivenToNumberPropertiesAreReadAsParseIntReadsThem() throws {
        // survey-core's serializer runs parseInt on a text given to a number property: "3" is 3,
        // "2.9" is 2, and "abc" (NaN) or "" checks nothing.
        let (conversion, _) = try convertAndLoad(
            #"""
            {"pages": [{"name": "p", "elements": [
              {"type": "text", "name": "company", "validators": [{"type": "text", "minLength": "3"}]},
              {"type": "text", "name": "staff", "inputType": "number",
               "validators": [{"type": "numeric", "minValue": "abc", "maxValue": " 200 "}]},
              {"type": "checkbox", "name": "pick", "choices": [1, 2, 3], "maxSelectedChoices": "2.9"},
              {"type": "rating", "name": "stars", "rateMax": "7"},
              {"type": "comment", "name": "notes", "maxLength": ""}
            ]}]}
            """#)
        let steps = conversion.survey["steps"]?.arrayValue?.first?["steps"]?.arrayValue ?? []
        let byID = Dictionary(uniqueKeysWithValues: steps.map { ($0["id"]?.stringValue ?? "", $0) })
        #expect(byID["company"]?["validators"]?.arrayValue?.first?["minLength"] == 3)
        let numeric = try #require(byID["staff"]?["validators"]?.arrayValue?.first)
        #expect(numeric["minValue"] == nil)
        #expect(numeric["maxValue"] == 200)
        #expect(byID["pick"]?["options"]?["maxSelections"] == 2)
        #expect(byID["stars"]?["options"]?["stars"] == 7)
        #expect(byID["notes"]?["options"]?["maxLength"] == nil)
    }

    @Test func aDynamicPanelQuestionsDescriptionIsItsItemsDescription() throws {
        let (conversion, _) = try convertAndLoad(
            #"""
            {"pages": [{"name": "p", "elements": [
              {"type": "paneldynamic", "name": "kids", "templateElements": [
                {"type": "text", "name": "first", "description": "As on the birth certificate"}]}
            ]}]}
            """#)
        let page = conversion.survey["steps"]?.arrayValue?.first
        let item = page?["steps"]?.arrayValue?.first?["options"]?["items"]?.arrayValue?.first
        #expect(item?["description"] == "As on the birth certificate")
        #expect(conversion.isWhole)
    }

    @Test func anElementOfATypeSurveyCoreDoesNotCreateTakesNoName() throws {
        // survey-core creates no `autocomplete` (an app's widget): the dropdown is `fruit` there, and
        // a valueName naming it stores under that name.
        let (conversion, survey) = try convertAndLoad(
            #"""
            {"pages": [{"name": "p", "elements": [
              {"type": "autocomplete", "name": "fruit"},
              {"type": "dropdown", "name": "fruit", "choices": ["apple", "pear"]},
              {"type": "signature-widget", "name": "sign"},
              {"type": "text", "name": "signedBy", "valueName": "sign"},
              {"type": "checkBox", "name": "extras", "choices": ["nuts"]}
            ]}]}
            """#)
        #expect(try Self.step(survey, "fruit").type == "dropdown")
        #expect(try Self.step(survey, "sign").type == "text")
        // Types match case-insensitively, as in survey-core.
        #expect(try Self.step(survey, "extras").type == "multiple-choice")
        #expect(conversion.notes.filter { $0.kind == .notConverted }.count == 2)
    }

    @Test func secondQuestionsOfANameShareItsValueAsSurveyCoreDoes() throws {
        let (_, survey) = try convertAndLoad(
            #"""
            {"pages": [{"name": "p", "elements": [
              {"type": "radiogroup", "name": "car", "isRequired": true, "choices": ["Ford", "Audi"]},
              {"type": "dropdown", "name": "car", "isRequired": true, "choices": ["Ford", "Audi"]},
              {"type": "checkbox", "name": "car", "isRequired": true, "choices": ["Ford", "Audi"]}
            ]}]}
            """#)
        // The dropdown shows the radiogroup's answer; the checkbox, which cannot hold it, is required
        // only while the name has no value (survey-core checks the one value).
        #expect(try Self.step(survey, "car-1").defaultValueExpression == "{car}")
        let checkbox = try Self.step(survey, "car-2")
        #expect(!checkbox.isRequired)
        #expect(checkbox.requiredIf == "{car} empty")
    }

    @Test func multipleTextItemsSharingANameAreOneBox() throws {
        let (conversion, survey) = try convertAndLoad(
            #"""
            {"pages": [{"name": "p", "elements": [
              {"type": "multipletext", "name": "contact", "items": [
                {"name": "phone"}, {"name": "mail"}, {"name": "phone", "isRequired": true}],
               "validators": [{"type": "numeric", "minValue": 0}]}
            ]}]}
            """#)
        let items = try #require(Self.step(survey, "contact").options["items"]?.arrayValue)
        #expect(items.compactMap { $0["name"]?.stringValue } == ["phone", "mail"])
        #expect(items[0]["required"] == true)
        #expect(conversion.notes.contains { $0.kind == .renamed && $0.path.description.hasSuffix("items[2].name") })
        // survey-core's numeric validator refuses the whole answer, an object: only no answer passes.
        let validator = try #require(Self.step(survey, "contact").validators.first)
        #expect(validator.kind == .expression("{contact} empty"))
    }

    @Test func aCalculatedValueReadingOnlyItselfIsAHostValue() throws {
        let (conversion, survey) = try convertAndLoad(
            #"""
            {"calculatedValues": [{"name": "unit", "expression": "{unit}", "includeIntoResult": true}],
             "pages": [{"name": "p", "elements": [
              {"type": "text", "name": "km", "visibleIf": "{unit} = 'km'"}
            ]}]}
            """#)
        #expect(survey.definition.calculatedValues.isEmpty)
        #expect(survey.definition.variables.map(\.name) == ["unit"])
        #expect(conversion.notes.contains { $0.kind == .hostVariable && $0.what.contains("calculated value 'unit'") })
    }

    @Test func layoutOnlyPropertiesAreNotBehaviourNotes() throws {
        let (conversion, _) = try convertAndLoad(
            #"""
            {"progressBarLocation": "top", "checkErrorsMode": "onValueChanged", "name": "roster",
             "pages": [{"name": "p", "elements": [
              {"type": "boolean", "name": "ok", "swapOrder": true, "label": "OK?"},
              {"type": "text", "name": "t", "choices": ["x"], "hasSelectAll": true},
              {"type": "dropdown", "name": "d", "choices": ["x"], "hasSelectAll": false}
            ]}]}
            """#)
        #expect(conversion.isWhole)
        let lines = conversion.noteLines(file: "in.json")
        #expect(
            lines.contains {
                $0.hasPrefix("in.json: layout only, no effect here") && $0.contains("progressBarLocation")
            })
        #expect(conversion.notes.contains { $0.kind == .custom && $0.path.description == "$.name" })
    }
}

extension SurveyCoreLeniencyTests {
    @Test func aQuestionNamedEmptyIsKeyedSoInSurveyCoresDataShape() throws {
        // survey-core keeps the name "" (and reports it as required); the next unnamed question is
        // still question1 there.
        let (conversion, survey) = try convertAndLoad(
            #"""
            {"pages": [{"name": "p", "elements": [
              {"type": "checkbox", "name": "", "choices": ["No promotions, please"]},
              {"type": "text"}
            ]}]}
            """#)
        #expect(try Self.step(survey, "empty-name-1").type == "multiple-choice")
        #expect(try Self.step(survey, "question1").type == "text")
        #expect(conversion.notes.contains { $0.kind == .renamed && $0.what == "a question named ''" })
        let shape = try #require(SurveyJSDataShape(survey))
        let answers = shape.scriptAnswers(["": ["No promotions, please"], "question1": "x"])
        #expect(answers == ["empty-name-1": ["No promotions, please"], "question1": "x"])
        #expect(
            shape.answers(fromShaped: ["": ["No promotions, please"]]) == ["empty-name-1": ["No promotions, please"]])
        var shaped = survey
        shaped.resultShape = shape
        var session = SurveySession(survey: shaped)
        try session.answer(["No promotions, please"], for: "empty-name-1")
        try session.answer("x", for: "question1")
        session.next()
        #expect(session.status == .completed)
        #expect(session.completionResult().answers == ["": ["No promotions, please"], "question1": "x"])
        // A script expecting the answer under '' (as `survey paths` writes it) fits the survey.
        #expect(shape.addedKeys.contains(""))
    }
}

import SurveyBuiltins
import SurveyCore
import SurveyImport
import Testing

/// What real SurveyJS surveys do that survey-core accepts: each loads here and means what it means
/// in survey-core (issue 41). The surveys are the team's own, each showing one pattern.
@Suite struct WildSurveyTests {
    static func step(_ survey: Survey, _ id: String) throws -> StepDefinition {
        try #require(survey.stepDefinition(id))
    }

    @Test func namesNothingDefinesAreHostVariablesEmptyUntilSet() throws {
        let (conversion, survey) = try convertAndLoad(
            #"""
            {"pages": [{"name": "p", "elements": [
              {"type": "text", "name": "age", "inputType": "number"},
              {"type": "text", "name": "grade", "visibleIf": "{materialType} = 'steel' or {AGE} > 10"},
              {"type": "html", "name": "hi", "html": "Welcome, {userName}!"}
            ]}]}
            """#)
        #expect(survey.definition.variables.map(\.name) == ["materialType", "userName"])
        // survey-core matches names whatever their case: {AGE} reads age.
        #expect(try Self.step(survey, "grade").visibleIf == "{materialType} = 'steel' or {age} > 10")
        #expect(conversion.hostNames.map(\.name) == ["materialType", "userName"])
        #expect(conversion.hostNames.first?.path.description == "$.pages[0].elements[1].visibleIf")
        #expect(conversion.notes.filter { $0.kind == .hostVariable }.count == 2)
        #expect(conversion.isWhole)

        var session = SurveySession(survey: survey, variables: ["materialType": "steel"])
        #expect(session.isVisible("grade"))
        session = SurveySession(survey: survey)
        #expect(!session.isVisible("grade"))
        try session.answer(11, for: "age")
        #expect(session.isVisible("grade"))
    }

    @Test func aReferenceToALeftOutQuestionReadsAsEmptyAsInSurveyCore() throws {
        // survey-core drops an element of a type nobody registered (an app's custom widget) and reads
        // its name as empty; so does this engine, with a note naming the left-out element, and the host
        // may still set it. Its name in a title, a condition and inside a dynamic panel all load.
        let (conversion, survey) = try convertAndLoad(
            #"""
            {"pages": [{"name": "p", "elements": [
              {"type": "bootstrapslider", "name": "kids"},
              {"type": "text", "name": "n", "title": "About {kids}", "visibleIf": "{kids} notempty"},
              {"type": "paneldynamic", "name": "each", "templateElements": [
                {"type": "text", "name": "age", "visibleIf": "{kids} > 1"}]}]}]}
            """#)
        #expect(conversion.hostNames.map(\.name) == ["kids"])
        #expect(!conversion.isWhole)
        let note = try #require(conversion.notes.first { $0.kind == .hostVariable })
        #expect(note.description.contains("the element named 'kids' was left out"), "\(note)")
        var session = SurveySession(survey: survey)
        #expect(!session.isVisible("n"))
        session = SurveySession(survey: survey, variables: ["kids": 2])
        #expect(session.isVisible("n"))
    }

    @Test func anHtmlElementOrPanelNamedLikeAHostValueGivesWay() throws {
        let (conversion, survey) = try convertAndLoad(
            #"""
            {"pages": [
              {"name": "p1", "elements": [
                {"type": "html", "name": "consent", "html": "Hi", "visibleIf": "{consent} = 'true'"},
                {"type": "panel", "name": "box", "elements": [{"type": "text", "name": "a"}]},
                {"type": "text", "name": "b", "visibleIf": "{box} = 'true'"}]},
              {"name": "p2", "visibleIf": "{intro} = 'true'", "elements": [
                {"type": "html", "name": "intro", "html": "x"}, {"type": "text", "name": "c"}]}]}
            """#)
        #expect(Set(survey.definition.variables.map(\.name)) == ["consent", "box", "intro"])
        let renamed = conversion.notes.filter { $0.kind == .renamed }.map(\.description)
        #expect(renamed.contains { $0.contains("html element 'consent' is now 'consent-html'") }, "\(renamed)")
        #expect(renamed.contains { $0.contains("panel 'box' is now 'box-panel'") }, "\(renamed)")
        #expect(renamed.contains { $0.contains("html element 'intro' is now 'intro-html'") }, "\(renamed)")
        let session = SurveySession(survey: survey, variables: ["intro": "true"])
        #expect(session.currentStepIDs.contains("a"))
    }

    @Test func valueBarTextChoicesAreSplit() throws {
        let (_, survey) = try convertAndLoad(
            #"""
            {"elements": [{"type": "radiogroup", "name": "price", "choices": ["low|Too low", "ok|About right", {"value": "high|Too high"}, {"value": "x|y", "text": "Own text"}]}]}
            """#)
        let choices = try #require(try Self.step(survey, "price").options["choices"]?.arrayValue)
        #expect(choices.map { $0["value"] } == ["low", "ok", "high", "x"])
        #expect(choices.map { $0["label"] } == ["Too low", "About right", "Too high", "Own text"])
        var session = SurveySession(survey: survey)
        #expect(try session.answer("low", for: "price") == "low")
    }

    @Test func unnamedRepeatedAndClashingNamesLoadAsSurveyCoreNamesThem() throws {
        let (conversion, survey) = try convertAndLoad(
            #"""
            {"pages": [
              {"name": "start", "elements": [
                {"type": "html", "html": "Hello"},
                {"type": "text", "name": "question2"},
                {"type": "panel", "name": "meds", "elements": [{"type": "radiogroup", "name": "meds", "choices": ["Yes", "No"]}]},
                {"type": "text", "name": "list", "visibleIf": "{meds} = 'Yes'"}
              ]},
              {"name": "start", "elements": [{"type": "text", "name": "question2"}]},
              {"name": "empty", "elements": []},
              {"name": "more", "elements": [{"type": "panel", "name": "nothing"}, {"type": "text", "name": "last"}]}
            ]}
            """#)
        // The unnamed html block takes the first free number; the repeated question a name of its own.
        #expect(survey.stepIDs == ["question1", "question2", "meds", "list", "question2-1", "last"])
        #expect(survey.unitIDs == ["start", "start-2", "more"])
        // survey-core shows one value in both: the second starts with the first one's answer.
        #expect(conversion.notes.contains { $0.kind == .renamed && $0.what == "a second question named 'question2'" })
        #expect(conversion.notes.contains { $0.kind == .renamed && $0.what == "panel 'meds' is now 'meds-panel1'" })
        #expect(conversion.notes.contains { $0.what == "page 'empty' with nothing to ask" })
        #expect(conversion.notes.contains { $0.what == "panel 'nothing' with nothing to ask" })
        var session = SurveySession(survey: survey)
        try session.answer("Yes", for: "meds")
        #expect(session.isVisible("list"))
        try session.answer("seen twice", for: "question2")
        #expect(session.answer(for: "question2-1") == "seen twice")
    }

    @Test func choicesFromAnotherQuestionReplaceListedPlaceholders() throws {
        let (_, survey) = try convertAndLoad(
            #"""
            {"elements": [
              {"type": "checkbox", "name": "tried", "choices": ["tea", "coffee"]},
              {"type": "radiogroup", "name": "best", "choicesFromQuestion": "tried", "choices": ["item1", "item2"]}
            ]}
            """#)
        var session = SurveySession(survey: survey)
        try session.answer(["tea", "coffee"], for: "tried")
        #expect(try session.answer("coffee", for: "best") == "coffee")
        #expect(throws: SessionError.self) { try session.answer("item1", for: "best") }
    }

    @Test func aDynamicMatrixColumnReadsItsRow() throws {
        let (conversion, _) = try convertAndLoad(
            #"""
            {"elements": [{"type": "matrixdynamic", "name": "meds", "rowCount": 1, "columns": [
              {"name": "name", "cellType": "text"},
              {"name": "dose", "cellType": "text", "visibleIf": "{row.name} notempty and {ROWINDEX} < 3"}
            ]}]}
            """#)
        let page = conversion.survey["steps"]?.arrayValue?.first
        let items = page?["steps"]?.arrayValue?.first?["options"]?["items"]?.arrayValue ?? []
        // survey-core's rowIndex counts from 1, panelIndex from 0.
        #expect(items.last?["visibleIf"] == "{panel.name} notempty and ({panelIndex} + 1) < 3")
    }

    @Test func visibleFalseLeavesTheElementToItsCondition() throws {
        let (_, survey) = try convertAndLoad(
            #"""
            {"elements": [
              {"type": "boolean", "name": "more"},
              {"type": "text", "name": "why", "visible": false, "visibleIf": "{more} = true"},
              {"type": "text", "name": "off", "visible": false}
            ]}
            """#)
        var session = SurveySession(survey: survey)
        #expect(!session.isVisible("why") && !session.isVisible("off"))
        try session.answer(true, for: "more")
        #expect(session.isVisible("why") && !session.isVisible("off"))
    }

    @Test func defectsSurveyCoreToleratesAreLeftOutWithANote() throws {
        let (conversion, survey) = try convertAndLoad(
            #"""
            {"elements": [{"type": "radiogroup", "name": "a", "choices": ["x", "y", "x"],
              "validators": [{"type": "expression", "text": "never checked"}]}]}
            """#)
        #expect(try Self.step(survey, "a").options["choices"] == ["x", "y"])
        #expect(try Self.step(survey, "a").validators.isEmpty)
        #expect(conversion.notes.contains { $0.what == "a second choice with the value 'x'" })
        #expect(conversion.notes.contains { $0.what == "an expression validator without an expression" })
    }

    @Test func aListedOtherChoiceIsAPlainChoice() throws {
        // survey-core's Other item exists only with showOtherItem: a listed 'other' is stored as 'other'.
        let (conversion, survey) = try convertAndLoad(
            #"{"elements": [{"type": "radiogroup", "name": "gender", "choices": ["female", "male", {"value": "other", "text": "Self-described"}]}]}"#
        )
        #expect(conversion.isWhole)
        #expect(try Self.step(survey, "gender").options["other"] == nil)
        var session = SurveySession(survey: survey)
        #expect(try session.answer("other", for: "gender") == "other")
        #expect(throws: SessionError.self) { try session.answer("agender", for: "gender") }
    }

    @Test func aMaskedPhoneNumberIsCheckedByItsMaskAndStoredAsItsDigits() throws {
        let (conversion, survey) = try convertAndLoad(
            #"""
            {"elements": [{"type": "text", "name": "phone", "inputType": "tel", "maskType": "pattern",
              "maskSettings": {"pattern": "(99) 9999 99999"}}]}
            """#)
        #expect(conversion.isWhole)
        var session = SurveySession(survey: survey)
        #expect(try session.answer("(55) 6243 50594", for: "phone") == "55624350594")
        #expect(throws: SessionError.self) { try session.answer("(55) 6243", for: "phone") }
    }

    @Test func aRatingColumnAsksOneOfItsValues() throws {
        let (conversion, survey) = try convertAndLoad(
            #"""
            {"elements": [{"type": "matrixdropdown", "name": "service", "rows": ["sales"], "columns": [
              {"name": "speed", "cellType": "rating", "rateMax": 3, "minRateDescription": "Poor"}]}]}
            """#)
        #expect(conversion.isWhole)
        var session = SurveySession(survey: survey)
        #expect(try session.answer(["sales": ["speed": 3]], for: "service") == ["sales": ["speed": 3]])
        #expect(throws: SessionError.self) { try session.answer(["sales": ["speed": 4]], for: "service") }
    }

    @Test func questionPerPageAsksEachQuestionOnAPageOfItsOwn() throws {
        let (conversion, survey) = try convertAndLoad(
            #"""
            {"questionsOnPageMode": "questionPerPage", "pages": [{"name": "p", "elements": [
              {"type": "text", "name": "a"}, {"type": "text", "name": "b", "visibleIf": "{zz} = 1"}]}]}
            """#)
        #expect(survey.unitIDs == ["p", "p-2"])
        #expect(conversion.notes.contains { $0.what == "page 'p' is now 'p-2' for 'b'" })
        // Errors and notes still point at the SurveyJS element.
        #expect(
            conversion.origin(of: .root.appending("steps").appending(1).appending("steps").appending(0))?.description
                == "$.pages[0].elements[1]")
        #expect(conversion.hostNames.first?.path.description == "$.pages[0].elements[1].visibleIf")
    }

    @Test func aDateDefaultAsBrowsersWriteItIsReadAsADate() throws {
        let (conversion, survey) = try convertAndLoad(
            #"""
            {"elements": [
              {"type": "text", "name": "born", "inputType": "datetime-local", "defaultValue": "11/22/1982 12:00:00"},
              {"type": "text", "name": "day", "inputType": "date", "defaultValue": "2/3/2001"}]}
            """#)
        #expect(try Self.step(survey, "born").defaultValue == "1982-11-22T12:00")
        #expect(try Self.step(survey, "day").defaultValue == "2001-02-03")
        #expect(conversion.notes.contains { $0.what == "defaultValue '11/22/1982 12:00:00'" })
    }
    @Test func aQuizIsScoredAsSurveyCoreScoresIt() throws {
        let (conversion, survey) = try convertAndLoad(
            #"""
            {"completedHtml": "You got {correctAnswers} of {questionCount}.", "pages": [{"name": "p", "elements": [
              {"type": "radiogroup", "name": "capital", "choices": ["Lyon", "Paris"], "correctAnswer": "Paris"},
              {"type": "checkbox", "name": "primes", "choices": [2, 4, 5], "correctAnswer": [2, 5]},
              {"type": "boolean", "name": "round", "correctAnswer": true}]}]}
            """#)
        #expect(conversion.hostNames.isEmpty)
        var session = SurveySession(survey: survey)
        #expect(session.calculatedValue("questionCount") == 3)
        #expect(session.calculatedValue("correctAnswers") == 0)
        try session.answer("Paris", for: "capital")
        try session.answer([5, 2], for: "primes")
        try session.answer(false, for: "round")
        #expect(session.calculatedValue("correctAnswers") == 2)
        #expect(session.calculatedValue("incorrectAnswers") == 1)
    }
    @Test func aDefaultWrittenAsAnExpressionIsComputed() throws {
        let (_, survey) = try convertAndLoad(
            #"{"elements": [{"type": "text", "name": "n", "inputType": "number", "defaultValue": "=1+2"}]}"#)
        #expect(try Self.step(survey, "n").defaultValueExpression == "1+2")
        #expect(SurveySession(survey: survey).answer(for: "n") == 3)
    }
}

/// Groups inside a dynamic panel: layout panels are opened (their visibleIf joins each question's),
/// and a dynamic matrix in each panel is a repeat in each instance.
@Suite struct DynamicPanelGroupTests {
    static let survey = #"""
        {"elements": [{"type": "paneldynamic", "name": "relatives", "templateElements": [
          {"type": "radiogroup", "name": "status", "choices": ["Living", "Deceased"]},
          {"type": "panel", "name": "death", "visibleIf": "{panel.status} = 'Deceased'", "elements": [
            {"type": "radiogroup", "name": "known", "choices": ["Yes", "No"]},
            {"type": "comment", "name": "cause", "visibleIf": "{panel.known} = 'Yes'"}]},
          {"type": "html", "name": "note", "html": "<b>Conditions</b>"},
          {"type": "matrixdynamic", "name": "conditions", "rowCount": 1, "cellType": "text",
           "columns": [{"name": "condition"}, {"name": "age"}]}]}]}
        """#

    @Test func panelsOpenAndMatricesRepeatInEachInstance() throws {
        let (conversion, survey) = try convertAndLoad(Self.survey)
        #expect(!conversion.notes.contains { $0.kind == .notConverted })
        let items = try #require(WildSurveyTests.step(survey, "relatives").options["items"]?.arrayValue)
        #expect(items.compactMap { $0["name"]?.stringValue } == ["status", "known", "cause", "conditions"])
        #expect(items[2]["visibleIf"] == "({panel.status} = 'Deceased') and ({panel.known} = 'Yes')")
        #expect(items[3]["type"] == "repeat")

        var session = SurveySession(survey: survey)
        let given: JSONValue = [
            [
                "status": "Deceased", "known": "Yes", "cause": "Stroke",
                "conditions": [["condition": "Asthma", "age": "40"]],
            ],
            ["status": "Living", "known": "No", "cause": "—"],
        ]
        // Items their panel hides are dropped, as survey-core clears them.
        #expect(
            try session.answer(given, for: "relatives") == [
                [
                    "status": "Deceased", "known": "Yes", "cause": "Stroke",
                    "conditions": [["condition": "Asthma", "age": "40"]],
                ],
                ["status": "Living"],
            ])
        // The inner group is checked by its own kind.
        #expect(throws: SessionError.self) {
            try session.answer([["conditions": [["colour": "red"]]]], for: "relatives")
        }
    }

    @Test func aDynamicMatrixKeepsAHiddenCellADynamicPanelClearsIt() throws {
        // survey-core 3.0.4 stores {"t": ["a"], "y": "x"} for the matrix and {"t": ["a"]} for the panel.
        let (_, survey) = try convertAndLoad(
            #"""
            {"elements": [
              {"type": "matrixdynamic", "name": "m", "columns": [
                {"name": "t", "cellType": "checkbox", "choices": ["a", "b"]},
                {"name": "y", "cellType": "text", "visibleIf": "{row.t} contains 'b'"}]},
              {"type": "paneldynamic", "name": "p", "templateElements": [
                {"type": "checkbox", "name": "t", "choices": ["a", "b"]},
                {"type": "text", "name": "y", "visibleIf": "{panel.t} contains 'b'"}]}]}
            """#)
        #expect(try WildSurveyTests.step(survey, "m").options["clearHidden"] == false)
        var session = SurveySession(survey: survey)
        #expect(try session.answer([["t": ["a"], "y": "x"]], for: "m") == [["t": ["a"], "y": "x"]])
        #expect(try session.answer([["t": ["a"], "y": "x"]], for: "p") == [["t": ["a"]]])
    }

    @Test func anItemsCountFromAnExpressionIsRefusedWithItsPlace() throws {
        let text = #"""
            {"formatVersion": 1, "id": "s", "title": "S", "steps": [{"id": "r", "type": "repeat", "options": {"items": [
              {"name": "inner", "type": "repeat", "options": {"count": "{n}", "items": [{"name": "x"}]}}]}}]}
            """#
        #expect {
            _ = try SurveyLoader(registry: .builtins()).load(text: text)
        } throws: { error in
            "\(error)".contains("an item's own count or loop cannot come from an expression")
                && "\(error)".contains("$.steps[0].options.items[0]")
        }
    }
}

/// Pages and counts as survey-core reads them.
@Suite struct WildPageTests {
    @Test func aReadOnlyPageMakesItsQuestionsReadOnlyAndNotRequired() throws {
        let (conversion, survey) = try convertAndLoad(
            #"""
            {"pages": [{"name": "p", "readOnly": true, "elements": [{"type": "text", "name": "q", "isRequired": true}]},
                       {"name": "r", "elements": [{"type": "text", "name": "s"}]}]}
            """#)
        #expect(conversion.isWhole)
        #expect(try WildSurveyTests.step(survey, "q").isReadOnly)
        var session = SurveySession(survey: survey)
        // survey-core does not check a read-only question: Next goes on.
        guard case .moved = session.next() else {
            Issue.record("Next was blocked on a read-only page")
            return
        }
        #expect(session.currentUnitID == "r")
    }

    @Test func panelCountIsWhereADynamicPanelStartsNotAMinimum() throws {
        let (_, survey) = try convertAndLoad(
            #"""
            {"elements": [{"type": "paneldynamic", "name": "kids", "panelCount": 2, "minPanelCount": 1,
              "templateElements": [{"type": "text", "name": "n"}]}]}
            """#)
        #expect(try WildSurveyTests.step(survey, "kids").options["minCount"] == 1)
        var session = SurveySession(survey: survey)
        try session.answer([["n": "Ada"]], for: "kids")
        guard case .completed = session.next() else {
            Issue.record("one panel was refused")
            return
        }
    }
}

/// `valueName`: survey-core stores a question's answer under it, and expressions read it so.
@Suite struct ValueNameTests {
    @Test func aQuestionIsItsValueNameAndASecondOneSharingItIsAskedOnce() throws {
        let (conversion, survey) = try convertAndLoad(
            #"""
            {"elements": [
              {"type": "text", "name": "q1", "valueName": "city"},
              {"type": "text", "name": "q2", "valueName": "city", "isRequired": true},
              {"type": "text", "name": "q3", "visibleIf": "{city} = 'Oslo'"},
              {"type": "paneldynamic", "name": "kids", "valueName": "children", "panelCount": 1, "templateElements": [
                {"type": "text", "name": "kidName", "valueName": "name"},
                {"type": "dropdown", "name": "kidAge", "valueName": "age", "choices": ["<5", "5+"], "defaultValue": "<5"},
                {"type": "text", "name": "school", "visibleIf": "{panel.age} = '5+'"}]}]}
            """#)
        #expect(survey.stepIDs.prefix(3) == ["city", "q2", "q3"])
        #expect(conversion.notes.contains { $0.what == "question 'q1' is now 'city'" })
        #expect(try WildSurveyTests.step(survey, "q2").isEnabled == false)
        let items = try #require(WildSurveyTests.step(survey, "children").options["items"]?.arrayValue)
        #expect(items.compactMap { $0["name"]?.stringValue } == ["name", "age", "school"])
        var session = SurveySession(survey: survey)
        try session.answer("Oslo", for: "city")
        #expect(session.isVisible("q3") && !session.isVisible("q2"))
        try session.answer([["name": "Ada", "age": "5+", "school": "North"]], for: "children")
        #expect(session.answer(for: "children") == [["name": "Ada", "age": "5+", "school": "North"]])
        // An untouched dynamic panel holds its items' defaults in survey-core's data.
        var shaped = survey
        shaped.resultShape = SurveyJSDataShape(survey)
        let fresh = SurveySession(survey: shaped)
        #expect(fresh.completionResult().answers["children"] == [["age": "<5"]])
    }

    @Test func aPageNamedLikeAValueNameGivesWayAndAHiddenSharingPanelAddsItsDefaults() throws {
        // The page `crew` and the answer `crew` are apart in survey-core; here the answer keeps the
        // name. The panel sharing the entries, on a page never shown, still puts its items' defaults
        // into every entry in survey-core's data (corpus case crew-roster-shared-panels).
        let (conversion, survey) = try convertAndLoad(
            #"""
            {"pages": [
              {"name": "crew", "elements": [
                {"type": "boolean", "name": "paid"},
                {"type": "paneldynamic", "name": "names", "valueName": "crew", "templateElements": [
                  {"type": "text", "name": "name"}]}]},
              {"name": "shifts", "visibleIf": "{paid} = true", "elements": [
                {"type": "paneldynamic", "name": "shifts", "valueName": "crew", "templateElements": [
                  {"type": "dropdown", "name": "shift", "choices": ["Day", "Night"], "defaultValue": "Day"}]}]}]}
            """#)
        #expect(conversion.notes.contains { $0.what == "question 'names' is now 'crew'" })
        #expect(conversion.notes.contains { $0.what == "page 'crew' is now 'crew-page'" })
        #expect(survey.stepIDs == ["paid", "crew", "crew-1"])
        var shaped = survey
        shaped.resultShape = SurveyJSDataShape(survey)
        var session = SurveySession(survey: shaped)
        try session.answer(false, for: "paid")
        try session.answer([["name": "Ana"], ["name": "Ben"]], for: "crew")
        #expect(
            session.completionResult().answers["crew"] == [
                ["name": "Ana", "shift": "Day"], ["name": "Ben", "shift": "Day"],
            ])
    }
}

/// Choices as real SurveyJS surveys write them (issue 41's holdout corpus).
@Suite struct WildChoiceTests {
    @Test func booleanChoiceValuesAreOfferedAndStoredAsBooleans() throws {
        let (conversion, survey) = try convertAndLoad(
            #"""
            {"elements": [{"type": "radiogroup", "name": "guardian", "isRequired": true, "choices": [
              {"value": true, "text": "I am the legal guardian"}, {"value": false, "text": "I am not"}]}]}
            """#)
        #expect(conversion.isWhole)
        var shaped = survey
        shaped.resultShape = SurveyJSDataShape(survey)
        var session = SurveySession(survey: shaped)
        // survey-core's data holds the Boolean; an answer script in that shape gives it too.
        try session.answer(true, for: "guardian")
        #expect(session.completionResult().answers["guardian"] == true)
        try session.answer("false", for: "guardian")
        #expect(session.completionResult().answers["guardian"] == false)
    }

    @Test func valueRulesAreConverted() throws {
        let (conversion, survey) = try convertAndLoad(
            #"""
            {"elements": [
              {"type": "text", "name": "a", "inputType": "number"},
              {"type": "text", "name": "b", "inputType": "number", "setValueIf": "{a} > 5", "setValueExpression": "{A} * 10"},
              {"type": "text", "name": "c", "resetValueIf": "{a} = 1"}]}
            """#)
        #expect(conversion.notes.allSatisfy { !$0.description.contains("ValueIf") }, "\(conversion.notes)")
        #expect(try WildSurveyTests.step(survey, "b").setValueIf == "{a} > 5")
        #expect(try WildSurveyTests.step(survey, "b").setValueExpression == "{a} * 10")
        #expect(try WildSurveyTests.step(survey, "c").resetValueIf == "{a} = 1")
        var session = SurveySession(survey: survey)
        try session.answer("typed", for: "c")
        try session.answer(7, for: "a")
        #expect(session.answer(for: "b") == 70)
        try session.answer(1, for: "a")
        #expect(session.answer(for: "c") == nil)
    }
}

/// `requiredErrorText`: a question's own message for a required answer left out.
@Suite struct RequiredErrorTextTests {
    @Test func aQuestionKeepsItsMessageAndAPanelsIsNoted() throws {
        let (conversion, survey) = try convertAndLoad(
            #"""
            {"elements": [
              {"type": "text", "name": "who"},
              {"type": "text", "name": "fee", "isRequired": true, "requiredErrorText": {"default": "{who} must pay", "pt": "{who} tem de pagar"}},
              {"type": "panel", "name": "more", "isRequired": true, "requiredErrorText": "Answer one", "elements": [
                {"type": "text", "name": "x"}]}]}
            """#)
        #expect(
            try WildSurveyTests.step(survey, "fee").requiredMessage?.resolved(locale: "pt", defaultLocale: "en")
                == "{who} tem de pagar")
        #expect(conversion.notes.map(\.path.description) == ["$.elements[2].requiredErrorText"])
        var session = SurveySession(survey: survey, locale: "en")
        try session.answer("Ana", for: "who")
        guard case .blocked(let errors) = session.next() else {
            Issue.record("an unanswered required question was let through")
            return
        }
        #expect(errors.first { $0.stepID == "fee" }?.message == "Ana must pay")
    }
}

/// Properties written under another spelling survey-core's serializer reads (`alternativeName`).
@Suite struct AlternativeNameTests {
    @Test func aPlaceHolderAndTheMisspeltRateDescriptionsAreReadAsTheirProperties() throws {
        let (conversion, survey) = try convertAndLoad(
            #"""
            {"elements": [
              {"type": "text", "name": "city", "placeHolder": "Oslo"},
              {"type": "rating", "name": "score", "mininumRateDescription": "Poor", "maximumRateDescription": "Great"}]}
            """#)
        #expect(!conversion.notes.contains { $0.kind == .notConverted }, "\(conversion.notes)")
        let labels = try WildSurveyTests.step(survey, "score").options
        #expect(labels["minLabel"] == "Poor" && labels["maxLabel"] == "Great", "\(labels)")
    }
}

/// A required page: survey-core's page is a panel, and one of its questions must be answered.
@Suite struct RequiredPageTests {
    @Test func aRequiredPageHoldsItsElementsInARequiredPanel() throws {
        let (conversion, survey) = try convertAndLoad(
            #"""
            {"pages": [
              {"name": "how", "isRequired": true, "elements": [
                {"type": "text", "name": "a"}, {"type": "text", "name": "b"}]},
              {"name": "more", "requiredIf": "{a} = 'x'", "elements": [{"type": "text", "name": "c"}]}]}
            """#)
        #expect(conversion.notes.map(\.what).contains("required page 'how' is panel 'how-panel1'"))
        var session = SurveySession(survey: survey)
        guard case .blocked(let errors) = session.next() else {
            Issue.record("a required page with nothing answered was let through")
            return
        }
        #expect(errors.map(\.stepID) == ["how-panel1"])
        try session.answer("x", for: "b")
        #expect(session.next() == .moved(to: "more"))
        // ({a} is not 'x': the second page is not required)
        guard case .completed = session.next() else {
            Issue.record("a page whose requiredIf does not hold was refused")
            return
        }
    }
}

/// Rows written for another library (objects with neither `value` nor `text`).
@Suite struct ObjectRowTests {
    @Test func aRowThatIsABareObjectIsKeyedAsJavaScriptKeysIt() throws {
        let (conversion, survey) = try convertAndLoad(
            #"""
            {"elements": [{"type": "matrix", "name": "m", "columns": ["low", "high"],
              "rows": [{"question": "Growth", "answer": ""}, {"question": "Margins"}]}]}
            """#)
        #expect(conversion.notes.contains { $0.path.description == "$.elements[0].rows[1]" })
        var session = SurveySession(survey: survey)
        try session.answer(["[object Object]": "high"], for: "m")
        guard case .completed(let result) = session.next() else {
            Issue.record("the answer survey-core stores was refused")
            return
        }
        #expect(result.answers["m"] == ["[object Object]": "high"])
    }
}

/// Where a finding about a converted choice is in the SurveyJS file.
@Suite struct ChoiceOriginTests {
    @Test func aChoicesConditionIsFoundAtTheSamePositionInTheSurveyJSElement() throws {
        let (conversion, _) = try convertAndLoad(
            #"""
            {"pages": [{"name": "p", "elements": [
              {"type": "text", "name": "a"},
              {"type": "radiogroup", "name": "b", "choices": ["x", {"value": "y", "visibleIf": "{a} = 'q'"}]}]}]}
            """#)
        let converted = JSONPath([
            .key("steps"), .index(0), .key("steps"), .index(1), .key("options"), .key("choices"), .index(1),
            .key("visibleIf"),
        ])
        #expect(conversion.origin(of: converted)?.description == "$.pages[0].elements[1].choices[1].visibleIf")
        let title = JSONPath([.key("steps"), .index(0), .key("steps"), .index(1), .key("title")])
        #expect(conversion.origin(of: title)?.description == "$.pages[0].elements[1]")
    }
}

/// Numbers written as text where survey-core's serializer reads numbers.
@Suite struct SliderBoundsAsTextTests {
    @Test func aSlidersBoundsWrittenAsTextAreNumbers() throws {
        let (conversion, survey) = try convertAndLoad(
            #"{"elements": [{"type": "Slider", "name": "help", "min": "1", "max": "7"}]}"#)
        #expect(conversion.isWhole, "\(conversion.notes)")
        let options = try WildSurveyTests.step(survey, "help").options
        #expect(options["min"] == 1 && options["max"] == 7)
    }
}

/// survey-core checks no phone number or URL a respondent types.
@Suite struct FreeFormInputTypeTests {
    @Test func aPhoneOrAddressBoxTakesAnyTextAsInSurveyCore() throws {
        let (_, survey) = try convertAndLoad(
            #"""
            {"elements": [
              {"type": "text", "name": "cigarettes", "inputType": "tel", "isRequired": true,
               "validators": [{"type": "numeric", "minValue": 0, "maxValue": 200}]},
              {"type": "text", "name": "site", "inputType": "url"},
              {"type": "text", "name": "mail", "inputType": "email"}]}
            """#)
        var session = SurveySession(survey: survey)
        try session.answer("5", for: "cigarettes")
        try session.answer("our shop's page", for: "site")
        // (an email address is checked, on Next as survey-core checks it)
        try session.answer("nope", for: "mail")
        guard case .blocked(let errors) = session.next() else {
            Issue.record("an email address survey-core refuses was let through")
            return
        }
        #expect(errors.map(\.stepID) == ["mail"])
        try session.answer("ada@example.org", for: "mail")
        guard case .completed(let result) = session.next() else {
            Issue.record("survey-core's answers were refused")
            return
        }
        #expect(result.answers["cigarettes"] == "5" && result.answers["site"] == "our shop's page")
    }
}

/// `navigateToUrl` and `navigateToUrlOnCondition`: where survey-core sends a respondent who completes.
@Suite struct NavigateToURLTests {
    @Test func theAddressesAreCompletionRedirects() throws {
        let (conversion, survey) = try convertAndLoad(
            #"""
            {"navigateToUrl": "https://example.org/thanks",
             "navigateToUrlOnCondition": [{"expression": "{Plan} = 'pro'", "url": "https://example.org/pay?plan={plan}"}],
             "elements": [{"type": "radiogroup", "name": "plan", "choices": ["free", "pro"]}]}
            """#)
        #expect(conversion.isWhole, "\(conversion.notes)")
        for (plan, address) in [("pro", "https://example.org/pay?plan=pro"), ("free", "https://example.org/thanks")] {
            var session = SurveySession(survey: survey)
            try session.answer(.string(plan), for: "plan")
            guard case .completed(let result) = session.next() else {
                Issue.record("did not complete")
                return
            }
            #expect(result.redirect == address)
        }
    }
}

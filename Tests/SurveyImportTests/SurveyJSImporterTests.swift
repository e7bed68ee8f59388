import SurveyBuiltins
import SurveyCore
import SurveyImport
import Testing

/// Converts `text` and loads the result with the built-in kinds.
func convertAndLoad(_ text: String, lenientExpressions: Bool = false) throws -> (SurveyJSConversion, Survey) {
    let conversion = try SurveyJSImporter.convert(
        text: text, source: "in.json", id: "in", lenientExpressions: lenientExpressions)
    let survey = try SurveyLoader(registry: .builtins()).load(text: conversion.text)
    return (conversion, survey)
}

@Suite struct SurveyJSImporterTests {
    static let intake = """
        {
          "title": {"default": "Intake", "fr": "Accueil"},
          "locale": "fr",
          "pages": [
            {"name": "about", "elements": [
              {"type": "text", "name": "age", "inputType": "number", "min": 0, "max": "120", "isRequired": true},
              {"type": "text", "name": "mail", "inputType": "email", "startWithNewLine": false},
              {"type": "radiogroup", "name": "smoker", "choices": [{"value": "y", "text": {"default": "Yes", "fr": "Oui"}}, "n"],
               "showOtherItem": true, "otherText": "Sometimes"},
              {"type": "checkbox", "name": "drinks", "choices": ["tea", "coffee", 3], "choicesVisibleIf": "{item} != 'tea' or {age} > 18",
               "showNoneItem": true, "maxSelectedChoices": 2, "choicesOrder": "desc"}
            ]},
            {"name": "more", "visibleIf": "{age} >= 18", "questionsOrder": "random", "elements": [
              {"type": "panel", "name": "habits", "isRequired": true, "elements": [
                {"type": "rating", "name": "sleep", "rateMax": 10, "rateMin": 0},
                {"type": "rating", "name": "mood", "rateMax": 4},
                {"type": "rating", "name": "pain", "rateMin": 1, "rateMax": 7, "minRateDescription": "none"},
                {"type": "comment", "name": "notes", "maxLength": 200},
                {"type": "boolean", "name": "ok", "labelTrue": "Fine"}
              ]},
              {"type": "bootstrapslider", "name": "kids", "rangeMax": 4},
              {"type": "file", "name": "scan", "acceptedTypes": ".pdf,image/*", "maxSize": 1024, "storeDataAsText": false},
              {"type": "signaturepad", "name": "sig", "dataFormat": "svg"},
              {"type": "html", "name": "bye", "html": "<b>Thanks</b>"}
            ]}
          ],
          "triggers": [
            {"type": "complete", "expression": "{age} < 18"},
            {"type": "setvalue", "expression": "{smoker} = 'n'", "setToName": "notes", "setValue": "none"},
            {"type": "visible", "expression": "{age} > 1", "questions": ["mail"]}
          ],
          "calculatedValues": [{"name": "adult", "expression": "{age} >= 18", "includeIntoResult": true}],
          "completedHtmlOnCondition": [{"expression": "{adult}", "html": "Adult"}],
          "completedHtml": "Done",
          "maxTimeToFinish": 60,
          "showProgressBar": "top"
        }
        """

    @Test func convertsTheSurveyAndItLoads() throws {
        let (conversion, survey) = try convertAndLoad(Self.intake)
        let json = conversion.survey
        #expect(json["id"] == "in" && json["defaultLocale"] == "fr")
        #expect(json["title"] == ["default": "Intake", "fr": "Accueil"])
        #expect(
            survey.stepIDs == [
                "age", "mail", "smoker", "drinks", "sleep", "mood", "pain", "notes", "ok", "scan", "sig", "bye",
            ])
        let about = try #require(json["steps"]?.arrayValue?.first?["steps"]?.arrayValue)
        #expect(about[0]["type"] == "number" && about[0]["options"] == ["min": 0, "max": 120])
        #expect(about[0]["required"] == true)
        #expect(about[1]["type"] == "text" && about[1]["validators"] == [["type": "email"]])
        #expect(about[2]["options"]?["other"] == "Sometimes")
        #expect(
            about[2]["options"]?["choices"]?.arrayValue?.first == [
                "value": "y", "label": ["default": "Yes", "fr": "Oui"],
            ])
        let drinks = try #require(about[3]["options"])
        #expect(drinks["none"] == true && drinks["maxSelections"] == 2)
        // desc by text, and {item} replaced by each value.
        #expect(
            drinks["choices"] == [
                ["value": "tea", "visibleIf": "'tea' != 'tea' or {age} > 18"],
                ["value": "coffee", "visibleIf": "'coffee' != 'tea' or {age} > 18"],
                ["value": 3, "visibleIf": "3 != 'tea' or {age} > 18"],
            ])
        let more = try #require(json["steps"]?.arrayValue?.last)
        #expect(more["shuffle"] == true && more["visibleIf"] == "{age} >= 18")
        let panel = try #require(more["steps"]?.arrayValue?.first)
        #expect(panel["type"] == "panel" && panel["required"] == true)
        let kinds = panel["steps"]?.arrayValue?.map { $0["type"]?.stringValue ?? "" }
        #expect(kinds == ["nps", "rating", "scale", "text", "boolean"])
        #expect(panel["steps"]?.arrayValue?[1]["options"] == ["stars": 4])
        #expect(panel["steps"]?.arrayValue?[2]["options"] == ["min": 1, "max": 7, "step": 1, "minLabel": "none"])
        let file = try #require(more["steps"]?.arrayValue?[1])
        #expect(file["id"] == "scan" && file["options"]?["maxSizeBytes"] == 1024)
        #expect(file["options"]?["formats"]?.arrayValue?.prefix(3) == ["pdf", "png", "jpg"])
        #expect(json["triggers"]?.arrayValue?.count == 2)
        #expect(
            json["triggers"]?.arrayValue?.last == [
                "type": "setvalue", "if": "{smoker} = 'n'", "target": "notes", "value": "none",
            ])
        #expect(json["completionMessages"] == [["if": "{adult}", "text": "Adult"], ["text": "Done"]])
        #expect(
            json["calculatedValues"] == [["name": "adult", "expression": "{age} >= 18", "includeIntoResult": true]])
    }

    @Test func notesSayWhatWasLeftOutAndWhere() throws {
        let conversion = try SurveyJSImporter.convert(text: Self.intake, source: "in.json", id: "in")
        let lines = conversion.notes.map(\.description)
        #expect(!conversion.isWhole)
        #expect(lines.contains { $0.hasPrefix("in.json:21:16: not converted: type 'bootstrapslider' (not a SurveyJS") })
        #expect(
            lines.contains(
                "in.json:35:22: not converted: property 'maxTimeToFinish' (time limits are not supported); at $.maxTimeToFinish"
            ))
        #expect(lines.contains { $0.hasPrefix("in.json:30:5: not converted: a 'visible' trigger") })
        #expect(lines.contains { $0.hasPrefix("in.json:36:22: ignored (layout only): property 'showProgressBar'") })
        #expect(lines.contains { $0.hasPrefix("in.json:7:82: ignored (layout only): property 'startWithNewLine'") })
        // storeDataAsText false: the file is a reference, as the engine keeps files anyway.
        #expect(!lines.contains { $0.contains("storeDataAsText") })
        let steps = conversion.survey["steps"]?.arrayValue?.flatMap { $0["steps"]?.arrayValue ?? [$0] } ?? []
        #expect(steps.first { $0["id"] == "scan" }?["options"]?["inlineData"] == nil)
        #expect(steps.first { $0["id"] == "sig" }?["options"]?["inlineData"] == true)
        #expect(conversion.notes.filter { $0.kind == .notConverted }.count == 3)
    }

    @Test func everyConvertedElementKnowsItsOrigin() throws {
        let conversion = try SurveyJSImporter.convert(text: Self.intake, source: "in.json", id: "in")
        let ours = JSONPath.root.appending("steps").appending(1).appending("steps").appending(0).appending("steps")
            .appending(2)
        #expect(
            conversion.origin(of: ours.appending("options").appending("minLabel"))?.description
                == "$.pages[1].elements[0].elements[2]")
        #expect(conversion.origin(of: JSONPath.root.appending("triggers").appending(1))?.description == "$.triggers[1]")
        // The file, signature and content steps come after the left-out dynamic panel.
        #expect(
            conversion.origin(of: JSONPath.root.appending("steps").appending(1).appending("steps").appending(1))?
                .description == "$.pages[1].elements[2]")
    }

    @Test func recognisesSurveyJSByItsShape() throws {
        #expect(SurveyJSImporter.looksLikeSurveyJS(["pages": []]))
        #expect(SurveyJSImporter.looksLikeSurveyJS(["elements": [], "title": "x"]))
        #expect(!SurveyJSImporter.looksLikeSurveyJS(["formatVersion": 1, "steps": [], "pages": []]))
        #expect(!SurveyJSImporter.looksLikeSurveyJS(["title": "x"]))
        #expect(!SurveyJSImporter.looksLikeSurveyJS(["pages"]))
    }

    @Test func topLevelElementsMakeOnePageAndUnnamedThingsGetSurveyJSNames() throws {
        let (conversion, survey) = try convertAndLoad(
            #"{"elements": [{"type": "text"}, {"type": "text", "name": "b"}], "pages": [{"elements": [{"type": "boolean", "name": "c"}]}]}"#
        )
        // survey-core's name for an unnamed element: the first free questionN.
        #expect(survey.stepIDs == ["c", "question1", "b"])
        #expect(conversion.survey["steps"]?.arrayValue?.map { $0["id"]?.stringValue ?? "" } == ["page1", "page2"])
        #expect(conversion.notes.map(\.description).contains { $0.contains("an element without a name") })
        #expect(conversion.survey["title"] == "in")
    }

    @Test func whatIsNotASurveyIsAnError() {
        #expect(throws: SurveyJSImportError.self) {
            try SurveyJSImporter.convert(text: "[1]", source: "a.json", id: "a")
        }
        #expect(throws: SurveyJSImportError.self) {
            try SurveyJSImporter.convert(text: #"{"pages": []}"#, source: nil, id: "a")
        }
        do {
            _ = try SurveyJSImporter.convert(text: "{\n  \"pages\": 3}", source: "a.json", id: "a")
            Issue.record("accepted pages: 3")
        } catch {
            #expect(error.description == "a.json:2:12: 'pages' must be an array, got an integer")
        }
        do {
            _ = try SurveyJSImporter.convert(text: "{\"pages\": [", source: "b.json", id: "b")
            Issue.record("accepted invalid JSON")
        } catch {
            #expect(error.description.hasPrefix("b.json:1:12: invalid JSON"))
        }
    }

    @Test func unknownTypesAndPropertiesAreNotedNotDropped() throws {
        let conversion = try SurveyJSImporter.convert(
            text:
                #"{"pages": [{"name": "p", "elements": [{"type": "sparkle", "name": "s"}, {"type": "text", "name": "t", "colour": 1, "valueName": "x"}]}]}"#,
            source: nil, id: "x")
        let lines = conversion.notes.map(\.description)
        #expect(lines.contains { $0.contains("type 'sparkle'") && $0.contains("left out") })
        // 'colour' is no property survey-core declares: an app's own, kept under x-surveyjs.
        #expect(conversion.notes.contains { $0.kind == .custom && $0.what == "property 'colour'" })
        #expect(conversion.survey["x-surveyjs"]?["properties"]?["$.pages[0].elements[1]"] == ["colour": 1])
        #expect(
            conversion.noteLines(file: "x.json").contains("x.json: 1 custom property kept under x-surveyjs: colour"))
        #expect(!conversion.noteLines(file: "x.json", quiet: true).contains { $0.contains("custom") })
        #expect(lines.contains { $0.contains("question 't' is now 'x'") && $0.contains("its valueName") })
        #expect(conversion.survey["steps"]?.arrayValue?.first?["steps"]?.arrayValue?.count == 1)
    }

    @Test func validatorsAndTriggersKeepTheirMembers() throws {
        let (conversion, _) = try convertAndLoad(
            """
            {"pages": [{"name": "p", "elements": [
              {"type": "text", "name": "zip", "validators": [{"type": "regexvalidator", "regex": "^[0-9]{5}$", "text": "5 digits"},
                                                            {"type": "text", "minLength": 5, "notificationType": "warning"}]},
              {"type": "text", "name": "copy"}, {"type": "text", "name": "gross", "inputType": "number"}]},
              {"name": "q", "elements": [{"type": "text", "name": "last"}]}],
             "triggers": [{"type": "skip", "expression": "{zip} = '00000'", "gotoName": "last"},
                          {"type": "copyvalue", "expression": "{zip} notempty", "fromName": "zip", "setToName": "copy"},
                          {"type": "runexpression", "expression": "true", "runExpression": "2 * 3", "setToName": "gross"},
                          {"type": "skip", "expression": "true"}]}
            """)
        let steps = try #require(conversion.survey["steps"]?.arrayValue?.first?["steps"]?.arrayValue)
        #expect(
            steps[0]["validators"] == [
                ["type": "regex", "regex": "^[0-9]{5}$", "text": "5 digits"],
                ["type": "text", "minLength": 5, "notificationType": "warning"],
            ])
        #expect(
            conversion.survey["triggers"] == [
                ["type": "skip", "if": "{zip} = '00000'", "goto": "last"],
                ["type": "copyvalue", "if": "{zip} notempty", "from": "zip", "target": "copy"],
                ["type": "runexpression", "if": "true", "run": "2 * 3", "target": "gross"],
            ])
        #expect(conversion.notes.map(\.description).contains { $0.contains("a skip trigger missing a member") })
    }

    @Test func aMatrixDropdownKeepsAKindPerColumn() throws {
        let (conversion, survey) = try convertAndLoad(
            """
            {"pages": [{"name": "p", "elements": [{"type": "matrixdropdown", "name": "m", "rows": ["a"], "choices": [1, 2],
              "cellType": "radiogroup",
              "columns": [{"name": "c1"}, {"name": "c2", "cellType": "text", "inputType": "number", "isRequired": true},
                          {"name": "c3", "cellType": "comment"}, {"name": "c4", "cellType": "expression"},
                          {"name": "c5", "cellType": "dropdown", "choices": ["x"], "showOtherItem": true}]}]}]}
            """)
        #expect(survey.stepIDs == ["m"])
        let options = try #require(
            conversion.survey["steps"]?.arrayValue?.first?["steps"]?.arrayValue?.first?["options"])
        #expect(options["rows"] == ["a"] && options["choices"] == [1, 2])
        #expect(
            options["columns"] == [
                ["name": "c1", "cellType": "single-choice"],
                ["name": "c2", "cellType": "number", "required": true],
                ["name": "c3", "cellType": "text", "options": ["multiline": true]],
                ["name": "c4", "cellType": "text"],
                ["name": "c5", "options": ["choices": ["x"], "other": true]],
            ])
        #expect(conversion.notes.map(\.description).contains { $0.contains("cellType 'expression'") })
    }

    @Test func choicesByUrlIsKeptForTheEngineToFetch() throws {
        let conversion = try SurveyJSImporter.convert(
            text: """
                {"elements": [
                  {"type": "dropdown", "name": "country", "choicesByUrl": {"url": "https://example.com/c.json",
                   "path": "data;items", "valueName": "code", "titleName": "name", "attachData": true}},
                  {"type": "dropdown", "name": "city", "choices": ["Paris"],
                   "choicesByUrl": {"url": "https://example.com/cities?country={country}"}}]}
                """, source: "in.json", id: "in")
        let steps = conversion.survey["steps"]?.arrayValue?.first?["steps"]?.arrayValue
        #expect(steps?[0]["options"]?["choices"] == nil)
        #expect(
            steps?[0]["options"]?["choicesByUrl"]
                == [
                    "url": "https://example.com/c.json", "path": "data;items", "valueName": "code", "titleName": "name",
                ])
        #expect(steps?[1]["options"]?["choicesByUrl"] == nil && steps?[1]["options"]?["choices"] == ["Paris"])
        let lines = conversion.notes.map(\.description)
        #expect(lines.count == 2)
        #expect(lines.contains { $0.contains("choicesByUrl 'attachData'") })
        #expect(lines.contains { $0.contains("{placeholders}") })
    }

    @Test func aPageNamedLikeAQuestionIsRenamedAndTheSurveyLoads() throws {
        let (conversion, survey) = try convertAndLoad(
            """
            {"pages": [{"name": "summary", "elements": [{"type": "text", "name": "summary"},
              {"type": "matrix", "name": "m", "rows": ["r"], "columns": ["c"], "eachRowRequired": true},
              {"type": "file", "name": "f", "allowMultiple": true, "maxFiles": 3}]}]}
            """)
        #expect(survey.stepIDs == ["summary", "m", "f"])
        #expect(conversion.survey["steps"]?.arrayValue?.first?["id"] == "summary-page")
        #expect(conversion.notes.map(\.kind) == [.renamed])
        #expect(conversion.notes.first?.description.contains("page 'summary' is now 'summary-page'") == true)
        #expect(conversion.isWhole)
        let steps = conversion.survey["steps"]?.arrayValue?.first?["steps"]?.arrayValue
        #expect(steps?[1]["options"]?["allRowsRequired"] == true)
        #expect(steps?[2]["options"] == ["multiple": true, "maxFiles": 3, "inlineData": true])
    }

    @Test func dynamicPanelsAndMatricesBecomeRepeats() throws {
        let (conversion, survey) = try convertAndLoad(
            """
            {"pages": [{"name": "p", "elements": [
              {"type": "text", "name": "n", "inputType": "number"},
              {"type": "paneldynamic", "name": "kids", "panelCountExpression": "{n}", "maxPanelCount": 5,
               "templateTitle": "Child {panelIndex}", "panelAddText": "Add",
               "templateElements": [{"type": "text", "name": "name", "isRequired": true},
                                    {"type": "text", "name": "age", "inputType": "number", "visibleIf": "{panel.name} notempty"},
                                    {"type": "html", "name": "hint", "html": "x"}]},
              {"type": "matrixdynamic", "name": "rows", "rowCount": 2, "choices": ["a", "b"],
               "columns": [{"name": "pick"}, {"name": "note", "cellType": "text"}]}]}]}
            """)
        #expect(survey.stepIDs == ["n", "kids", "rows"])
        let steps = try #require(conversion.survey["steps"]?.arrayValue?.first?["steps"]?.arrayValue)
        #expect(
            steps[1]["options"] == [
                "count": "{n}", "maxCount": 5, "itemTitle": "Child {panelIndex}",
                "items": [
                    ["name": "name", "required": true, "options": ["keepNumbers": true]],
                    ["name": "age", "type": "number", "visibleIf": "{panel.name} notempty"],
                ],
            ])
        #expect(
            // rowCount is where survey-core starts: respondents may remove rows, so it is no minimum;
            // as many empty rows answer the matrix.
            steps[2]["options"] == [
                "emptyEntriesAnswer": 2,
                "items": [
                    ["name": "pick", "type": "dropdown", "options": ["choices": ["a", "b"]]],
                    ["name": "note", "options": ["keepNumbers": true]],
                ],
            ])
        let lines = conversion.notes.map(\.description)
        #expect(lines.contains { $0.contains("html 'hint' in a dynamic panel") && $0.contains("left out") })
        #expect(lines.contains { $0.contains("property 'panelAddText'") && $0.contains("layout only") })
    }

    @Test func theOutputIsReadableAndStable() throws {
        let conversion = try SurveyJSImporter.convert(
            text:
                #"{"title": "T", "pages": [{"name": "p", "elements": [{"type": "boolean", "name": "b", "title": "B?"}]}]}"#,
            source: nil, id: "t")
        #expect(
            conversion.text == """
                {
                  "formatVersion": 1,
                  "id": "t",
                  "title": "T",
                  "steps": [
                    {
                      "id": "p",
                      "type": "page",
                      "steps": [
                        {
                          "id": "b",
                          "type": "boolean",
                          "title": "B?"
                        }
                      ]
                    }
                  ]
                }

                """)
        #expect(conversion.isWhole && conversion.notes.isEmpty)
    }
}

import Foundation
import SurveyBuiltins
import SurveyCore
import SurveyImport
import Testing

/// survey-core's data shape for a SurveyJS survey's results (issue 41): what survey-core 3.0.4's
/// `survey.data` holds for the same answers (each expectation was checked against it).
@Suite struct SurveyJSDataShapeTests {
    static let survey = #"""
        {"pages": [
          {"name": "about", "elements": [
            {"type": "radiogroup", "name": "pet", "choices": ["cat", "dog"], "showOtherItem": true},
            {"type": "checkbox", "name": "food", "choices": ["fish", "meat"], "showOtherItem": true, "showNoneItem": true},
            {"type": "matrixdynamic", "name": "visits", "cellType": "text", "columns": [{"name": "when"}]},
            {"type": "paneldynamic", "name": "kids", "panelCount": 1, "templateElements": [{"type": "text", "name": "n"}]}]},
          {"name": "later", "visibleIf": "{pet} = 'cat'", "elements": [
            {"type": "paneldynamic", "name": "cats", "panelCount": 2, "templateElements": [{"type": "text", "name": "n"}]}]}]}
        """#

    static func completed(_ text: String, shaped: Bool = true, _ answers: [String: JSONValue]) throws -> [String:
        JSONValue]
    {
        var source = SurveySource(loader: SurveyLoader(registry: .builtins()))
        source.givesSurveyJSDataShape = shaped
        let survey = try source.load(text, file: "pets.json")
        var session = SurveySession(survey: survey)
        for (id, value) in answers.sorted(by: { $0.key < $1.key }) { try session.answer(value, for: id) }
        while case .moved = session.next() {}
        return session.completionResult().answers
    }

    @Test func otherIsOtherWithItsTextInTheComment() throws {
        let data = try Self.completed(Self.survey, ["pet": "hamster", "food": ["fish", "insects"]])
        #expect(data["pet"] == "other" && data["pet-Comment"] == "hamster")
        #expect(data["food"] == ["fish", "other"] && data["food-Comment"] == "insects")
        // A listed value or None is not Other.
        let listed = try Self.completed(Self.survey, ["pet": "dog", "food": ["none"]])
        #expect(listed["pet"] == "dog" && listed["food"] == ["none"] && listed["pet-Comment"] == nil)
        // The engine's own shape keeps the text as the answer.
        let engine = try Self.completed(Self.survey, shaped: false, ["pet": "hamster"])
        #expect(engine["pet"] == "hamster" && engine["pet-Comment"] == nil)
    }

    /// Choices whose values are objects (`{"yes": "ja"}` without a value, or `{"value": {…}}`):
    /// survey-core 3.0.4 keeps the object as the value; here each is offered as its JSON text and
    /// the data shape stores the object again.
    @Test func objectChoicesAreStoredAsTheirObjects() throws {
        let text = #"""
            {"pages": [{"name": "p", "elements": [
              {"type": "dropdown", "name": "ok", "choices": [{"yes": "ja"}, {"no": "nein"}]},
              {"type": "checkbox", "name": "many", "choices": [{"value": {"id": 1}, "text": "One"}, "two"]}]}]}
            """#
        let (conversion, survey) = try convertAndLoad(text)
        #expect(!conversion.notes.contains { $0.what.contains("without a string or number value") })
        let shape = try #require(SurveyJSDataShape(survey))
        let script = shape.scriptAnswers(["ok": ["no": "nein"], "many": [["id": 1], "two"]])
        #expect(script["ok"] == #"{"no":"nein"}"# && script["many"] == [#"{"id":1}"#, "two"])
        let data = try Self.completed(text, script)
        #expect(data["ok"] == ["no": "nein"] && data["many"] == [["id": 1], "two"])
        #expect(shape.answers(fromShaped: data) == script)
    }

    /// An Other choice and a comment area on one question: survey-core 3.0.4 then keeps the Other
    /// text in place of `"other"` (`getStoreOthersAsComment` is false with `showCommentArea`); the
    /// converter leaves the comment area out, with a note, so the survey loads and stores the same.
    @Test func otherWithACommentAreaKeepsItsTextInTheAnswer() throws {
        let text = #"""
            {"pages": [{"name": "p", "elements": [
              {"type": "checkbox", "name": "pets", "choices": ["cat", "dog"], "showOtherItem": true,
               "showCommentArea": true, "commentText": "Anything else?"}]}]}
            """#
        let (conversion, _) = try convertAndLoad(text)
        #expect(conversion.notes.contains { $0.description.contains("the comment area of 'pets'") })
        let data = try Self.completed(text, ["pets": ["cat", "hamster"]])
        #expect(data["pets"] == ["cat", "hamster"] && data["pets-Comment"] == nil)
    }

    /// An Other choice of a dynamic panel's template question: survey-core keeps `"other"` and
    /// `<name>-Comment` inside each entry; given so, the entry takes the text.
    @Test func otherInsideADynamicPanelsEntries() throws {
        let text = #"""
            {"pages": [{"name": "p", "elements": [
              {"type": "paneldynamic", "name": "people", "templateElements": [
                {"type": "dropdown", "name": "diet", "choices": ["none", "vegan"], "showOtherItem": true}]}]}]}
            """#
        let answer: JSONValue = [["diet": "other", "diet-Comment": "Pescatarian"], ["diet": "vegan"]]
        let data = try Self.completed(text, ["people": answer])
        #expect(data["people"] == answer)
        let engine = try Self.completed(text, shaped: false, ["people": answer])
        #expect(engine["people"] == [["diet": "Pescatarian"], ["diet": "vegan"]])
        // The text given as the answer is stored the same way.
        let typed = try Self.completed(text, ["people": [["diet": "Pescatarian"]]])
        #expect(typed["people"] == [["diet": "other", "diet-Comment": "Pescatarian"]])
    }

    @Test func storeOthersAsCommentFalseKeepsTheText() throws {
        let text = Self.survey.replacingOccurrences(of: #"{"pages""#, with: #"{"storeOthersAsComment": false, "pages""#)
        let data = try Self.completed(text, ["pet": "hamster"])
        #expect(data["pet"] == "hamster" && data["pet-Comment"] == nil)
    }

    @Test func aShownDynamicPanelHoldsItsEmptyPanels() throws {
        // `later` is not shown (pet is not cat): its panels are not in survey-core's data either.
        let data = try Self.completed(Self.survey, ["pet": "dog", "visits": [[:], [:]]])
        #expect(data["kids"] == [[:]])
        #expect(data["cats"] == nil)
        // Empty rows given to a dynamic matrix stay, as survey-core keeps them.
        #expect(data["visits"] == [[:], [:]])
        let shown = try Self.completed(Self.survey, ["pet": "cat", "kids": [["n": "Ada"]]])
        #expect(shown["kids"] == [["n": "Ada"]])
        #expect(shown["cats"] == [[:], [:]])
    }

    @Test func aConvertedFileKeepsTheShapeInItsExtension() throws {
        let conversion = try SurveyJSImporter.convert(text: Self.survey, source: "pets.json", id: "pets")
        #expect(conversion.text.contains("\"x-surveyjs\""))
        // A survey in the engine's format without the extension keeps the engine's shape.
        var survey = try SurveyLoader(registry: .builtins()).load(text: conversion.text)
        #expect(survey.resultShape == nil)
        #expect(SurveyJSDataShape(survey) != nil)
        survey.resultShape = SurveyJSDataShape(survey)
        var session = SurveySession(survey: survey)
        try session.answer("hamster", for: "pet")
        #expect(session.completionResult().answers["pet"] == "other")
        // Saved and loaded again, the extension is kept.
        let saved = JSONWriter.string(from: survey.definition.jsonValue)
        #expect(saved.contains("\"othersAsComment\""))
    }
}

/// SurveyJS's `storeDataAsText` (its default): a signature or file given as its bytes, as survey-core stores it.
@Suite struct InlineDataTests {
    @Test func aSignatureOrFileAsADataURLIsKeptAsGiven() throws {
        let (_, survey) = try convertAndLoad(
            #"""
            {"elements": [
              {"type": "signaturepad", "name": "sig"},
              {"type": "file", "name": "cv", "acceptedTypes": ".pdf", "maxSize": 8},
              {"type": "file", "name": "ref", "storeDataAsText": false}]}
            """#)
        var session = SurveySession(survey: survey)
        let drawing: JSONValue = "data:image/png;base64,iVBORw0KGgo="
        #expect(try session.answer(drawing, for: "sig") == drawing)
        #expect(throws: SessionError.self) { try session.answer("data:image/gif;base64,R0lG", for: "sig") }
        let file: JSONValue = [
            "name": "cv.pdf", "type": "application/pdf", "content": "data:application/pdf;base64,JVBE",
        ]
        #expect(try session.answer([file], for: "cv") == [file])
        // The decoded size counts against maxSize (8 bytes); the name's format against acceptedTypes.
        let large: JSONValue = ["name": "cv.pdf", "content": "data:application/pdf;base64,JVBERi0xLjQKJcfs"]
        #expect(throws: SessionError.self) { try session.answer([large], for: "cv") }
        #expect(throws: SessionError.self) {
            try session.answer([["name": "cv.exe", "content": "data:x;base64,AA=="]], for: "cv")
        }
        // storeDataAsText false: a reference only, as in this engine's own format.
        #expect(throws: SessionError.self) { try session.answer([file], for: "ref") }
        // In survey-core's data shape a reference is {name, type, content} too.
        var shaped = survey
        shaped.resultShape = SurveyJSDataShape(survey)
        var run = SurveySession(survey: shaped)
        try run.answer(["file": "https://files.example.com/a.pdf", "type": "application/pdf"], for: "ref")
        #expect(
            run.completionResult().answers["ref"] == [
                ["name": "a.pdf", "type": "application/pdf", "content": "https://files.example.com/a.pdf"]
            ])
    }
}

/// A matrix's column totals (`totalType`): read as `{name-total.column}` and kept in survey-core's
/// data as `<name>-total` (each expectation checked against survey-core 3.0.4).
@Suite struct MatrixTotalTests {
    static let survey = #"""
        {"pages": [
          {"name": "week", "elements": [
            {"type": "matrixdropdown", "name": "m", "rows": ["a", "b", "c"], "columns": [
              {"name": "r", "cellType": "rating", "rateValues": [1, 2, 3, 4], "totalType": "avg"},
              {"name": "c", "cellType": "checkbox", "choices": ["n"], "totalType": "count"},
              {"name": "t", "cellType": "text", "totalType": "sum"}]},
            {"type": "text", "name": "why", "visibleIf": "{m-total.t} > 8"}]},
          {"name": "later", "elements": [
            {"type": "matrixdynamic", "name": "d", "columns": [{"name": "x", "cellType": "text", "inputType": "number", "totalType": "sum"}]}]}]}
        """#

    @Test func totalsAreReadInExpressionsAndKeptInTheData() throws {
        let (conversion, survey) = try convertAndLoad(Self.survey)
        #expect(try WildSurveyTests.step(survey, "why").visibleIf == "sumInArray({m}, 't') > 8")
        #expect(conversion.isWhole)
        var shaped = survey
        shaped.resultShape = SurveyJSDataShape(survey)
        var session = SurveySession(survey: shaped)
        // Untouched, survey-core holds zeros for every matrix with totals, on any page.
        #expect(session.completionResult().answers["m-total"] == ["r": 0, "c": 0, "t": 0])
        #expect(session.completionResult().answers["d-total"] == ["x": 0])
        try session.answer(["a": ["r": 2, "c": ["n"]], "b": ["r": 3], "c": ["t": "9"]], for: "m")
        #expect(session.isVisible("why"))
        #expect(session.completionResult().answers["m-total"] == ["r": 2.5, "c": 1, "t": 9])
    }
}

/// `bindings: {panelCount: q}`: survey-core keeps q and the number of panels equal.
@Suite struct PanelCountBindingTests {
    static let survey = #"""
        {"elements": [
          {"type": "text", "name": "howMany", "inputType": "number"},
          {"type": "paneldynamic", "name": "people", "bindings": {"panelCount": "howMany"},
           "templateElements": [{"type": "text", "name": "name"}]}]}
        """#

    @Test func theCountAndThePanelsAgreeInTheData() throws {
        let (conversion, survey) = try convertAndLoad(Self.survey)
        #expect(conversion.isWhole)
        var shaped = survey
        shaped.resultShape = SurveyJSDataShape(survey)
        // A count with no panel answered: that many empty panels.
        var counted = SurveySession(survey: shaped)
        try counted.answer(2, for: "howMany")
        #expect(counted.completionResult().answers["people"] == [[:], [:]])
        // Panels answered: the count follows them (the later change wins in survey-core).
        var listed = SurveySession(survey: shaped)
        try listed.answer(100, for: "howMany")
        try listed.answer([["name": "Ada"]], for: "people")
        #expect(listed.completionResult().answers["howMany"] == 1)
    }

    /// The shaped result of answering, page by page, each shown question with an answer in `answers`.
    static func walked(_ text: String, _ answers: [String: JSONValue]) throws -> [String: JSONValue] {
        var source = SurveySource(loader: SurveyLoader(registry: .builtins()))
        source.givesSurveyJSDataShape = true
        var session = SurveySession(survey: try source.load(text, file: "walked.json"))
        while true {
            var answered = Set<String>()
            while let id = session.currentStepIDs.first(where: { answers[$0] != nil && !answered.contains($0) }),
                let value = answers[id]
            {
                try session.answer(value, for: id)
                answered.insert(id)
            }
            guard case .moved = session.next() else { break }
        }
        return session.completionResult().answers
    }

    /// A setvalue trigger aimed at a name no question has: survey-core writes the value into its
    /// data, where expressions read it (checked against survey-core 3.0.4).
    @Test func aTriggerTargetWithoutAQuestionIsKeptInTheData() throws {
        let text = #"""
            {"triggers": [{"type": "setvalue", "expression": "{age} >= 18", "setToName": "band", "setValue": "adult"}],
             "pages": [
              {"name": "p1", "elements": [{"type": "text", "inputType": "number", "name": "age"}]},
              {"name": "p2", "visibleIf": "{band} = 'adult'", "elements": [{"type": "text", "name": "job"}]}]}
            """#
        let adult = try Self.walked(text, ["age": 30, "job": "baker"])
        #expect(adult == ["age": 30, "band": "adult", "job": "baker"])
        let child = try Self.walked(text, ["age": 9])
        #expect(child == ["age": 9])
    }

    /// Two questions of one name: survey-core keeps one value, which both show.
    @Test func aSecondQuestionOfANameSharesTheFirstOnesValue() throws {
        let text = #"""
            {"pages": [
              {"name": "p1", "elements": [{"type": "radiogroup", "name": "unit", "choices": ["a", "b"]},
                {"type": "checkbox", "name": "areas", "visibleIf": "{unit} = 'a'", "choices": ["x", "y"]},
                {"type": "checkbox", "name": "areas", "visibleIf": "{unit} = 'b'", "choices": ["z", "w"]}]}]}
            """#
        var source = SurveySource(loader: SurveyLoader(registry: .builtins()))
        source.givesSurveyJSDataShape = true
        let survey = try source.load(text, file: "areas.json")
        // An answer given for the name goes to whichever of the two is shown.
        let script = try #require(survey.resultShape).scriptAnswers(["unit": "b", "areas": ["w"]])
        #expect(script["areas-1"] == ["w"])
        let data = try Self.walked(text, ["unit": "b", "areas-1": ["w"]])
        #expect(data == ["unit": "b", "areas": ["w"]])
    }
}

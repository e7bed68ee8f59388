import Foundation
import SurveyBuiltins
import SurveyCore
import SurveyImport
import Testing

/// More patterns of real SurveyJS surveys (issue 41): dynamic matrices with nothing to pick or empty
/// rows, old-style triggers, names with spaces around them, choice questions with no choices. Each
/// expectation was checked against survey-core 3.0.4 (`question.value = …`, then `completeLastPage`).
@Suite struct WildMatrixAndTriggerTests {
    /// The run's result in survey-core's data shape, and whether it completed.
    static func complete(
        _ text: String, _ answers: [String: JSONValue]
    ) throws -> (completed: Bool, data: [String: JSONValue]) {
        var source = SurveySource(loader: SurveyLoader(registry: .builtins()))
        source.givesSurveyJSDataShape = true
        let survey = try source.load(text, file: "in.json")
        var session = SurveySession(survey: survey)
        for (id, value) in answers.sorted(by: { $0.key < $1.key }) { try session.answer(value, for: id) }
        while true {
            switch session.next() {
            case .moved: continue
            case .completed: return (true, session.completionResult().answers)
            default: return (false, [:])
            }
        }
    }

    @Test func aDynamicMatrixWithNothingToPickKeepsItsRows() throws {
        let text = #"""
            {"elements": [{"type": "matrixdynamic", "name": "m", "columns": [{"name": "a"}, {"name": "b"}], "rowCount": 1}]}
            """#
        let (conversion, survey) = try convertAndLoad(text)
        // The columns (dropdowns without choices) take no value; the question stays.
        #expect(try WildSurveyTests.step(survey, "m").options["items"] == [])
        #expect(conversion.notes.contains { $0.what == "column 'a' without choices" })
        let run = try Self.complete(text, ["m": [[:]]])
        #expect(run.completed && run.data["m"] == [[:]])
    }

    // survey-core keeps empty rows when there are as many as it shows (rowCount, 2 unless given),
    // drops fewer, all empty; a row with a value keeps them all.
    static let emptyRows: [(String, JSONValue, JSONValue?)] = [
        (#""rowCount": 1"#, [[:]], [[:]]),
        ("", [[:], [:]], [[:], [:]]),
        ("", [[:]], nil),
        (#""rowCount": 3"#, [[:], [:]], nil),
        (#""rowCount": 3"#, [["a": "x"], [:]], [["a": "x"], [:]]),
    ]

    @Test(arguments: emptyRows)
    func emptyRowsOfADynamicMatrixAreKeptAsSurveyCoreKeepsThem(
        rowCount: String, answer: JSONValue, stored: JSONValue?
    ) throws {
        let members = [
            #""type": "matrixdynamic", "name": "m""#, rowCount, #""columns": [{"name": "a", "cellType": "text"}]"#,
        ]
        let text = #"{"elements": [{"# + members.filter { !$0.isEmpty }.joined(separator: ", ") + "}]}"
        let run = try Self.complete(text, ["m": answer])
        #expect(run.completed && run.data["m"] == stored)
    }

    // A required dynamic matrix is answered by as many empty rows as it shows, not by fewer.
    static let requiredRows: [(String, JSONValue, Bool)] = [
        (#""rowCount": 1"#, [[:]], true),
        ("", [[:]], false),
        ("", [[:], [:]], true),
        (#""rowCount": 3, "minRowCount": 1"#, [["a": "x"]], true),
    ]

    @Test(arguments: requiredRows)
    func emptyRowsAnswerARequiredDynamicMatrixAsInSurveyCore(rowCount: String, answer: JSONValue, passes: Bool)
        throws
    {
        let members = [
            #""type": "matrixdynamic", "name": "m", "isRequired": true"#, rowCount,
            #""columns": [{"name": "a", "cellType": "text"}]"#,
        ]
        let text = #"{"elements": [{"# + members.filter { !$0.isEmpty }.joined(separator: ", ") + "}]}"
        #expect(try Self.complete(text, ["m": answer]).completed == passes)
    }

    @Test func inSinglePageModeAnyEmptyRowsAnswerADynamicMatrix() throws {
        // survey-core builds the rows of every matrix when a single-page survey loads; an answer
        // given then is taken as it is.
        let text = #"""
            {"questionsOnPageMode": "singlePage", "pages": [{"elements": [
              {"type": "matrixdynamic", "name": "m", "isRequired": true, "columns": [{"name": "a", "cellType": "text"}]}]}]}
            """#
        let run = try Self.complete(text, ["m": [[:]]])
        #expect(run.completed && run.data["m"] == [[:]])
    }

    @Test func aMatrixWithBooleanColumnsStoresBooleans() throws {
        // survey-core 3.0.4 stores {"r1": true, "r2": false}.
        let text = #"""
            {"elements": [{"type": "matrix", "name": "m", "columns": [true, false], "rows": ["r1", "r2"]}]}
            """#
        let run = try Self.complete(text, ["m": ["r1": true, "r2": false]])
        #expect(run.completed && run.data["m"] == ["r1": true, "r2": false])
    }

    static let oldStyleTriggers: [(String, JSONValue, String)] = [
        ("equal", "2", "{q} equal 2"),
        ("notequal", "abc", "{q} notequal 'abc'"),
        ("GreaterOrEqual", 3, "{q} greaterorequal 3"),
        ("contains", "a", "{q} contains 'a'"),
        ("empty", .null, "{q} empty"),
        ("notempty", .null, "{q} notempty"),
        // An operator survey-core does not know is its default, equal.
        ("anyof", ["a", "b"], "{q} equal 'a,b'"),
        ("equal", true, "{q} equal true"),
    ]

    @Test(arguments: oldStyleTriggers)
    func anOldStyleTriggerIsItsNameOperatorAndValue(operator: String, value: JSONValue, condition: String) throws {
        let trigger = JSONValue.object([
            "type": "complete", "name": "q", "operator": .string(`operator`), "value": value,
        ])
        let text =
            #"{"triggers": ["# + JSONWriter.string(from: trigger)
            + #"], "pages": [{"elements": [{"type": "text", "name": "q"}]}, {"elements": [{"type": "text", "name": "z"}]}]}"#
        let (conversion, survey) = try convertAndLoad(text)
        #expect(conversion.isWhole)
        #expect(survey.definition.triggers.first?.condition == condition)
    }

    @Test func anOldStyleCompleteTriggerEndsTheSurvey() throws {
        let text = #"""
            {"triggers": [{"type": "complete", "name": "open", "operator": "equal", "value": "2"}],
             "pages": [{"elements": [{"type": "radiogroup", "name": "open", "choices": [1, 2]}]},
                       {"elements": [{"type": "text", "name": "later", "isRequired": true}]}]}
            """#
        let run = try Self.complete(text, ["open": 2])
        #expect(run.completed && run.data == ["open": 2])
        // No value for an operator that needs one: survey-core builds no condition.
        let (conversion, _) = try convertAndLoad(
            #"{"triggers": [{"type": "complete", "name": "q", "value": ""}], "elements": [{"type": "text", "name": "q"}]}"#
        )
        #expect(conversion.notes.contains { $0.what == "a complete trigger without an expression" })
    }

    @Test func namesAreTrimmedAsSurveyCoreTrimsThem() throws {
        let text = #"""
            {"pages": [{"name": " p ", "elements": [
              {"type": "text", "name": " age ", "inputType": "number"},
              {"type": "text", "name": "older", "visibleIf": "{age} > 10"}]}]}
            """#
        let (conversion, survey) = try convertAndLoad(text)
        #expect(survey.stepIDs == ["age", "older"])
        #expect(survey.unitIDs == ["p"])
        #expect(conversion.notes.contains { $0.kind == .renamed && $0.what == "name ' age ' is 'age'" })
        let run = try Self.complete(text, ["age": 11, "older": "yes"])
        #expect(run.data == ["age": 11, "older": "yes"])
    }

    @Test(arguments: ["dropdown", "radiogroup", "checkbox", "tagbox", "imagepicker"])
    func aChoiceQuestionWithNoChoicesLoadsAndOffersNothing(type: String) throws {
        for choices in ["", #", "choices": []"#] {
            let text = #"{"elements": [{"type": ""# + type + #"", "name": "d""# + choices + "}]}"
            let (conversion, survey) = try convertAndLoad(text)
            #expect(conversion.notes.contains { $0.what == "question 'd' without choices" })
            var session = SurveySession(survey: survey)
            #expect(throws: (any Error).self) {
                try session.answer(type == "checkbox" || type == "tagbox" ? ["no-choices"] : "no-choices", for: "d")
            }
            #expect(try Self.complete(text, [:]) == (true, [:]))
            // A required one cannot be passed, as in survey-core.
            let required =
                #"{"elements": [{"type": ""# + type + #"", "name": "d", "isRequired": true"# + choices + "}]}"
            #expect(try Self.complete(required, [:]).completed == false)
        }
    }

    /// A multiple text without items: survey-core 3.0.4 loads it (with a `requiredproperty` JSON
    /// error), shows nothing to fill in, and does not leave a page with a required one.
    @Test func aMultipleTextWithoutItemsLoadsAndTakesNoAnswer() throws {
        for items in ["", #", "items": []"#] {
            let text = #"{"elements": [{"type": "multipletext", "name": "m""# + items + "}]}"
            let (conversion, survey) = try convertAndLoad(text)
            #expect(conversion.notes.contains { $0.what == "multiple text 'm' without items" })
            var session = SurveySession(survey: survey)
            #expect(throws: (any Error).self) { try session.answer(["a": "x"], for: "m") }
            #expect(try Self.complete(text, [:]) == (true, [:]))
            let required = #"{"elements": [{"type": "multipletext", "name": "m", "isRequired": true"# + items + "}]}"
            #expect(try Self.complete(required, [:]).completed == false)
        }
    }

    /// A matrix without columns (a real survey listed its statements under `elements`): survey-core
    /// 3.0.4 loads it and shows nothing to answer, and does not leave a page with a required one.
    @Test func aMatrixWithoutColumnsLoadsAndTakesNoAnswer() throws {
        for members in [#", "rows": ["r1"]"#, #", "elements": [{"type": "text", "name": "t"}]"#] {
            let text = #"{"elements": [{"type": "matrix", "name": "g""# + members + "}]}"
            let (conversion, survey) = try convertAndLoad(text)
            #expect(conversion.notes.contains { $0.what == "matrix 'g' without columns" })
            var session = SurveySession(survey: survey)
            #expect(throws: (any Error).self) { try session.answer(["r1": "x"], for: "g") }
            #expect(try Self.complete(text, [:]) == (true, [:]))
            let required = #"{"elements": [{"type": "matrix", "name": "g", "isRequired": true"# + members + "}]}"
            #expect(try Self.complete(required, [:]).completed == false)
        }
    }

    /// `step: 0` on a number box: survey-core 3.0.4 checks a step greater than 0 only, so any
    /// number is accepted; the step is left out with a note.
    @Test func aNumberStepOfZeroChecksNothing() throws {
        let text = #"{"elements": [{"type": "text", "name": "n", "inputType": "number", "step": 0}]}"#
        let (conversion, _) = try convertAndLoad(text)
        #expect(conversion.notes.contains { $0.what == "step 0" })
        #expect(try Self.complete(text, ["n": 2.75]) == (true, ["n": 2.75]))
    }

    /// `mode: "display"`: survey-core 3.0.4 shows every question read-only and completes without
    /// checking `required`; here every step is read-only, inside panels too.
    @Test func aDisplayModeSurveyIsReadOnlyAndCompletes() throws {
        let text = #"""
            {"mode": "display", "elements": [{"type": "text", "name": "a", "isRequired": true},
              {"type": "panel", "name": "p", "elements": [{"type": "text", "name": "b", "isRequired": true}]}]}
            """#
        let (conversion, survey) = try convertAndLoad(text)
        #expect(conversion.notes.isEmpty)
        var session = SurveySession(survey: survey)
        #expect(throws: (any Error).self) { try session.answer("x", for: "b") }
        #expect(try Self.complete(text, [:]) == (true, [:]))
        let editable = text.replacingOccurrences(of: #""display""#, with: #""edit""#)
        #expect(try Self.complete(editable, [:]).completed == false)
    }

    /// A choice given as `{"text": …}` alone: survey-core 3.0.4 takes the text as its value.
    @Test func aChoiceWithOnlyATextHasTheTextAsItsValue() throws {
        let text = #"{"elements": [{"type": "radiogroup", "name": "c", "choices": [{"text": "Red"}, "Blue"]}]}"#
        let (conversion, _) = try convertAndLoad(text)
        #expect(!conversion.notes.contains { $0.what.contains("without a string or number value") })
        #expect(try Self.complete(text, ["c": "Red"]) == (true, ["c": "Red"]))
    }

    @Test func singlePageModeAsksEveryPageAsAPanelOfOnePage() throws {
        let text = #"""
            {"questionsOnPageMode": "singlePage", "pages": [
              {"name": "p1", "elements": [{"type": "text", "name": "a", "inputType": "number"}]},
              {"name": "p2", "title": "More", "visibleIf": "{a} = 1", "elements": [{"type": "text", "name": "b"}]}]}
            """#
        let (conversion, survey) = try convertAndLoad(text)
        #expect(conversion.isWhole)
        #expect(survey.unitIDs == ["single-page"])
        let panels = conversion.survey["steps"]?.arrayValue?.first?["steps"]?.arrayValue ?? []
        #expect(panels.map { $0["id"] } == ["p1", "p2"] && panels.map { $0["type"] } == ["panel", "panel"])
        #expect(panels.last?["visibleIf"] == "{a} = 1" && panels.last?["title"] == "More")
        var session = SurveySession(survey: survey)
        #expect(!session.isVisible("b"))
        try session.answer(1, for: "a")
        #expect(session.isVisible("b"))
        // Where a converted element comes from follows it onto the one page.
        #expect(
            conversion.origins[JSONPath.root.appending("steps").appending(0).appending("steps").appending(1)]
                == JSONPath.root.appending("pages").appending(1))
    }
}

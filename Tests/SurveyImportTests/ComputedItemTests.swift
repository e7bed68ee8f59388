import SurveyBuiltins
import SurveyCore
import SurveyImport
import Testing

/// Expression questions in a dynamic panel and expression columns of a dynamic matrix: computed in
/// each entry and stored there, as survey-core stores them; a respondent's value for them is replaced.
@Suite struct ComputedItemTests {
    @Test func computedItemsAreStoredInEachEntry() throws {
        let (conversion, survey) = try convertAndLoad(
            #"""
            {"pages": [{"name": "p", "elements": [
              {"type": "paneldynamic", "name": "lines", "templateElements": [
                {"type": "text", "name": "price", "inputType": "number"},
                {"type": "text", "name": "units", "inputType": "number"},
                {"type": "expression", "name": "total", "expression": "{panel.price} * {panel.units}"}]},
              {"type": "expression", "name": "sum", "expression": "sumInArray({lines}, 'total')"},
              {"type": "matrixdynamic", "name": "rows", "columns": [
                {"name": "q", "cellType": "text", "inputType": "number"},
                {"name": "n", "cellType": "expression", "expression": "{rowIndex}"},
                {"name": "twice", "cellType": "expression", "expression": "{row.q} * 2"}]}]}]}
            """#)
        #expect(conversion.isWhole, "\(conversion.notes)")
        var session = SurveySession(survey: survey)
        try session.answer([["price": 3, "units": 4, "total": 99], ["price": 2, "units": 5]], for: "lines")
        try session.answer([["q": 5], ["q": 1]], for: "rows")
        #expect(
            session.answer(for: "lines") == [
                ["price": 3, "units": 4, "total": 12], ["price": 2, "units": 5, "total": 10],
            ])
        #expect(session.answer(for: "rows") == [["q": 5, "n": 1, "twice": 10], ["q": 1, "n": 2, "twice": 2]])
        #expect(session.answer(for: "sum") == 22)
        // Not asked: the input lists the respondent's items only.
        let input = try #require(session.currentStep?.questions.first { $0.id == "lines" }?.input)
        guard case .repeating(let group) = input else {
            Issue.record("expected a repeat input, got \(input)")
            return
        }
        #expect(group.fields.map(\.name) == ["price", "units"])
    }
}

/// Dynamic panels sharing one `valueName` (names on one page, schools on another, a review at the
/// end): one list of entries in survey-core's data, each panel adding its questions to the same entries.
@Suite struct SharedEntriesTests {
    @Test func panelsSharingAValueNameFillTheSameEntries() throws {
        let (conversion, loaded) = try convertAndLoad(
            #"""
            {"pages": [
              {"name": "who", "elements": [{"type": "paneldynamic", "name": "kids", "valueName": "household",
                "panelCount": 1, "templateElements": [{"type": "text", "name": "first"}]}]},
              {"name": "school", "elements": [{"type": "paneldynamic", "name": "schools", "valueName": "household",
                "templateElements": [{"type": "text", "name": "school"}]}]},
              {"name": "end", "elements": [{"type": "text", "name": "note"}]}]}
            """#)
        let renamed = conversion.notes.filter { $0.kind == .renamed }.map(\.description)
        #expect(renamed.contains { $0.contains("dynamic panel 'schools' is 'household-1' here") }, "\(renamed)")
        var survey = loaded
        survey.resultShape = SurveyJSDataShape(survey)
        var session = SurveySession(survey: survey)
        try session.answer([["first": "Ann"], ["first": "Bo"]], for: "household")
        session.next()
        // As many panels as there are entries.
        #expect(throws: (any Error).self) {
            try session.answer([["school": "A"], ["school": "B"], ["school": "C"]], for: "household-1")
        }
        try session.answer([["school": "North"], ["school": "South"]], for: "household-1")
        session.next()
        session.next()
        let data = session.completionResult().answers
        #expect(data["household"] == [["first": "Ann", "school": "North"], ["first": "Bo", "school": "South"]])
        #expect(data["household-1"] == nil)
    }

    @Test func aDynamicMatrixsEntriesAreSharedByAPanelOnALaterPageNotOnItsOwn() throws {
        let (conversion, _) = try convertAndLoad(
            #"""
            {"pages": [
              {"name": "one", "elements": [
                {"type": "matrixdynamic", "name": "names", "valueName": "people", "rowCount": 1,
                 "columns": [{"name": "name", "cellType": "text"}]},
                {"type": "paneldynamic", "name": "same", "valueName": "people",
                 "templateElements": [{"type": "text", "name": "nick"}]}]},
              {"name": "two", "elements": [{"type": "paneldynamic", "name": "later", "valueName": "people",
                "templateElements": [{"type": "text", "name": "job"}]}]}]}
            """#)
        let notes = conversion.notes.map(\.description)
        #expect(notes.contains { $0.contains("dynamic panel 'later' is 'people-1' here") }, "\(notes)")
        #expect(notes.contains { $0.contains("question 'same' shares the answer 'people'") }, "\(notes)")
    }

    @Test func aFunctionTheAppRegistersGivesNullAsInSurveyCore() throws {
        let text = #"""
            {"pages": [{"name": "p", "elements": [
              {"type": "text", "name": "q", "inputType": "number"},
              {"type": "expression", "name": "price", "expression": "getItemPrice({q}) + 1"},
              {"type": "text", "name": "why", "visibleIf": "isVip({q})"},
              {"type": "paneldynamic", "name": "rows", "templateElements": [
                {"type": "text", "name": "n", "inputType": "number"},
                {"type": "expression", "name": "cost", "expression": "lookUp('cost', {panel.n}) * 2"}]}]}]}
            """#
        let conversion = try SurveyJSImporter.convert(text: text, source: "in.json", id: "in")
        #expect(Set(SurveyJSDataShape.hostFunctions(in: conversion.survey)) == ["getItemPrice", "isVip", "lookUp"])
        let notes = conversion.notes.filter { $0.kind == .hostVariable }.map(\.description)
        #expect(notes.contains { $0.contains("getItemPrice()") && $0.contains("gives null") }, "\(notes)")
        let source = SurveySource(loader: SurveyLoader(registry: .builtins())) { _ in }
        let survey = try source.load(text, file: "in.json")
        var session = SurveySession(survey: survey)
        try session.answer(3, for: "q")
        #expect(!session.isVisible("why"))
        try session.answer([["n": 2]], for: "rows")
        #expect(session.answer(for: "rows") == [["n": 2, "cost": 0]])
    }

    /// A repeat item's `visibleIf` calling the app's function: null, as survey-core gives without it;
    /// `and (` and `or (` are operators, not calls.
    @Test func anItemsVisibleIfCallingTheAppsFunctionLoads() throws {
        let text = #"""
            {"pages": [{"name": "p", "elements": [
              {"type": "paneldynamic", "name": "rows", "templateElements": [
                {"type": "text", "name": "n"},
                {"type": "text", "name": "vip", "visibleIf": "isVip({panel.n}) = true"},
                {"type": "text", "name": "why", "visibleIf": "{PANEL.n} = 'a' and ({panel.n} notempty)"}]}]}]}
            """#
        let conversion = try SurveyJSImporter.convert(text: text, source: "in.json", id: "in")
        #expect(SurveyJSDataShape.hostFunctions(in: conversion.survey) == ["isVip"])
        let source = SurveySource(loader: SurveyLoader(registry: .builtins())) { _ in }
        var session = SurveySession(survey: try source.load(text, file: "in.json"))
        try session.answer([["n": "a", "why": "x", "vip": "y"]], for: "rows")
        #expect(session.answer(for: "rows") == [["n": "a", "why": "x"]])
    }

    /// `{#name}` of a name no question has: a host value, as `{name}` (it was a load error).
    @Test func aNoConversionReferenceToAHostValueLoads() throws {
        let text = #"""
            {"calculatedValues": [{"name": "r", "expression": "{#rate} + 1", "includeIntoResult": true}],
             "pages": [{"name": "p", "elements": [{"type": "text", "name": "q"}]}]}
            """#
        let conversion = try SurveyJSImporter.convert(text: text, source: "in.json", id: "in")
        #expect(conversion.hostNames.map(\.name) == ["rate"])
        let source = SurveySource(loader: SurveyLoader(registry: .builtins())) { _ in }
        _ = try source.load(text, file: "in.json")
    }

    /// A call that reads no answer (`isReady()`, `lookUp('rate')`): still the app's function, null here.
    @Test func aFunctionCalledWithoutReferencesIsTheAppsToo() throws {
        let text = #"""
            {"calculatedValues": [{"name": "rate", "expression": "lookUp('rate')", "includeIntoResult": true}],
             "pages": [{"name": "p", "elements": [
              {"type": "text", "name": "q", "visibleIf": "isReady() = true"},
              {"type": "text", "name": "r", "visibleIf": "isReady() empty"}]}]}
            """#
        let conversion = try SurveyJSImporter.convert(text: text, source: "in.json", id: "in")
        #expect(Set(SurveyJSDataShape.hostFunctions(in: conversion.survey)) == ["lookUp", "isReady"])
        let source = SurveySource(loader: SurveyLoader(registry: .builtins())) { _ in }
        let session = SurveySession(survey: try source.load(text, file: "in.json"))
        #expect(!session.isVisible("q"))
        #expect(session.isVisible("r"))
    }
}

@Suite struct InArrayConditionTests {
    /// `countInArray({a}, 'x', {room} = true)`: the condition reads each entry's fields, so `room` is
    /// no value the host sets.
    @Test func aConditionArgumentReadsTheEntriesFields() throws {
        let (conversion, survey) = try convertAndLoad(
            #"""
            {"calculatedValues": [{"name": "rooms", "expression": "countInArray({people}, 'name', {room} = true)"}],
             "pages": [{"name": "p", "elements": [
              {"type": "paneldynamic", "name": "people", "templateElements": [
                {"type": "text", "name": "name"}, {"type": "boolean", "name": "room"}]},
              {"type": "text", "name": "why", "visibleIf": "{rooms} > 1"}]}]}
            """#)
        #expect(conversion.hostNames.isEmpty)
        #expect(survey.definition.variables.isEmpty)
        var session = SurveySession(survey: survey)
        try session.answer([["name": "a", "room": true], ["name": "b", "room": true], ["name": "c"]], for: "people")
        #expect(session.isVisible("why"))
    }
}

@Suite struct SelfVisibilityTests {
    /// `{$self.isVisible}` in the question's own visibleIf: survey-core reads the visibility the
    /// condition last gave, true at first; the conversion reads true, with a note, instead of a load error.
    @Test func aVisibleIfReadingItsOwnVisibilityReadsTrue() throws {
        let (conversion, survey) = try convertAndLoad(
            #"""
            {"pages": [{"name": "p", "elements": [
              {"type": "text", "name": "q1"},
              {"type": "text", "name": "q2", "visibleIf": "{$self.isVisible} = true"},
              {"type": "text", "name": "q3", "visibleIf": "{ $self.isVisible } and {q1} = 'x'"}]}]}
            """#)
        #expect(conversion.notes.filter { $0.what.contains("{$self.isVisible}") }.count == 2)
        var session = SurveySession(survey: survey)
        #expect(session.isVisible("q2"))
        #expect(!session.isVisible("q3"))
        try session.answer("x", for: "q1")
        #expect(session.isVisible("q3"))
    }
}

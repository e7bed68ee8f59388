import SurveyBuiltins
import SurveyCore
import SurveyImport
import Testing

/// Page numbers in texts, a second Other item, rankings with nothing to rank and dropdown-matrix
/// defaults naming cells the matrix does not list: patterns of real SurveyJS surveys that survey-core
/// 3.0.4 loads (issue 41). Each expectation was checked against survey-core under node first.
@Suite struct WildPagesAndChoicesTests {
    @Test func pageNumbersInAPagesTitleAreWrittenAsNumbers() throws {
        // survey-core: the first page's title reads "Basics (1/2)"; the second's "Work (2/2)".
        let (_, survey) = try convertAndLoad(
            #"""
            {"pages": [
              {"name": "basics", "title": {"default": "Basics ({pageno}/{pagecount})", "fr": "Bases ({pageNo}/{PageCount})"},
               "elements": [{"type": "text", "name": "name"}]},
              {"name": "work", "title": "Work ({pageno}/{pagecount})", "elements": [{"type": "text", "name": "job"}]}]}
            """#)
        let basics = try #require(survey.definition.steps.first { $0.id == "basics" }?.title)
        #expect(basics.resolved(locale: "en", defaultLocale: "en") == "Basics (1/2)")
        #expect(basics.resolved(locale: "fr", defaultLocale: "en") == "Bases (1/2)")
        let work = try #require(survey.definition.steps.first { $0.id == "work" }?.title)
        #expect(work.resolved(locale: "en", defaultLocale: "en") == "Work (2/2)")
    }

    @Test func aListedOtherChoiceBesideTheOtherItemIsTheOtherItem() throws {
        // survey-core shows "Other" and "Other (describe)", both the value 'other'; either one asks for
        // the text: {"pay": "other", "pay-Comment": "per shift"}.
        let (conversion, survey) = try convertAndLoad(
            #"""
            {"elements": [{"type": "radiogroup", "name": "pay", "isRequired": true, "showOtherItem": true,
              "choices": ["Weekly", "Monthly", {"value": "other", "text": "Other"}]}]}
            """#)
        #expect(!conversion.isWhole)
        let choices = try #require(survey.stepDefinition("pay")?.options["choices"]?.arrayValue)
        #expect(choices == ["Weekly", "Monthly"])
        #expect(survey.stepDefinition("pay")?.options["other"] != nil)
    }

    @Test func aRankingWithNothingToRankBlocksWhenRequired() throws {
        // survey-core: shown once {country} has an answer, with nothing to rank; Next stays blocked.
        let (conversion, survey) = try convertAndLoad(
            #"""
            {"elements": [{"type": "text", "name": "country"},
              {"type": "ranking", "name": "city", "choices": [], "isRequired": true, "visibleIf": "{country} notempty"}]}
            """#)
        #expect(!conversion.isWhole)
        var session = SurveySession(survey: survey)
        try session.answer("France", for: "country")
        #expect(session.isVisible("city"))
        guard case .blocked = session.next() else {
            Issue.record("a required question with nothing to rank blocks, as in survey-core")
            return
        }
    }

    @Test func aDropdownMatrixDefaultKeepsOnlyTheCellsItLists() throws {
        // survey-core keeps every key of the default in its data; only listed rows and columns show.
        let (conversion, survey) = try convertAndLoad(
            #"""
            {"elements": [{"type": "matrixdropdown", "name": "signal", "choices": [1, 2, 3, 4],
              "rows": ["Telkomsel", "Indosat"], "columns": [{"name": "Operator"}, {"name": "Internet"}],
              "defaultValue": {"Telkomsel": {"Operator": 4, "Strength": 3}, "Bakrie": {"Operator": 2}}}]}
            """#)
        #expect(!conversion.isWhole)
        let session = SurveySession(survey: survey)
        #expect(session.answer(for: "signal") == ["Telkomsel": ["Operator": 4]])
    }
}

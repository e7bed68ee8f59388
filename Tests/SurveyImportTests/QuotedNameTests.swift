import SurveyBuiltins
import SurveyCore
import SurveyImport
import Testing

/// survey-core reads every character but a brace between `{` and `}` as the name, quotes included,
/// and a `{` inside a quoted text as text (issue 42).
@Suite struct QuotedNameTests {
    @Test func aNameHoldingQuotesThatNothingDefinesIsAHostVariable() throws {
        let (conversion, survey) = try convertAndLoad(
            #"""
            {"pages": [{"name": "p", "elements": [
              {"type": "text", "name": "why", "visibleIf": "{a'b\"c} = 1 and '{x' + {a'b\"c} <> '{x}'"}
            ]}]}
            """#)
        #expect(survey.definition.variables.map(\.name) == [#"a'b"c"#])
        #expect(conversion.hostNames.map(\.name) == [#"a'b"c"#])
        var session = SurveySession(survey: survey)
        #expect(!session.isVisible("why"))
        session = SurveySession(survey: survey, variables: [#"a'b"c"#: 1])
        #expect(session.isVisible("why"))
    }

    @Test func braceInsideAQuotedTextIsNoReference() throws {
        let (conversion, survey) = try convertAndLoad(
            #"""
            {"pages": [{"name": "p", "elements": [
              {"type": "text", "name": "n"},
              {"type": "text", "name": "why", "visibleIf": "'{' + {N} + '}' = '{7}'"}
            ]}]}
            """#)
        #expect(survey.definition.variables.isEmpty)
        #expect(conversion.hostNames.isEmpty)
        // {N} is matched to n whatever its case; the texts in quotes are left as they are.
        #expect(try #require(survey.stepDefinition("why")).visibleIf == "'{' + {n} + '}' = '{7}'")
        var session = SurveySession(survey: survey)
        try session.answer("7", for: "n")
        #expect(session.isVisible("why"))
    }
}

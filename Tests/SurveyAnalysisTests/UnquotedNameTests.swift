import SurveyAnalysis
import SurveyCore
import Testing

@Suite("unquoted-name")
struct UnquotedNameTests {
    @Test func aBareWordThatIsAQuestionsName() throws {
        let found = try findings(
            .unquotedName,
            steps: """
                {"id": "q1", "type": "text"}, {"id": "q2", "type": "text"},
                {"id": "q3", "type": "text", "visibleIf": "{q1} = q2"}
                """)
        #expect(found.count == 1, "\(listing(found))")
        #expect(found.first?.severity == .warning)
        #expect(found.first?.stepID == "q3")
        #expect(found.first?.path?.description.hasSuffix("visibleIf") == true)
        #expect(found.first?.message.contains("write {q2}") == true)
    }

    @Test func aBareWordThatIsACalculatedValuesNameInACalculatedValue() throws {
        let found = try findings(
            .unquotedName,
            steps: #"{"id": "q1", "type": "number"}, {"id": "q2", "type": "text", "visibleIf": "{label} = 'big'"}"#,
            extra:
                #""calculatedValues": [{"name": "base", "expression": "10"}, {"name": "label", "expression": "iif({q1} > base, 'big', 'small')"}]"#
        )
        #expect(found.count == 1, "\(listing(found))")
        #expect(found.first?.path?.description == "$.calculatedValues[1].expression")
        #expect(found.first?.message.contains("the calculated value 'base'") == true)
    }

    @Test func wordsThatNameNothingQuotedNamesAndReferencesAreFine() throws {
        let found = try findings(
            .unquotedName,
            steps: """
                {"id": "q1", "type": "text"}, {"id": "q2", "type": "text"},
                {"id": "q3", "type": "text", "visibleIf": "{q1} = yes or {q1} = 'q2' or {q1} = {q2} or {q1} contains Q2"}
                """)
        #expect(found.isEmpty, "\(listing(found))")
    }

    @Test func aBareWordAfterATextWithAnEscapedQuote() throws {
        let found = try findings(
            .unquotedName,
            steps: #"""
                {"id": "q1", "type": "text"},
                {"id": "q2", "type": "text", "visibleIf": "{q1} = 'it\\'s' or {q1} = q2"}
                """#)
        #expect(found.count == 1, "\(listing(found))")
    }
}

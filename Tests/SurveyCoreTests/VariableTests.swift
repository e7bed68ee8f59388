import SurveyCore
import Testing

/// Host variables: declared in `variables`, given when a session starts, read as `{name}`.
@Suite struct VariableTests {
    static func survey() throws -> Survey {
        var text = surveyJSON([
            #"{"id": "seats", "type": "t-text", "visibleIf": "{plan} = 'pro'", "title": "Seats on {plan}?"}"#,
            #"{"id": "end", "type": "t-note", "title": "Bye"}"#,
        ])
        text.removeLast()
        return try loadSurvey(text + #", "variables": [{"name": "plan", "default": "free"}, {"name": "lang"}]}"#)
    }

    @Test func aGivenValueIsReadByConditionsAndTexts() throws {
        let session = SurveySession(survey: try Self.survey(), variables: ["plan": "pro"])
        #expect(session.currentUnitID == "seats")
        #expect(session.currentStep?.questions.first?.title == "Seats on pro?")
        #expect(session.calculatedValue("plan") == "pro")
    }

    @Test func withoutAValueTheDefaultApplies() throws {
        let session = SurveySession(survey: try Self.survey())
        #expect(session.currentUnitID == "end")
        #expect(session.calculatedValue("plan") == "free")
        #expect(session.calculatedValue("lang") == .null)
    }

    @Test func theValuesAreKeptInTheStateAndAnUndeclaredOneIsRefusedOnResume() throws {
        var session = SurveySession(survey: try Self.survey(), variables: ["plan": "pro", "ignored": 1])
        try session.answer("3", for: "seats")
        var state = session.state
        #expect(state.variables == ["plan": "pro"])
        let again = try SessionState(json: state.jsonValue)
        #expect(again == state)
        let resumed = try SurveySession(survey: session.survey, resuming: again)
        #expect(resumed.currentUnitID == "seats")
        state.variables["nosuch"] = 1
        #expect(throws: SessionError.self) { try SurveySession(survey: session.survey, resuming: state) }
    }

    @Test func aVariableNameSharesTheNamespace() {
        var text = surveyJSON([#"{"id": "plan", "type": "t-text"}"#])
        text.removeLast()
        let errors = loadErrors(text + #", "variables": [{"name": "plan"}]}"#)
        #expect(
            errors.contains {
                $0.message.contains("duplicate id 'plan'") && $0.path?.description == "$.variables[0].name"
            })
    }
}

import SurveyBuiltins
import SurveyCore
import Testing

/// Steps with the same options text share one configured question (found by identity first, then by
/// value); each still gets its own type, and its own choice conditions.
@Suite struct SharedOptionsTests {
    static let conditional = #"{"choices": ["a", {"value": "b", "visibleIf": "{q0} = 'x'"}, "c"]}"#
    static let plain = #"{"choices": ["a", "b", "c"]}"#

    static func survey() throws -> Survey {
        var steps = [#"{"id": "q0", "type": "text"}"#]
        steps.append(#"{"id": "s1", "type": "single-choice", "options": \#(conditional)}"#)
        steps.append(#"{"id": "m1", "type": "multiple-choice", "options": \#(conditional)}"#)
        steps.append(#"{"id": "p1", "type": "single-choice", "options": \#(plain)}"#)
        steps.append(#"{"id": "s2", "type": "single-choice", "options": \#(conditional)}"#)
        // More distinct configurations than the compiler keeps at hand, so that the last ones are
        // found again in its dictionary.
        for stars in 2...10 {
            steps.append(#"{"id": "r\#(stars)", "type": "rating", "options": {"stars": \#(stars)}}"#)
        }
        for other in 0..<10 {
            steps.append(#"{"id": "o\#(other)", "type": "single-choice", "options": {"choices": ["o\#(other)"]}}"#)
        }
        steps.append(#"{"id": "s3", "type": "single-choice", "options": \#(conditional)}"#)
        steps.append(#"{"id": "p2", "type": "single-choice", "options": \#(plain)}"#)
        steps.append(#"{"id": "r5again", "type": "rating", "options": {"stars": 5}}"#)
        let text = """
            {"formatVersion": 1, "id": "shared", "title": "Shared", "steps": [
              {"id": "page", "type": "page", "steps": [\(steps.joined(separator: ",\n"))]}
            ]}
            """
        return try SurveyLoader(registry: .builtins()).load(text: text, source: "shared.json")
    }

    static func choices(_ session: SurveySession, _ id: String) -> [String]? {
        session.currentStep?.questions.first { $0.id == id }?.input.choiceInput?.choices.map(\.value)
    }

    @Test func eachStepKeepsItsTypeAndItsChoiceConditions() throws {
        let survey = try Self.survey()
        var session = SurveySession(survey: survey)
        for id in ["s1", "m1", "s2", "s3"] { #expect(Self.choices(session, id) == ["a", "c"], "\(id)") }
        for id in ["p1", "p2"] { #expect(Self.choices(session, id) == ["a", "b", "c"], "\(id)") }
        let inputs = Dictionary(
            uniqueKeysWithValues: (session.currentStep?.questions ?? []).map { ($0.id, $0.input) })
        if case .multipleChoice = inputs["m1"] {
        } else {
            Issue.record("m1 is not a multiple choice: \(String(describing: inputs["m1"]))")
        }
        if case .singleChoice = inputs["s3"] {} else { Issue.record("s3 is not a single choice") }
        #expect(survey.question(forStep: "r5again")?.typeID == "rating")
        #expect(throws: SessionError.self) { try session.answer(6, for: "r5again") }
        #expect(throws: Never.self) { try session.answer(5, for: "r5again") }
        try session.answer("x", for: "q0")
        for id in ["s1", "m1", "s2", "s3", "p1", "p2"] {
            #expect(Self.choices(session, id) == ["a", "b", "c"], "\(id)")
        }
        #expect(throws: Never.self) { try session.answer("b", for: "s3") }
    }
}

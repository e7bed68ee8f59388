import SurveyAnalysis
import SurveyCore
import Testing

/// SurveyJS's operator spellings (`^`/`power`, `contain`/`notcontain`/`*=`, unquoted texts) in lint
/// and path generation: what the analysis can decide it decides as for the usual spellings, and
/// arithmetic it cannot decide stays unknown (never reported).
@Suite("surveyjs-operator-spellings")
struct NewOperatorTests {
    @Test func powerIsUnknownSoNeverReported() throws {
        for condition in ["{n} ^ 2 > 50", "{n} power 2 > 100"] {
            let found = try findings(
                .alwaysFalseCondition,
                steps: """
                    {"id": "n", "type": "number", "required": true, "options": {"min": 1, "max": 10},
                     "branches": [{"if": "\(condition)", "goto": "end"}]},
                    {"id": "middle", "type": "text"},
                    {"id": "end", "type": "content", "options": {"body": "Bye"}}
                    """)
            #expect(found.isEmpty, "\(condition): \(listing(found))")
        }
    }

    @Test func containSpellingsAreContains() throws {
        let steps = { (condition: String) in
            """
            {"id": "plan", "type": "multiple-choice", "required": true, "options": {"choices": ["free", "pro"]}},
            {"id": "extra", "type": "text", "visibleIf": "\(condition)"}
            """
        }
        let usual = try findings(
            .alwaysFalseCondition, steps: steps("{plan} contains 'pro' and {plan} notcontains 'pro'"))
        for spelling in ["{plan} contain 'pro' and {plan} notcontain 'pro'", "{plan} *= pro and {plan} notcontain pro"]
        {
            let found = try findings(.alwaysFalseCondition, steps: steps(spelling))
            #expect(found.map(\.stepID) == usual.map(\.stepID), "\(spelling): \(listing(found))")
        }
    }
}

import SurveyAnalysis
import SurveyBuiltins
import SurveyCore
import Testing

@Suite struct CoverageTests {
    static let text = """
        {"formatVersion": 1, "id": "cov", "title": "Coverage", "steps": [
          {"id": "plan", "type": "single-choice", "title": "Plan", "required": true, "options": {"choices": ["free", "pro"]},
           "branches": [{"if": "{plan} = 'free'", "goto": "end"}]},
          {"id": "seats", "type": "number", "title": "Seats", "options": {"min": 1, "max": 500, "integer": true}},
          {"id": "big", "type": "text", "title": "Tell us more", "visibleIf": "{seats} > 100"},
          {"id": "end", "type": "content", "title": "Thanks"}
        ]}
        """

    func survey() throws -> Survey { try SurveyLoader(registry: .builtins()).load(text: Self.text, source: "cov.json") }

    @Test func oneRunCoversItsOwnBranchesOnly() throws {
        var coverage = BranchCoverage(survey: try survey())
        coverage.record([.answer(stepID: "plan", value: "free"), .next, .next])
        let uncovered = Set(coverage.uncovered)
        #expect(coverage.covered.contains(.branch(unit: "plan", index: 0, taken: true)))
        #expect(coverage.covered.contains(.completed))
        #expect(uncovered.contains(.branch(unit: "plan", index: 0, taken: false)))
        #expect(uncovered.contains(.shown(step: "seats")))
        #expect(uncovered.contains(.condition(owner: "big", holds: true)))
        coverage.record([
            .answer(stepID: "plan", value: "pro"), .next, .answer(stepID: "seats", value: 5), .next, .next,
        ])
        #expect(coverage.covered.contains(.condition(owner: "big", holds: false)), "passed over while hidden")
        #expect(!coverage.covered.contains(.shown(step: "big")))
    }

    @Test func generatedPathsCoverEverythingAndReplayAsTheySay() throws {
        let survey = try survey()
        let result = PathGenerator(survey: survey, seed: 3).generate()
        #expect(result.coverage.uncovered.isEmpty, "\(result.coverage.uncovered)")
        // Measured independently: every script replayed through a fresh session covers what it claims.
        var independent = BranchCoverage(survey: survey)
        for script in result.scripts {
            let replayed = SurveySession.replay(survey: survey, seed: 3, today: "2026-01-01", actions: script.actions)
            #expect(replayed.status == .completed)
            #expect(replayed.completionResult().path == script.path)
            #expect(replayed.completionResult().answers == script.answers)
            independent.record(script.actions, seed: 3)
        }
        #expect(independent.fraction == 1)
    }
}

import SurveyAnalysis
import SurveyBuiltins
import SurveyCore
import Testing

@Suite struct SimulationTests {
    static let text = """
        {"formatVersion": 1, "id": "sim", "title": "Sim", "steps": [
          {"id": "plan", "type": "single-choice", "title": "Plan", "required": true, "options": {"choices": ["free", "pro"]}},
          {"id": "why-pro", "type": "text", "title": "Why pro?", "visibleIf": "{plan} = 'pro'", "required": true},
          {"id": "stars", "type": "rating", "title": "Stars", "options": {"stars": 5}},
          {"id": "end", "type": "content", "title": "Thanks"}
        ]}
        """

    func survey() throws -> Survey { try SurveyLoader(registry: .builtins()).load(text: Self.text, source: "sim.json") }

    @Test func reachFollowsTheAnswers() throws {
        let report = SurveySimulator(survey: try survey()).run(respondents: 4000, seed: 7)
        #expect(report.respondents == 4000)
        #expect(report.completed == 4000, "every respondent can complete")
        let reach = Dictionary(uniqueKeysWithValues: report.reach.map { ($0.stepID, $0.share) })
        #expect(reach["plan"] == 1)
        #expect(abs((reach["why-pro"] ?? 0) - 0.5) < 0.05, "half choose pro: \(reach["why-pro"] ?? 0)")
        #expect(report.pathLengths.keys.sorted() == [3, 4])
        #expect(report.topPaths.first?.count ?? 0 > 1500)
        #expect(report.meanSeconds > 0)
    }

    @Test func theSameSeedGivesTheSameReport() throws {
        let survey = try survey()
        let first = SurveySimulator(survey: survey).run(respondents: 500, seed: 3).jsonValue
        let second = SurveySimulator(survey: survey).run(respondents: 500, seed: 3).jsonValue
        #expect(first == second)
        #expect(SurveySimulator(survey: survey).run(respondents: 500, seed: 4).jsonValue != first)
    }

    @Test func weightsSteerTheChoices() throws {
        let profile = try SimulationProfile(json: ["weights": ["plan": ["pro": 9, "free": 1]]], path: "profile.json")
        let report = SurveySimulator(survey: try survey(), profile: profile).run(respondents: 4000, seed: 1)
        let reach = Dictionary(uniqueKeysWithValues: report.reach.map { ($0.stepID, $0.share) })
        #expect(abs((reach["why-pro"] ?? 0) - 0.9) < 0.03, "\(reach["why-pro"] ?? 0)")
        #expect(throws: SimulationError.self) { try SimulationProfile(json: ["skipOptional": 2], path: "p.json") }
    }
}

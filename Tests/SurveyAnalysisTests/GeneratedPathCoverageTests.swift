import Foundation
import SurveyAnalysis
import SurveyBuiltins
import SurveyCore
import Testing

/// `survey paths` on generated branching surveys (the soundness suite's random surveys: pages,
/// conditions on earlier and later answers, choice conditions, requirements, forward and backward
/// jumps), checked independently of the generator's own bookkeeping: every script is replayed through
/// a fresh session, and what it shows is compared with a breadth-first run of the engine over a few
/// answers per question (`SoundnessTests.explore`).
@Suite("Generated paths on generated surveys")
struct GeneratedPathCoverageTests {
    /// Replays `actions` and collects every step shown on the way.
    static func replay(_ survey: Survey, _ actions: [SessionAction]) -> (shown: Set<String>, session: SurveySession) {
        var session = SurveySession(survey: survey, seed: 1, today: "2026-01-01")
        var shown = Set(session.currentStepIDs)
        for action in actions {
            switch action {
            case .answer(let stepID, let value): _ = try? session.answer(value, for: stepID)
            case .next: session.next()
            case .back: try? session.back()
            case .dismiss: session.dismiss()
            }
            shown.formUnion(session.currentStepIDs)
        }
        return (shown, session)
    }

    @Test(arguments: 0..<30)
    func scriptsShowEveryStepTheEngineCanShowAndReplayAsTheySay(seed: Int) throws {
        let text = SoundnessTests.randomSurvey(seed: UInt64(seed) &* 104_729 &+ 3, count: 8)
        guard let survey = try? SurveyLoader(registry: .builtins()).load(text: text, source: "random.json") else {
            return  // a generated survey that does not load says nothing about paths
        }
        let result = PathGenerator(survey: survey, seed: 1, timeLimit: 5).generate()
        var shown = Set<String>()
        var completed = false
        var independent = BranchCoverage(survey: survey)
        for script in result.scripts {
            let (seen, session) = Self.replay(survey, script.actions)
            shown.formUnion(seen)
            #expect(session.completionResult().path == script.path, "seed \(seed)\n\(text)")
            if session.status == .completed {
                completed = true
                #expect(session.completionResult().answers == script.answers, "seed \(seed)")
            }
            independent.record(script.actions, seed: 1, today: "2026-01-01")
        }
        // What the generator claims is what its scripts do.
        #expect(independent.covered == result.coverage.covered, "seed \(seed)")
        // Every step a run of the engine shows (without Back) is shown by some script.
        // Bounded (the first 400 states, breadth first): what it finds is certainly reachable.
        let (reachable, completes) = SoundnessTests.explore(survey, limit: 400)
        let missed = reachable.subtracting(shown).sorted()
        #expect(missed.isEmpty, "seed \(seed): no script shows \(missed)\n\(text)")
        if !missed.isEmpty, ProcessInfo.processInfo.environment["PATHS_VERBOSE"] != nil { print(text) }
        #expect(completed || !completes, "seed \(seed): no script completes\n\(text)")
        // Every goal left is one the generator could not reach; a step goal left is one the engine never shows.
        for goal in result.coverage.uncovered {
            if case .shown(let step) = goal { #expect(!reachable.contains(step), "seed \(seed): \(goal)") }
        }
    }
}

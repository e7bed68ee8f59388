import SurveyCore
import Testing

@Suite struct IncrementalTests {
    /// q0 … q(n-1); q1 is referenced by exactly three conditions, every other question by the next one.
    static func chainSurvey(_ count: Int) -> String {
        var steps: [String] = [#"{"id": "q0", "type": "t-text"}"#]
        for index in 1..<count {
            let reference: String
            switch index {
            case 2, count / 2, count - 1: reference = "q1"
            default: reference = "q\(index - 1)"
            }
            steps.append(#"{"id": "q\#(index)", "type": "t-text", "visibleIf": "{\#(reference)} <> 'stop'"}"#)
        }
        return surveyJSON(steps)
    }

    @Test func answeringEvaluatesOnlyDependentExpressions() throws {
        let survey = try loadSurvey(Self.chainSurvey(10_000))
        #expect(survey.stepCount == 10_000)
        var session = SurveySession(survey: survey)
        try session.answer("x", for: "q0")
        var outcome = session.next()
        #expect(outcome == .moved(to: "q1"))
        let before = session.evaluationCount
        try session.answer("stop", for: "q1")
        #expect(session.evaluationCount - before == 3)
        let beforeNext = session.evaluationCount
        outcome = session.next()
        #expect(outcome == .moved(to: "q3"))  // q2 is hidden now
        #expect(session.evaluationCount - beforeNext == 0)
        #expect(session.progress.total < 10_000)
    }

    @Test func tenThousandQuestionSurveyWalksToTheEnd() throws {
        let survey = try loadSurvey(Self.chainSurvey(10_000))
        var session = SurveySession(survey: survey)
        var steps = 0
        var evaluationsPerAnswer: [Int] = []
        while let ids = Optional(session.currentStepIDs), !ids.isEmpty {
            for id in ids {
                let before = session.evaluationCount
                try session.answer(.string("a\(steps)"), for: id)
                evaluationsPerAnswer.append(session.evaluationCount - before)
            }
            steps += 1
            if case .completed(let result) = session.next() {
                #expect(result.path.count == 10_000)
                #expect(result.answers.count == 10_000)
                break
            }
        }
        #expect(steps == 10_000)
        #expect(evaluationsPerAnswer.max() ?? 0 <= 3)
    }
}

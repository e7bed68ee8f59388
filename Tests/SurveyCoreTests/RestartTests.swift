import SurveyCore
import Testing

/// The hot-loop API: ``SurveySession/restart(seed:)`` gives what a new session gives, and
/// ``SurveySession/advance()`` moves exactly as ``SurveySession/next()`` does.
@Suite struct RestartTests {
    /// Everything a respondent can observe of a session, to compare two of them.
    struct Snapshot: Equatable {
        var state: SessionState
        var completion: CompletionResult
        var step: StepPresentation?
        var progress: Progress
        var evaluations: Int
        var unit: UnitIndex?
        var steps: [StepIndex]

        init(_ session: SurveySession) {
            state = session.state
            completion = session.completionResult()
            step = session.currentStep
            progress = session.progress
            evaluations = session.evaluationCount
            unit = session.currentUnit
            steps = session.currentSteps
        }
    }

    static func run(_ session: inout SurveySession, _ actions: [SessionAction]) {
        for action in actions { session.apply(action) }
    }

    @Test(arguments: PropertyTests.seeds)
    func aRestartedSessionIsANewOne(seed: UInt64) throws {
        let survey = try loadSurvey(PropertyTests.randomSurvey(seed: seed))
        let before = PropertyTests.randomActions(survey, seed: seed, allowBack: true)
        let after = PropertyTests.randomActions(survey, seed: seed &+ 1000, allowBack: true)
        var reused = SurveySession(survey: survey, seed: seed, today: "2024-01-01")
        Self.run(&reused, before)
        reused.restart(seed: seed &+ 1000)
        var fresh = SurveySession(survey: survey, seed: seed &+ 1000, today: "2024-01-01")
        #expect(Snapshot(reused) == Snapshot(fresh))
        #expect(reused.actions.isEmpty && reused.lastErrors.isEmpty && reused.status == .inProgress)
        Self.run(&reused, after)
        Self.run(&fresh, after)
        #expect(Snapshot(reused) == Snapshot(fresh))
        #expect(reused.actions == fresh.actions)
    }

    /// Defaults, `enableIf`, calculated values, triggers, shuffles, variables and dates: every part of a
    /// start is redone, from the survey's precomputed start or (dates, variables) evaluated again.
    @Test(arguments: [false, true])
    func everyPartOfAStartIsRedone(withVariables: Bool) throws {
        var text = surveyJSON(
            [
                #"{"id": "p1", "type": "page", "shuffle": true, "steps": [{"id": "a", "type": "t-text", "defaultValue": "hello"}, {"id": "n", "type": "t-text"}, {"id": "b", "type": "t-text", "defaultValueExpression": "{n} + '!'"}, {"id": "e", "type": "t-text", "enableIf": "{n} = 'x'"}]}"#,
                #"{"id": "who", "type": "t-choice", "options": {"choices": ["a", "b"]}, "visibleIf": "{plan} = 'pro' or {big} > 2"}"#,
                #"{"id": "when", "type": "t-text", "visibleIf": "age('2000-01-01') > 20"}"#,
            ],
            calculated: #"[{"name": "big", "expression": "{w} * 2"}, {"name": "w", "expression": "length({n})"}]"#)
        text.removeLast()
        text +=
            #", "variables": [{"name": "plan", "default": "free"}], "triggers": [{"type": "setvalue", "if": "{n} = 'go'", "target": "a", "value": "set"}]}"#
        let survey = try loadSurvey(text)
        let variables: [String: JSONValue] = withVariables ? ["plan": "pro"] : [:]
        var reused = SurveySession(survey: survey, seed: 5, today: "2026-06-01", variables: variables)
        try reused.answer("go", for: "n")
        try reused.answer("b!!", for: "b")
        #expect(reused.answer(for: "a") == "set")
        reused.next()
        reused.restart(seed: 9)
        var fresh = SurveySession(survey: survey, seed: 9, today: "2026-06-01", variables: variables)
        #expect(Snapshot(reused) == Snapshot(fresh))
        #expect(reused.seed == 9 && reused.answer(for: "a") == "hello")
        let script: [SessionAction] = [
            .answer(stepID: "n", value: "x"), .answer(stepID: "e", value: "on"), .next,
        ]
        Self.run(&reused, script)
        Self.run(&fresh, script)
        #expect(Snapshot(reused) == Snapshot(fresh))
        #expect(reused.answer(for: "b") == "x!")
    }

    @Test func restartingDropsObserversAndCopiesStayApart() throws {
        let survey = try loadSurvey(PropertyTests.randomSurvey(seed: 3))
        var session = SurveySession(survey: survey, seed: 1)
        var heard = 0
        session.observe { _ in heard += 1 }
        let first = try #require(session.currentStepIDs.first)
        try session.answer("a", for: first)
        #expect(heard == 1)
        let copy = session
        session.restart(seed: 2)
        try session.answer("b", for: first)
        #expect(heard == 1)
        // The copy taken before the restart still holds its own respondent.
        #expect(copy.answer(for: first) == "a" && session.answer(for: first) == "b")
    }

    @Test(arguments: PropertyTests.seeds.prefix(20))
    func advanceMovesAsNextDoes(seed: UInt64) throws {
        let survey = try loadSurvey(PropertyTests.randomSurvey(seed: seed))
        let actions = PropertyTests.randomActions(survey, seed: seed, allowBack: true)
        var byNext = SurveySession(survey: survey, seed: seed, today: "2024-01-01")
        var byAdvance = byNext
        for action in actions {
            guard case .next = action else {
                Self.run(&byNext, [action])
                Self.run(&byAdvance, [action])
                continue
            }
            switch (byNext.next(), byAdvance.advance()) {
            case (.moved(let id), .moved(let unit)):
                #expect(survey.unitID(at: unit) == id && byAdvance.currentUnit == unit)
                #expect(survey.unitIndex(of: id) == unit)
            case (.completed(let result), .completed):
                #expect(byAdvance.completionResult() == result && byAdvance.status == .completed)
            case (.blocked(let a), .blocked(let b)):
                #expect(a == b)
            case (let a, let b):
                Issue.record("next() gave \(a), advance() gave \(b)")
            }
            #expect(Snapshot(byNext) == Snapshot(byAdvance))
        }
    }

    @Test func anObserverHearsTheCompletionAdvanceDoesNotReturn() throws {
        let survey = try loadSurvey(surveyJSON([#"{"id": "a", "type": "t-text"}"#]))
        var session = SurveySession(survey: survey)
        var completions: [CompletionResult] = []
        session.observe { event in
            if case .completed(let result) = event { completions.append(result) }
        }
        try session.answer("hi", for: "a")
        #expect(session.advance() == .completed)
        #expect(completions == [session.completionResult()])
        #expect(session.completionResult().answers == ["a": "hi"] && session.currentUnit == nil)
    }

    @Test func unitPositionsNameTheSameUnitsAsIds() throws {
        let survey = try loadSurvey(StepIndexTests.text)
        for (position, id) in survey.unitIDs.enumerated() {
            let unit = try #require(survey.unitIndex(of: id))
            #expect(unit == UnitIndex(position) && survey.unitID(at: unit) == id)
            #expect(survey.steps(inUnit: unit).compactMap { survey.stepID(at: $0) } == survey.stepIDs(inUnit: id))
        }
        #expect(survey.unitIndex(of: "age") == nil && survey.unitIndex(of: "nope") == nil)
        #expect(survey.unitID(at: UnitIndex(7)) == nil && survey.unitID(at: UnitIndex(-1)) == nil)
        #expect(survey.steps(inUnit: UnitIndex(7)).isEmpty)
    }
}

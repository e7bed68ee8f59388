import SurveyCore
import Testing

/// Seeded random surveys and walks: properties that must hold for every survey.
@Suite struct PropertyTests {
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 11 | state << 53
        }
    }

    static func randomSurvey(seed: UInt64) -> String {
        var random = Generator(state: seed)
        var steps: [String] = []
        var questionIDs: [String] = []
        let unitCount = Int.random(in: 4...12, using: &random)
        func condition() -> String {
            guard let target = questionIDs.randomElement(using: &random) else { return "" }
            let value = ["a", "b", "c"].randomElement(using: &random) ?? "a"
            let operators = ["=", "<>"]
            let op = operators.randomElement(using: &random) ?? "="
            return #", "visibleIf": "{\#(target)} \#(op) '\#(value)'""#
        }
        func question(_ id: String) -> String {
            let visible = Int.random(in: 0..<3, using: &random) == 0 ? condition() : ""
            let required = Bool.random(using: &random) ? #", "required": true"# : ""
            return
                #"{"id": "\#(id)", "type": "t-choice", "options": {"choices": ["a", "b", "c"]}\#(visible)\#(required)}"#
        }
        for unit in 0..<unitCount {
            let isPage = Int.random(in: 0..<3, using: &random) == 0
            let isLast = unit == unitCount - 1
            var branch = ""
            if !isLast, let source = questionIDs.last, Int.random(in: 0..<4, using: &random) == 0 {
                let target = Int.random(in: (unit + 1)..<unitCount, using: &random)
                branch = #", "branches": [{"if": "{\#(source)} = 'c'", "goto": "u\#(target)"}]"#
            }
            if isPage {
                let count = Int.random(in: 1...3, using: &random)
                var children: [String] = []
                for child in 0..<count {
                    let id = "u\(unit)q\(child)"
                    children.append(question(id))
                    questionIDs.append(id)
                }
                let visible = Int.random(in: 0..<4, using: &random) == 0 ? condition() : ""
                steps.append(
                    #"{"id": "u\#(unit)", "type": "page", "steps": [\#(children.joined(separator: ","))]\#(visible)\#(branch)}"#
                )
            } else {
                var text = question("u\(unit)")
                text.removeLast()
                steps.append(text + branch + "}")
                questionIDs.append("u\(unit)")
            }
        }
        return surveyJSON(steps)
    }

    /// A random but valid respondent: answers every visible question, sometimes goes back.
    static func randomActions(_ survey: Survey, seed: UInt64, allowBack: Bool) -> [SessionAction] {
        var random = Generator(state: seed ^ 0x5EED)
        var session = SurveySession(survey: survey, seed: seed, today: "2024-01-01")
        var actions: [SessionAction] = []
        var guardCount = 0
        while session.status == .inProgress, guardCount < 200 {
            guardCount += 1
            for id in session.currentStepIDs where session.currentStepIDs.contains(id) {
                let value: JSONValue = .string(["a", "b", "c"].randomElement(using: &random) ?? "a")
                if (try? session.answer(value, for: id)) != nil { actions.append(.answer(stepID: id, value: value)) }
            }
            if allowBack, session.canGoBack, Int.random(in: 0..<5, using: &random) == 0 {
                try? session.back()
                actions.append(.back)
            } else {
                session.next()
                actions.append(.next)
            }
        }
        return actions
    }

    static let seeds: [UInt64] = Array(1...40)

    /// Answers each step now shown with a, b or c; the visible steps are read again after each
    /// answer (an answer can hide a later question of the page).
    static func answerCurrentSteps(_ session: inout SurveySession, _ random: inout Generator) throws {
        for id in session.currentStepIDs where session.currentStepIDs.contains(id) {
            try session.answer(.string(["a", "b", "c"].randomElement(using: &random) ?? "a"), for: id)
        }
    }

    @Test(arguments: seeds)
    func backThenSameAnswersReturnsToTheSameState(seed: UInt64) throws {
        let survey = try loadSurvey(Self.randomSurvey(seed: seed))
        var session = SurveySession(survey: survey, seed: seed, today: "2024-01-01")
        var random = Generator(state: seed)
        while session.status == .inProgress {
            try Self.answerCurrentSteps(&session, &random)
            guard case .moved = session.next() else { break }
            let unit = session.currentUnitID
            let progress = session.progress
            let path = session.pathIDs
            let answers = session.state.answers
            let presentation = session.currentStep
            try session.back()
            session.next()
            #expect(session.currentUnitID == unit)
            #expect(session.progress == progress)
            #expect(session.pathIDs == path)
            #expect(session.state.answers == answers)
            #expect(session.currentStep == presentation)
        }
    }

    @Test(arguments: seeds)
    func saveAndResumeEqualsAnUninterruptedRun(seed: UInt64) throws {
        let survey = try loadSurvey(Self.randomSurvey(seed: seed))
        let actions = Self.randomActions(survey, seed: seed, allowBack: true)
        let uninterrupted = SurveySession.replay(survey: survey, seed: seed, today: "2024-01-01", actions: actions)
        let cut = actions.count / 2
        let first = SurveySession.replay(
            survey: survey, seed: seed, today: "2024-01-01", actions: Array(actions[..<cut]))
        let saved = JSONWriter.string(from: first.state.jsonValue, pretty: true)
        let restoredState = try SessionState(json: try JSONParser.parse(saved))
        #expect(restoredState == first.state)
        var resumed = try SurveySession(survey: survey, resuming: restoredState)
        #expect(resumed.currentStep == first.currentStep)
        #expect(resumed.progress == first.progress)
        for action in actions[cut...] {
            switch action {
            case .answer(let id, let value): try resumed.answer(value, for: id)
            case .next: resumed.next()
            case .back: try resumed.back()
            case .dismiss: resumed.dismiss()
            }
        }
        #expect(resumed.state == uninterrupted.state)
        #expect(resumed.completionResult() == uninterrupted.completionResult())
        #expect(uninterrupted.status == .completed)
    }

    @Test(arguments: seeds)
    func progressNeverCountsAHiddenStep(seed: UInt64) throws {
        let survey = try loadSurvey(Self.randomSurvey(seed: seed))
        let definition = survey.definition
        let actions = Self.randomActions(survey, seed: seed, allowBack: true)
        var session = SurveySession(survey: survey, seed: seed, today: "2024-01-01")
        func check() {
            guard let unit = session.currentUnitID,
                let position = definition.steps.firstIndex(where: { $0.id == unit })
            else { return }
            // Independently: units after the current one with at least one visible question.
            let ahead = definition.steps[(position + 1)...].filter { step in
                let leaves = step.isPage ? step.steps : [step]
                return leaves.contains { session.isVisible($0.id) }
            }.count
            let progress = session.progress
            #expect(progress.total == progress.current + ahead, "at \(unit)")
            #expect(progress.current <= session.pathIDs.count)
        }
        check()
        for action in actions {
            switch action {
            case .answer(let id, let value): try session.answer(value, for: id)
            case .next: session.next()
            case .back: try session.back()
            case .dismiss: session.dismiss()
            }
            check()
        }
    }

    @Test(arguments: seeds.prefix(10))
    func replayFromTheActionLogReproducesTheRun(seed: UInt64) throws {
        let survey = try loadSurvey(Self.randomSurvey(seed: seed))
        let actions = Self.randomActions(survey, seed: seed, allowBack: true)
        let one = SurveySession.replay(survey: survey, seed: seed, today: "2024-01-01", actions: actions)
        let two = SurveySession.replay(survey: survey, seed: seed, today: "2024-01-01", actions: one.actions)
        #expect(one.state == two.state)
        #expect(one.completionResult() == two.completionResult())
    }
}

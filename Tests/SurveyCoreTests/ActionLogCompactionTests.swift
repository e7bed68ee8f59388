import SurveyCore
import Testing

/// A Back and the Next that undoes it are not kept, so the action log stays bounded however often a
/// respondent goes back and forth; replaying the shorter log gives the session the full run gave. The
/// log holds at most ``SurveySession/actionLimit`` actions.
@Suite struct ActionLogCompactionTests {
    typealias Generator = PropertyTests.Generator

    /// What a respondent sees and what is kept: equal for two sessions that are the same.
    static func expectSame(_ one: SurveySession, _ two: SurveySession, _ note: String) {
        #expect(one.state == two.state, "\(note)")
        #expect(one.pathIDs == two.pathIDs, "\(note)")
        #expect(one.currentStep == two.currentStep, "\(note)")
        #expect(one.progress == two.progress, "\(note)")
        #expect(one.status == two.status, "\(note)")
    }

    /// A survey with triggers, hidden answers cleared and a branch that reads a later answer, on top
    /// of the random surveys of ``PropertyTests``.
    static let tricky: String = {
        var text = surveyJSON(
            [
                #"{"id": "p1", "type": "page", "steps": [{"id": "a", "type": "t-choice", "options": {"choices": ["a", "b", "c"]}}, {"id": "b", "type": "t-choice", "options": {"choices": ["a", "b", "c"]}, "visibleIf": "{a} <> 'c'"}], "branches": [{"if": "{d} = 'a'", "goto": "p4"}]}"#,
                #"{"id": "p2", "type": "page", "steps": [{"id": "c", "type": "t-choice", "options": {"choices": ["a", "b", "c"]}}]}"#,
                #"{"id": "p3", "type": "page", "steps": [{"id": "d", "type": "t-choice", "options": {"choices": ["a", "b", "c"]}, "visibleIf": "{c} <> 'b'"}]}"#,
                #"{"id": "p4", "type": "page", "steps": [{"id": "e", "type": "t-choice", "options": {"choices": ["a", "b", "c"]}}]}"#,
                #"{"id": "p5", "type": "page", "steps": [{"id": "f", "type": "t-choice", "options": {"choices": ["a", "b", "c"]}}]}"#,
            ], settings: #"{"clearInvisibleValues": "onHidden"}"#)
        text.removeLast()
        return text
            + #", "triggers": [{"type": "setvalue", "if": "{c} = 'a'", "target": "e", "value": "b"}, {"type": "copyvalue", "if": "{d} notempty", "from": "d", "target": "f"}]}"#
    }()

    /// Random answers (some cleared), Backs, Nexts and runs of Backs then Nexts.
    static func randomWalk(_ survey: Survey, seed: UInt64, steps: Int) -> (SurveySession, taken: Int) {
        var random = Generator(state: seed ^ 0xBAC4)
        var session = SurveySession(survey: survey, seed: seed, today: "2024-01-01")
        var taken = 0
        for _ in 0..<steps where session.status == .inProgress {
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<4:
                guard let id = session.currentStepIDs.randomElement(using: &random) else { continue }
                let choices: [JSONValue] = ["a", "b", "c", .null]
                let value = choices.randomElement(using: &random) ?? .null
                if (try? session.answer(value, for: id)) != nil { taken += 1 }
            case 4..<6:
                if (try? session.back()) != nil { taken += 1 }
            case 6..<9:
                if case .blocked = session.next() {} else { taken += 1 }
            default:
                let depth = Int.random(in: 1...3, using: &random)
                for _ in 0..<depth where (try? session.back()) != nil { taken += 1 }
                for _ in 0..<depth {
                    if case .blocked = session.next() {} else { taken += 1 }
                }
            }
        }
        return (session, taken)
    }

    @Test(arguments: PropertyTests.seeds)
    func replayingTheShorterLogGivesTheSameSession(seed: UInt64) throws {
        for text in [PropertyTests.randomSurvey(seed: seed), Self.tricky] {
            let survey = try loadSurvey(text)
            let (live, taken) = Self.randomWalk(survey, seed: seed, steps: 300)
            #expect(live.actionCount <= taken)
            let replayed = SurveySession.replay(survey: survey, seed: seed, today: "2024-01-01", actions: live.actions)
            Self.expectSame(live, replayed, "seed \(seed)")
            if live.status == .inProgress {
                let resumed = try SurveySession(survey: survey, resuming: live.state)
                Self.expectSame(live, resumed, "seed \(seed), resumed")
            }
        }
    }

    @Test func theRandomWalksDoDropPairs() throws {
        let survey = try loadSurvey(Self.tricky)
        let dropped = try PropertyTests.seeds.map { seed in
            let (live, taken) = Self.randomWalk(survey, seed: seed, steps: 300)
            let replayed = SurveySession.replay(survey: survey, seed: seed, today: "2024-01-01", actions: live.actions)
            #expect(replayed.actionCount == live.actionCount)
            return try #require(taken - live.actionCount >= 0 ? taken - live.actionCount : nil)
        }
        #expect(dropped.filter { $0 > 0 }.count >= PropertyTests.seeds.count / 2, "\(dropped)")
    }

    @Test(arguments: PropertyTests.seeds.prefix(10))
    func goingBackAndForthLeavesTheLogAsItWas(seed: UInt64) throws {
        let survey = try loadSurvey(PropertyTests.randomSurvey(seed: seed))
        var session = SurveySession(survey: survey, seed: seed, today: "2024-01-01")
        var random = Generator(state: seed)
        while session.status == .inProgress {
            try PropertyTests.answerCurrentSteps(&session, &random)
            guard case .moved = session.next() else { break }
            let before = session.state
            let count = session.actionCount
            for _ in 0..<200 {
                let depth = Int.random(in: 1...3, using: &random)
                var went = 0
                for _ in 0..<depth where (try? session.back()) != nil { went += 1 }
                for _ in 0..<went { session.next() }
            }
            #expect(session.actionCount == count, "seed \(seed)")
            #expect(session.state == before, "seed \(seed)")
        }
    }

    @Test func aBackFollowedByAChangeIsKept() throws {
        let survey = try loadSurvey(Self.tricky)
        var session = SurveySession(survey: survey, today: "2024-01-01")
        try session.answer("a", for: "a")
        session.next()
        try session.back()
        try session.answer("b", for: "a")
        session.next()
        #expect(
            session.actions == [
                .answer(stepID: "a", value: "a"), .next, .back, .answer(stepID: "a", value: "b"), .next,
            ])
        // Two Backs and one Next: the second Back is undone, the first stays.
        try session.answer("c", for: "c")
        session.next()
        try session.back()
        try session.back()
        session.next()
        #expect(session.pathIDs == ["p1", "p2"])
        #expect(session.actions.suffix(3) == [.answer(stepID: "c", value: "c"), .next, .back])
    }

    @Test func aMillionBackAndNextCommandsKeepTheLogAtItsSize() throws {
        let survey = try loadSurvey(Self.tricky)
        var session = SurveySession(survey: survey, today: "2024-01-01")
        try session.answer("a", for: "a")
        session.next()
        try session.answer("a", for: "c")
        session.next()
        let state = session.state
        for _ in 0..<500_000 {
            try session.back()
            session.next()
        }
        #expect(session.actionCount == 4)
        #expect(session.state == state)
    }

    @Test func pastTheLimitAnActionIsRefusedWithTheLimitNamed() throws {
        let survey = try loadSurvey(surveyJSON([#"{"id": "q", "type": "t-text"}"#, #"{"id": "r", "type": "t-text"}"#]))
        var session = SurveySession(survey: survey, today: "2024-01-01")
        let limit = session.actionLimit
        #expect(limit == 100_000 + 4 * (2 + 2))
        session.next()
        // Back, an answer, Next and an answer: kept, every one (answers to one step in a row would
        // replace each other). 100,015 actions after the first Next end with a Next, on `r`.
        var phase = 0
        while session.actionCount < limit {
            switch phase % 4 {
            case 0: try session.back()
            case 1: try session.answer(.string(phase % 8 == 1 ? "x" : "y"), for: "q")
            case 2: session.next()
            default: try session.answer(.string(phase % 8 == 3 ? "x" : "y"), for: "r")
            }
            phase += 1
        }
        #expect(session.currentUnitID == "r")
        #expect(throws: SessionError.tooManyActions(limit: limit)) { try session.answer("z", for: "r") }
        #expect(throws: SessionError.tooManyActions(limit: limit)) { try session.back() }
        guard case .blocked(let errors) = session.next() else {
            Issue.record("Next past the limit was not refused")
            return
        }
        #expect(errors.map(\.error.code) == ["tooManyActions"])
        #expect(errors.first?.message.contains("\(limit) actions") == true)
        #expect(SessionError.tooManyActions(limit: limit).description.contains("SurveySession.actionLimit"))
        #expect(session.actionCount == limit)
        session.dismiss()
        #expect(session.status == .dismissed)
    }

    /// Answers cleared only at completion (the default), with steps read by visibility and calculated
    /// values only (`a`, `c`), by a trigger through a calculated value (`b`), by a trigger (`d`), by a
    /// default value (`e`), and by a choice condition (`f`): a replaced answer leaves its entry only
    /// for the first two.
    static let observed: String = {
        var text = surveyJSON(
            [
                #"{"id": "p1", "type": "page", "steps": [{"id": "a", "type": "t-choice", "options": {"choices": ["a", "b", "c"]}}, {"id": "b", "type": "t-choice", "options": {"choices": ["a", "b", "c"]}, "visibleIf": "{a} <> 'c'"}, {"id": "c", "type": "t-choice", "options": {"choices": ["a", "b", "c"]}}], "branches": [{"if": "{both} = 'aa'", "goto": "p3"}]}"#,
                #"{"id": "p2", "type": "page", "steps": [{"id": "d", "type": "t-choice", "options": {"choices": ["a", "b", "c"]}}, {"id": "e", "type": "t-choice", "options": {"choices": ["a", "b", "c"]}}, {"id": "g", "type": "t-text", "defaultValueExpression": "{e}"}], "visibleIf": "{a} <> 'b'"}"#,
                #"{"id": "p3", "type": "page", "steps": [{"id": "f", "type": "t-choice", "options": {"choices": ["a", "b", "c"]}}, {"id": "h", "type": "t-choice", "options": {"choices": [{"value": "a", "visibleIf": "{f} <> 'a'"}, "b", "c"]}}, {"id": "i", "type": "t-text"}]}"#,
                #"{"id": "p4", "type": "page", "steps": [{"id": "j", "type": "t-choice", "options": {"choices": ["a", "b", "c"]}}]}"#,
            ],
            calculated: #"[{"name": "both", "expression": "{a} + {c}"}, {"name": "viaB", "expression": "{b} + 'x'"}]"#)
        text.removeLast()
        return text
            + #", "triggers": [{"type": "setvalue", "if": "{viaB} = 'ax'", "target": "i", "value": "from b"}, {"type": "copyvalue", "if": "{d} notempty", "from": "d", "target": "j"}]}"#
    }()

    /// Random walks that often answer one step several times in a row (as a respondent changing
    /// their mind does), with Backs and Nexts between.
    static func changingWalk(_ survey: Survey, seed: UInt64, steps: Int) -> (SurveySession, answers: Int) {
        var random = Generator(state: seed ^ 0xA45E)
        var session = SurveySession(survey: survey, seed: seed, today: "2024-01-01")
        var answers = 0
        for _ in 0..<steps where session.status == .inProgress {
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<6:
                guard let id = session.currentStepIDs.randomElement(using: &random) else { continue }
                for _ in 0..<Int.random(in: 1...4, using: &random) {
                    let value = (["a", "b", "c", .null] as [JSONValue]).randomElement(using: &random) ?? .null
                    if (try? session.answer(value, for: id)) != nil { answers += 1 }
                }
            case 6..<8: _ = try? session.back()
            default: session.next()
            }
        }
        return (session, answers)
    }

    @Test(arguments: PropertyTests.seeds)
    func replayingALogWithReplacedAnswersGivesTheSameSession(seed: UInt64) throws {
        for text in [Self.observed, PropertyTests.randomSurvey(seed: seed)] {
            let survey = try loadSurvey(text)
            let (live, _) = Self.changingWalk(survey, seed: seed, steps: 200)
            let replayed = SurveySession.replay(survey: survey, seed: seed, today: "2024-01-01", actions: live.actions)
            Self.expectSame(live, replayed, "seed \(seed)")
            #expect(replayed.actions == live.actions, "seed \(seed)")
            if live.status == .inProgress {
                let resumed = try SurveySession(survey: survey, resuming: live.state)
                Self.expectSame(live, resumed, "seed \(seed), resumed")
            }
        }
    }

    /// The same walks replayed with every answer kept (each applied by hand, recording the full list):
    /// the full log and the kept one give the same session, and the kept one is shorter in most walks.
    @Test func theKeptLogIsTheFullLogShortened() throws {
        let survey = try loadSurvey(Self.observed)
        var shortened = 0
        for seed in PropertyTests.seeds {
            var random = Generator(state: seed ^ 0x51DE)
            var live = SurveySession(survey: survey, seed: seed, today: "2024-01-01")
            var full: [SessionAction] = []
            for _ in 0..<150 where live.status == .inProgress {
                let action: SessionAction
                switch Int.random(in: 0..<10, using: &random) {
                case 0..<7:
                    guard let id = live.currentStepIDs.randomElement(using: &random) else { continue }
                    let value = (["a", "b", "c", .null] as [JSONValue]).randomElement(using: &random) ?? .null
                    action = .answer(stepID: id, value: value)
                case 7: action = .back
                default: action = .next
                }
                if live.apply(action) { full.append(action) }
            }
            // Replaying every accepted action, one by one, on a session that is inspected after each.
            var stepwise = SurveySession(survey: survey, seed: seed, today: "2024-01-01")
            for action in full { stepwise.apply(action) }
            let kept = SurveySession.replay(survey: survey, seed: seed, today: "2024-01-01", actions: live.actions)
            Self.expectSame(stepwise, kept, "seed \(seed)")
            Self.expectSame(live, kept, "seed \(seed)")
            #expect(live.actionCount <= full.count)
            if live.actionCount < full.count { shortened += 1 }
        }
        #expect(shortened >= PropertyTests.seeds.count / 2, "\(shortened) of \(PropertyTests.seeds.count)")
    }

    @Test func aReplacedAnswerLeavesItsEntryOnlyWhenNothingActedOnIt() throws {
        let survey = try loadSurvey(Self.observed)
        var session = SurveySession(survey: survey, today: "2024-01-01")
        // `a` and `c`: read by visibility and a calculated value read by a branch only.
        for value: JSONValue in ["a", "b", "c", "a"] { try session.answer(value, for: "a") }
        for value: JSONValue in ["b", .null, "a"] { try session.answer(value, for: "c") }
        #expect(session.actions == [.answer(stepID: "a", value: "a"), .answer(stepID: "c", value: "a")])
        // `b`: a trigger reads it through a calculated value; every answer is kept.
        try session.answer("a", for: "b")
        try session.answer("b", for: "b")
        #expect(session.actionCount == 4)
        // `a` again, after another step's answer: a new entry.
        try session.answer("b", for: "a")
        try session.answer("c", for: "a")
        #expect(session.actionCount == 5)
        session.next()
        let replayed = SurveySession.replay(
            survey: survey, seed: session.seed, today: "2024-01-01", actions: session.actions)
        Self.expectSame(session, replayed, "fixed")
        #expect(session.currentUnitID == "p2")
        // `d` (a trigger reads it), `e` (a default value follows it): every answer kept.
        try session.answer("a", for: "d")
        try session.answer("b", for: "d")
        try session.answer("a", for: "e")
        try session.answer("b", for: "e")
        #expect(session.actionCount == 10)
    }

    @Test func manyChangesOfOneAnswerKeepOneEntry() throws {
        let survey = try loadSurvey(Self.observed)
        var session = SurveySession(survey: survey, today: "2024-01-01")
        let values: [JSONValue] = ["a", "b", "c"]
        for index in 0..<100_000 { try session.answer(values[index % 3], for: "c") }
        #expect(session.actions == [.answer(stepID: "c", value: "a")])
    }
}

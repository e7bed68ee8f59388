import SurveyCore
import Testing

enum Act: Sendable, CustomStringConvertible {
    case answer(String, JSONValue)
    case next
    case back

    var description: String {
        switch self {
        case .answer(let id, let value): return "answer(\(id)=\(value))"
        case .next: return "next"
        case .back: return "back"
        }
    }
}

struct Walk {
    var session: SurveySession
    var progressTrail: [String] = []
    var blocked: [[String]] = []
    var result: CompletionResult?

    init(_ survey: Survey, seed: UInt64 = 1) {
        session = SurveySession(survey: survey, seed: seed, locale: "en", today: "2024-06-14")
        recordProgress()
    }

    mutating func recordProgress() {
        guard let unit = session.currentUnitID else { return }
        let progress = session.progress
        progressTrail.append("\(unit):\(progress.current)/\(progress.total)")
    }

    mutating func run(_ actions: [Act]) throws {
        for action in actions {
            switch action {
            case .answer(let id, let value): try session.answer(value, for: id)
            case .back:
                try session.back()
                recordProgress()
            case .next:
                switch session.next() {
                case .moved: recordProgress()
                case .completed(let result): self.result = result
                case .blocked(let errors): blocked.append(errors.map(\.stepID))
                }
            }
        }
    }
}

let petSurvey = surveyJSON([
    #"{"id": "intro", "type": "t-note", "title": "Welcome"}"#,
    #"{"id": "pet", "type": "t-choice", "required": true, "options": {"choices": ["cat", "dog", "none"]}, "branches": [{"if": "{pet} = 'none'", "goto": "end"}]}"#,
    #"{"id": "petName", "type": "t-text", "title": "Name of your {pet}?", "visibleIf": "{pet} anyof ['cat', 'dog']"}"#,
    #"{"id": "dogWalks", "type": "t-choice", "visibleIf": "{pet} = 'dog'", "options": {"choices": ["yes", "no"]}}"#,
    #"{"id": "p1", "type": "page", "title": "Mood", "steps": [{"id": "mood", "type": "t-choice", "options": {"choices": ["good", "bad"]}}, {"id": "why", "type": "t-text", "visibleIf": "{mood} = 'bad'", "requiredIf": "{mood} = 'bad'"}]}"#,
    #"{"id": "p2", "type": "page", "visibleIf": "{pet} = 'cat'", "steps": [{"id": "catToy", "type": "t-text"}]}"#,
    #"{"id": "p3", "type": "page", "steps": [{"id": "never", "type": "t-text", "visibleIf": "{pet} = 'fish'"}]}"#,
    #"{"id": "end", "type": "t-text", "title": "Thanks {petName}!"}"#,
])

struct FlowCase: Sendable, CustomStringConvertible {
    var name: String
    var actions: [Act]
    var path: [String]
    var progress: [String]
    var answers: [String: JSONValue]
    var blocked: [[String]] = []
    var description: String { name }
}

@Suite struct FlowTests {
    static let cases: [FlowCase] = [
        FlowCase(
            name: "cat owner sees the cat page, dog question hidden",
            actions: [
                .next, .answer("pet", "cat"), .next, .answer("petName", "Tom"), .next, .answer("mood", "good"), .next,
                .answer("catToy", "mouse"), .next, .next,
            ],
            path: ["intro", "pet", "petName", "p1", "p2", "end"],
            progress: ["intro:0/3", "pet:1/3", "petName:2/5", "p1:3/5", "p2:4/5", "end:5/5"],
            answers: ["pet": "cat", "petName": "Tom", "mood": "good", "catToy": "mouse"]),
        FlowCase(
            name: "no pet jumps to the end",
            actions: [.next, .answer("pet", "none"), .next, .answer("end", "bye"), .next],
            path: ["intro", "pet", "end"],
            progress: ["intro:0/3", "pet:1/3", "end:2/2"],
            answers: ["pet": "none", "end": "bye"]),
        FlowCase(
            name: "required blocks Next; requiredIf blocks until why is given",
            actions: [
                .next, .next, .answer("pet", "dog"), .next, .next, .answer("dogWalks", "no"), .next,
                .answer("mood", "bad"), .next, .answer("why", "rain"), .next, .next,
            ],
            path: ["intro", "pet", "petName", "dogWalks", "p1", "end"],
            progress: ["intro:0/3", "pet:1/3", "petName:2/5", "dogWalks:3/5", "p1:4/5", "end:5/5"],
            answers: ["pet": "dog", "dogWalks": "no", "mood": "bad", "why": "rain"],
            blocked: [["pet"], ["why"]]),
        FlowCase(
            name: "Back across a jump follows the path taken; abandoned answers are dropped",
            actions: [
                .next, .answer("pet", "dog"), .next, .answer("petName", "Rex"), .next, .back, .back,
                .answer("pet", "none"), .next, .back, .answer("pet", "cat"), .next, .next, .next, .next, .next,
            ],
            path: ["intro", "pet", "petName", "p1", "p2", "end"],
            progress: [
                "intro:0/3", "pet:1/3", "petName:2/5", "dogWalks:3/5", "petName:2/5", "pet:1/5", "end:2/2",
                "pet:1/3", "petName:2/5", "p1:3/5", "p2:4/5", "end:5/5",
            ],
            answers: ["pet": "cat", "petName": "Rex"]),
        FlowCase(
            name: "an answer on an abandoned branch is not in the result",
            actions: [
                .next, .answer("pet", "dog"), .next, .answer("petName", "Rex"), .next, .answer("dogWalks", "yes"),
                .back, .back, .answer("pet", "none"), .next, .next,
            ],
            path: ["intro", "pet", "end"],
            progress: ["intro:0/3", "pet:1/3", "petName:2/5", "dogWalks:3/5", "petName:2/5", "pet:1/5", "end:2/2"],
            answers: ["pet": "none"]),
        FlowCase(
            name: "a question hidden after being answered is dropped; shown again it counts",
            actions: [
                .next, .answer("pet", "dog"), .next, .next, .next, .answer("mood", "bad"), .answer("why", "rain"),
                .answer("mood", "good"), .next, .next,
            ],
            path: ["intro", "pet", "petName", "dogWalks", "p1", "end"],
            progress: ["intro:0/3", "pet:1/3", "petName:2/5", "dogWalks:3/5", "p1:4/5", "end:5/5"],
            answers: ["pet": "dog", "mood": "good"]),
    ]

    @Test(arguments: cases)
    func flow(_ flowCase: FlowCase) throws {
        let survey = try loadSurvey(petSurvey)
        var walk = Walk(survey)
        try walk.run(flowCase.actions)
        let result = try #require(walk.result, "survey did not complete; at \(walk.session.currentUnitID ?? "-")")
        #expect(result.path == flowCase.path)
        #expect(walk.progressTrail == flowCase.progress)
        #expect(result.answers == flowCase.answers)
        #expect(walk.blocked == flowCase.blocked)
        #expect(walk.session.status == .completed)
    }

    @Test func pipingAndPresentation() throws {
        let survey = try loadSurvey(petSurvey)
        var walk = Walk(survey)
        try walk.run([.next, .answer("pet", "cat"), .next])
        let step = try #require(walk.session.currentStep)
        #expect(step.questions.map(\.title) == ["Name of your cat?"])
        #expect(step.progress == Progress(current: 2, total: 5, isCounted: true))
        #expect(step.canGoBack)
        try walk.run([.answer("petName", "Tom"), .next, .answer("mood", "bad")])
        let page = try #require(walk.session.currentStep)
        #expect(page.isPage && page.title == "Mood")
        #expect(page.questions.map(\.id) == ["mood", "why"])
        #expect(page.questions.map(\.isRequired) == [false, true])
        try walk.run([.answer("why", "rain"), .next, .answer("catToy", "ball"), .next])
        #expect(walk.session.currentStep?.questions.first?.title == "Thanks Tom!")
    }

    @Test func invalidAnswersAreRefusedAndKeepThePreviousAnswer() throws {
        let survey = try loadSurvey(petSurvey)
        var session = SurveySession(survey: survey, locale: "fr")
        session.next()
        try session.answer("cat", for: "pet")
        #expect(throws: SessionError.self) { try session.answer("fish", for: "pet") }
        #expect(session.answer(for: "pet") == "cat")
        #expect(session.lastErrors.map(\.error.code) == ["notAChoice"])
        #expect(throws: SessionError.self) { try session.answer("x", for: "dogWalks") }  // hidden
        #expect(throws: SessionError.self) { try session.answer("x", for: "end") }  // not current
        #expect(throws: SessionError.self) { try session.answer("x", for: "nope") }
        session.next()
        #expect(throws: SessionError.self) { try session.answer("x", for: "intro") }
        // A required answer missing: the message is in the session's locale.
        var fresh = SurveySession(survey: survey, locale: "fr")
        fresh.next()
        guard case .blocked(let errors) = fresh.next() else {
            Issue.record("expected blocked")
            return
        }
        #expect(errors.first?.message == UIStrings(locale: "fr").message(for: .required))
        #expect(errors.first?.message != UIStrings(locale: "en").message(for: .required))
    }

    @Test func eventsAreEmittedForEveryTransition() throws {
        let survey = try loadSurvey(petSurvey)
        var session = SurveySession(survey: survey)
        final class Log: @unchecked Sendable { var events: [String] = [] }
        let log = Log()
        session.observe { event in
            switch event {
            case .started(let unit): log.events.append("started:\(unit)")
            case .stepEntered(let unit): log.events.append("entered:\(unit)")
            case .answered(let id, _): log.events.append("answered:\(id)")
            case .validationFailed(let errors): log.events.append("failed:\(errors.map(\.stepID).joined())")
            case .continued(let from, let to): log.events.append("continued:\(from)>\(to)")
            case .wentBack(let from, let to): log.events.append("back:\(from)>\(to)")
            case .dismissed(let unit): log.events.append("dismissed:\(unit ?? "")")
            case .completed(let result): log.events.append("completed:\(result.path.count)")
            }
        }
        session.next()
        session.next()
        try session.answer("none", for: "pet")
        session.next()
        try session.back()
        session.dismiss()
        #expect(
            log.events == [
                "continued:intro>pet", "entered:pet", "failed:pet", "answered:pet", "continued:pet>end", "entered:end",
                "back:end>pet", "entered:pet", "dismissed:pet",
            ])
        #expect(session.status == .dismissed)
        #expect(session.state.answers == ["pet": "none"])
    }

    @Test func contentStepsCountWhenConfigured() throws {
        let survey = try loadSurvey(
            surveyJSON(
                [#"{"id": "a", "type": "t-note"}"#, #"{"id": "b", "type": "t-text"}"#],
                settings: #"{"progressCountsContent": true}"#))
        var walk = Walk(survey)
        try walk.run([.next, .next])
        #expect(walk.progressTrail == ["a:1/2", "b:2/2"])
    }

    @Test func branchToCompleteAndToAQuestionInsideAPage() throws {
        let survey = try loadSurvey(
            surveyJSON([
                #"{"id": "a", "type": "t-choice", "options": {"choices": ["stop", "jump", "go"]}, "branches": [{"if": "{a} = 'stop'", "complete": true}, {"if": "{a} = 'jump'", "goto": "inner"}]}"#,
                #"{"id": "b", "type": "t-text"}"#,
                #"{"id": "p", "type": "page", "steps": [{"id": "inner", "type": "t-text"}]}"#,
            ]))
        var stop = Walk(survey)
        try stop.run([.answer("a", "stop"), .next])
        #expect(stop.result?.path == ["a"])
        var jump = Walk(survey)
        try jump.run([.answer("a", "jump"), .next, .next])
        #expect(jump.result?.path == ["a", "p"])
        var go = Walk(survey)
        try go.run([.answer("a", "go"), .next, .next, .next])
        #expect(go.result?.path == ["a", "b", "p"])
    }

    @Test func aChoicesOwnVisibleIfDecidesInPlaceOfChoicesVisibleIf() throws {
        // As in survey-core: choicesVisibleIf filters the choices without a visibleIf of their own.
        let survey = try loadSurvey(
            surveyJSON([
                #"{"id": "need", "type": "t-choice", "options": {"choices": ["food", "rent"]}}"#,
                #"{"id": "help", "type": "t-choice", "choicesVisibleIf": "{need} = 'food'", "options": {"choices": ["pantry", {"value": "energy", "visibleIf": "{need} = 'rent'"}]}}"#,
            ]))
        for (need, offered) in [("food", ["pantry"]), ("rent", ["energy"])] {
            var walk = Walk(survey)
            try walk.run([.answer("need", .string(need)), .next])
            guard case .singleChoice(let input) = walk.session.currentStep?.questions.first?.input else {
                Issue.record("expected a choice")
                return
            }
            #expect(input.choices.map(\.value) == offered, "\(need)")
        }
    }

    @Test func choiceVisibilityFiltersAndValidates() throws {
        let survey = try loadSurvey(
            surveyJSON([
                #"{"id": "adult", "type": "t-choice", "options": {"choices": ["yes", "no"]}}"#,
                #"{"id": "drink", "type": "t-choice", "options": {"choices": ["water", {"value": "wine", "visibleIf": "{adult} = 'yes'"}]}}"#,
            ]))
        var minor = Walk(survey)
        try minor.run([.answer("adult", "no"), .next])
        guard case .singleChoice(let input) = minor.session.currentStep?.questions.first?.input else {
            Issue.record("expected a choice")
            return
        }
        #expect(input.choices.map(\.value) == ["water"])
        #expect(throws: SessionError.self) { try minor.session.answer("wine", for: "drink") }
        var adult = Walk(survey)
        try adult.run([.answer("adult", "yes"), .next, .answer("drink", "wine"), .next])
        #expect(adult.result?.answers["drink"] == "wine")
    }

    @Test func calculatedValuesFeedConditionsAndPiping() throws {
        let survey = try loadSurvey(
            surveyJSON(
                [
                    #"{"id": "w", "type": "t-text"}"#,
                    #"{"id": "big", "type": "t-text", "title": "Score {score}", "visibleIf": "{score} > 10"}"#,
                ],
                calculated:
                    #"[{"name": "score", "expression": "{double} + 1"}, {"name": "double", "expression": "{w} * 2"}]"#))
        var walk = Walk(survey)
        try walk.run([.answer("w", "3"), .next])
        #expect(walk.result?.path == ["w"])
        var big = Walk(survey)
        try big.run([.answer("w", "6"), .next])
        #expect(big.session.currentStep?.questions.first?.title == "Score 13")
    }

    @Test func shuffleIsSeededAndReproducible() throws {
        let survey = try loadSurvey(
            surveyJSON([
                #"{"id": "p", "type": "page", "shuffle": true, "steps": [{"id": "a", "type": "t-text"}, {"id": "b", "type": "t-text"}, {"id": "c", "type": "t-text"}, {"id": "d", "type": "t-text"}]}"#,
                #"{"id": "q", "type": "t-choice", "options": {"choices": ["1", "2", "3", "4", "5", "6"]}}"#,
            ]))
        func order(_ seed: UInt64) -> [String] {
            SurveySession(survey: survey, seed: seed).currentStep?.questions.map(\.id) ?? []
        }
        #expect(order(7) == order(7))
        #expect(Set((1...20).map { order($0) }).count > 1)
        #expect(Set(order(3)) == ["a", "b", "c", "d"])
    }
}

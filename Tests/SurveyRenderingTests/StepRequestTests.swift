import Foundation
import SurveyBuiltins
import SurveyCore
import Testing

@testable import SurveyRendering

/// `StepRequest`: the outline every renderer gets at once, and the presentation built only when read.
@Suite struct StepRequestTests {
    /// Plays `inner`, and checks on every request that the outline is exactly the presentation's.
    struct OutlineChecker<Inner: SurveyRenderer>: SurveyRenderer {
        var inner: Inner
        var checked = 0
        var mismatches: [String] = []
        /// Whether the outline was read without building the presentation, on every request.
        var stayedLazy = true

        mutating func action(for request: StepRequest) -> RendererAction {
            _ = request.outline
            if request.source.isBuilt { stayedLazy = false }
            let expected = UnitOutline(request.presentation)
            if request.outline != expected { mismatches.append("\(request.outline) != \(expected)") }
            checked += 1
            return inner.action(for: request)
        }

        mutating func receive(_ event: RendererEvent) { inner.receive(event) }
    }

    /// (survey, answers) from `Examples/`.
    static let examples = [
        ("kitchen-sink", "kitchen-sink-all"), ("household", "household-two-children"),
        ("order-form", "order-form-delivery"), ("onboarding", "onboarding-daily-other-source"),
        ("coffee-habits", "coffee-habits-heavy"),
    ]

    @Test(arguments: examples)
    func theOutlineIsThePresentationsOutline(name: String, answersFile: String) throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Examples")
        let text = try String(contentsOf: root.appendingPathComponent("\(name).json"), encoding: .utf8)
        let survey = try SurveyLoader(registry: .builtins()).load(text: text, source: "\(name).json")
        let answers = try JSONParser.parse(
            String(contentsOf: root.appendingPathComponent("answers/\(answersFile).json"), encoding: .utf8))
        let script = try TestCase(json: answers).script.foldingOtherComments(for: survey)
        for seed: UInt64 in [0, 7, 42] {
            var checker = OutlineChecker(inner: HeadlessRenderer(script: script))
            var driver = SurveyDriver(session: SurveySession(survey: survey, seed: seed, today: "2026-01-01"))
            let outcome = driver.run(with: &checker)
            #expect(checker.mismatches.isEmpty, "\(answersFile), seed \(seed)")
            #expect(checker.checked > 2)
            #expect(checker.stayedLazy)
            #expect(checker.inner.failure == nil, "\(answersFile): \(String(describing: checker.inner.failure))")
            #expect(outcome.result != nil)
        }
    }

    /// Shuffled pages and panels, comment boxes, content steps and hidden steps, in every order.
    @Test func shuffledPagesCommentsAndHiddenSteps() throws {
        let text = """
            {"formatVersion": 1, "id": "s", "title": "S", "steps": [
              {"id": "p1", "type": "page", "shuffle": true, "steps": [
                {"id": "a", "type": "rating", "showCommentArea": true},
                {"id": "b", "type": "text", "visibleIf": "{a} > 2"},
                {"id": "note", "type": "content", "options": {"body": "Hello"}},
                {"id": "grp", "type": "panel", "title": "Group", "steps": [
                  {"id": "c", "type": "boolean"},
                  {"id": "d", "type": "single-choice", "options": {"choices": ["x", "y"]}, "showCommentArea": true}]}
              ]},
              {"id": "last", "type": "text"}
            ]}
            """
        let survey = try SurveyLoader(registry: .builtins()).load(text: text, source: "s.json")
        var orders: Set<[String]> = []
        for seed: UInt64 in 0..<24 {
            var session = SurveySession(survey: survey, seed: seed)
            let before = try #require(session.currentOutline)
            #expect(before == UnitOutline(try #require(session.currentStep)))
            #expect(Set(before.questions.map(\.id)) == ["a", "note", "c", "d"])
            #expect(before.questions.first { $0.id == "d" }?.commentKey == "d-Comment")
            #expect(before.questions.first { $0.id == "c" }?.commentKey == nil)
            #expect(before.questions.first { $0.id == "note" }?.collectsAnswer == false)
            try session.answer(4, for: "a")
            let after = try #require(session.currentOutline)
            #expect(after == UnitOutline(try #require(session.currentStep)))
            #expect(after.questions.contains { $0.id == "b" })
            orders.insert(after.questions.map(\.id))
            session.next()
            #expect(session.currentOutline == UnitOutline(try #require(session.currentStep)))
            session.next()
            #expect(session.currentOutline == nil)
        }
        #expect(orders.count > 1, "the page was never shuffled")
    }

    /// A renderer that keeps its requests sees each presentation as it was when the request was made,
    /// although the presentation is built only afterwards.
    @Test func aKeptRequestShowsTheUnitAsItWasThen() throws {
        struct Keeper: SurveyRenderer {
            var kept: [StepRequest] = []
            var actions: [RendererAction]
            mutating func action(for request: StepRequest) -> RendererAction {
                kept.append(request)
                return actions.isEmpty ? .quit : actions.removeFirst()
            }
        }
        let text = """
            {"formatVersion": 1, "id": "k", "title": "K", "steps": [
              {"id": "p", "type": "page", "steps": [
                {"id": "name", "type": "text"}, {"id": "why", "type": "text", "visibleIf": "{name} = 'Ann'"}]},
              {"id": "end", "type": "text"}
            ]}
            """
        let survey = try SurveyLoader(registry: .builtins()).load(text: text, source: "k.json")
        var keeper = Keeper(actions: [
            .answer(stepID: "name", value: "Ann"), .answer(stepID: "why", value: "fun"), .next,
        ])
        var driver = SurveyDriver(session: SurveySession(survey: survey))
        _ = driver.run(with: &keeper)
        #expect(keeper.kept.count == 4)
        for request in keeper.kept {
            // Built when the driver moved on, before it changed the session.
            #expect(request.source.isBuilt, "a kept request stayed pending")
        }
        let presentations = keeper.kept.map(\.presentation)
        #expect(
            presentations.map { $0.questions.map(\.id) } == [["name"], ["name", "why"], ["name", "why"], ["end"]])
        #expect(presentations.map { $0.questions.first?.answer } == [nil, "Ann", "Ann", nil])
        #expect(presentations[2].questions.last?.answer == "fun")
        #expect(keeper.kept.map(\.outline) == presentations.map(UnitOutline.init))
    }

    /// A request made by hand carries its presentation; setting one replaces the outline too.
    @Test func aRequestMadeFromAPresentation() throws {
        let survey = try SurveyLoader(registry: .builtins()).load(
            text: #"{"formatVersion": 1, "id": "m", "title": "M", "steps": [{"id": "q", "type": "text"}]}"#,
            source: "m.json")
        let session = SurveySession(survey: survey)
        let presentation = try #require(session.currentStep)
        var request = StepRequest(
            presentation: presentation, visit: 0, lineParser: LineParser(survey: survey, locale: "en"))
        #expect(
            request.outline
                == UnitOutline(
                    unitID: "q", questions: [QuestionOutline(id: "q", collectsAnswer: true)],
                    progress: presentation.progress))
        request.presentation.questions = []
        #expect(request.outline.questions.isEmpty)
        #expect(request.presentation.unitID == "q")
    }
}

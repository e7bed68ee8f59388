import Foundation
import SurveyBuiltins
import SurveyCore
import Testing

/// SurveyJS's `{$name.property}` (docs/expressions.md#element-properties): what each property reads,
/// that an expression reading one follows it as answers change, and the load errors of this format.
@Suite struct ElementPropertyTests {
    static let survey: Survey? = try? loadSurvey(
        surveyJSON(
            [
                #"{"id": "p1", "type": "page", "title": "First", "steps": [{"id": "a", "type": "t-text", "title": "Question A"}, {"id": "b", "type": "t-text", "visibleIf": "{a} = 'show'", "enableIf": "{a} <> 'lock'", "requiredIf": "{a} = 'must'"}, {"id": "shownWithB", "type": "t-text", "visibleIf": "{$b.isVisible}"}, {"id": "lockedB", "type": "t-text", "visibleIf": "{$b.isReadOnly} and not {$b.readOnly} = false"}, {"id": "mustB", "type": "t-text", "visibleIf": "{$b.isRequired}"}, {"id": "chained", "type": "t-text", "visibleIf": "{$shownWithB.visible}"}]}"#,
                #"{"id": "p2", "type": "page", "visibleIf": "{$b.isVisible} = false", "steps": [{"id": "z", "type": "t-text"}]}"#,
            ],
            calculated: #"""
                [{"name": "names", "expression": "{$a.name} + '/' + {$a.title} + '/' + {$b.title} + '/' + {$p1.title} + '/' + {$survey.title}"},
                 {"name": "flags", "expression": "[{$a.containsErrors}, {$survey.readOnly}, {$p2.isVisible}, {$survey.locale}]"}]
                """#))

    @Test func aConditionOnIsVisibleFollowsTheOtherQuestion() throws {
        var session = SurveySession(survey: try #require(Self.survey))
        #expect(session.currentStepIDs == ["a"])
        try session.answer("show", for: "a")
        #expect(session.currentStepIDs == ["a", "b", "shownWithB", "chained"])
        try session.answer("hide", for: "a")
        #expect(session.currentStepIDs == ["a"])
    }

    @Test func isReadOnlyAndIsRequiredFollowEnableIfAndRequiredIf() throws {
        var session = SurveySession(survey: try #require(Self.survey))
        try session.answer("lock", for: "a")
        #expect(session.currentStepIDs == ["a", "lockedB"])
        try session.answer("must", for: "a")
        #expect(session.currentStepIDs == ["a", "mustB"])
    }

    @Test func constantsAndTheSurvey() throws {
        var session = SurveySession(survey: try #require(Self.survey))
        #expect(session.calculatedValue("names") == "a/Question A/b/First/T")
        #expect(session.calculatedValue("flags") == [false, false, true, .null])
        // A page's condition on a property: p2 shows while b is hidden.
        try session.answer("x", for: "a")
        guard case .moved(let unit) = session.next() else {
            Issue.record("did not move")
            return
        }
        #expect(unit == "p2")
    }

    @Test(arguments: [
        ("{$a.isvisible}", "'isvisible' is not a property"),
        ("{$nosuch.isVisible}", "no step, page or panel 'nosuch'"),
        ("{$a}", "names no property"),
        ("{$self.nosuch}", "'nosuch' is not a property"),
        ("{$item.name}", "'name' is not a property"),
    ])
    func unknownPropertiesAreLoadErrors(_ condition: String, _ message: String) {
        let errors = loadErrors(
            surveyJSON([
                #"{"id": "p1", "type": "page", "steps": [{"id": "a", "type": "t-text"}, {"id": "b", "type": "t-text", "visibleIf": "\#(condition)"}]}"#
            ]))
        #expect(errors.contains { $0.message.contains(message) && $0.stepID == "b" }, "\(errors)")
    }

    @Test(arguments: ["{$a.isVisible}", "{$self.isVisible}"])
    func aConditionReadingItsOwnVisibilityIsALoadError(_ condition: String) {
        let errors = loadErrors(
            surveyJSON([
                #"{"id": "p1", "type": "page", "steps": [{"id": "a", "type": "t-text", "visibleIf": "\#(condition)"}]}"#
            ]))
        #expect(
            errors.contains { $0.message.contains("more than 4 deep (or itself)") && $0.stepID == "a" }, "\(errors)")
    }

    /// `{$self.…}` is the question the expression belongs to, `{$panel.…}` the panel around it;
    /// `{$parent.…}` (a dynamic panel or matrix around it) and a missing panel read as empty.
    @Test func relativeReferencesReadTheirOwnQuestionAndPanel() throws {
        let survey = try loadSurvey(
            surveyJSON([
                #"{"id": "p1", "type": "page", "steps": [{"id": "a", "type": "t-text"}, {"id": "b", "type": "t-text", "title": "Bee", "visibleIf": "{$self.title} = 'Bee' and {a} notempty"}, {"id": "box", "type": "panel", "title": "Box", "steps": [{"id": "c", "type": "t-text", "visibleIf": "{$panel.title} = 'Box' and {$parent.name} empty"}]}, {"id": "d", "type": "t-text", "visibleIf": "{$panel.name} notempty"}]}"#
            ]))
        var session = SurveySession(survey: survey)
        #expect(session.currentStepIDs == ["a", "c"])
        try session.answer("x", for: "a")
        #expect(session.currentStepIDs == ["a", "b", "c"])
    }

    /// In a choice's `visibleIf`, `{$item.value}`, `{$item.text}` (also `$choice`, `$self`) are the choice's.
    @Test func aChoiceReadsItsOwnValueAndText() throws {
        let survey = try loadSurvey(
            surveyJSON([
                #"{"id": "p1", "type": "page", "steps": [{"id": "n", "type": "t-text"}, {"id": "pick", "type": "t-choice", "options": {"choices": [{"value": "apple", "visibleIf": "{$item.text} contains {n}"}, {"value": "banana", "visibleIf": "{$choice.value} = {n}"}, {"value": "cherry", "visibleIf": "{$self.text} = 'cherry'"}]}}]}"#
            ]))
        var session = SurveySession(survey: survey)
        try session.answer("pp", for: "n")
        try session.answer("apple", for: "pick")
        try session.answer("cherry", for: "pick")
        #expect(throws: (any Error).self) { try session.answer("banana", for: "pick") }
        try session.answer("banana", for: "n")
        try session.answer("banana", for: "pick")
        #expect(throws: (any Error).self) { try session.answer("apple", for: "pick") }
    }

    /// As in survey-core, a page or panel whose questions are all hidden is not visible.
    @Test func aContainerWithoutVisibleQuestionsIsNotVisible() throws {
        let survey = try loadSurvey(
            surveyJSON([
                #"{"id": "p1", "type": "page", "steps": [{"id": "a", "type": "t-text"}, {"id": "box", "type": "panel", "steps": [{"id": "b", "type": "t-text", "visibleIf": "{a} = 'show'"}]}, {"id": "boxShown", "type": "t-text", "visibleIf": "{$box.isVisible}"}, {"id": "p2Shown", "type": "t-text", "visibleIf": "{$p2.isVisible}"}]}"#,
                #"{"id": "p2", "type": "page", "steps": [{"id": "c", "type": "t-text", "visibleIf": "{a} = 'show'"}, {"id": "d", "type": "t-text", "visibleIf": "{a} = 'show'"}]}"#,
            ]))
        var session = SurveySession(survey: survey)
        #expect(session.currentStepIDs == ["a"])
        try session.answer("show", for: "a")
        #expect(session.currentStepIDs == ["a", "b", "boxShown", "p2Shown"])
    }

    /// The examples of docs/expressions.md, answered both ways the page says for each.
    @Test(arguments: [
        ("properties", #"{"member": true, "number": "A-17", "perks": "parking"}"#, ["p1", "p2"]),
        ("properties", #"{"member": false, "why": "too dear"}"#, ["p1"]),
        ("relative", #"{"filter": "app", "fruit": "apple", "email": "a@example.com"}"#, ["p1"]),
        ("relative", #"{"filter": "an", "fruit": "banana", "why": "no mail"}"#, ["p1", "p2"]),
    ])
    func documentedExample(_ name: String, _ script: String, _ path: [String]) throws {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        let page = try String(contentsOf: url.appendingPathComponent("docs/expressions.md"), encoding: .utf8)
        let start = try #require(page.range(of: "<!-- \(name)-example:begin -->\n```json\n"))
        let end = try #require(page.range(of: "```\n<!-- \(name)-example:end -->"))
        let survey = try SurveyLoader(registry: .builtins()).load(
            text: String(page[start.upperBound..<end.lowerBound]), source: "docs/expressions.md")
        let answers = try #require(JSONParser.parse(script).objectValue)
        var session = SurveySession(survey: survey)
        var visited = session.pathIDs
        for _ in 0..<4 {
            for id in session.currentStepIDs {
                if let answer = answers[id] { _ = try session.answer(answer, for: id) }
            }
            switch session.next() {
            case .moved: visited = session.pathIDs
            case .completed:
                #expect(visited == path)
                return
            case .blocked(let errors): Issue.record("blocked: \(errors)")
            }
        }
        Issue.record("did not complete")
    }

    /// `{$name.property}` in a text is piped like a name: its value as text, as the respondent sees it.
    @Test func propertiesArePipedIntoTexts() throws {
        let survey = try loadSurvey(
            surveyJSON([
                #"{"id": "p1", "type": "page", "title": "First", "steps": [{"id": "a", "type": "t-text", "title": "Question A"}, {"id": "b", "type": "t-text", "visibleIf": "{a} = 'x'", "title": "After {$a.title} on {$p1.title} of {$survey.title}, shown: {$b.isVisible}"}]}"#
            ]))
        var session = SurveySession(survey: survey)
        try session.answer("x", for: "a")
        #expect(session.currentStep?.questions.last?.title == "After Question A on First of T, shown: true")
        let errors = loadErrors(
            surveyJSON([
                #"{"id": "p1", "type": "page", "steps": [{"id": "a", "type": "t-text", "title": "{$a.nosuch}"}]}"#
            ]))
        #expect(errors.contains { $0.message.contains("text pipes {$a.nosuch}") && $0.stepID == "a" }, "\(errors)")
    }
}

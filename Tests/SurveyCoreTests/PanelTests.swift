import SurveyCore
import Testing

/// Panels: titled groups inside a page whose conditions apply to every question in them, with a
/// "one of these" requirement (SurveyJS's panels).
@Suite struct PanelTests {
    static let text = surveyJSON([
        #"{"id": "start", "type": "t-choice", "options": {"choices": ["yes", "no"]}}"#,
        #"""
        {"id": "p1", "type": "page", "title": "Details", "steps": [
          {"id": "name", "type": "t-text"},
          {"id": "car", "type": "panel", "title": "Your car {name}", "visibleIf": "{start} = 'yes'", "required": true, "steps": [
            {"id": "make", "type": "t-text"},
            {"id": "engine", "type": "panel", "title": "Engine", "enableIf": "{make} notempty", "steps": [
              {"id": "fuel", "type": "t-text"},
              {"id": "kw", "type": "t-text", "visibleIf": "{fuel} = 'electric'"}
            ]}
          ]},
          {"id": "notes", "type": "t-text"}
        ]}
        """#,
        #"{"id": "end", "type": "t-text"}"#,
    ])

    static let survey: Survey? = try? loadSurvey(text)

    @Test func decodingMovesAPanelsQuestionsIntoThePage() throws {
        let survey = try #require(Self.survey)
        let page = survey.definition.steps[1]
        #expect(page.steps.map(\.id) == ["name", "make", "fuel", "kw", "notes"])
        #expect(page.steps.map(\.panel) == [nil, "car", "engine", "engine", nil])
        #expect(page.panels.map(\.id) == ["car", "engine"])
        #expect(page.panels.map(\.parent) == [nil, "car"])
        #expect(page.panels[0].isRequired && page.panels[0].visibleIf == "{start} = 'yes'")
        #expect(survey.stepIDs == ["start", "name", "make", "fuel", "kw", "notes", "end"])
    }

    @Test func encodingPutsQuestionsBackInTheirPanels() throws {
        let survey = try #require(Self.survey)
        let encoded = survey.definition.jsonValue
        func entries(_ value: JSONValue?) -> [JSONValue] { value?["steps"]?.arrayValue ?? [] }
        let page = try #require(entries(encoded).dropFirst().first)
        #expect(entries(page).map { $0["id"]?.stringValue } == ["name", "car", "notes"])
        let car = try #require(entries(page).count == 3 ? entries(page)[1] : nil)
        #expect(car["type"] == "panel" && car["required"] == true)
        #expect(entries(car).map { $0["id"]?.stringValue } == ["make", "engine"])
        #expect(entries(entries(car).last).map { $0["id"]?.stringValue } == ["fuel", "kw"])
        #expect(entries(car).first?["panel"] == nil)
        // A round trip gives the same definition.
        let again = try loadSurvey(survey.definition.jsonText())
        #expect(again.definition == survey.definition)
    }

    @Test func thePanelsVisibleIfHidesEveryQuestionInIt() throws {
        var session = SurveySession(survey: try #require(Self.survey))
        try session.answer("no", for: "start")
        session.next()
        #expect(session.currentStep?.questions.map(\.id) == ["name", "notes"])
        #expect(session.currentStep?.panels.isEmpty == true)
        try session.back()
        try session.answer("yes", for: "start")
        session.next()
        let step = try #require(session.currentStep)
        #expect(step.questions.map(\.id) == ["name", "make", "fuel", "notes"])
        #expect(step.questions.map(\.panel) == [nil, "car", "engine", nil])
        #expect(step.panels.map(\.id) == ["car", "engine"])
        #expect(step.panels.map(\.parent) == [nil, "car"])
        #expect(step.panels.map(\.isRequired) == [true, false])
    }

    @Test func panelTitlesArePiped() throws {
        var session = SurveySession(survey: try #require(Self.survey))
        try session.answer("yes", for: "start")
        session.next()
        try session.answer("Ada", for: "name")
        #expect(session.currentStep?.panels.first?.title == "Your car Ada")
    }

    @Test func theEnableIfOfAPanelAppliesToItsQuestions() throws {
        var session = SurveySession(survey: try #require(Self.survey))
        try session.answer("yes", for: "start")
        session.next()
        #expect(session.currentStep?.questions.first { $0.id == "fuel" }?.isReadOnly == true)
        #expect(throws: SessionError.self) { try session.answer("petrol", for: "fuel") }
        try session.answer("VW", for: "make")
        #expect(session.currentStep?.questions.first { $0.id == "fuel" }?.isReadOnly == false)
        try session.answer("electric", for: "fuel")
        #expect(session.currentStep?.questions.map(\.id).contains("kw") == true)
    }

    @Test func aRequiredPanelNeedsOneOfItsQuestionsAnswered() throws {
        var session = SurveySession(survey: try #require(Self.survey))
        try session.answer("yes", for: "start")
        session.next()
        try session.answer("Ada", for: "name")
        guard case .blocked(let errors) = session.next() else {
            Issue.record("a required panel with no answer did not block Next")
            return
        }
        #expect(errors.map(\.stepID) == ["car"])
        #expect(errors.first?.error.code == "panelRequired")
        #expect(errors.first?.message == "Please answer at least one question in this group.")
        #expect(session.currentStep?.panels.first?.error?.error.code == "panelRequired")
        try session.answer("VW", for: "make")
        guard case .moved(let unit) = session.next() else {
            Issue.record("blocked with an answer in the panel")
            return
        }
        #expect(unit == "end")
    }

    @Test func aHiddenRequiredPanelDoesNotBlock() throws {
        var session = SurveySession(survey: try #require(Self.survey))
        try session.answer("no", for: "start")
        session.next()
        guard case .moved = session.next() else {
            Issue.record("a hidden required panel blocked Next")
            return
        }
    }

    @Test func requiredIfAndTheLocaleOfThePanelMessage() throws {
        let survey = try loadSurvey(
            surveyJSON([
                #"""
                {"id": "p", "type": "page", "steps": [
                  {"id": "a", "type": "t-text"},
                  {"id": "g", "type": "panel", "requiredIf": "{a} = 'x'", "steps": [{"id": "b", "type": "t-text"}]}
                ]}
                """#
            ]))
        var session = SurveySession(survey: survey, locale: "fr")
        try session.answer("x", for: "a")
        guard case .blocked(let errors) = session.next() else {
            Issue.record("requiredIf did not make the panel required")
            return
        }
        #expect(errors.first?.message == "Veuillez répondre à au moins une question de ce groupe.")
        try session.answer("y", for: "a")
        guard case .completed = session.next() else {
            Issue.record("blocked once requiredIf no longer holds")
            return
        }
    }

    @Test func aSwitchedOffOrReadOnlyPanelAppliesToItsQuestions() throws {
        let survey = try loadSurvey(
            surveyJSON([
                #"""
                {"id": "p", "type": "page", "steps": [
                  {"id": "a", "type": "t-text"},
                  {"id": "off", "type": "panel", "enabled": false, "steps": [{"id": "b", "type": "t-text"}]},
                  {"id": "ro", "type": "panel", "readOnly": true, "required": true, "steps": [{"id": "c", "type": "t-text", "defaultValue": "set"}]}
                ]}
                """#
            ]))
        var session = SurveySession(survey: survey)
        #expect(session.currentStep?.questions.map(\.id) == ["a", "c"])
        #expect(session.currentStep?.questions.last?.isReadOnly == true)
        #expect(!survey.isSwitchedOn("b"))
        // A read-only panel cannot be answered, so its requirement does not block.
        guard case .completed = session.next() else {
            Issue.record("a read-only required panel blocked Next")
            return
        }
    }

    @Test func aShuffledPageMovesAPanelAsOneBlock() throws {
        let survey = try loadSurvey(
            surveyJSON([
                #"""
                {"id": "p", "type": "page", "shuffle": true, "steps": [
                  {"id": "a", "type": "t-text"}, {"id": "b", "type": "t-text"},
                  {"id": "g", "type": "panel", "steps": [{"id": "g1", "type": "t-text"}, {"id": "g2", "type": "t-text"}, {"id": "g3", "type": "t-text"}]},
                  {"id": "c", "type": "t-text"}
                ]}
                """#
            ]))
        var orders: Set<[String]> = []
        for seed in 0..<40 {
            let ids = SurveySession(survey: survey, seed: UInt64(seed)).currentStep?.questions.map(\.id) ?? []
            orders.insert(ids)
            let start = try #require(ids.firstIndex(of: "g1"))
            #expect(Array(ids[start..<min(ids.count, start + 3)]) == ["g1", "g2", "g3"])
        }
        #expect(orders.count > 4)
    }

    @Test func problemsInsidePanelsNameTheirPlaceInTheFile() {
        let errors = loadErrors(
            surveyJSON([
                #"""
                {"id": "p", "type": "page", "steps": [
                  {"id": "a", "type": "t-text"},
                  {"id": "g", "type": "panel", "visibleIf": "{nope} = 1", "steps": [
                    {"id": "b", "type": "t-text"},
                    {"id": "h", "type": "panel", "steps": [{"id": "c", "type": "t-text", "visibleIf": "{zzz}"}, {"id": "a", "type": "t-text"}]}
                  ]}
                ]}
                """#
            ]))
        let described = errors.map { "\($0.path?.description ?? "") \($0.stepID ?? "")" }
        #expect(described.contains("$.steps[0].steps[1].visibleIf g"))
        #expect(described.contains("$.steps[0].steps[1].steps[1].steps[0].visibleIf c"))
        #expect(described.contains("$.steps[0].steps[1].steps[1].steps[1].id a"))
        #expect(errors.count == 3)
    }

    @Test func panelsAreCheckedAsTheyAreRead() {
        func messages(_ step: String) -> [String] { loadErrors(surveyJSON([step])).map(\.message) }
        #expect(
            messages(#"{"id": "g", "type": "panel", "steps": [{"id": "a", "type": "t-text"}]}"#).contains {
                $0.contains("a panel groups questions inside a page")
            })
        #expect(
            messages(#"{"id": "p", "type": "page", "steps": [{"id": "g", "type": "panel", "steps": []}]}"#).contains {
                $0.contains("a panel needs at least one step")
            })
        #expect(
            messages(
                #"{"id": "p", "type": "page", "steps": [{"id": "g", "type": "panel", "options": {"x": 1}, "branches": [{"goto": "p"}], "steps": [{"id": "a", "type": "t-text"}]}]}"#
            ).filter { $0.hasPrefix("panels do not have") }.count == 2)
        #expect(
            messages(#"{"id": "p", "type": "page", "steps": [{"id": "g", "type": "panel"}]}"#).contains {
                $0.contains("a panel needs 'steps'")
            })
        #expect(
            messages(
                #"{"id": "p", "type": "page", "steps": [{"id": "g", "type": "panel", "steps": [{"id": "g", "type": "t-text"}]}]}"#
            ).contains { $0.contains("duplicate id 'g'") })
        #expect(
            messages(
                #"{"id": "p", "type": "page", "steps": [{"id": "g", "type": "panel", "steps": [{"id": "q", "type": "page", "steps": [{"id": "a", "type": "t-text"}]}]}]}"#
            ).contains { $0.contains("pages cannot be nested inside pages") })
    }

    @Test func definitionsBuiltInCodeAreChecked() {
        var page = StepDefinition(
            id: "p", type: "page",
            steps: [StepDefinition(id: "a", type: "t-text"), StepDefinition(id: "b", type: "t-text")])
        page.steps[0].panel = "g"
        page.steps[1].panel = "missing"
        page.panels = [PanelDefinition(id: "g")]
        let definition = SurveyDefinition(id: "s", title: LocalizedText("T"), steps: [page])
        #expect(throws: SurveyLoadError.self) { try SurveyLoader(registry: testRegistry()).compile(definition) }
        page.steps[1].panel = nil
        page.panels.append(PanelDefinition(id: "empty"))
        let second = SurveyDefinition(id: "s", title: LocalizedText("T"), steps: [page])
        do {
            _ = try SurveyLoader(registry: testRegistry()).compile(second)
            Issue.record("a panel with no steps loaded")
        } catch {
            #expect(error.errors.map(\.message) == ["panel 'empty' has no steps"])
        }
    }
}

import SurveyAnalysis
import SurveyBuiltins
import SurveyCore
import SurveyImport
import Testing

/// `survey paths` on patterns from real SurveyJS surveys (issue 41): values the host sets, read-only
/// questions, rankings of carried-forward choices, numbers typed as text, many-choice checkboxes and
/// one-question pages.
@Suite struct WildPathsTests {
    func load(_ json: String) throws -> Survey {
        try SurveyLoader(registry: .builtins()).load(text: json, source: "wild.json")
    }

    /// A SurveyJS survey as `survey paths` loads it: converted, host names declared as variables.
    func loadSurveyJS(_ json: String) throws -> Survey {
        let conversion = try SurveyJSImporter.convert(try JSONParser.parse(json), id: "wild")
        return try SurveyLoader(registry: .builtins()).compile(SurveyDefinition(json: conversion.survey))
    }

    /// Generates paths, checks that every script replays as it says (with its variables), and returns
    /// the result.
    func generate(_ survey: Survey) -> PathGenerator.Result {
        let result = PathGenerator(survey: survey, seed: 1, timeLimit: 10).generate()
        var independent = BranchCoverage(survey: survey)
        for script in result.scripts {
            independent.record(script.actions, seed: 1, today: "2026-01-01", variables: script.variables)
        }
        #expect(independent.covered == result.coverage.covered, "scripts replay as the generator says")
        return result
    }

    @Test func aValueTheHostSetsIsGivenByTheScriptsThatNeedIt() throws {
        let survey = try loadSurveyJS(
            """
            {"pages": [{"name": "p1", "elements": [
              {"type": "text", "name": "company", "visibleIf": "{plan} = 'business'"},
              {"type": "text", "name": "seats", "visibleIf": "{quota} > 10"},
              {"type": "text", "name": "note"}]}]}
            """)
        #expect(Set(survey.definition.variables.map(\.name)) == ["plan", "quota"])
        let result = generate(survey)
        #expect(result.coverage.uncovered.isEmpty, "\(result.coverage.uncovered)")
        let given = result.scripts.map(\.variables)
        #expect(given.contains { $0["plan"] == "business" })
        #expect(given.contains { ($0["quota"]?.numberValue ?? 0) > 10 })
        // The script says what it gives, so `survey test` runs it unchanged.
        let script = try #require(result.scripts.first { $0.variables["plan"] == "business" })
        #expect(script.jsonValue["variables"]?["plan"] == "business")
    }

    @Test func aConfirmationThatMustEqualAnotherAnswerIsGivenThatAnswer() throws {
        // `{email} = {confirmEmail}`: the confirmation is offered the address's representatives.
        let survey = try loadSurveyJS(
            """
            {"pages": [{"name": "p1", "elements": [
              {"type": "text", "name": "email", "isRequired": true, "validators": [{"type": "email"}]},
              {"type": "text", "name": "confirmEmail", "isRequired": true,
               "validators": [{"type": "expression", "expression": "{email} = {confirmEmail}"}]},
              {"type": "text", "name": "pin", "isRequired": true, "validators": [{"type": "regex", "regex": "^[0-9]{4}$"}]},
              {"type": "text", "name": "pinAgain", "isRequired": true,
               "validators": [{"type": "expression", "expression": "{pinAgain} == {pin}"}]}]},
              {"name": "p2", "elements": [{"type": "text", "name": "done"}]}]}
            """)
        let result = generate(survey)
        #expect(result.coverage.uncovered.isEmpty, "\(result.coverage.uncovered)")
        #expect(result.blocked.isEmpty)
    }

    @Test func aReadOnlyQuestionNothingSetsIsEmptyAndLintSaysSoAsAWarning() throws {
        let json = """
            {"pages": [{"name": "p1", "elements": [
              {"type": "checkbox", "name": "source", "readOnly": true, "choices": ["a", "b"]},
              {"type": "text", "name": "why", "isRequired": true, "readOnly": true}]},
             {"name": "p2", "elements": [
              {"type": "text", "name": "detail", "visibleIf": "{source} contains 'a'"}]},
             {"name": "p3", "elements": [{"type": "text", "name": "last"}]}]}
            """
        let findings = try lint(json)
        #expect(!findings.contains { $0.severity == .error }, "\(listing(findings))")
        let finding = try #require(findings.first { $0.rule == .unreachableStep && $0.stepID == "detail" })
        #expect(finding.severity == .warning)
        #expect(finding.message.contains("'source' is read-only and nothing in the survey sets it"))
        // Paths: the required read-only question does not block; the hidden one is infeasible.
        let result = generate(try loadSurveyJS(json))
        #expect(result.coverage.covered.contains(.completed))
        #expect(result.infeasible.contains(.shown(step: "detail")))
        #expect(Set(result.coverage.uncovered) == Set(result.infeasible))
    }

    @Test func aRankingOfTheChosenChoicesRanksExactlyThose() throws {
        let survey = try loadSurveyJS(
            """
            {"pages": [{"name": "p1", "elements": [
              {"type": "checkbox", "name": "car", "isRequired": true,
               "choices": ["Ford", "VW", "Nissan", "Audi", "Mercedes", "BMW", "Toyota"]},
              {"type": "ranking", "name": "best", "isRequired": true, "visibleIf": "{car.length} > 1",
               "choicesFromQuestion": "car", "choicesFromQuestionMode": "selected"}]}]}
            """)
        let result = generate(survey)
        #expect(result.coverage.uncovered.isEmpty, "\(result.coverage.uncovered)")
        #expect(result.blocked.isEmpty, "\(result.blocked)")
        for script in result.scripts {
            let replayed = SurveySession.replay(survey: survey, seed: 1, today: "2026-01-01", actions: script.actions)
            #expect(replayed.status == .completed)
        }
    }

    @Test func aNumberTypedAsTextIsTriedOnBothSidesOfAnOrdering() throws {
        let survey = try loadSurveyJS(
            """
            {"pages": [{"name": "p1", "elements": [
              {"type": "text", "name": "age", "isRequired": true},
              {"type": "radiogroup", "name": "housing", "visibleIf": "{age} > 15", "choices": ["a", "b"]}]}]}
            """)
        let result = generate(survey)
        #expect(result.coverage.uncovered.isEmpty, "\(result.coverage.uncovered)")
    }

    @Test func aCheckboxWithManyMentionedChoicesGetsSetsOfEverySize() throws {
        // Seven choices, each deciding a page, and a count: no single-choice sample would do.
        let pages = (1...7).map { index in
            """
            {"id": "page\(index)", "type": "page", "visibleIf": "{c} contains 'I\(index)'",
             "steps": [{"id": "q\(index)", "type": "text", "title": "Q\(index)"}]}
            """
        }
        let survey = try load(
            surveyJSON(
                """
                {"id": "c", "type": "multiple-choice", "title": "C", "required": true,
                 "options": {"choices": ["I1", "I2", "I3", "I4", "I5", "I6", "I7", "I8"]}},
                {"id": "many", "type": "text", "title": "Many", "visibleIf": "count({c}) > 3"},
                \(pages.joined(separator: ",\n"))
                """))
        let result = generate(survey)
        #expect(result.coverage.uncovered.isEmpty, "\(result.coverage.uncovered)")
    }

    @Test func aQuestionHiddenOnAPageItAloneFillsIsCoveredWhenThePageIsPassedOver() throws {
        // The page's own condition holds, its one question's does not: the page is skipped, and that
        // is the question's visibleIf being false.
        let survey = try load(
            surveyJSON(
                """
                {"id": "country", "type": "single-choice", "title": "Country", "required": true,
                 "options": {"choices": ["si", "it"]}},
                {"id": "job", "type": "single-choice", "title": "Job", "required": true, "options": {"choices": ["1", "2"]}},
                {"id": "work", "type": "page", "visibleIf": "{country} = 'si'", "steps": [
                  {"id": "place", "type": "text", "title": "Where", "visibleIf": "{country} = 'si' and {job} = '1'"}]},
                {"id": "end", "type": "text", "title": "End"}
                """))
        var coverage = BranchCoverage(survey: survey)
        coverage.record([
            .answer(stepID: "country", value: "si"), .next, .answer(stepID: "job", value: "2"), .next, .next,
        ])
        #expect(coverage.covered.contains(.condition(owner: "place", holds: false)))
        #expect(coverage.covered.contains(.condition(owner: "work", holds: true)))
        #expect(!coverage.covered.contains(.condition(owner: "work", holds: false)))
        let result = generate(survey)
        #expect(result.coverage.uncovered.isEmpty, "\(result.coverage.uncovered)")
    }

    /// Goals no respondent can reach are proved so for drop-downs too (a SurveyJS `dropdown` is one):
    /// a condition on a required earlier answer never fails, a requiredIf equal to its visibleIf never
    /// fails while the question is shown.
    @Test func goalsADropDownMakesImpossibleAreInfeasible() throws {
        let survey = try loadSurveyJS(
            """
            {"pages": [
              {"name": "a", "elements": [
                {"type": "dropdown", "name": "c", "isRequired": true, "choices": ["x", "y"]},
                {"type": "tagbox", "name": "t", "choices": ["x", "y"]},
                {"type": "comment", "name": "m", "visibleIf": "{c} = 'x'", "requiredIf": "{c} = 'x'"}]},
              {"name": "b", "elements": [{"type": "boolean", "name": "r", "visibleIf": "{c} notempty"}]}]}
            """)
        let result = generate(survey)
        let impossible: Set<CoverageGoal> = [
            .condition(owner: "r", holds: false), .requirement(step: "m", holds: false),
        ]
        #expect(Set(result.infeasible) == impossible)
        #expect(Set(result.coverage.uncovered) == Set(result.infeasible))
    }

    /// A requiredIf written as its question's visibleIf holds whenever the question is shown, even
    /// when it reads a value the host sets (which the analysis cannot enumerate).
    @Test func aRequiredIfThatIsTheVisibleIfIsNeverFalseWhileShown() throws {
        let survey = try loadSurveyJS(
            """
            {"pages": [{"name": "a", "elements": [
              {"type": "text", "name": "age", "visibleIf": "{age-know} = true", "requiredIf": "{age-know} = true"},
              {"type": "text", "name": "last"}]}]}
            """)
        let result = generate(survey)
        #expect(result.infeasible == [.requirement(step: "age", holds: false)])
        #expect(result.coverage.uncovered == result.infeasible)
    }

    /// A visibleIf reading its own question's answer never holds (hidden, it cannot be answered),
    /// unless something else sets it; a page of only such a question is never shown, and the goals of
    /// its steps are infeasible.
    @Test func aQuestionWhoseVisibleIfReadsItselfIsNeverShown() throws {
        let json = """
            {"questionsOnPageMode": "questionPerPage", "pages": [{"name": "p", "elements": [
              {"type": "radiogroup", "name": "a", "choices": ["1", "2"]},
              {"type": "radiogroup", "name": "b", "visibleIf": "{b} anyof ['2']", "choices": ["1", "2"]},
              {"type": "radiogroup", "name": "c", "visibleIf": "{c} = '2'", "defaultValue": "2", "choices": ["1", "2"]},
              {"type": "text", "name": "d"}]}]}
            """
        let findings = try lint(json)
        let unreachable = findings.filter { $0.rule == .unreachableStep && $0.severity == .error }
        #expect(unreachable.contains { $0.message.contains("question 'b'") }, "\(listing(findings))")
        #expect(!findings.contains { $0.severity == .error && $0.message.contains("'c'") }, "\(listing(findings))")
        let result = generate(try loadSurveyJS(json))
        #expect(result.infeasible.contains(.shown(step: "b")), "\(result.coverage.uncovered)")
        #expect(Set(result.coverage.uncovered) == Set(result.infeasible))
    }

    /// A dropdown matrix's columns with a `visibleIf` are hidden until it holds, but an answer may
    /// fill them: the generated answers fill them too, so a question shown by such a cell is reached.
    @Test func aCellOfAConditionalColumnCanShowAQuestion() throws {
        let survey = try loadSurveyJS(
            """
            {"pages": [{"name": "p1", "elements": [
              {"type": "checkbox", "name": "regions", "choices": ["north", "south", "east"]},
              {"type": "matrixdropdown", "name": "catch", "choices": [1, 2, 3], "rows": ["deer", "boar", "hare"],
               "columns": [{"name": "N", "visibleIf": "{regions} contains 'north'"},
                           {"name": "S", "visibleIf": "{regions} contains 'south'"}]},
              {"type": "text", "name": "hares", "inputType": "number", "visibleIf": "{catch.hare} notempty"}]}]}
            """)
        let result = generate(survey)
        #expect(result.coverage.uncovered.isEmpty, "\(result.coverage.uncovered)")
        #expect(result.coverage.covered.contains(.shown(step: "hares")))
    }

    /// A condition that needs every row of a wide matrix answered: the representatives of the matrix
    /// include every row filled, however many combinations of rows there are.
    @Test func aConditionOnEveryRowOfAWideMatrixIsMet() throws {
        let survey = try loadSurveyJS(
            """
            {"pages": [{"name": "p1", "elements": [
              {"type": "matrix", "name": "wedges", "rows": ["Row 1", "Row 2", "Row 3", "Row 4"],
               "columns": ["m3", "l3", "m4", "l4", "m5", "l5", "none"]},
              {"type": "comment", "name": "why", "visibleIf":
                 "{wedges.Row 1} notempty and {wedges.Row 2} notempty and {wedges.Row 3} notempty and {wedges.Row 4} notempty"}]}]}
            """)
        let result = generate(survey)
        #expect(result.coverage.uncovered.isEmpty, "\(result.coverage.uncovered)")
    }

    /// A hidden question (`visible: false`) with a default that only the app changes: it keeps its
    /// default for a respondent, so the page it shows is never shown here. Lint says so as a warning
    /// (the host may set it), and `survey paths` counts that page's goals infeasible.
    @Test func aHiddenQuestionKeepsItsDefaultUnlessTheHostSetsIt() throws {
        let json = """
            {"pages": [
              {"name": "search", "elements": [{"type": "text", "name": "id"},
                {"type": "radiogroup", "name": "found", "visible": false, "defaultValue": false,
                 "choices": [{"value": true, "text": "Found"}, {"value": false, "text": "Not found"}]}]},
              {"name": "details", "visibleIf": "{found} == true", "elements": [{"type": "text", "name": "student"}]},
              {"name": "missing", "visibleIf": "{found} == false", "elements": [{"type": "text", "name": "why"}]}]}
            """
        let findings = try lint(json)
        #expect(!findings.contains { $0.severity == .error }, "\(listing(findings))")
        let finding = try #require(findings.first { $0.rule == .unreachableStep && $0.stepID == "details" })
        #expect(finding.severity == .warning)
        #expect(
            finding.message.contains("'found' is never shown and only its default sets it"), "\(finding.message)")
        let result = generate(try loadSurveyJS(json))
        #expect(result.coverage.covered.contains(.shown(step: "why")))
        #expect(result.infeasible.contains(.shown(step: "student")), "\(result.coverage.uncovered)")
        #expect(Set(result.coverage.uncovered) == Set(result.infeasible))
    }

    /// A question shown by `(a and b) or (c and d)` where `a` and `c` each need `b`'s question to give
    /// a different answer: answers for both sides at once contradict each other, so the directed
    /// search takes one side of the `or` (and the whole condition where a side reads a host's value).
    @Test func theDirectedSearchTakesOneSideOfAnOr() throws {
        let survey = try loadSurveyJS(
            """
            {"pages": [
              {"name": "p0", "elements": [{"type": "dropdown", "name": "line", "isRequired": true,
                "choices": ["L1", "L2", "L3", "L4", "L5", "L6", "L7", "L8", "L9", "L10", "L11", "L12"]}]},
              {"name": "p1", "elements": [{"type": "radiogroup", "name": "rides", "isRequired": true,
                "choices": ["1", "2"], "visibleIf": "((!{source}) or {source} == 'app') and {line} == 'L10'"}]},
              {"name": "p2", "elements": [{"type": "radiogroup", "name": "ridesOther", "isRequired": true,
                "choices": ["1", "2"], "visibleIf": "{line} == 'L1' or {line} == 'L12'"}]},
              {"name": "p3", "elements": [{"type": "checkbox", "name": "why", "isRequired": true, "choices": ["a", "b"],
                "visibleIf": "({rides} == '1' and {line} == 'L10') or ({ridesOther} == '1' and ({line} == 'L1' or {line} == 'L12'))"}]}]}
            """)
        let model = FlowModel(survey: survey)
        let (domains, decisionSlots) = AnalyzedSurvey.domains(of: model)
        let evaluator = ConditionEvaluator(model: model, domains: domains, today: "2026-01-01")
        let predicates = FlowPredicates(model: model, evaluator: evaluator)
        let why = try #require(survey.stepIDs.firstIndex(of: "why"))
        let found = (0..<8).compactMap { variant in
            WitnessSearch.requirements(
                showing: why, model: model, evaluator: evaluator, predicates: predicates, variant: UInt64(variant))
        }
        #expect(!found.isEmpty, "some variant gives answers that hold together")
        for pinned in found {
            let search = WitnessSearch(
                model: model, domains: domains, decisionSlots: decisionSlots, budget: 4000, today: "2026-01-01")
            #expect(search.reach(unit: model.steps[why].unit, pinned: pinned, accept: { $0.isVisible("why") }) != nil)
        }
    }
}

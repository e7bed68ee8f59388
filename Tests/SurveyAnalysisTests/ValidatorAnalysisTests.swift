import SurveyAnalysis
import SurveyBuiltins
import SurveyCore
import Testing

/// Lint, path generation, coverage and simulation with `validators` present: the answers they try
/// are ones a respondent can move on with, and a question none of them passes is reported.
@Suite struct ValidatorAnalysisTests {
    static let passable = surveyJSON(
        #"""
        {"id": "age", "type": "number", "required": true, "validators": [{"type": "numeric", "minValue": 18, "maxValue": 99}]},
        {"id": "email", "type": "text", "required": true, "validators": [{"type": "email"}]},
        {"id": "nick", "type": "text", "required": true, "validators": [{"type": "text", "minLength": 12, "allowDigits": false}]},
        {"id": "partner", "type": "number", "required": true, "validators": [{"type": "expression", "expression": "{partner} >= {age} - 10"}]},
        {"id": "senior", "type": "text", "visibleIf": "{age} >= 65"},
        {"id": "code", "type": "text", "required": true, "validators": [{"type": "regex", "regex": "^[A-Z]{2}-[0-9]{4}$"}]},
        {"id": "goals", "type": "multiple-choice", "required": true, "options": {"choices": ["a", "b", "c", "d"], "none": true},
         "validators": [{"type": "answercount", "minCount": 2, "maxCount": 3}]}
        """#)

    static func load(_ text: String) throws -> Survey {
        try SurveyLoader(registry: .builtins()).load(text: text, source: "test.json")
    }

    @Test func generatedPathsAnswerSoThatEveryValidatorPasses() throws {
        let survey = try Self.load(Self.passable)
        var generator = PathGenerator(survey: survey, seed: 5)
        generator.timeLimit = 20
        let result = generator.generate()
        #expect(result.blocked.isEmpty, "\(result.blocked)")
        #expect(result.coverage.uncovered.isEmpty, "\(result.coverage.uncovered)")
        #expect(!result.scripts.isEmpty)
        for script in result.scripts {
            let replayed = SurveySession.replay(survey: survey, seed: 5, today: "2026-01-01", actions: script.actions)
            #expect(replayed.pathIDs == script.path)
            if replayed.status == .completed {
                let answers = replayed.completionResult().answers
                #expect(answers == script.answers)
                if let age = answers["age"]?.numberValue { #expect((18...99).contains(age)) }
                if let nick = answers["nick"]?.stringValue {
                    #expect(nick.count >= 12 && !nick.contains(where: \.isNumber))
                }
                if let goals = answers["goals"]?.arrayValue { #expect((2...3).contains(goals.count)) }
                #expect(answers["code"] == "AA-0000")
            }
            // A refused attempt is tried on a copy of the session: scripts hold only answers that passed.
            let answered = script.actions.compactMap { action -> String? in
                if case .answer(let id, _) = action { return id }
                return nil
            }
            #expect(Set(answered).count == answered.count, "an answer was retried in the script: \(answered)")
        }
    }

    @Test func aQuestionNoGeneratedAnswerPassesIsReported() throws {
        let result = try generatedPaths(
            surveyJSON(
                #"""
                {"id": "code", "type": "text", "required": true, "validators": [{"type": "regex", "regex": "^\\p{Lu}{2}-[0-9]{4}$"}]},
                {"id": "after", "type": "text"}
                """#))
        #expect(result.blocked.map(\.stepID) == ["code"])
        #expect(result.blocked.first?.validator == "regex")
        #expect(result.blocked.first?.message == "The answer is not in the expected format.")
        #expect(result.coverage.uncovered.contains(.shown(step: "after")))
    }

    @Test func simulatedRespondentsAnswerWhatValidatorsAccept() throws {
        let survey = try Self.load(
            surveyJSON(
                #"""
                {"id": "age", "type": "number", "required": true, "validators": [{"type": "numeric", "minValue": 18, "maxValue": 99}]},
                {"id": "nick", "type": "text", "required": true, "validators": [{"type": "text", "minLength": 30}]},
                {"id": "mail", "type": "text", "required": true, "validators": [{"type": "email"}]}
                """#))
        let report = SurveySimulator(survey: survey).run(respondents: 200, seed: 2)
        #expect(report.completed == 200, "\(report.stuckAt)")
        let stuck = try Self.load(
            surveyJSON(
                #"""
                {"id": "code", "type": "text", "required": true, "validators": [{"type": "regex", "regex": "^\\p{Lu}{2}-[0-9]{4}$"}]}
                """#))
        let stuckReport = SurveySimulator(survey: stuck).run(respondents: 50, seed: 2)
        #expect(stuckReport.completed == 0)
        #expect(stuckReport.stuckAt == ["code": 50])
    }

    @Test func answersAValidatorRefusesAreNotInTheDomain() throws {
        let survey = try Self.load(Self.passable)
        let model = FlowModel(survey: survey)
        let (domains, _) = AnalyzedSurvey.domains(of: model)
        let age = try #require(survey.stepIDs.firstIndex(of: "age"))
        let numbers = domains[age].values.compactMap(\.numberValue)
        #expect(!numbers.isEmpty)
        #expect(numbers.allSatisfy { (18...99).contains($0) }, "\(numbers)")
        // The bounds and the literal 65 of the condition are among them.
        #expect(numbers.contains(18) && numbers.contains(99) && numbers.contains(65))
        let goals = try #require(survey.stepIDs.firstIndex(of: "goals"))
        #expect(domains[goals].values.dropFirst().allSatisfy { (2...3).contains($0.arrayValue?.count ?? 0) })
        // ["none"] is one selection, fewer than answercount's minCount.
        #expect(!domains[goals].values.contains(["none"]))
    }

    @Test func lintFollowsValidatorsAndCountsTheirReferences() throws {
        // 'minor' needs {age} < 18, which age's validator never lets through: it is not reported reachable.
        let found = try lint(
            surveyJSON(
                #"""
                {"id": "age", "type": "number", "required": true, "validators": [{"type": "numeric", "minValue": 18}]},
                {"id": "limit-check", "type": "number", "validators": [{"type": "expression", "expression": "{limit-check} <= {limit}"}]},
                {"id": "minor", "type": "text", "visibleIf": "{age} < 18"}
                """#, extra: #""calculatedValues": [{"name": "limit", "expression": "{age} * 2"}]"#))
        #expect(!found.contains { $0.rule == .unusedCalculatedValue }, "\(listing(found))")
        #expect(found.contains { $0.rule == .unreachableStep && $0.stepID == "minor" }, "\(listing(found))")
        #expect(!found.contains { $0.severity == .error && $0.stepID != "minor" }, "\(listing(found))")
    }

    @Test func theExamplesStillLintCleanWithValidatorsAdded() throws {
        let found = try lint(Self.passable)
        #expect(!found.contains { $0.severity == .error }, "\(listing(found))")
    }
}

/// Lint looks inside expression validators as it does inside conditions.
@Suite struct ValidatorLintTests {
    static let steps = #"""
        {"id": "p1", "type": "page", "steps": [
          {"id": "pet", "type": "single-choice", "options": {"choices": ["cat", "dog"]}},
          {"id": "age", "type": "number", "validators": [
            {"type": "expression", "expression": "{pet} = 'dgo' or {age} < 3", "notificationType": "warning"},
            {"type": "expression", "expression": "{later} notempty"},
            {"type": "expression", "expression": "{age} >= 0"}]}]},
        {"id": "p2", "type": "page", "steps": [{"id": "later", "type": "text"}]}
        """#

    @Test func aMisspeltChoiceInAValidatorIsFound() throws {
        let found = try findings(.unknownChoiceValue, steps: Self.steps)
        #expect(found.map(\.path?.description) == ["$.steps[0].steps[1].validators[0].expression"], "\(listing(found))")
        #expect(found.first?.message.contains("did you mean 'dog'?") == true)
    }

    @Test func aValidatorReadingALaterQuestionIsAForwardReferenceAndNeverPasses() throws {
        let forward = try findings(.forwardReference, steps: Self.steps)
        #expect(
            forward.map(\.path?.description) == ["$.steps[0].steps[1].validators[1].expression"], "\(listing(forward))")
        let never = try findings(.alwaysFalseCondition, steps: Self.steps)
        #expect(never.contains { $0.message.contains("respondents cannot get past 'age'") }, "\(listing(never))")
    }

    @Test func aValidatorEveryAnswerPassesIsReported() throws {
        let steps = #"""
            {"id": "age", "type": "number", "options": {"min": 0}, "validators": [{"type": "expression", "expression": "{age} >= 0 or {age} empty"}]}
            """#
        let found = try findings(.alwaysTrueCondition, steps: steps)
        #expect(found.contains { $0.message.contains("never refuses anything") }, "\(listing(found))")
    }
}

/// The paths generated for `survey` (seed 1, at most 5 s).
func generatedPaths(_ survey: String) throws -> PathGenerator.Result {
    var generator = PathGenerator(survey: try SurveyLoader(registry: .builtins()).load(text: survey), seed: 1)
    generator.timeLimit = 5
    return generator.generate()
}

/// Generated paths answer text inputs in their formats, and masked texts through their masks.
@Suite struct TextFormatPathTests {
    @Test func timeMonthColorAndMaskedTextsAreAnswered() throws {
        let result = try generatedPaths(
            surveyJSON(
                #"""
                {"id": "start", "type": "text", "required": true, "options": {"inputType": "time"}},
                {"id": "month", "type": "text", "required": true, "options": {"inputType": "month"}},
                {"id": "colour", "type": "text", "required": true, "options": {"inputType": "color"}},
                {"id": "phone", "type": "text", "required": true, "options": {"mask": {"type": "pattern", "pattern": "(99) 9999-9999"}}},
                {"id": "after", "type": "text"}
                """#))
        #expect(result.blocked.isEmpty, "\(result.blocked)")
        #expect(result.coverage.uncovered.isEmpty, "\(result.coverage.uncovered)")
    }
}

/// Generated paths fill a matrix of questions whose every row and cell is required.
@Suite struct RequiredMatrixPathTests {
    @Test func everyRowAndCellIsAnswered() throws {
        let result = try generatedPaths(
            surveyJSON(
                #"""
                {"id": "tests", "type": "matrix-dropdown", "required": true, "options": {"rows": ["chem", "haem"],
                  "allRowsRequired": true, "columns": [
                    {"name": "units", "cellType": "number", "required": true},
                    {"name": "kinds", "cellType": "multiple-choice", "required": true, "options": {"choices": ["a", "b"]}}]}},
                {"id": "after", "type": "text"}
                """#))
        #expect(result.blocked.isEmpty, "\(result.blocked)")
        #expect(result.coverage.uncovered.isEmpty, "\(result.coverage.uncovered)")
    }
}

/// `{q.length}` is the answer's length (a text's characters, a list's entries), as in SurveyJS.
@Suite struct LengthConditionTests {
    static let survey = surveyJSON(
        #"""
        {"id": "story", "type": "text"},
        {"id": "more", "type": "text", "visibleIf": "{story.length} > 40"},
        {"id": "cars", "type": "multiple-choice", "options": {"choices": ["ford", "audi", "bmw"]}},
        {"id": "best", "type": "text", "visibleIf": "{cars.length} > 1"}
        """#)

    @Test func aLengthConditionIsNoDefectAndPathsReachBothOutcomes() throws {
        // It held for a 41-character text, so no "never holds" error (a false one before).
        let found = try lint(Self.survey)
        #expect(!found.contains { $0.severity == .error }, "\(listing(found))")
        let result = try generatedPaths(Self.survey)
        #expect(result.coverage.uncovered.isEmpty, "\(result.coverage.uncovered)")
    }
}

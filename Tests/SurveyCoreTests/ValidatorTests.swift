import Foundation
import SurveyBuiltins
import SurveyCore
import Testing

/// `validators` on question steps: decoding and its load errors, what blocks Next and with which
/// message, in which locale, when they run, and resuming a state whose answers fail one.
@Suite struct ValidatorTests {
    static func load(_ steps: [String], calculated: String = "[]") throws(SurveyLoadError) -> Survey {
        try SurveyLoader(registry: .builtins()).load(
            text: surveyJSON(steps, calculated: calculated), source: "validators.json")
    }

    static func errors(_ steps: [String]) -> [SurveyError] {
        do {
            _ = try load(steps)
            return []
        } catch {
            return error.errors
        }
    }

    /// One page `p1` holding the given steps, then a page `p2` with a text `z`.
    static func paged(_ steps: [String], calculated: String = "[]") throws -> Survey {
        try load(
            [
                #"{"id": "p1", "type": "page", "steps": [\#(steps.joined(separator: ","))]}"#,
                #"{"id": "p2", "type": "page", "steps": [{"id": "z", "type": "text"}]}"#,
            ], calculated: calculated)
    }

    /// The errors Next reports after answering, or `[]` when it moved on.
    static func nextErrors(
        _ survey: Survey, _ answers: [(String, JSONValue)], locale: String? = nil
    ) throws -> [StepError] {
        var session = SurveySession(survey: survey, locale: locale)
        for (id, value) in answers { try session.answer(value, for: id) }
        switch session.next() {
        case .blocked(let errors): return errors
        case .moved, .completed: return []
        }
    }

    // MARK: Decoding

    @Test func definitionsRoundTripThroughJSON() throws {
        let survey = try Self.load([
            #"""
            {"id": "q", "type": "text", "validators": [
              {"type": "expression", "expression": "{q} notempty", "text": {"en": "Say something", "fr": "Dites quelque chose"}},
              {"type": "email"},
              {"type": "regex", "regex": "^a", "caseInsensitive": true},
              {"type": "numeric", "minValue": 1, "maxValue": 2.5},
              {"type": "text", "minLength": 2, "maxLength": 0, "allowDigits": false}
            ]}
            """#,
            #"{"id": "m", "type": "multiple-choice", "options": {"choices": ["a", "b"]}, "validators": [{"type": "answercount", "maxCount": 1}]}"#,
        ])
        let validators = try #require(survey.stepDefinition("q")?.validators)
        #expect(
            validators == [
                ValidatorDefinition(
                    .expression("{q} notempty"),
                    text: LocalizedText(translations: ["en": "Say something", "fr": "Dites quelque chose"])),
                ValidatorDefinition(.email),
                ValidatorDefinition(.regex("^a", isCaseInsensitive: true)),
                ValidatorDefinition(.numeric(minimum: 1, maximum: 2.5)),
                // maxLength 0 is "no limit", as in SurveyJS.
                ValidatorDefinition(.text(minimumLength: 2, maximumLength: nil, allowsDigits: false)),
            ])
        #expect(
            survey.stepDefinition("m")?.validators == [ValidatorDefinition(.answerCount(minimum: nil, maximum: 1))])
        let again = try SurveyLoader(registry: .builtins()).load(text: survey.definition.jsonText())
        #expect(again.definition == survey.definition)
    }

    @Test(arguments: [
        (
            #"{"type": "emial"}"#, SurveyError.Kind.invalidValue, "$.steps[0].validators[0].type",
            "unknown validator type 'emial' (did you mean 'email'?)"
        ),
        (
            #"{"type": "numericvalidator"}"#, .invalidValue, "$.steps[0].validators[0].type",
            "(did you mean 'numeric'?)"
        ),
        (
            #"{"type": "email", "regex": "x"}"#, .unknownField, "$.steps[0].validators[0].regex",
            "unknown member 'regex'"
        ),
        (#"{"type": "regex"}"#, .missingField, "$.steps[0].validators[0]", "'regex'"),
        (
            #"{"type": "numeric", "minValue": 5, "maxValue": 1}"#, .invalidValue,
            "$.steps[0].validators[0].maxValue", "'maxValue' must not be less than 'minValue'"
        ),
        (#"{"type": "text", "minLength": -1}"#, .invalidValue, "$.steps[0].validators[0].minLength", "minLength"),
        (
            #"{"type": "email", "notificationType": "warn"}"#, .invalidValue,
            "$.steps[0].validators[0].notificationType", "'notificationType' must be \"error\", \"warning\" or \"info\""
        ),
        (#""email""#, .invalidValue, "$.steps[0].validators[0]", "a validator must be an object"),
    ])
    func badValidatorsAreLoadErrors(validator: String, kind: SurveyError.Kind, path: String, message: String) {
        let errors = Self.errors([#"{"id": "q", "type": "text", "validators": [\#(validator)]}"#])
        #expect(errors.count == 1, "\(errors)")
        #expect(errors.first?.kind == kind, "\(errors)")
        #expect(errors.first?.path?.description == path, "\(errors)")
        #expect(errors.first?.stepID == "q")
        #expect(errors.first?.message.contains(message) == true, "\(errors)")
        #expect(errors.first?.position != nil, "\(errors)")
    }

    @Test func anExpressionValidatorNamingNothingIsALoadErrorAtItsMember() throws {
        let errors = Self.errors([
            #"{"id": "q", "type": "number", "validators": [{"type": "expression", "expression": "{q} > {nosuch}"}]}"#
        ])
        #expect(errors.count == 1)
        let error = errors.first
        #expect(error?.kind == .unknownReference)
        #expect(error?.path?.description == "$.steps[0].validators[0].expression")
        // Line and column of the member's value in the file.
        let text = surveyJSON([
            #"{"id": "q", "type": "number", "validators": [{"type": "expression", "expression": "{q} > {nosuch}"}]}"#
        ])
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let line = try #require(lines.firstIndex { $0.contains("nosuch") })
        let column = try #require(lines[line].range(of: #""{q} > {nosuch}""#)).lowerBound
        let position = "\(line + 1):\(lines[line].distance(from: lines[line].startIndex, to: column) + 1)"
        #expect(
            error?.description.hasPrefix("validators.json:\(position): invalid expression \"{q} > {nosuch}\"") == true,
            "\(String(describing: error))")
        #expect(error?.description.contains("(step 'q', at $.steps[0].validators[0].expression)") == true)
    }

    @Test func anInvalidRegexIsALoadError() {
        let errors = Self.errors([#"{"id": "q", "type": "text", "validators": [{"type": "regex", "regex": "(ab"}]}"#])
        #expect(errors.map(\.message) == ["'regex' is not a valid regular expression: (ab"])
        #expect(errors.first?.path?.description == "$.steps[0].validators[0].regex")
    }

    @Test(arguments: [
        (
            #"{"id": "q", "type": "multiple-choice", "options": {"choices": ["a"]}, "validators": [{"type": "email"}]}"#,
            "$.steps[0].validators[0].type", "a 'email' validator checks an email address typed as text"
        ),
        (
            #"{"id": "q", "type": "text", "validators": [{"type": "answercount", "minCount": 1}]}"#,
            "$.steps[0].validators[0].type", "a list of selected choices"
        ),
        (
            #"{"id": "q", "type": "boolean", "validators": [{"type": "numeric"}]}"#, "$.steps[0].validators[0].type",
            "'boolean' questions do not answer with one"
        ),
        (
            #"{"id": "q", "type": "content", "title": "Hi", "validators": [{"type": "expression", "expression": "true"}]}"#,
            "$.steps[0].validators", "'content' steps take no answer"
        ),
        (
            #"{"id": "p", "type": "page", "validators": [{"type": "email"}], "steps": [{"id": "q", "type": "text"}]}"#,
            "$.steps[0].validators", "pages have no 'validators'"
        ),
    ])
    func validatorsMustFitTheQuestion(step: String, path: String, message: String) {
        let errors = Self.errors([step])
        #expect(errors.count == 1, "\(errors)")
        #expect(errors.first?.path?.description == path, "\(errors)")
        #expect(errors.first?.message.contains(message) == true, "\(errors)")
    }

    // MARK: What blocks Next

    @Test func anExpressionValidatorComparesTwoAnswers() throws {
        let survey = try Self.paged([
            #"{"id": "q1", "type": "number"}"#,
            #"{"id": "q2", "type": "number", "validators": [{"type": "expression", "expression": "{q2} > {q1}"}]}"#,
        ])
        let errors = try Self.nextErrors(survey, [("q1", 5), ("q2", 3)])
        #expect(errors.map(\.stepID) == ["q2"])
        #expect(errors.first?.error.code == "expressionFailed")
        #expect(errors.first?.error.arguments == ["expression": "{q2} > {q1}"])
        #expect(errors.first?.validator == "expression")
        #expect(errors.first?.message == "This answer must meet the condition {q2} > {q1}.")
        #expect(try Self.nextErrors(survey, [("q1", 3), ("q2", 5)]).isEmpty)
    }

    @Test func anExpressionValidatorReadsCalculatedValuesAndEarlierPages() throws {
        let survey = try Self.load(
            [
                #"{"id": "age", "type": "number"}"#,
                #"{"id": "q", "type": "number", "validators": [{"type": "expression", "expression": "{q} <= {limit}"}]}"#,
            ], calculated: #"[{"name": "limit", "expression": "{age} * 2"}]"#)
        var session = SurveySession(survey: survey)
        try session.answer(30, for: "age")
        session.next()
        try session.answer(61, for: "q")
        guard case .blocked(let errors) = session.next() else { Issue.record("Next moved on"); return }
        #expect(errors.map(\.error.code) == ["expressionFailed"])
        try session.answer(60, for: "q")
        guard case .completed(let result) = session.next() else { Issue.record("did not complete"); return }
        #expect(result.answers == ["age": 30, "q": 60])
    }

    @Test(arguments: [
        // kind, question type, answer, expected code (nil: passes)
        (#"{"type": "email"}"#, "text", JSONValue.string("ada@example.com"), String?.none),
        (#"{"type": "email"}"#, "text", "ada@example.c", "invalidEmail"),
        (#"{"type": "email"}"#, "text", "ada lovelace@example.com", "invalidEmail"),
        (#"{"type": "email"}"#, "text", "\"ada lovelace\"@example.com", nil),
        (#"{"type": "email"}"#, "text", "ada@exa=mple.com", "invalidEmail"),
        (#"{"type": "regex", "regex": "[0-9]{3}"}"#, "text", "ab123cd", nil),
        (#"{"type": "regex", "regex": "^[0-9]{3}$"}"#, "text", "ab123cd", "patternMismatch"),
        (#"{"type": "regex", "regex": "^abc"}"#, "text", "ABCdef", "patternMismatch"),
        (#"{"type": "regex", "regex": "^abc", "caseInsensitive": true}"#, "text", "ABCdef", nil),
        (#"{"type": "numeric", "minValue": 1, "maxValue": 10}"#, "number", 0, "outOfRange"),
        (#"{"type": "numeric", "minValue": 1, "maxValue": 10}"#, "number", 10, nil),
        (#"{"type": "numeric", "minValue": 1}"#, "number", 0.5, "belowMinimum"),
        (#"{"type": "numeric", "maxValue": 1}"#, "number", 2, "aboveMaximum"),
        (#"{"type": "numeric"}"#, "text", "1e3", nil),
        (#"{"type": "numeric", "maxValue": 10}"#, "text", "7.5", nil),
        (#"{"type": "numeric", "maxValue": 10}"#, "text", "12 apples", "notANumber"),
        (#"{"type": "text", "minLength": 3}"#, "text", "ab", "tooShort"),
        (#"{"type": "text", "maxLength": 3}"#, "text", "abcd", "tooLong"),
        (#"{"type": "text", "minLength": 1, "maxLength": 3}"#, "text", "abcd", "lengthOutOfRange"),
        (#"{"type": "text", "maxLength": 2}"#, "text", "😀é", nil),
        (#"{"type": "text", "allowDigits": false}"#, "text", "Route 66", "digitsNotAllowed"),
        (#"{"type": "text", "allowDigits": false}"#, "text", "4 Privet Drive", "digitsNotAllowed"),
        (#"{"type": "text", "allowDigits": false}"#, "text", "Zoë O'Brien-Smith", nil),
    ])
    func eachKindPassesOrFails(validator: String, type: String, answer: JSONValue, code: String?) throws {
        let survey = try Self.paged([#"{"id": "q", "type": "\#(type)", "validators": [\#(validator)]}"#])
        let errors = try Self.nextErrors(survey, [("q", answer)])
        #expect(errors.map(\.error.code) == (code.map { [$0] } ?? []), "\(errors)")
        #expect(errors.allSatisfy { $0.validator != nil && $0.stepID == "q" })
    }

    @Test func answerCountCountsSelectionsOtherAndNone() throws {
        let survey = try Self.paged([
            #"""
            {"id": "q", "type": "multiple-choice", "options": {"choices": ["a", "b", "c"], "other": true, "none": true},
             "validators": [{"type": "answercount", "minCount": 2, "maxCount": 2}]}
            """#
        ])
        #expect(try Self.nextErrors(survey, [("q", ["a"])]).map(\.error.code) == ["tooFewSelections"])
        #expect(try Self.nextErrors(survey, [("q", ["none"])]).map(\.error.code) == ["tooFewSelections"])
        #expect(try Self.nextErrors(survey, [("q", ["a", "my own"])]).isEmpty)
        let tooMany = try Self.nextErrors(survey, [("q", ["a", "b", "c"])])
        #expect(tooMany.map(\.error.code) == ["tooManySelections"])
        #expect(tooMany.first?.message == "Select at most 2.")
    }

    @Test func builtInMessagesNameTheBounds() throws {
        let survey = try Self.paged([
            #"{"id": "n", "type": "number", "validators": [{"type": "numeric", "minValue": 18, "maxValue": 120}]}"#,
            #"{"id": "t", "type": "text", "validators": [{"type": "text", "minLength": 2, "maxLength": 4}]}"#,
        ])
        let errors = try Self.nextErrors(survey, [("n", 7), ("t", "abcdef")])
        #expect(
            errors.map(\.message) == ["Enter a value from 18 to 120.", "Enter from 2 to 4 characters."])
        #expect(errors.map(\.error.arguments) == [["min": "18", "max": "120"], ["min": "2", "max": "4"]])
        let french = try Self.nextErrors(survey, [("n", 7), ("t", "abcdef")], locale: "fr")
        #expect(
            french.map(\.message) == [
                "Saisissez une valeur comprise entre 18 et 120.", "Saisissez entre 2 et 4 caractères.",
            ])
        let japanese = try Self.nextErrors(survey, [("n", 7)], locale: "ja")
        #expect(japanese.map(\.message) == ["18から120までの値を入力してください。"])
    }

    @Test func customTextsAreLocalisedAndPiped() throws {
        let survey = try Self.paged([
            #"{"id": "name", "type": "text"}"#,
            #"""
            {"id": "q", "type": "number", "validators": [
              {"type": "numeric", "maxValue": 10, "text": {"en": "{name}, at most ten", "fr": "{name}, dix au plus"}},
              {"type": "expression", "expression": "{q} <> 11", "text": "Not eleven"}
            ]}
            """#,
        ])
        let english = try Self.nextErrors(survey, [("name", "Ada"), ("q", 11)])
        #expect(english.map(\.message) == ["Ada, at most ten", "Not eleven"])
        #expect(english.allSatisfy { $0.error.isLocalized })
        #expect(english.map(\.error.code) == ["aboveMaximum", "expressionFailed"])
        let french = try Self.nextErrors(survey, [("name", "Ada"), ("q", 11)], locale: "fr-CA")
        #expect(french.map(\.message) == ["Ada, dix au plus", "Not eleven"])
        // The built-in message of an expression validator is localised too, braces and all.
        let plain = try Self.paged([
            #"{"id": "q", "type": "number", "validators": [{"type": "expression", "expression": "{q} <> 11"}]}"#
        ])
        #expect(
            try Self.nextErrors(plain, [("q", 11)], locale: "de").map(\.message) == [
                "Diese Antwort muss die Bedingung {q} <> 11 erfüllen."
            ])
    }

    @Test func aCustomTextPipingANameThatDoesNotExistIsALoadError() {
        let errors = Self.errors([
            #"{"id": "q", "type": "text", "validators": [{"type": "email", "text": "Hello {nosuch}"}]}"#
        ])
        #expect(errors.map(\.kind) == [.unknownReference])
        #expect(errors.first?.path?.description == "$.steps[0].validators[0].text")
    }

    // MARK: When they run

    @Test func emptyAnswersSkipEveryKindButExpression() throws {
        let survey = try Self.paged([
            #"{"id": "a", "type": "text", "validators": [{"type": "email"}, {"type": "text", "minLength": 3}, {"type": "regex", "regex": "x"}]}"#,
            #"{"id": "b", "type": "number", "validators": [{"type": "numeric", "minValue": 5}]}"#,
            #"{"id": "c", "type": "multiple-choice", "options": {"choices": ["x", "y"]}, "validators": [{"type": "answercount", "minCount": 2}]}"#,
            #"{"id": "d", "type": "text", "validators": [{"type": "expression", "expression": "{b} > 3"}]}"#,
        ])
        let errors = try Self.nextErrors(survey, [])
        #expect(errors.map(\.stepID) == ["d"])
        #expect(errors.map(\.error.code) == ["expressionFailed"])
    }

    @Test func aMissingRequiredAnswerReportsRequiredOnly() throws {
        let survey = try Self.paged([
            #"{"id": "q", "type": "text", "required": true, "validators": [{"type": "expression", "expression": "{q} notempty"}]}"#
        ])
        let errors = try Self.nextErrors(survey, [])
        #expect(errors.map(\.error.code) == ["required"])
        #expect(errors.first?.validator == nil)
    }

    @Test func hiddenQuestionsAreNotValidated() throws {
        let survey = try Self.paged([
            #"{"id": "q1", "type": "number"}"#,
            #"{"id": "q2", "type": "text", "visibleIf": "{q1} > 1", "validators": [{"type": "expression", "expression": "{q1} > 5"}]}"#,
        ])
        #expect(try Self.nextErrors(survey, [("q1", 1)]).isEmpty)
        #expect(try Self.nextErrors(survey, [("q1", 2)]).map(\.stepID) == ["q2"])
        #expect(try Self.nextErrors(survey, [("q1", 6)]).isEmpty)
    }

    @Test func readOnlyQuestionsAreNotValidatedButDefaultValuesAre() throws {
        let survey = try Self.paged([
            #"{"id": "x", "type": "text"}"#,
            #"{"id": "fixed", "type": "text", "readOnly": true, "defaultValue": "bad", "validators": [{"type": "email"}]}"#,
            #"{"id": "gated", "type": "text", "enableIf": "{x} = 'on'", "defaultValue": "bad", "validators": [{"type": "email"}]}"#,
        ])
        #expect(try Self.nextErrors(survey, [("x", "off")]).isEmpty)
        // Enabled, the same default value is checked like an answer.
        let errors = try Self.nextErrors(survey, [("x", "on")])
        #expect(errors.map(\.stepID) == ["gated"])
        #expect(errors.map(\.error.code) == ["invalidEmail"])
    }

    @Test func everyFailingValidatorReportsInOrderAndTheAnswerIsKept() throws {
        let survey = try Self.paged([
            #"{"id": "q", "type": "text", "validators": [{"type": "text", "minLength": 5}, {"type": "email"}, {"type": "regex", "regex": "b"}]}"#
        ])
        var session = SurveySession(survey: survey)
        try session.answer("abc", for: "q")
        guard case .blocked(let errors) = session.next() else { Issue.record("Next moved on"); return }
        #expect(errors.map(\.error.code) == ["tooShort", "invalidEmail"])
        #expect(errors.map(\.validator) == ["text", "email"])
        #expect(session.answer(for: "q") == "abc")
        #expect(session.currentUnitID == "p1")
        let step = try #require(session.currentStep)
        #expect(step.errors == errors)
        #expect(step.questions.first?.error == errors.first)
        // A new answer clears the question's errors; Next checks it again.
        try session.answer("bob@example.com", for: "q")
        #expect(session.currentStep?.errors.isEmpty == true)
        let outcome = session.next()
        #expect(outcome == .moved(to: "p2"))
    }

    @Test func validatorsRunOnlyOnNext() throws {
        let survey = try Self.paged([
            #"{"id": "q1", "type": "number"}"#,
            #"{"id": "q2", "type": "number", "validators": [{"type": "expression", "expression": "{q2} > {q1}"}, {"type": "expression", "expression": "{q1} > 0"}]}"#,
        ])
        var session = SurveySession(survey: survey)
        let start = session.evaluationCount
        for value in 1...20 { try session.answer(.number(Double(value)), for: "q1") }
        try session.answer(30, for: "q2")
        // No condition reads q1 or q2: answering them evaluates nothing, validators included.
        #expect(session.evaluationCount == start)
        let outcome = session.next()
        #expect(outcome == .moved(to: "p2"))
        #expect(session.evaluationCount == start + 2)
    }

    // MARK: Resume and replay

    func failingState() throws -> (Survey, SessionState) {
        let survey = try Self.paged([
            #"{"id": "q1", "type": "number"}"#,
            #"{"id": "q2", "type": "number", "validators": [{"type": "expression", "expression": "{q2} > {q1}"}]}"#,
        ])
        var session = SurveySession(survey: survey, seed: 3, today: "2026-01-01")
        try session.answer(5, for: "q1")
        try session.answer(3, for: "q2")
        let outcome = session.next()
        #expect(outcome != .moved(to: "p2"))
        return (survey, session.state)
    }

    @Test func aResumedStateWithAFailingAnswerStaysOnItsUnit() throws {
        let (survey, state) = try failingState()
        #expect(state.actions.count == 2, "the blocked Next is not recorded")
        var resumed = try SurveySession(survey: survey, resuming: state)
        #expect(resumed.currentUnitID == "p1")
        guard case .blocked(let errors) = resumed.next() else {
            Issue.record("resumed past a failing validator"); return
        }
        #expect(errors.map(\.stepID) == ["q2"])
    }

    @Test func aStateThatClaimsToHaveMovedPastAFailingValidatorIsRefused() throws {
        let (survey, original) = try failingState()
        var state = original
        state.actions.append(.next)
        state.path = ["p1", "p2"]
        #expect {
            try SurveySession(survey: survey, resuming: state)
        } throws: { error in
            "\(error)".contains("does not follow from its actions")
        }
        // Replaying the same actions does not move either.
        let replayed = SurveySession.replay(
            survey: survey, seed: state.seed, today: state.today, actions: state.actions)
        #expect(replayed.pathIDs == ["p1"])
        #expect(replayed.status == .inProgress)
    }
}

/// `notificationType`: warnings and info notes are shown with the answered question and never block.
@Suite struct ValidatorNoticeTests {
    static let survey: Survey? = try? ValidatorTests.paged([
        #"""
        {"id": "age", "type": "number", "validators": [
          {"type": "numeric", "minValue": 18, "notificationType": "warning", "text": {"en": "Sure?", "fr": "Sûr ?"}},
          {"type": "numeric", "maxValue": 120},
          {"type": "expression", "expression": "{age} < 100", "notificationType": "info"}]}
        """#
    ])

    @Test func aWarningIsShownWithTheAnswerAndDoesNotBlock() throws {
        var session = SurveySession(survey: try #require(Self.survey), locale: "fr")
        #expect(session.currentStep?.questions.first?.notices.isEmpty == true)
        try session.answer(12, for: "age")
        let notices = session.currentStep?.questions.first?.notices ?? []
        #expect(notices.map(\.message) == ["Sûr ?"])
        #expect(notices.map(\.severity) == [.warning])
        #expect(notices.first?.validator == "numeric")
        guard case .moved(let unit) = session.next() else {
            Issue.record("a warning blocked Next")
            return
        }
        #expect(unit == "p2")
    }

    @Test func infoNotesAndErrorsKeepTheirRoles() throws {
        var session = SurveySession(survey: try #require(Self.survey))
        try session.answer(110, for: "age")
        #expect(session.currentStep?.questions.first?.notices.map(\.severity) == [.info])
        try session.answer(130, for: "age")
        guard case .blocked(let errors) = session.next() else {
            Issue.record("the error validator did not block")
            return
        }
        #expect(errors.map(\.severity) == [.error])
        #expect(errors.map(\.error.code) == ["aboveMaximum"])
    }

    @Test func notificationTypeIsReadWrittenAndChecked() throws {
        let survey = try #require(Self.survey)
        let validators = survey.stepDefinition("age")?.validators ?? []
        #expect(validators.map(\.notificationType) == [.warning, .error, .info])
        #expect(validators.first?.jsonValue["notificationType"] == "warning")
        #expect(validators[1].jsonValue["notificationType"] == nil)
        let errors = ValidatorTests.errors([
            #"{"id": "q", "type": "text", "validators": [{"type": "email", "notificationType": "warn"}]}"#
        ])
        #expect(errors.first?.message.contains("'notificationType' must be \"error\", \"warning\" or \"info\"") == true)
        #expect(errors.first?.path?.description == "$.steps[0].validators[0].notificationType")
    }
}

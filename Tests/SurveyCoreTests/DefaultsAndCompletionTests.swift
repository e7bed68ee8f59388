import SurveyCore
import Testing

/// `defaultValue`, `defaultValueExpression`, `settings.clearInvisibleValues` and
/// `completionMessages`, with SurveyJS's meaning.
@Suite struct DefaultsAndCompletionTests {
    static func load(_ steps: [String], settings: String = "{}", extra: String = "") throws -> Survey {
        var text = surveyJSON(steps, settings: settings)
        if !extra.isEmpty {
            text.removeLast()
            text += ", " + extra + "}"
        }
        return try loadSurvey(text)
    }

    static let defaults = [
        #"{"id": "p1", "type": "page", "steps": [{"id": "a", "type": "t-text", "defaultValue": "hello"}, {"id": "n", "type": "t-text"}, {"id": "b", "type": "t-text", "defaultValueExpression": "{n} + '!'"}]}"#,
        #"{"id": "p2", "type": "page", "visibleIf": "{a} = 'hello'", "steps": [{"id": "c", "type": "t-text"}]}"#,
    ]

    @Test func aDefaultIsTheAnswerFromTheStartAndCountsAtOnce() throws {
        var session = SurveySession(survey: try Self.load(Self.defaults))
        #expect(session.answer(for: "a") == "hello")
        #expect(session.currentStep?.questions.first?.answer == "hello")
        session.next()
        #expect(session.currentUnitID == "p2")
    }

    /// SurveyJS's `"defaultValue": "=expression"`: the expression, as a `defaultValueExpression`.
    @Test func aDefaultWrittenWithAnEqualsSignIsAnExpression() throws {
        var session = SurveySession(
            survey: try Self.load([
                #"{"id": "p1", "type": "page", "steps": [{"id": "n", "type": "t-text"}, {"id": "f", "type": "t-text", "defaultValue": "={n} + '!'"}, {"id": "g", "type": "t-text", "defaultValue": "=", "defaultValueExpression": "'own'"}]}"#
            ]))
        try session.answer("hi", for: "n")
        #expect(session.answer(for: "f") == "hi!")
        #expect(session.answer(for: "g") == "own")
        let errors = loadErrors(
            surveyJSON([
                #"{"id": "p1", "type": "page", "steps": [{"id": "f", "type": "t-text", "defaultValue": "={nosuch}"}]}"#
            ]))
        let atTheDefault = errors.contains { error in
            (error.path?.description.hasSuffix("defaultValue") ?? false) && error.stepID == "f"
        }
        #expect(atTheDefault, "\(errors)")
    }

    @Test func aDefaultExpressionFollowsItsInputsUntilTheRespondentAnswers() throws {
        var session = SurveySession(survey: try Self.load(Self.defaults))
        #expect(session.answer(for: "b") == "!")
        try session.answer("x", for: "n")
        #expect(session.answer(for: "b") == "x!")
        try session.answer("mine", for: "b")
        try session.answer("y", for: "n")
        #expect(session.answer(for: "b") == "mine")
        let resumed = try SurveySession(survey: session.survey, resuming: session.state)
        #expect(resumed.answer(for: "b") == "mine")
    }

    @Test func aDefaultThatIsNoAnswerIsALoadError() {
        let steps = [#"{"id": "pick", "type": "t-choice", "options": {"choices": ["x"]}, "defaultValue": "z"}"#]
        #expect {
            try Self.load(steps)
        } throws: { error in
            guard let error = error as? SurveyLoadError else { return false }
            return error.errors.contains {
                $0.path?.description == "$.steps[0].defaultValue"
                    && $0.message.contains("is not an answer 'pick' accepts")
            }
        }
    }

    static let hiding = [
        #"{"id": "p1", "type": "page", "steps": [{"id": "q1", "type": "t-text"}, {"id": "q2", "type": "t-text", "visibleIf": "{q1} = 'a'"}]}"#,
        #"{"id": "p2", "type": "page", "steps": [{"id": "q3", "type": "t-text", "visibleIf": "{q2} notempty"}]}"#,
    ]

    func hideAndFinish(_ mode: String) throws -> (SurveySession, CompletionResult?) {
        var session = SurveySession(
            survey: try Self.load(Self.hiding, settings: mode.isEmpty ? "{}" : #"{"clearInvisibleValues": "\#(mode)"}"#)
        )
        try session.answer("a", for: "q1")
        try session.answer("typed", for: "q2")
        try session.answer("b", for: "q1")
        guard case .completed(let result) = session.next() else { return (session, nil) }
        return (session, result)
    }

    @Test func onCompleteKeepsAHiddenAnswerForConditionsButNotInTheResult() throws {
        var session = SurveySession(survey: try Self.load(Self.hiding))
        try session.answer("a", for: "q1")
        try session.answer("typed", for: "q2")
        try session.answer("b", for: "q1")
        #expect(session.answer(for: "q2") == "typed")
        session.next()
        // {q2} still reads the hidden answer, so q3 shows (as in SurveyJS).
        #expect(session.currentUnitID == "p2")
        #expect(session.completionResult().answers["q2"] == nil)
    }

    @Test func onHiddenClearsAtOnce() throws {
        let (session, result) = try hideAndFinish("onHidden")
        #expect(session.answer(for: "q2") == nil)
        #expect(result?.answers == ["q1": "b"])
    }

    @Test func noneKeepsHiddenAnswersInTheResult() throws {
        var session = SurveySession(survey: try Self.load(Self.hiding, settings: #"{"clearInvisibleValues": "none"}"#))
        try session.answer("a", for: "q1")
        try session.answer("typed", for: "q2")
        try session.answer("b", for: "q1")
        session.next()
        try session.answer("x", for: "q3")
        guard case .completed(let result) = session.next() else {
            Issue.record("not completed")
            return
        }
        #expect(result.answers == ["q1": "b", "q2": "typed", "q3": "x"])
    }

    @Test func anUnknownModeIsALoadError() {
        #expect {
            try Self.load(Self.hiding, settings: #"{"clearInvisibleValues": "sometimes"}"#)
        } throws: { error in
            "\(error)".contains(
                "'clearInvisibleValues' must be \"onComplete\", \"onHidden\" or \"none\", got 'sometimes'")
        }
    }

    @Test func theFirstCompletionMessageWhoseConditionHoldsIsPipedAndLocalised() throws {
        let survey = try Self.load(
            [#"{"id": "n", "type": "t-text"}"#],
            extra:
                #""completionMessages": [{"if": "{n} = 'big'", "text": {"en": "Big {n}!", "fr": "Grand {n} !"}}, {"text": "Thanks."}]"#
        )
        var session = SurveySession(survey: survey, locale: "fr")
        try session.answer("big", for: "n")
        guard case .completed(let result) = session.next() else {
            Issue.record("not completed")
            return
        }
        #expect(result.message == "Grand big !")
        #expect(result.jsonValue["message"] == "Grand big !")
        var other = SurveySession(survey: survey)
        try other.answer("small", for: "n")
        guard case .completed(let plain) = other.next() else {
            Issue.record("not completed")
            return
        }
        #expect(plain.message == "Thanks.")
    }

    @Test func theNewMembersRoundTrip() throws {
        let survey = try Self.load(
            Self.defaults, settings: #"{"clearInvisibleValues": "none"}"#,
            extra: #""completionMessages": [{"if": "{a} = 1", "text": "One"}]"#)
        let again = try SurveyDefinition(json: survey.definition.jsonValue)
        #expect(again == survey.definition)
    }

    @Test func aCalculatedValueMarkedIncludeIntoResultIsReportedUnderItsName() throws {
        let survey = try loadSurvey(
            surveyJSON(
                [#"{"id": "a", "type": "t-text"}"#],
                calculated:
                    #"[{"name": "shout", "expression": "upper({a})", "includeIntoResult": true}, {"name": "quiet", "expression": "lower({a})"}]"#
            ))
        var session = SurveySession(survey: survey)
        try session.answer("Hi", for: "a")
        guard case .completed(let result) = session.next() else {
            Issue.record("not completed")
            return
        }
        #expect(result.answers == ["a": "Hi", "shout": "HI"])
    }
}

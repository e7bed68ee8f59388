import SurveyBuiltins
import SurveyCore
import Testing

/// Configures `type` with `options` as the options of step "q".
func configure(_ type: some QuestionType, _ options: JSONValue = [:]) throws -> ConfiguredQuestion {
    try AnyQuestionType(type).configure(options: options, path: .root.appending("options"), stepID: "q")
}

/// The option-decoding error `type` reports for `options`, or `nil` when they are accepted.
func optionError(_ type: some QuestionType, _ options: JSONValue) -> SurveyError? {
    do {
        _ = try configure(type, options)
        return nil
    } catch let error as SurveyError {
        return error
    } catch {
        return nil
    }
}

/// The answer error `question` reports for `answer`, or `nil` when it is accepted.
func answerError(_ question: ConfiguredQuestion, _ answer: JSONValue) -> AnswerError? {
    do {
        _ = try question.normalize(answer)
        return nil
    } catch {
        return error
    }
}

/// Parses `json` in tests.
func json(_ text: String) throws -> JSONValue {
    try JSONParser.parse(text)
}

let english = PresentationContext.english

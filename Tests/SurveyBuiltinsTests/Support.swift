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

/// Options a type must reject, with the error kind and the JSON path the error must name.
struct OptionErrorCase: Sendable, CustomTestStringConvertible {
    let options: JSONValue
    let kind: SurveyError.Kind
    let path: String

    init(_ options: JSONValue, _ kind: SurveyError.Kind, _ path: String) {
        self.options = options
        self.kind = kind
        self.path = path
    }

    var testDescription: String { "\(options) → \(kind) at \(path)" }

    /// Checks that `type` rejects the options with this kind, at this path, for step "q".
    func check(_ type: some QuestionType, sourceLocation: SourceLocation = #_sourceLocation) {
        let error = optionError(type, options)
        #expect(error != nil, "options \(options) were accepted", sourceLocation: sourceLocation)
        #expect(error?.kind == kind, "\(String(describing: error))", sourceLocation: sourceLocation)
        #expect(error?.stepID == "q", sourceLocation: sourceLocation)
        #expect(
            error?.description.contains("at \(path)") == true, "\(String(describing: error))",
            sourceLocation: sourceLocation)
    }
}

/// An answer a question must reject, with the expected code, arguments and field.
struct AnswerErrorCase: Sendable, CustomTestStringConvertible {
    let answer: JSONValue
    let code: String
    let arguments: [String: String]?
    let field: String?

    init(_ answer: JSONValue, _ code: String, _ arguments: [String: String]? = nil, field: String? = nil) {
        self.answer = answer
        self.code = code
        self.arguments = arguments
        self.field = field
    }

    var testDescription: String { "\(answer) → \(code)" }

    /// Checks that `question` rejects the answer with this code (and arguments and field, when given).
    func check(_ question: ConfiguredQuestion, sourceLocation: SourceLocation = #_sourceLocation) {
        let error = answerError(question, answer)
        #expect(error?.code == code, "\(String(describing: error))", sourceLocation: sourceLocation)
        if let arguments {
            #expect(error?.arguments == arguments, sourceLocation: sourceLocation)
        }
        if let field {
            #expect(error?.field == field, sourceLocation: sourceLocation)
        }
    }
}

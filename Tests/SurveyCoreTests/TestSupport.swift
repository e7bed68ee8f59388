import Testing

@testable import SurveyCore

/// Minimal question types for core tests, so the core is tested without the built-ins.
struct FreeTextType: QuestionType {
    var typeID: String { "t-text" }
    var summary: String { "Test free text" }
    func makeOptions(from reader: inout OptionsReader) throws(SurveyError) -> Int? {
        try reader.optionalInt("maxLength", in: 1...1000)
    }
    func input(for options: Int?, in context: PresentationContext) -> InputPrimitive {
        .freeText(TextInput(maximumLength: options))
    }
    func normalize(_ answer: JSONValue, options: Int?) throws(AnswerError) -> JSONValue {
        guard case .string(let text) = answer else { throw .wrongShape(expected: "text", got: answer) }
        if let options, text.count > options {
            throw AnswerError(code: "tooLong", message: "Too long.", arguments: ["max": String(options)])
        }
        return .string(text)
    }
}

struct ChoiceType: QuestionType {
    var typeID: String { "t-choice" }
    var summary: String { "Test single choice" }
    func makeOptions(from reader: inout OptionsReader) throws(SurveyError) -> [Choice] {
        let choices = try reader.optionalArray("choices") { (value, path) throws(SurveyError) -> Choice in
            if let text = value.stringValue { return Choice(value: text, label: text) }
            var item = try OptionsReader(value, path: path)
            let choice = Choice(
                value: try item.string("value"), label: try item.string("value"),
                visibleIf: try item.optionalString("visibleIf"))
            try item.finish()
            return choice
        }
        guard let choices, !choices.isEmpty else {
            throw reader.error("choices", "'choices' must be a non-empty array", kind: .missingField)
        }
        return choices
    }
    func input(for options: [Choice], in context: PresentationContext) -> InputPrimitive {
        .singleChoice(ChoiceInput(choices: options, isShuffled: true))
    }
    func normalize(_ answer: JSONValue, options: [Choice]) throws(AnswerError) -> JSONValue {
        guard let value = answer.stringValue, options.contains(where: { $0.value == value }) else {
            throw AnswerError(code: "notAChoice", message: "Not a choice.", arguments: ["value": answer.displayText])
        }
        return answer
    }
}

struct NoteType: QuestionType {
    var typeID: String { "t-note" }
    var summary: String { "Test content step" }
    var collectsAnswer: Bool { false }
    func makeOptions(from reader: inout OptionsReader) throws(SurveyError) {}
    func input(for options: Void, in context: PresentationContext) -> InputPrimitive { .none }
    func normalize(_ answer: JSONValue, options: Void) throws(AnswerError) -> JSONValue {
        throw AnswerError(code: "notAnswerable", message: "No answer.")
    }
}

func testRegistry() -> QuestionTypeRegistry {
    var registry = QuestionTypeRegistry()
    do {
        try registry.register(FreeTextType())
        try registry.register(ChoiceType())
        try registry.register(NoteType())
    } catch {
        preconditionFailure("test registry: \(error)")
    }
    return registry
}

/// Loads a survey from JSON text with the test types.
func loadSurvey(_ text: String) throws -> Survey {
    try SurveyLoader(registry: testRegistry()).load(text: text, source: "test.json")
}

/// Builds survey JSON from step JSON fragments.
func surveyJSON(_ steps: [String], calculated: String = "[]", settings: String = "{}") -> String {
    """
    {"formatVersion": 1, "id": "s", "title": "T", "settings": \(settings),
     "calculatedValues": \(calculated), "steps": [\(steps.joined(separator: ",\n"))]}
    """
}

/// Loads and expects failure, returning the errors.
func loadErrors(_ text: String) -> [SurveyError] {
    do {
        _ = try loadSurvey(text)
        return []
    } catch let error as SurveyLoadError {
        return error.errors
    } catch {
        return []
    }
}

/// Decodes `text` both ways: streamed from its bytes (one chunk, as a small file is) and through
/// the JSON tree, for tests that the two read a survey alike.
func decodeBothWays(_ text: String) throws -> (
    streamed: StreamedSurvey, tree: SurveyDefinition, treeErrors: [SurveyError]
) {
    let streamed = try Array(text.utf8).withUnsafeBufferPointer { bytes in
        var parser = Parser(bytes: bytes)
        return try #require(try parser.parseSurvey(stepChunks: 1))
    }
    var treeErrors: [SurveyError] = []
    let tree = try SurveyDefinition(json: JSONParser.parse(text), errors: &treeErrors)
    return (streamed, tree, treeErrors)
}

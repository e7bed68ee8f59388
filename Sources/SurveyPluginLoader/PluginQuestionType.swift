import SurveyCore
import SurveyPluginMessages

/// A question type provided by a plugin, adapted to ``QuestionType`` so the engine and every
/// front end treat it exactly like a built-in.
///
/// Its options are the question's raw `options` JSON, checked by the plugin's `check_options`;
/// every call crosses the ABI as JSON text, so a plugin failure becomes an ``AnswerError`` or a
/// ``SurveyError``, never a crash of the host. The calls go through a ``PluginTypeChannel``: straight
/// into the loaded library, or to the plugin host child process with `--isolate-plugins`.
struct PluginQuestionType: SummarizesTallies {
    /// A question's options as the plugin accepted them, and how it is asked in English.
    struct Options: Sendable {
        /// The options JSON text passed to every callback.
        let text: String
        /// The input primitive for the English context, used when another locale's description fails.
        let english: InputPrimitive
        /// ABI 1.2: the expression a computed kind's question takes its value from.
        var computed: String? = nil
    }

    let channel: any PluginTypeChannel
    /// The type's `options_schema`, enforced before `check_options` sees the options.
    let optionsSchema: OptionsSchema?
    let typeID: String
    let summary: String
    let collectsAnswer: Bool

    private static let englishContext = JSONWriter.string(from: PluginMessages.json(context: .english))

    func makeOptions(from reader: inout OptionsReader) throws(SurveyError) -> Options {
        // The plugin decides which members are valid: mark them all read.
        for key in reader.members.keys { _ = reader.value(key) }
        if let optionsSchema {
            if let problem = optionsSchema.firstProblem(in: .object(reader.members)) {
                throw SurveyError(
                    .invalidOptions, problem.message,
                    path: problem.path.reduce(reader.path) { path, component in
                        switch component {
                        case .key(let key): return path.appending(key)
                        case .index(let index): return path.appending(index)
                        }
                    }, stepID: reader.stepID)
            }
        }
        var text = JSONWriter.string(from: .object(reader.members))
        if channel.provides(.checkOptions) {
            switch channel.call(.checkOptions, options: text, argument: nil) {
            case .json(let reply):
                switch PluginMessages.result(reply) {
                case .success(let options):
                    text = JSONWriter.string(from: options)
                case .failure(let error):
                    throw SurveyError(
                        .invalidOptions, error["message"]?.stringValue ?? "invalid options",
                        path: PluginMessages.path(error, under: reader.path), stepID: reader.stepID)
                case .malformed(let problem):
                    throw reader.error(nil, "plugin \(channel.path): check_options \(problem)", kind: .invalidOptions)
                }
            case .failure(_, let message):
                throw reader.error(nil, "plugin \(channel.path): \(message)", kind: .invalidOptions)
            }
        }
        switch describe(options: text, context: Self.englishContext) {
        case .success(let input):
            return Options(text: text, english: input, computed: try computedExpression(options: text, reader: reader))
        case .failure(let message):
            throw reader.error(nil, "plugin \(channel.path): \(message)", kind: .invalidOptions)
        }
    }

    /// ABI 1.2: the expression of a computed kind (`computed_expression`), `nil` when the plugin
    /// does not provide the callback.
    private func computedExpression(options: String, reader: OptionsReader) throws(SurveyError) -> String? {
        guard channel.provides(.computedExpression) else { return nil }
        switch channel.call(.computedExpression, options: options, argument: nil) {
        case .json(let reply):
            switch PluginMessages.result(reply) {
            case .success(let expression):
                guard let text = expression.stringValue, !text.isEmpty else {
                    throw reader.error(
                        nil, "plugin \(channel.path): computed_expression must return {\"ok\": \"<expression>\"}",
                        kind: .invalidOptions)
                }
                return text
            case .failure(let error):
                throw SurveyError(
                    .invalidOptions, error["message"]?.stringValue ?? "invalid options",
                    path: PluginMessages.path(error, under: reader.path), stepID: reader.stepID)
            case .malformed(let problem):
                throw reader.error(nil, "plugin \(channel.path): computed_expression \(problem)", kind: .invalidOptions)
            }
        case .failure(_, let message):
            throw reader.error(nil, "plugin \(channel.path): \(message)", kind: .invalidOptions)
        }
    }

    /// A computed kind's expression (ABI 1.2), as the built-in `expression` kind gives its own.
    func computedValue(for options: Options) -> String? { options.computed }

    private enum Description {
        case success(InputPrimitive)
        case failure(String)
    }

    private func describe(options: String, context: String) -> Description {
        switch channel.call(.describe, options: options, argument: context) {
        case .json(let json):
            do {
                return .success(try InputPrimitive(json: json))
            } catch {
                return .failure("describe returned an invalid input primitive: \(error)")
            }
        case .failure(_, let message):
            return .failure(message)
        }
    }

    func input(for options: Options, in context: PresentationContext) -> InputPrimitive {
        if context.locale == "en" { return options.english }
        let contextText = JSONWriter.string(from: PluginMessages.json(context: context))
        if case .success(let input) = describe(options: options.text, context: contextText) { return input }
        return options.english
    }

    func normalize(_ answer: JSONValue, options: Options) throws(AnswerError) -> JSONValue {
        try result(of: channel.call(.normalize, options: options.text, argument: answer.description))
    }

    /// ABI 1.1: `normalize_localized` with the respondent's locale, when the plugin has it.
    func normalize(_ answer: JSONValue, options: Options, in context: PresentationContext) throws(AnswerError)
        -> JSONValue
    {
        guard channel.provides(.normalizeLocalized) else { return try normalize(answer, options: options) }
        let request: JSONValue = ["answer": answer, "context": PluginMessages.json(context: context)]
        return try result(of: channel.call(.normalizeLocalized, options: options.text, argument: request.description))
    }

    func parse(line: String, options: Options, in context: PresentationContext) throws(AnswerError) -> JSONValue {
        guard channel.provides(.parseLine) else {
            return try input(for: options, in: context).parse(line: line)
        }
        let request: JSONValue = ["line": .string(line), "context": PluginMessages.json(context: context)]
        return try result(of: channel.call(.parseLine, options: options.text, argument: request.description))
    }

    func summarize(_ answers: AnswerTally, options: Options, in context: PresentationContext) -> AnswerSummary {
        let fallback = { input(for: options, in: context).summarize(answers) }
        guard channel.provides(.summarize) else { return fallback() }
        // ABI v1 takes the plain list: every answer of this one question (not every response).
        let request: JSONValue = ["answers": .array(answers.answers), "context": PluginMessages.json(context: context)]
        guard
            case .json(let json) = channel.call(.summarize, options: options.text, argument: request.description),
            let summary = PluginMessages.summary(json: json)
        else { return fallback() }
        return summary
    }

    private func result(of reply: PluginReply) throws(AnswerError) -> JSONValue {
        switch reply {
        case .json(let json):
            switch PluginMessages.result(json) {
            case .success(let value): return value
            case .failure(let members):
                // The plugin's own words, shown as it wrote them (not replaced by a built-in template).
                var error = PluginMessages.answerError(members)
                error.isLocalized = !error.message.isEmpty
                throw error
            case .malformed(let problem): throw failure(problem)
            }
        case .failure(_, let message):
            throw failure(message)
        }
    }

    /// The plugin misbehaved: the respondent sees a plain message in their language (the catalogue's
    /// `error.pluginFailure`), the operator the details on the diagnostics channel; answers are kept.
    private func failure(_ message: String) -> AnswerError {
        channel.log("question type '\(typeID)': \(message)")
        return AnswerError(code: "pluginFailure", message: "This answer could not be checked. Please try again.")
    }
}

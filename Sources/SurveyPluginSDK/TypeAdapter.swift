import SurveyCore
import SurveyPluginMessages
import Synchronization

/// One exported question type, answering the ABI's JSON callbacks.
class TypeAdapter: @unchecked Sendable {
    func checkOptions(_ options: String) -> JSONValue { .null }
    func describe(_ options: String, context: String) -> JSONValue { .null }
    func normalize(_ options: String, answer: String) -> JSONValue { .null }
    func normalizeLocalized(_ options: String, request: String) -> JSONValue { .null }
    func parseLine(_ options: String, request: String) -> JSONValue { .null }
    func summarize(_ options: String, request: String) -> JSONValue { .null }
}

/// Why a callback failed, as the JSON the host receives. (Not nested in the generic adapter: the
/// Swift 6.3 optimizer crashes on typed throws of a type nested in a generic class.)
private enum Failure: Error {
    case options(SurveyError)
    case answer(AnswerError)

    var json: JSONValue {
        switch self {
        case .options(let error): return PluginMessages.failure(error)
        case .answer(let error): return PluginMessages.failure(error)
        }
    }
}

private func parse(_ text: String) throws(Failure) -> JSONValue {
    do {
        return try JSONParser.parse(text)
    } catch {
        throw .options(SurveyError(.syntax, "the host passed invalid JSON: \(error)"))
    }
}

final class ConcreteTypeAdapter<T: QuestionType>: TypeAdapter, @unchecked Sendable {
    private struct CachedOptions: Sendable {
        let text: String
        let options: T.Options
    }

    private let type: T
    /// The options decoded last: most calls repeat the same question's options.
    private let cache = Mutex<CachedOptions?>(nil)

    init(_ type: T) {
        self.type = type
    }

    private func options(_ text: String) throws(Failure) -> T.Options {
        if let cached = cache.withLock({ $0 }), cached.text == text { return cached.options }
        let json = try parse(text)
        do {
            var reader = try OptionsReader(json, path: .root)
            let options = try type.makeOptions(from: &reader)
            try reader.finish()
            cache.withLock { $0 = CachedOptions(text: text, options: options) }
            return options
        } catch {
            throw .options(error)
        }
    }

    override func checkOptions(_ options: String) -> JSONValue {
        do throws(Failure) {
            _ = try self.options(options)
            return PluginMessages.success(try parse(options))
        } catch {
            return error.json
        }
    }

    override func describe(_ options: String, context: String) -> JSONValue {
        do throws(Failure) {
            let context = PluginMessages.context(json: try? JSONParser.parse(context))
            return type.input(for: try self.options(options), in: context).jsonValue
        } catch {
            return error.json
        }
    }

    override func normalize(_ options: String, answer: String) -> JSONValue {
        do throws(Failure) {
            let options = try self.options(options)
            let answer = try parse(answer)
            do {
                return PluginMessages.success(try type.normalize(answer, options: options))
            } catch {
                throw Failure.answer(error)
            }
        } catch {
            return error.json
        }
    }

    /// ABI 1.1: the answer checked for the request's locale; messages are localised here (the type's
    /// own when it marks them localised, else the catalogue's template for its code).
    override func normalizeLocalized(_ options: String, request: String) -> JSONValue {
        do throws(Failure) {
            let options = try self.options(options)
            let request = try parse(request)
            let context = PluginMessages.context(json: request["context"])
            do {
                return PluginMessages.success(
                    try type.normalize(request["answer"] ?? .null, options: options, in: context))
            } catch {
                var localized = error
                localized.message = context.strings.message(for: error)
                localized.isLocalized = true
                throw Failure.answer(localized)
            }
        } catch {
            return error.json
        }
    }

    override func parseLine(_ options: String, request: String) -> JSONValue {
        do throws(Failure) {
            let options = try self.options(options)
            let request = try parse(request)
            let context = PluginMessages.context(json: request["context"])
            do {
                return PluginMessages.success(
                    try type.parse(line: request["line"]?.stringValue ?? "", options: options, in: context))
            } catch {
                throw Failure.answer(error)
            }
        } catch {
            return error.json
        }
    }

    override func summarize(_ options: String, request: String) -> JSONValue {
        do throws(Failure) {
            let options = try self.options(options)
            let request = try parse(request)
            let context = PluginMessages.context(json: request["context"])
            let answers = request["answers"]?.arrayValue ?? []
            return PluginMessages.json(summary: type.summarize(answers, options: options, in: context))
        } catch {
            return error.json
        }
    }
}

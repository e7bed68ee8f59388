/// Loads and compiles survey definitions against a question-type registry and a function registry.
///
/// ```swift
/// let loader = SurveyLoader(registry: .builtins())
/// let survey = try loader.load(text: json, source: "onboarding.json")
/// var session = SurveySession(survey: survey)
/// ```
public struct SurveyLoader: Sendable {
    /// The question types surveys may use.
    public var registry: QuestionTypeRegistry
    /// The functions expressions may call.
    public var functions: ExpressionFunctionRegistry

    /// The longest chain of calculated values that depend on one another (`c2` reads `c1`, `c3`
    /// reads `c2`, …) a survey may have; longer is a load error. Sessions evaluate chains of any length
    /// without recursion, but the static analysis works out every value's inputs through its chain
    /// (quadratic in the chain's length), so the bound keeps `survey lint` fast on hostile surveys.
    public static let maximumCalculatedChain = 256

    /// The threads a load may use (large surveys are parsed, configured and compiled in pieces).
    public var parallelism: Parallelism

    /// A loader of surveys with the types of `registry` and the functions of `functions`.
    /// - Parameters:
    ///   - registry: the question types a survey may use.
    ///   - functions: the expression functions a survey may call.
    ///   - parallelism: the threads a load may use: by default ``Parallelism/machine``, the
    ///     machine's active cores; a server loading many surveys at once passes ``Parallelism/serial``.
    public init(
        registry: QuestionTypeRegistry, functions: ExpressionFunctionRegistry = .standard,
        parallelism: Parallelism = .machine
    ) {
        self.registry = registry
        self.functions = functions
        self.parallelism = parallelism
    }

    /// Parses, decodes and compiles JSON text.
    /// - Parameters:
    ///   - text: the survey's JSON.
    ///   - source: a file name for error messages.
    /// - Throws: ``SurveyLoadError`` with every problem found, each with line and column.
    public func load(text: String, source: String? = nil) throws(SurveyLoadError) -> Survey {
        // The text's own UTF-8 storage, not a copy (a copy is the size of the file, at its peak).
        var text = text
        let result = text.withUTF8 { bytes in
            Result { () throws(SurveyLoadError) in try load(buffer: bytes, source: source) }
        }
        return try result.get()
    }

    /// Parses, decodes and compiles UTF-8 JSON.
    public func load(bytes: [UInt8], source: String? = nil) throws(SurveyLoadError) -> Survey {
        let result = bytes.withUnsafeBufferPointer { bytes in
            Result { () throws(SurveyLoadError) in try load(buffer: bytes, source: source) }
        }
        return try result.get()
    }

    func load(buffer bytes: UnsafeBufferPointer<UInt8>, source: String?) throws(SurveyLoadError) -> Survey {
        do throws(SurveyLoadError) {
            var errors: [SurveyError] = []
            let streamed: Result<StreamedSurvey?, JSONSyntaxError>
            do throws(JSONSyntaxError) {
                streamed = .success(try JSONParser.parseSurvey(bytes: bytes, parallelism: parallelism))
            } catch {
                streamed = .failure(error)
            }
            let definition: SurveyDefinition
            switch streamed {
            case .failure(let error):
                throw SurveyLoadError(errors: [
                    SurveyError(.syntax, "invalid JSON: \(error.message)", position: error.position, file: source)
                ])
            case .success(let survey?):
                // Steps were decoded while parsing; the rest of the document goes through the same decoder.
                errors = survey.errors
                var decoded = try SurveyDefinition(json: survey.root, errors: &errors, preDecodedSteps: survey.steps)
                if survey.sourceMap != nil { decoded.sourceMap = survey.sourceMap }
                definition = decoded
            case .success(nil):
                let json: JSONValue
                do {
                    json = try JSONParser.parse(bytes: bytes)
                } catch {
                    throw SurveyLoadError(errors: [
                        SurveyError(.syntax, "invalid JSON: \(error.message)", position: error.position, file: source)
                    ])
                }
                definition = try SurveyDefinition(json: json, errors: &errors)
            }
            // The decoder left out steps with problems; the compiler still checks the rest (types,
            // options, ids, expressions), so one run reports everything it can.
            var compiler = SurveyCompiler(
                definition: definition, registry: registry, functions: functions, parallelism: parallelism)
            do {
                let survey = try compiler.compile()
                if errors.isEmpty { return survey }
            } catch {
                errors += error.errors
            }
            throw SurveyLoadError(errors: errors)
        } catch {
            throw located(error, bytes: bytes, source: source)
        }
    }

    /// Compiles an already decoded definition.
    public func compile(_ definition: SurveyDefinition) throws(SurveyLoadError) -> Survey {
        var compiler = SurveyCompiler(
            definition: definition, registry: registry, functions: functions, parallelism: parallelism)
        return try compiler.compile()
    }

    func located(_ error: SurveyLoadError, bytes: UnsafeBufferPointer<UInt8>, source: String?) -> SurveyLoadError {
        var result = error
        var unplaced: [(index: Int, path: JSONPath)] = []
        for index in result.errors.indices {
            if result.errors[index].file == nil { result.errors[index].file = source }
            if result.errors[index].position == nil, let path = result.errors[index].path {
                unplaced.append((index, path))
            }
        }
        // One pass over the text for all errors: locating each separately is quadratic in a file
        // with thousands of them.
        let positions = SourceLocator.positions(of: unplaced.map(\.path), in: bytes)
        for (error, position) in zip(unplaced, positions) { result.errors[error.index].position = position }
        // Report in document order, as a person reads the file.
        let order = result.errors.enumerated().sorted { lhs, rhs in
            let left = lhs.element.position.map { ($0.line, $0.column) } ?? (Int.max, Int.max)
            let right = rhs.element.position.map { ($0.line, $0.column) } ?? (Int.max, Int.max)
            return left != right ? left < right : lhs.offset < rhs.offset
        }
        result.errors = order.map(\.element)
        return result
    }
}

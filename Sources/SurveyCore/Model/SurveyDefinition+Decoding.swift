// Decoding: JSON → SurveyDefinition, with every problem reported at its JSON path.

extension SurveyDefinition {
    /// Decodes a definition from parsed JSON, collecting every structural problem.
    /// - Throws: ``SurveyLoadError`` listing each problem with its JSON path.
    public init(json: JSONValue) throws(SurveyLoadError) {
        var errors: [SurveyError] = []
        try self.init(json: json, errors: &errors)
        if !errors.isEmpty { throw SurveyLoadError(errors: errors) }
    }

    /// Decodes as much as possible, appending problems to `errors`; steps with problems are left out.
    /// Throws only when nothing sensible can be decoded (not an object, wrong format version).
    /// - Parameter preDecodedSteps: the steps when the streaming decoder already read them (then
    ///   `json` has no `steps` member).
    init(
        json: JSONValue, errors: inout [SurveyError],
        preDecodedSteps: (steps: [StepDefinition], count: Int)? = nil
    ) throws(SurveyLoadError) {
        var reader: OptionsReader
        do {
            reader = try OptionsReader(json, path: .root)
        } catch {
            throw SurveyLoadError(errors: [
                SurveyError(.invalidValue, "a survey must be a JSON object, got \(json.kindDescription)", path: .root)
            ])
        }
        func attempt<T>(_ body: () throws(SurveyError) -> T) -> T? {
            do { return try body() } catch {
                errors.append(error)
                return nil
            }
        }
        guard reader.members["formatVersion"] != nil else {
            throw SurveyLoadError(errors: [
                SurveyError(
                    .unsupportedFormatVersion,
                    "missing 'formatVersion' (this engine reads version \(SurveyDefinition.currentFormatVersion))",
                    path: .root)
            ])
        }
        let version = attempt { () throws(SurveyError) in try reader.optionalInt("formatVersion") } ?? nil
        guard let version, Self.supportedFormatVersions.contains(version) else {
            let got = reader.members["formatVersion"].map { $0.description } ?? "nothing"
            throw SurveyLoadError(errors: [
                SurveyError(
                    .unsupportedFormatVersion,
                    "unsupported formatVersion \(got); this engine reads \(Self.supportedFormatVersions.map(String.init).joined(separator: ", "))",
                    path: JSONPath.root.appending("formatVersion"))
            ])
        }
        formatVersion = version
        id = attempt { () throws(SurveyError) in try reader.string("id") } ?? ""
        self.version =
            attempt { () throws(SurveyError) in
                if let number = reader.members["version"]?.numberValue {
                    _ = reader.value("version")
                    return JSONValue.format(number: number)
                }
                return try reader.optionalString("version")
            } ?? nil
        title =
            attempt { () throws(SurveyError) in
                guard let title = try reader.optionalText("title") else {
                    throw reader.error(nil, "missing required member 'title'", kind: .missingField)
                }
                return title
            } ?? LocalizedText("")
        description = attempt { () throws(SurveyError) in try reader.optionalText("description") } ?? nil
        defaultLocale = attempt { () throws(SurveyError) in try reader.string("defaultLocale", default: "en") } ?? "en"
        locales = attempt { () throws(SurveyError) in try reader.optionalStringArray("locales") } ?? nil
        settings =
            attempt { () throws(SurveyError) in
                var settingsReader = try reader.object("settings")
                let progressCountsContent = try settingsReader.bool("progressCountsContent", default: false)
                var askAgain = AskAgainPolicy.never
                if let text = try settingsReader.optionalString("askAgain") {
                    guard let policy = AskAgainPolicy(text) else {
                        throw settingsReader.error(
                            "askAgain",
                            "'askAgain' must be \"never\", \"always\" or an ISO-8601 duration such as \"P30D\", got '\(text)'"
                        )
                    }
                    askAgain = policy
                }
                var clear = ClearInvisibleValues.onComplete
                if let text = try settingsReader.optionalString("clearInvisibleValues") {
                    guard let mode = ClearInvisibleValues(rawValue: text) else {
                        throw settingsReader.error(
                            "clearInvisibleValues",
                            "'clearInvisibleValues' must be \"onComplete\", \"onHidden\" or \"none\", got '\(text)'")
                    }
                    clear = mode
                }
                var settings = SurveySettings(
                    progressCountsContent: progressCountsContent, askAgain: askAgain, clearInvisibleValues: clear)
                try Targeting.read(&settingsReader, into: &settings)
                try settingsReader.finish()
                return settings
            } ?? SurveySettings()
        calculatedValues =
            attempt { () throws(SurveyError) in
                try reader.optionalArray("calculatedValues") { (value, path) throws(SurveyError) in
                    var item = try OptionsReader(value, path: path)
                    let calculated = CalculatedValue(
                        name: try item.string("name"), expression: try item.string("expression"),
                        includeIntoResult: try item.bool("includeIntoResult", default: false))
                    try item.finish()
                    return calculated
                }
            }.flatMap { $0 } ?? []
        triggers =
            attempt { () throws(SurveyError) in
                try reader.optionalArray("triggers") { (value, path) throws(SurveyError) in
                    var item = try OptionsReader(value, path: path)
                    return try TriggerDefinition(reading: &item)
                }
            }.flatMap { $0 } ?? []
        variables =
            attempt { () throws(SurveyError) in
                try reader.optionalArray("variables") { (value, path) throws(SurveyError) in
                    var item = try OptionsReader(value, path: path)
                    let variable = VariableDefinition(
                        name: try item.string("name"), defaultValue: item.value("default"))
                    try item.finish()
                    return variable
                }
            }.flatMap { $0 } ?? []
        completionMessages =
            attempt { () throws(SurveyError) in
                try reader.optionalArray("completionMessages") { (value, path) throws(SurveyError) in
                    var item = try OptionsReader(value, path: path)
                    let condition = try item.optionalString("if")
                    guard let text = try item.optionalText("text") else {
                        throw item.error(nil, "a completion message needs a 'text'", kind: .missingField)
                    }
                    try item.finish()
                    return CompletionMessage(condition: condition, text: text)
                }
            }.flatMap { $0 } ?? []
        completionRedirects =
            attempt { () throws(SurveyError) in
                try reader.optionalArray("completionRedirects") { (value, path) throws(SurveyError) in
                    var item = try OptionsReader(value, path: path)
                    let condition = try item.optionalString("if")
                    guard let url = try item.optionalString("url"), !url.trimmingWhitespace().isEmpty else {
                        throw item.error(nil, "a completion redirect needs a 'url'", kind: .missingField)
                    }
                    try item.finish()
                    return CompletionRedirect(condition: condition, url: url)
                }
            }.flatMap { $0 } ?? []
        quotas =
            attempt { () throws(SurveyError) in
                try reader.optionalArray("quotas") { (value, path) throws(SurveyError) in
                    var item = try OptionsReader(value, path: path)
                    return try QuotaDefinition(reading: &item)
                }
            }.flatMap { $0 } ?? []
        var steps: [StepDefinition] = []
        if let decoded = preDecodedSteps {
            steps = decoded.steps
            _ = reader.contains("steps")
            if decoded.count == 0 {
                errors.append(
                    SurveyError(
                        .invalidValue, "a survey needs at least one step", path: JSONPath.root.appending("steps")))
            }
        } else if let stepsValue = reader.value("steps") {
            if case .array(let elements) = stepsValue {
                var run = StepRun()
                for (index, element) in elements.enumerated() {
                    let decoded = StepDefinition.decodeWithChildIndices(
                        element, location: StepLocation(unit: index, child: -1), allowsPages: true, errors: &errors)
                    run.add(decoded, unit: index)
                }
                steps = run.steps
                // Steps with problems were left out; remember where the kept ones are in the file so
                // that the compiler's messages still point at the right places.
                if run.dropped { sourceMap = run.map }
                if elements.isEmpty {
                    errors.append(
                        SurveyError(
                            .invalidValue, "a survey needs at least one step", path: JSONPath.root.appending("steps")))
                }
            } else {
                errors.append(
                    SurveyError(
                        .invalidValue, "'steps' must be an array, got \(stepsValue.kindDescription)",
                        path: JSONPath.root.appending("steps")))
            }
        } else {
            errors.append(
                SurveyError(.missingField, "missing required member 'steps' (an array of steps)", path: .root))
        }
        self.steps = steps
        schema = attempt { () throws(SurveyError) in try reader.optionalString("$schema") } ?? nil
        for key in reader.members.keys where key.hasPrefix("x-") {
            extensions[key] = reader.value(key)
        }
        _ = attempt { () throws(SurveyError) in try reader.finish() }
    }
}

extension SurveyDefinition: Codable {
    public init(from decoder: any Decoder) throws {
        try self.init(json: JSONValue(from: decoder))
    }

    public func encode(to encoder: any Encoder) throws {
        try jsonValue.encode(to: encoder)
    }
}

/// A survey as its author wrote it: the JSON format, decoded but not yet compiled.
///
/// Compile it with ``SurveyLoader`` (which checks question types, options and expressions) to get
/// a ``Survey`` that sessions can run. Encoding is deterministic (sorted keys), so a load/save
/// round trip is byte-stable.
///
/// ```json
/// { "formatVersion": 1, "id": "feedback", "title": "Feedback", "defaultLocale": "en",
///   "steps": [ { "id": "rating", "type": "rating", "title": "How was it?", "required": true } ] }
/// ```
public struct SurveyDefinition: Sendable, Hashable {
    /// The format versions this engine reads.
    public static let supportedFormatVersions: ClosedRange<Int> = 1...1
    /// The format version this engine writes.
    public static let currentFormatVersion = 1

    public var formatVersion: Int
    /// Stable survey id, chosen by the author.
    public var id: String
    /// The author's version of this survey ("2024-06-01", "3").
    public var version: String?
    public var title: LocalizedText
    public var description: LocalizedText?
    /// The locale texts fall back to.
    public var defaultLocale: String
    /// The locales the author translated the survey into (informational).
    public var locales: [String]?
    public var settings: SurveySettings
    /// Named expressions that other expressions can use as `{name}`.
    public var calculatedValues: [CalculatedValue]
    /// The steps in order: questions, content steps and pages.
    public var steps: [StepDefinition]
    /// The JSON Schema reference (`$schema`) the file declares for editors, kept on save.
    public var schema: String?

    public init(
        formatVersion: Int = SurveyDefinition.currentFormatVersion, id: String, version: String? = nil,
        title: LocalizedText, description: LocalizedText? = nil, defaultLocale: String = "en", locales: [String]? = nil,
        settings: SurveySettings = SurveySettings(), calculatedValues: [CalculatedValue] = [], steps: [StepDefinition]
    ) {
        self.formatVersion = formatVersion
        self.id = id
        self.version = version
        self.title = title
        self.description = description
        self.defaultLocale = defaultLocale
        self.locales = locales
        self.settings = settings
        self.calculatedValues = calculatedValues
        self.steps = steps
    }
}

/// Survey-wide behaviour.
public struct SurveySettings: Sendable, Hashable {
    /// Whether content steps count in "Question k of n". Default `false`.
    public var progressCountsContent: Bool

    public init(progressCountsContent: Bool = false) {
        self.progressCountsContent = progressCountsContent
    }
}

/// A named expression, usable as `{name}` in other expressions and in piped texts.
public struct CalculatedValue: Sendable, Hashable {
    public var name: String
    public var expression: String

    public init(name: String, expression: String) {
        self.name = name
        self.expression = expression
    }
}

/// One rule of a step's branching: when `condition` holds (or always, when it is `nil`), go to
/// `target`.
public struct BranchRule: Sendable, Hashable {
    /// Where a branch leads.
    public enum Target: Sendable, Hashable {
        /// The step or page with this id.
        case step(String)
        /// Finish the survey.
        case complete
    }

    /// The expression that must hold; `nil` means always.
    public var condition: String?
    public var target: Target

    public init(condition: String?, target: Target) {
        self.condition = condition
        self.target = target
    }
}

/// A step: a question, a content step, or a page that groups questions.
public struct StepDefinition: Sendable, Hashable {
    /// The type id of pages, which group other steps.
    public static let pageTypeID = "page"

    /// Stable id chosen by the author; answers and reports are keyed by it.
    public var id: String
    /// The question type id, or `"page"`.
    public var type: String
    public var title: LocalizedText?
    public var description: LocalizedText?
    public var isRequired: Bool
    /// The per-step on/off switch: a disabled step is left out as if it were not there.
    public var isEnabled: Bool
    public var visibleIf: String?
    public var requiredIf: String?
    /// Rules evaluated in order after the step; the first that holds decides where to go.
    public var branches: [BranchRule]
    /// Type-specific options, read by the question type.
    public var options: JSONValue
    /// Stable tags for reports.
    public var tags: [String]
    /// For pages: the grouped steps.
    public var steps: [StepDefinition]
    /// For pages: present the questions in a seeded shuffled order.
    public var isShuffled: Bool

    public init(
        id: String, type: String, title: LocalizedText? = nil, description: LocalizedText? = nil,
        isRequired: Bool = false, isEnabled: Bool = true, visibleIf: String? = nil, requiredIf: String? = nil,
        branches: [BranchRule] = [], options: JSONValue = .object([:]), tags: [String] = [],
        steps: [StepDefinition] = [], isShuffled: Bool = false
    ) {
        self.id = id
        self.type = type
        self.title = title
        self.description = description
        self.isRequired = isRequired
        self.isEnabled = isEnabled
        self.visibleIf = visibleIf
        self.requiredIf = requiredIf
        self.branches = branches
        self.options = options
        self.tags = tags
        self.steps = steps
        self.isShuffled = isShuffled
    }

    /// Whether this step is a page.
    public var isPage: Bool { type == Self.pageTypeID }
}

// MARK: - Decoding

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
    init(json: JSONValue, errors: inout [SurveyError]) throws(SurveyLoadError) {
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
                let settings = SurveySettings(
                    progressCountsContent: try settingsReader.bool("progressCountsContent", default: false))
                try settingsReader.finish()
                return settings
            } ?? SurveySettings()
        calculatedValues =
            attempt { () throws(SurveyError) in
                try reader.optionalArray("calculatedValues") { (value, path) throws(SurveyError) in
                    var item = try OptionsReader(value, path: path)
                    let calculated = CalculatedValue(
                        name: try item.string("name"), expression: try item.string("expression"))
                    try item.finish()
                    return calculated
                }
            }.flatMap { $0 } ?? []
        var steps: [StepDefinition] = []
        if let stepsValue = reader.value("steps") {
            if case .array(let elements) = stepsValue {
                for (index, element) in elements.enumerated() {
                    if let step = StepDefinition.decode(
                        element, path: JSONPath.root.appending("steps").appending(index), allowPages: true,
                        errors: &errors)
                    {
                        steps.append(step)
                    }
                }
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
        // When every step decoded, the compiler finds duplicate ids on its own (cheaper); otherwise
        // look at the raw JSON so that steps left out still count.
        if !errors.isEmpty { errors += Self.duplicateIDErrors(in: json) }
        schema = attempt { () throws(SurveyError) in try reader.optionalString("$schema") } ?? nil
        _ = attempt { () throws(SurveyError) in try reader.finish() }
    }
}

extension SurveyDefinition {
    /// Ids used twice among steps, pages and calculated values, read from the raw JSON so that
    /// steps with other problems still count.
    static func duplicateIDErrors(in json: JSONValue) -> [SurveyError] {
        // Locations are kept as indices; paths are built only for the (rare) duplicates.
        struct Location {
            var unit: Int
            var child: Int
            var isCalculated: Bool

            var path: JSONPath {
                if isCalculated { return JSONPath.root.appending("calculatedValues").appending(unit) }
                let unitPath = JSONPath.root.appending("steps").appending(unit)
                return child < 0 ? unitPath : unitPath.appending("steps").appending(child)
            }
        }
        var errors: [SurveyError] = []
        var first: [String: Location] = [:]
        let steps = json["steps"]?.arrayValue ?? []
        first.reserveCapacity(steps.count)
        func claim(_ id: String?, _ location: Location) {
            guard let id else { return }
            if let previous = first[id] {
                errors.append(
                    SurveyError(
                        .duplicateID, "duplicate id '\(id)': already used at \(previous.path)",
                        path: location.path.appending(location.isCalculated ? "name" : "id"), stepID: id))
            } else {
                first[id] = location
            }
        }
        for (index, step) in steps.enumerated() {
            claim(step["id"]?.stringValue, Location(unit: index, child: -1, isCalculated: false))
            guard step["type"]?.stringValue == StepDefinition.pageTypeID else { continue }
            for (childIndex, child) in (step["steps"]?.arrayValue ?? []).enumerated() {
                claim(child["id"]?.stringValue, Location(unit: index, child: childIndex, isCalculated: false))
            }
        }
        for (index, value) in (json["calculatedValues"]?.arrayValue ?? []).enumerated() {
            claim(value["name"]?.stringValue, Location(unit: index, child: -1, isCalculated: true))
        }
        return errors
    }
}

extension StepDefinition {
    static let memberNames = [
        "id", "type", "title", "description", "required", "enabled", "visibleIf", "requiredIf", "branches", "options",
        "tags", "steps", "shuffle",
    ]

    /// Decodes one step in a single pass over its members (the hot path of loading huge surveys).
    static func decode(
        _ json: JSONValue, path: @autoclosure () -> JSONPath, allowPages: Bool, errors: inout [SurveyError]
    )
        -> StepDefinition?
    {
        guard case .object(let members) = json else {
            errors.append(
                SurveyError(.invalidValue, "a step must be a JSON object, got \(json.kindDescription)", path: path()))
            return nil
        }
        let errorCount = errors.count
        let stepID = members["id"]?.stringValue
        func fail(_ key: String?, _ message: String, kind: SurveyError.Kind = .invalidValue) {
            errors.append(SurveyError(kind, message, path: key.map { path().appending($0) } ?? path(), stepID: stepID))
        }
        func mismatch(_ key: String, _ expected: String, _ value: JSONValue) {
            fail(key, "'\(key)' must be \(expected), got \(value.kindDescription)")
        }
        var step = StepDefinition(id: "", type: "")
        var hasID = false
        var hasType = false
        var children: JSONValue?
        for (key, value) in members {
            switch key {
            case "id":
                guard case .string(let id) = value else {
                    mismatch(key, "a string", value)
                    continue
                }
                if id.isEmpty { fail(key, "a step id must not be empty") }
                step.id = id
                hasID = true
            case "type":
                guard case .string(let type) = value else {
                    mismatch(key, "a string", value)
                    continue
                }
                step.type = type
                hasType = true
            case "title", "description":
                if value.isNull { continue }
                do {
                    let text = try LocalizedText(json: value, path: path().appending(key))
                    if key == "title" { step.title = text } else { step.description = text }
                } catch {
                    var located = error
                    located.stepID = stepID
                    errors.append(located)
                }
            case "required", "enabled", "shuffle":
                if value.isNull { continue }
                guard case .bool(let flag) = value else {
                    mismatch(key, "true or false", value)
                    continue
                }
                switch key {
                case "required": step.isRequired = flag
                case "enabled": step.isEnabled = flag
                default: step.isShuffled = flag
                }
            case "visibleIf", "requiredIf":
                if value.isNull { continue }
                guard case .string(let expression) = value else {
                    mismatch(key, "a string (an expression)", value)
                    continue
                }
                if key == "visibleIf" { step.visibleIf = expression } else { step.requiredIf = expression }
            case "tags":
                guard case .array(let elements) = value, elements.allSatisfy({ $0.stringValue != nil }) else {
                    if !value.isNull { mismatch(key, "an array of strings", value) }
                    continue
                }
                step.tags = elements.compactMap(\.stringValue)
            case "options":
                if value.isNull { continue }
                guard case .object = value else {
                    mismatch(key, "an object", value)
                    continue
                }
                step.options = value
            case "branches":
                if value.isNull { continue }
                guard case .array(let elements) = value else {
                    mismatch(key, "an array", value)
                    continue
                }
                for (offset, element) in elements.enumerated() {
                    do {
                        step.branches.append(
                            try decodeBranch(element, path: path().appending(key).appending(offset), stepID: stepID))
                    } catch {
                        errors.append(error)
                    }
                }
            case "steps":
                children = value
            default:
                var message = "unknown member '\(key)'"
                if let suggestion = closestMatch(to: key, in: memberNames) {
                    message += " (did you mean '\(suggestion)'?)"
                }
                fail(key, message, kind: .unknownField)
            }
        }
        if !hasID { fail(nil, "missing required member 'id' (a string)", kind: .missingField) }
        if !hasType { fail(nil, "missing required member 'type' (a string)", kind: .missingField) }
        if step.isPage {
            if !allowPages { fail("type", "pages cannot be nested inside pages") }
            if let children {
                if case .array(let elements) = children {
                    for (index, element) in elements.enumerated() {
                        if let child = decode(
                            element, path: path().appending("steps").appending(index), allowPages: false,
                            errors: &errors)
                        {
                            step.steps.append(child)
                        }
                    }
                    if elements.isEmpty { fail("steps", "a page needs at least one step") }
                } else {
                    mismatch("steps", "an array", children)
                }
            } else {
                fail(nil, "a page needs 'steps' (an array of steps)", kind: .missingField)
            }
        } else {
            if children != nil { fail("steps", "only pages (\"type\": \"page\") have 'steps'") }
            if members["shuffle"] != nil {
                fail(
                    "shuffle", "only pages (\"type\": \"page\") have 'shuffle'; choice questions take 'options.shuffle'"
                )
            }
        }
        if errors.count > errorCount + 1 {
            errors[errorCount...].sort { ($0.path?.description ?? "") < ($1.path?.description ?? "") }
        }
        return errors.count == errorCount ? step : nil
    }

    static func decodeBranch(_ value: JSONValue, path: JSONPath, stepID: String?) throws(SurveyError) -> BranchRule {
        var rule = try OptionsReader(value, path: path, stepID: stepID)
        let condition = try rule.optionalString("if")
        let target = try rule.optionalString("goto")
        let complete = try rule.bool("complete", default: false)
        try rule.finish()
        switch (target, complete) {
        case (let target?, false): return BranchRule(condition: condition, target: .step(target))
        case (nil, true): return BranchRule(condition: condition, target: .complete)
        case (_?, true): throw rule.error(nil, "a branch has either 'goto' or 'complete': true, not both")
        case (nil, false):
            throw rule.error(nil, "a branch needs 'goto' (a step id) or 'complete': true", kind: .missingField)
        }
    }
}

// MARK: - Encoding

extension SurveyDefinition {
    /// The definition as JSON, omitting members that have their default value.
    public var jsonValue: JSONValue {
        var members: [String: JSONValue] = [
            "formatVersion": .number(Double(formatVersion)),
            "id": .string(id),
            "title": title.jsonValue,
            "defaultLocale": .string(defaultLocale),
            "steps": .array(steps.map(\.jsonValue)),
        ]
        if let version { members["version"] = .string(version) }
        if let schema { members["$schema"] = .string(schema) }
        if let description { members["description"] = description.jsonValue }
        if let locales { members["locales"] = .array(locales.map { .string($0) }) }
        if settings != SurveySettings() {
            members["settings"] = .object(["progressCountsContent": .bool(settings.progressCountsContent)])
        }
        if !calculatedValues.isEmpty {
            members["calculatedValues"] = .array(
                calculatedValues.map { .object(["name": .string($0.name), "expression": .string($0.expression)]) })
        }
        return .object(members)
    }

    /// Pretty, deterministic JSON text (sorted keys, two-space indent, trailing newline).
    public func jsonText() -> String {
        JSONWriter.string(from: jsonValue, pretty: true) + "\n"
    }
}

extension StepDefinition {
    /// The step as JSON, omitting members that have their default value.
    public var jsonValue: JSONValue {
        var members: [String: JSONValue] = ["id": .string(id), "type": .string(type)]
        if let title { members["title"] = title.jsonValue }
        if let description { members["description"] = description.jsonValue }
        if isRequired { members["required"] = .bool(true) }
        if !isEnabled { members["enabled"] = .bool(false) }
        if let visibleIf { members["visibleIf"] = .string(visibleIf) }
        if let requiredIf { members["requiredIf"] = .string(requiredIf) }
        if !branches.isEmpty {
            members["branches"] = .array(
                branches.map { rule in
                    var rule_: [String: JSONValue] = [:]
                    if let condition = rule.condition { rule_["if"] = .string(condition) }
                    switch rule.target {
                    case .step(let id): rule_["goto"] = .string(id)
                    case .complete: rule_["complete"] = .bool(true)
                    }
                    return .object(rule_)
                })
        }
        if let options = options.objectValue, !options.isEmpty { members["options"] = .object(options) }
        if !tags.isEmpty { members["tags"] = .array(tags.map { .string($0) }) }
        if isPage {
            members["steps"] = .array(steps.map(\.jsonValue))
            if isShuffled { members["shuffle"] = .bool(true) }
        }
        return .object(members)
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

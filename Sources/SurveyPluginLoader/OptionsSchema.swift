import SurveyCore

/// A plugin question type's `options_schema`, enforced on every question's `options` before the
/// plugin's `check_options` sees them, so that a plugin can declare its options instead of checking
/// them by hand, and authors get the same errors (with the JSON path) as for built-in types.
///
/// The subset of JSON Schema (2020-12) enforced: `type` (a name or a list of names: `object`,
/// `array`, `string`, `number`, `integer`, `boolean`, `null`), `enum`, `const`, `properties`,
/// `required`, `additionalProperties` (`false` or a schema), `items` (a schema), `minItems`,
/// `maxItems`, `uniqueItems`, `minLength`, `maxLength`, `pattern` (a regular expression that must
/// match somewhere in the string, as in JSON Schema), `minimum`, `maximum`, `exclusiveMinimum`,
/// `exclusiveMaximum`, `multipleOf`, `minProperties`, `maxProperties`. Annotations (`title`,
/// `description`, `default`, `examples`, `$schema`, `$id`, `$comment`) are ignored. Any other
/// keyword is refused when the plugin is loaded, so that a schema never silently means less than
/// it says.
struct OptionsSchema: Sendable {
    /// A problem with a value, at a path relative to the options object.
    struct Problem: Error, Sendable {
        var path: [JSONPath.Component]
        var message: String
    }

    /// Why a schema cannot be used.
    struct SchemaError: Error, Sendable {
        var message: String
    }

    let schema: JSONValue

    static let enforced: Set<String> = [
        "type", "enum", "const", "properties", "required", "additionalProperties", "items", "minItems", "maxItems",
        "uniqueItems", "minLength", "maxLength", "pattern", "minimum", "maximum", "exclusiveMinimum",
        "exclusiveMaximum", "multipleOf", "minProperties", "maxProperties",
    ]
    static let annotations: Set<String> = [
        "title", "description", "default", "examples", "$schema", "$id", "$comment", "deprecated", "readOnly",
    ]

    /// Checks that `schema` uses only the supported keywords, at every level.
    init(_ schema: JSONValue) throws(SchemaError) {
        try Self.check(schema, at: "options_schema", depth: 0)
        self.schema = schema
    }

    static func check(_ schema: JSONValue, at place: String, depth: Int) throws(SchemaError) {
        guard depth < 64 else { throw SchemaError(message: "\(place) nests deeper than 64 levels") }
        if case .bool = schema { return }
        guard case .object(let members) = schema else {
            throw SchemaError(message: "\(place) must be an object or a Boolean, got \(schema.kindDescription)")
        }
        for key in members.keys.sorted() where !enforced.contains(key) && !annotations.contains(key) {
            throw SchemaError(
                message: "\(place) uses '\(key)', which this engine does not enforce (see docs/plugin-abi.md)")
        }
        if let properties = members["properties"] {
            guard case .object(let each) = properties else {
                throw SchemaError(message: "\(place).properties must be an object")
            }
            for (name, child) in each { try check(child, at: "\(place).properties.\(name)", depth: depth + 1) }
        }
        if let items = members["items"] { try check(items, at: "\(place).items", depth: depth + 1) }
        if let additional = members["additionalProperties"] {
            try check(additional, at: "\(place).additionalProperties", depth: depth + 1)
        }
        if let pattern = members["pattern"] {
            guard let text = pattern.stringValue else {
                throw SchemaError(message: "\(place).pattern must be a string")
            }
            do {
                _ = try Regex(text)
            } catch {
                throw SchemaError(message: "\(place).pattern '\(text)' is not a regular expression this engine reads")
            }
        }
        if let type = members["type"] {
            let names = type.arrayValue?.compactMap(\.stringValue) ?? type.stringValue.map { [$0] } ?? []
            let known: Set<String> = ["object", "array", "string", "number", "integer", "boolean", "null"]
            guard !names.isEmpty, names.allSatisfy(known.contains) else {
                throw SchemaError(message: "\(place).type must name JSON types, got \(JSONWriter.string(from: type))")
            }
        }
    }

    /// The first way `value` breaks the schema, or `nil`.
    func firstProblem(in value: JSONValue) -> Problem? {
        Self.problem(value, schema, path: [])
    }

    static func problem(_ value: JSONValue, _ schema: JSONValue, path: [JSONPath.Component]) -> Problem? {
        if case .bool(let allowed) = schema {
            return allowed ? nil : Problem(path: path, message: "\(describe(path)) is not allowed")
        }
        guard case .object(let rules) = schema else { return nil }
        func fail(_ message: String) -> Problem { Problem(path: path, message: "\(describe(path)) \(message)") }
        if let type = rules["type"] {
            let names = type.arrayValue?.compactMap(\.stringValue) ?? type.stringValue.map { [$0] } ?? []
            guard names.contains(where: { matches(value, type: $0) }) else {
                return fail("must be \(names.joined(separator: " or ")), got \(value.kindDescription)")
            }
        }
        if let allowed = rules["enum"]?.arrayValue, !allowed.contains(value) {
            return fail("must be one of \(allowed.map { JSONWriter.string(from: $0) }.joined(separator: ", "))")
        }
        if let constant = rules["const"], constant != value {
            return fail("must be \(JSONWriter.string(from: constant))")
        }
        switch value {
        case .object(let members):
            if let minimum = rules["minProperties"]?.intValue, members.count < minimum {
                return fail("must have at least \(minimum) members")
            }
            if let maximum = rules["maxProperties"]?.intValue, members.count > maximum {
                return fail("must have at most \(maximum) members")
            }
            let properties = rules["properties"]?.objectValue ?? [:]
            for key in members.keys.sorted() {
                let child = path + [.key(key)]
                if let rule = properties[key] {
                    if let problem = problem(members[key] ?? .null, rule, path: child) { return problem }
                } else if let additional = rules["additionalProperties"] {
                    if additional == .bool(false) {
                        let known = properties.keys.sorted()
                        let hint = closestMatch(to: key, in: known).map { " (did you mean '\($0)'?)" } ?? ""
                        return Problem(
                            path: child,
                            message: "unknown option '\(key)'\(hint); the options are \(known.joined(separator: ", "))")
                    }
                    if let problem = problem(members[key] ?? .null, additional, path: child) { return problem }
                }
            }
            // After the members, so that a misspelt member is named as such, not as a missing one.
            for name in rules["required"]?.arrayValue?.compactMap(\.stringValue) ?? [] where members[name] == nil {
                return fail("needs the member '\(name)'")
            }
        case .array(let elements):
            if let minimum = rules["minItems"]?.intValue, elements.count < minimum {
                return fail("must have at least \(minimum) elements")
            }
            if let maximum = rules["maxItems"]?.intValue, elements.count > maximum {
                return fail("must have at most \(maximum) elements")
            }
            if rules["uniqueItems"] == .bool(true), Set(elements).count != elements.count {
                return fail("must not repeat an element")
            }
            if let items = rules["items"] {
                for (index, element) in elements.enumerated() {
                    if let problem = problem(element, items, path: path + [.index(index)]) { return problem }
                }
            }
        case .string(let text):
            if let minimum = rules["minLength"]?.intValue, text.count < minimum {
                return fail("must have at least \(minimum) characters")
            }
            if let maximum = rules["maxLength"]?.intValue, text.count > maximum {
                return fail("must have at most \(maximum) characters")
            }
            if let pattern = rules["pattern"]?.stringValue, let regex = try? Regex(pattern), !text.contains(regex) {
                return fail("must match the pattern \(pattern), got '\(text)'")
            }
        case .number(let number):
            if let minimum = rules["minimum"]?.numberValue, number < minimum {
                return fail("must be at least \(minimum)")
            }
            if let maximum = rules["maximum"]?.numberValue, number > maximum {
                return fail("must be at most \(maximum)")
            }
            if let bound = rules["exclusiveMinimum"]?.numberValue, number <= bound {
                return fail("must be more than \(bound)")
            }
            if let bound = rules["exclusiveMaximum"]?.numberValue, number >= bound {
                return fail("must be less than \(bound)")
            }
            if let step = rules["multipleOf"]?.numberValue, step > 0 {
                let ratio = number / step
                if abs(ratio - ratio.rounded()) > 1e-9 { return fail("must be a multiple of \(step)") }
            }
        default:
            break
        }
        return nil
    }

    static func matches(_ value: JSONValue, type: String) -> Bool {
        switch (type, value) {
        case ("object", .object), ("array", .array), ("string", .string), ("boolean", .bool), ("null", .null),
            ("number", .number):
            return true
        case ("integer", .number(let number)): return number.rounded() == number && number.isFinite
        default: return false
        }
    }

    static func describe(_ path: [JSONPath.Component]) -> String {
        guard let last = path.last else { return "the options" }
        switch last {
        case .key(let key): return "option '\(key)'"
        case .index(let index):
            return describe(Array(path.dropLast())) + " element \(index)"
        }
    }
}

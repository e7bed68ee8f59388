import SurveyCore

/// The JSON messages exchanged across the plugin ABI (docs/plugin-abi.md), encoded and decoded
/// identically by the loader and the Swift SDK.
package enum PluginMessages {
    /// `{"locale": "fr", "defaultLocale": "en"}`.
    package static func json(context: PresentationContext) -> JSONValue {
        ["locale": .string(context.locale), "defaultLocale": .string(context.defaultLocale)]
    }

    /// Reads a context; missing members default to English.
    package static func context(json: JSONValue?) -> PresentationContext {
        let locale = json?["locale"]?.stringValue ?? "en"
        return PresentationContext(locale: locale, defaultLocale: json?["defaultLocale"]?.stringValue ?? locale)
    }

    /// `{"ok": value}`.
    package static func success(_ value: JSONValue) -> JSONValue {
        ["ok": value]
    }

    /// `{"error": {"code", "message", "arguments", "field"}}`.
    package static func failure(_ error: AnswerError) -> JSONValue {
        var members: [String: JSONValue] = [
            "code": .string(error.code), "message": .string(error.message),
            "arguments": .object(error.arguments.mapValues { .string($0) }),
        ]
        if let field = error.field { members["field"] = .string(field) }
        return ["error": .object(members)]
    }

    /// `{"error": {"message", "path": ["member", 0]}}` for an options error; the path is relative
    /// to the options object.
    package static func failure(_ error: SurveyError) -> JSONValue {
        var members: [String: JSONValue] = ["code": .string(error.kind.rawValue), "message": .string(error.message)]
        if let path = error.path {
            members["path"] = .array(
                path.components.map { component in
                    switch component {
                    case .key(let key): return .string(key)
                    case .index(let index): return .number(Double(index))
                    }
                })
        }
        return ["error": .object(members)]
    }

    /// A decoded result: the value, or the error object's members.
    package enum Result {
        case success(JSONValue)
        case failure([String: JSONValue])
        /// Neither `{"ok": …}` nor `{"error": {…}}`.
        case malformed(String)
    }

    /// Decodes `{"ok": value}` or `{"error": {...}}`.
    package static func result(_ json: JSONValue) -> Result {
        guard case .object(let members) = json else {
            return .malformed("expected an object with 'ok' or 'error', got \(json.kindDescription)")
        }
        if members["ok"] != nil, members["error"] != nil {
            return .malformed("the result has both 'ok' and 'error'; it must have exactly one")
        }
        if let value = members["ok"] { return .success(value) }
        if case .object(let error)? = members["error"] {
            guard error["message"]?.stringValue != nil else {
                return .malformed("the 'error' object has no 'message' string")
            }
            return .failure(error)
        }
        return .malformed("expected an object with 'ok' or 'error'")
    }

    /// An ``AnswerError`` from an error object's members.
    package static func answerError(_ members: [String: JSONValue]) -> AnswerError {
        var arguments: [String: String] = [:]
        for (key, value) in members["arguments"]?.objectValue ?? [:] { arguments[key] = value.displayText }
        return AnswerError(
            code: members["code"]?.stringValue ?? "invalidAnswer",
            message: members["message"]?.stringValue ?? "The answer was not accepted.", arguments: arguments,
            field: members["field"]?.stringValue)
    }

    /// The relative path of an options error object, appended to `base`.
    package static func path(_ members: [String: JSONValue], under base: JSONPath) -> JSONPath {
        var path = base
        for component in members["path"]?.arrayValue ?? [] {
            if let key = component.stringValue {
                path = path.appending(key)
            } else if let index = component.intValue {
                path = path.appending(index)
            }
        }
        return path
    }

    /// `{"answered", "buckets": [{"value", "label", "count", "percentage"}], "mean", "median", "minimum", "maximum"}`.
    package static func json(summary: AnswerSummary) -> JSONValue {
        var members: [String: JSONValue] = [
            "answered": .number(Double(summary.answered)),
            "buckets": .array(
                summary.buckets.map { bucket in
                    var members: [String: JSONValue] = [
                        "value": .string(bucket.value), "label": .string(bucket.label),
                        "count": .number(Double(bucket.count)), "percentage": .number(bucket.percentage),
                    ]
                    if let group = bucket.group { members["group"] = .string(group) }
                    if let label = bucket.groupLabel { members["groupLabel"] = .string(label) }
                    if let mean = bucket.mean, mean.isFinite { members["mean"] = .number(mean) }
                    return .object(members)
                }),
        ]
        for (key, value) in [
            ("mean", summary.mean), ("median", summary.median), ("minimum", summary.minimum),
            ("maximum", summary.maximum),
        ] {
            if let value, value.isFinite { members[key] = .number(value) }
        }
        return .object(members)
    }

    /// Reads a summary; `nil` when `answered` is missing or a bucket is malformed.
    package static func summary(json: JSONValue) -> AnswerSummary? {
        guard let answered = json["answered"]?.intValue else { return nil }
        var buckets: [AnswerSummary.Bucket] = []
        for bucket in json["buckets"]?.arrayValue ?? [] {
            guard let value = bucket["value"]?.stringValue, let count = bucket["count"]?.intValue else { return nil }
            buckets.append(
                AnswerSummary.Bucket(
                    value: value, label: bucket["label"]?.stringValue ?? value, count: count,
                    percentage: bucket["percentage"]?.numberValue ?? 0, group: bucket["group"]?.stringValue,
                    groupLabel: bucket["groupLabel"]?.stringValue, mean: bucket["mean"]?.numberValue))
        }
        return AnswerSummary(
            answered: answered, buckets: buckets, mean: json["mean"]?.numberValue, median: json["median"]?.numberValue,
            minimum: json["minimum"]?.numberValue, maximum: json["maximum"]?.numberValue)
    }
}

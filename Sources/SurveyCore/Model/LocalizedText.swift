/// User-facing text in one or more locales.
///
/// In JSON it is either a plain string or an object mapping locale identifiers to strings:
///
/// ```json
/// "title": "How did you hear about us?"
/// "title": { "en": "How did you hear about us?", "fr": "Comment nous avez-vous connus ?" }
/// ```
public struct LocalizedText: Sendable, Hashable, ExpressibleByStringLiteral {
    /// Plain text is stored without a dictionary: most texts in large surveys have one locale.
    private enum Storage: Sendable, Hashable {
        case plain(String)
        case translated([String: String])
    }

    private var storage: Storage

    /// The key that holds text written without a locale.
    public static let neutralKey = "default"

    /// Text without a locale.
    public init(_ text: String) {
        storage = .plain(text)
    }

    public init(stringLiteral value: String) {
        self.init(value)
    }

    /// Text in several locales.
    public init(translations: [String: String]) {
        if translations.count == 1, let neutral = translations[Self.neutralKey] {
            storage = .plain(neutral)
        } else {
            storage = .translated(translations)
        }
    }

    /// The translations by locale identifier; plain text appears under ``LocalizedText/neutralKey``.
    public var translations: [String: String] {
        switch storage {
        case .plain(let text): return [Self.neutralKey: text]
        case .translated(let translations): return translations
        }
    }

    /// The text when it has no translations.
    public var plainText: String? {
        if case .plain(let text) = storage { return text }
        return nil
    }

    /// The text for `locale`, falling back to its language ("pt" for "pt-BR"), then
    /// `defaultLocale`, then text without a locale, then the first locale alphabetically.
    public func resolved(locale: String, defaultLocale: String) -> String {
        let translations: [String: String]
        switch storage {
        case .plain(let text): return text
        case .translated(let values): translations = values
        }
        if translations.count == 1, let only = translations.first { return only.value }
        if let exact = translations[locale] { return exact }
        let normalized = locale.replacingUnderscores()
        if let exact = translations[normalized] { return exact }
        if let dash = normalized.firstIndex(of: "-"), let language = translations[String(normalized[..<dash])] {
            return language
        }
        if let fallback = translations[defaultLocale] { return fallback }
        if let neutral = translations[Self.neutralKey] { return neutral }
        return translations.keys.sorted().first.flatMap { translations[$0] } ?? ""
    }

    /// The value as it appears in JSON: a string when there is only neutral text.
    public var jsonValue: JSONValue {
        switch storage {
        case .plain(let text): return .string(text)
        case .translated(let translations): return .object(translations.mapValues { .string($0) })
        }
    }

    /// Reads text from its JSON form.
    public init(json: JSONValue, path: @autoclosure () -> JSONPath) throws(SurveyError) {
        switch json {
        case .string(let text):
            self.init(text)
        case .object(let members):
            var translations: [String: String] = [:]
            for (locale, value) in members {
                guard case .string(let text) = value else {
                    throw SurveyError(
                        .invalidValue, "expected a string for locale '\(locale)', got \(value.kindDescription)",
                        path: path().appending(locale))
                }
                translations[locale] = text
            }
            if translations.isEmpty {
                throw SurveyError(.invalidValue, "expected at least one translation", path: path())
            }
            self.init(translations: translations)
        default:
            throw SurveyError(
                .invalidValue, "expected a string or an object of translations by locale, got \(json.kindDescription)",
                path: path())
        }
    }
}

extension String {
    fileprivate func replacingUnderscores() -> String {
        String(map { $0 == "_" ? "-" : $0 })
    }
}

import SurveyCore
import Testing

/// The `{name}` placeholders of a template, as a set of names.
private func placeholders(in template: String) -> Set<String> {
    var names: Set<String> = []
    var rest = template[...]
    while let open = rest.firstIndex(of: "{") {
        let afterOpen = rest.index(after: open)
        guard let close = rest[afterOpen...].firstIndex(of: "}") else { break }
        let name = rest[afterOpen..<close]
        if !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) {
            names.insert(String(name))
            rest = rest[rest.index(after: close)...]
        } else {
            rest = rest[afterOpen...]
        }
    }
    return names
}

private let english = UIStrings.catalogue(for: "en") ?? [:]

@Suite struct LocalizationTests {
    @Test func englishCatalogueCoversEveryKey() {
        #expect(!english.isEmpty)
        for key in UIStringKey.allCases {
            #expect(english[key.rawValue] != nil, "English lacks \(key.rawValue)")
        }
    }

    @Test(arguments: UIStrings.supportedLocales)
    func catalogueIsComplete(locale: String) throws {
        let catalogue = try #require(UIStrings.catalogue(for: locale), "no catalogue for \(locale)")
        for key in UIStringKey.allCases {
            #expect(catalogue[key.rawValue] != nil, "\(locale) lacks \(key.rawValue)")
        }
        for key in english.keys {
            #expect(catalogue[key] != nil, "\(locale) lacks \(key)")
        }
        for key in catalogue.keys {
            #expect(english[key] != nil, "\(locale) has \(key), which English lacks")
        }
    }

    @Test(arguments: UIStrings.supportedLocales)
    func translationsKeepPlaceholders(locale: String) throws {
        let catalogue = try #require(UIStrings.catalogue(for: locale))
        for (key, source) in english {
            guard let translation = catalogue[key] else { continue }
            let isBlank = translation.allSatisfy { $0.isWhitespace }
            #expect(!isBlank, "\(locale) \(key) is empty")
            #expect(
                placeholders(in: translation) == placeholders(in: source),
                "\(locale) \(key): \(translation)")
        }
    }

    /// Placeholders are filled in one pass: a value is never searched again (a respondent's text
    /// that reads `{total}` stays as typed), unknown names and stray braces stay as written.
    @Test func placeholdersAreFilledOnce() {
        let english = UIStrings(locale: "en")
        #expect(english.format(.progress, ["current": "{total}", "total": "7"]) == "Question {total} of 7")
        #expect(english.format(.progress, ["current": "3"]) == "Question 3 of {total}")
        #expect(english.format(.progress, [:]) == "Question {current} of {total}")
        let error = AnswerError(
            code: "notAChoice", message: "'{x' is not one of the choices.", arguments: ["value": "{x"])
        #expect(english.message(for: error).contains("{x"))
        #expect(UIStrings(locale: "ja").format(.progress, ["current": "3", "total": "7"]).contains("3"))
    }

    @Test func placeholderScanner() {
        #expect(placeholders(in: "Question {current} of {total}") == ["current", "total"])
        #expect(placeholders(in: "No placeholders") == [])
        #expect(placeholders(in: "{{a}} {b c} {}") == ["a"])
    }

    @Test(arguments: [
        ("fr", "fr"), ("fr-CA", "fr"), ("pt_BR.UTF-8", "pt-BR"), ("pt", "pt-BR"), ("zh-TW", "zh-Hant"),
        ("zh-Hant-HK", "zh-Hant"), ("zh-CN", "zh-Hans"), ("xx", "en"), ("C", "en"), ("POSIX", "en"),
    ])
    func localeResolution(identifier: String, expected: String) {
        #expect(UIStrings(locale: identifier).locale == expected)
    }

    @Test(arguments: UIStrings.supportedLocales)
    func progressIsFilled(locale: String) {
        let text = UIStrings(locale: locale).format(.progress, ["current": "3", "total": "7"])
        #expect(text.contains("3"))
        #expect(text.contains("7"))
        #expect(!text.contains("{"))
    }

    @Test func englishProgress() {
        #expect(UIStrings(locale: "en").format(.progress, ["current": "3", "total": "7"]) == "Question 3 of 7")
    }

    @Test func errorMessageIsLocalised() {
        let error = AnswerError(code: "tooShort", message: "x", arguments: ["min": "3"])
        let german = UIStrings(locale: "de").message(for: error)
        let englishText = UIStrings(locale: "en").message(for: error)
        #expect(german.contains("3"))
        #expect(german != englishText)
        #expect(german != error.message)
    }
}

import Foundation

/// The engine's built-in user-interface strings (Back, Next, Other, "Question 3 of 7", validation
/// messages) in one locale.
///
/// Shipped locales: ``UIStrings/supportedLocales``. Lookup falls back from "pt-BR" to "pt", then to
/// English. Templates use `{name}` placeholders.
///
/// ```swift
/// let strings = UIStrings(locale: "fr")
/// strings.format(.progress, ["current": "3", "total": "7"])  // "Question 3 sur 7"
/// ```
public struct UIStrings: Sendable, Hashable {
    /// The locale the strings were resolved for (one of ``supportedLocales``).
    public let locale: String
    private let table: [String: String]

    /// The locales with a full catalogue.
    public static let supportedLocales = ["en", "es", "fr", "de", "it", "pt-BR", "ja", "ko", "zh-Hans", "zh-Hant"]

    /// Strings for `locale` (e.g. "fr", "fr-CA", "pt_BR", "zh-Hant-TW"), falling back to English.
    public init(locale: String) {
        let resolved = UIStrings.resolve(locale)
        self.locale = resolved
        self.table = UIStrings.catalogues[resolved] ?? UIStrings.english
    }

    /// The supported locale that best matches `identifier`.
    public static func resolve(_ identifier: String) -> String {
        // A supported locale as it is (what sessions nearly always get): one lookup, no Foundation.
        if catalogues[identifier] != nil { return identifier }
        let normalized =
            identifier.split(separator: ".").first.map(String.init)?.replacingOccurrences(of: "_", with: "-")
            ?? "en"
        if catalogues[normalized] != nil { return normalized }
        let lowered = normalized.lowercased()
        if lowered.hasPrefix("zh") {
            if lowered.contains("hant") || lowered.hasSuffix("-tw") || lowered.hasSuffix("-hk")
                || lowered.hasSuffix("-mo")
            {
                return "zh-Hant"
            }
            return "zh-Hans"
        }
        if lowered.hasPrefix("pt") { return "pt-BR" }
        let language = String(lowered.prefix { $0 != "-" })
        return catalogues[language] != nil ? language : "en"
    }

    /// The string for `key`, or the English one, or the key itself.
    public subscript(key: UIStringKey) -> String {
        table[key.rawValue] ?? UIStrings.english[key.rawValue] ?? key.rawValue
    }

    /// The template for `key` with `{name}` placeholders replaced.
    public func format(_ key: UIStringKey, _ arguments: [String: String]) -> String {
        UIStrings.fill(self[key], arguments)
    }

    /// The localised message for a validation error, from its code; the error's own English
    /// message when the catalogue has no template for the code.
    public func message(for error: AnswerError) -> String {
        guard !error.isLocalized,
            let template = table["error." + error.code] ?? UIStrings.english["error." + error.code]
        else {
            return error.message
        }
        let filled = UIStrings.fill(template, error.arguments)
        // A template whose placeholders the error cannot fill (a custom type reusing a built-in code
        // without its arguments) would show "{min}": the type's own message is better.
        return UIStrings.hasPlaceholder(filled) ? error.message : filled
    }

    /// Whether `text` still contains a `{name}` placeholder.
    static func hasPlaceholder(_ text: String) -> Bool {
        var inside = false
        var length = 0
        for scalar in text.unicodeScalars {
            if scalar == "{" {
                inside = true
                length = 0
            } else if inside {
                if scalar == "}" {
                    if length > 0 { return true }; inside = false
                } else if scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_" {
                    length += 1
                } else {
                    inside = false
                }
            }
        }
        return false
    }

    /// The raw template for a string key, if the catalogue has one (used by tests and tools).
    public func template(forKey key: String) -> String? {
        table[key]
    }

    /// `template` with each `{name}` whose name is in `arguments` replaced by its value, in one pass:
    /// a value is never searched again, so a respondent's text that reads `{max}` stays as typed, and
    /// the result does not depend on the order of the arguments. Other braces stay as written.
    static func fill(_ template: String, _ arguments: [String: String]) -> String {
        let utf8 = template.utf8
        guard !arguments.isEmpty, utf8.contains(UInt8(ascii: "{")) else { return template }
        var result = ""
        result.reserveCapacity(utf8.count + 16)
        var index = utf8.startIndex
        var literalStart = index
        while index < utf8.endIndex {
            // Braces are ASCII, so these indices fall on character boundaries.
            if utf8[index] == UInt8(ascii: "{"),
                let close = utf8[utf8.index(after: index)...].firstIndex(of: UInt8(ascii: "}")),
                let value = arguments[String(template[utf8.index(after: index)..<close])]
            {
                result += template[literalStart..<index]
                result += value
                index = utf8.index(after: close)
                literalStart = index
            } else {
                index = utf8.index(after: index)
            }
        }
        result += template[literalStart...]
        return result
    }

    /// The raw catalogue of `locale`, for completeness checks.
    public static func catalogue(for locale: String) -> [String: String]? {
        catalogues[locale]
    }

    static let catalogues: [String: [String: String]] = [
        "en": english,
        "es": spanish,
        "fr": french,
        "de": german,
        "it": italian,
        "pt-BR": brazilianPortuguese,
        "ja": japanese,
        "ko": korean,
        "zh-Hans": simplifiedChinese,
        "zh-Hant": traditionalChinese,
    ]
}

/// The keys of the built-in UI strings.
public enum UIStringKey: String, Sendable, CaseIterable {
    case back, next, `continue`, submit, cancel, other, selectAllThatApply, required, optional
    /// "None of the above": the exclusive choice a multiple choice's `none` option adds
    case noneOfTheAbove
    /// "Select all": the item a multiple choice's `selectAll` option adds
    case selectAll
    /// "Comment": the label of a question's comment box (`showCommentArea`) without `commentText`
    case comment
    /// "Type /text to search the list": the terminal's hint on drop-downs and tag boxes
    case searchHint
    /// "Add an entry?": the terminal's question before another instance of a repeat
    case addEntry
    /// "-N removes entry N": the terminal's hint beside ``addEntry`` once there are entries
    case removeEntryHint
    case yes, no, `true`, `false`, happy, sad, thumbsUp, thumbsDown
    /// "Question {current} of {total}"
    case progress
    /// "Please specify"
    case otherPrompt
    case quit, completed, dismissed, chooseOne, typeAnswer, pressEnterToSkip, savedProgress
    /// "There is nothing in this survey to show you.": a session that ended ``SessionStatus/empty``
    case surveyEmpty
    /// "Thank you for your time. The survey has ended.": a survey a full quota ended (screened out)
    case surveyEnded
    /// "There is no survey for you at the moment.": a respondent the targeting rules did not ask
    case notAsked
    /// "Don't ask again": dismissing the survey (the `d` key in a terminal)
    case dontAskAgain
    /// "That input is not valid text; please type it again." (bytes that are not UTF-8)
    case invalidText
    /// "That input is longer than {max} MiB; it was ignored." (a line past the input limit)
    case lineTooLong
    /// "Type the numbers in order, e.g. {example}" (a ranking in a terminal)
    case rankingHint
    /// "Type numbers separated by commas, e.g. {example}" (a multiple choice in a terminal)
    case multipleChoiceHint
    /// "Finish with an empty line" (multi-line text in a terminal)
    case multilineHint
    /// "You are at the first question." (Back on the first unit)
    case atFirstQuestion
    /// "Enter": the name of the key, as in "[Enter] Continue"
    case enterKey
    /// Error messages of the engine and the built-in types, keyed `error.<code>`.
    case errorRequired = "error.required"
    case errorWrongShape = "error.wrongShape"
    case errorNotAChoice = "error.notAChoice"
    case errorOtherTextRequired = "error.otherTextRequired"
    case errorTooFewSelections = "error.tooFewSelections"
    case errorTooManySelections = "error.tooManySelections"
    case errorDuplicateSelection = "error.duplicateSelection"
    case errorTooShort = "error.tooShort"
    case errorTooLong = "error.tooLong"
    case errorPatternMismatch = "error.patternMismatch"
    case errorNotANumber = "error.notANumber"
    case errorNotAnInteger = "error.notAnInteger"
    case errorBelowMinimum = "error.belowMinimum"
    case errorAboveMaximum = "error.aboveMaximum"
    /// A `numeric` validator with both bounds: "Enter a value from {min} to {max}."
    case errorOutOfRange = "error.outOfRange"
    /// A `text` validator with both bounds: "Enter from {min} to {max} characters."
    case errorLengthOutOfRange = "error.lengthOutOfRange"
    /// A `text` validator with `allowDigits: false`.
    case errorDigitsNotAllowed = "error.digitsNotAllowed"
    /// An `expression` validator that does not hold: "This answer must meet the condition {expression}."
    case errorExpressionFailed = "error.expressionFailed"
    /// An exclusive choice ("None of the above") picked with others: "'{label}' cannot be combined…"
    case errorExclusiveChoice = "error.exclusiveChoice"
    case errorNotOnStep = "error.notOnStep"
    case errorNotABoolean = "error.notABoolean"
    case errorInvalidDate = "error.invalidDate"
    case errorDateTooEarly = "error.dateTooEarly"
    case errorDateTooLate = "error.dateTooLate"
    case errorInvalidEmail = "error.invalidEmail"
    case errorInvalidPhone = "error.invalidPhone"
    case errorIncompleteRanking = "error.incompleteRanking"
    case errorMissingRow = "error.missingRow"
    case errorMissingField = "error.missingField"
    case errorUnsupportedFormat = "error.unsupportedFormat"
    case errorTooLongRecording = "error.tooLongRecording"
    /// A `file` question's file above `maxSizeBytes`: "The file may be at most {max}." (`max` like "5 MB").
    case errorFileTooLarge = "error.fileTooLarge"
    /// A `file` question with more files than `maxFiles`: "Attach at most {max} files."
    case errorTooManyFiles = "error.tooManyFiles"
    /// A text that does not fit its `inputType` or mask: "Enter a value like {example}."
    case errorInvalidFormat = "error.invalidFormat"
    /// A repeat with fewer instances than it needs: "Add at least {min} entries."
    case errorTooFewEntries = "error.tooFewEntries"
    /// A repeat with more instances than it may have: "Add at most {max} entries."
    case errorTooManyEntries = "error.tooManyEntries"
    case errorNotAnswerable = "error.notAnswerable"
    case errorPluginFailure = "error.pluginFailure"
    case errorReadOnly = "error.readOnly"
    case errorPanelRequired = "error.panelRequired"
}

import SurveyCore

/// What a text question's `inputType` checks (SurveyJS's `inputType` variants that stay text).
enum TextInputType: String, CaseIterable, Sendable {
    case text, email, tel, url, color, password, time, month, week
    case dateTime = "datetime-local"

    /// Kinds of their own: `inputType` `number` is `"type": "number"`, and so on.
    static let ownKinds = ["number": "number", "date": "date", "range": "slider"]

    /// The input types whose values `min` and `max` bound (their normalised forms sort in time order).
    static let ordered: [TextInputType] = [.time, .month, .week, .dateTime]

    /// The presentation hint front ends get (`nil` for plain text).
    var presentation: String? {
        switch self {
        case .text: return nil
        case .tel: return "phone"
        default: return rawValue
        }
    }

    /// `text` checked and normalised for this input type.
    func normalize(_ text: String) throws(AnswerError) -> String {
        switch self {
        case .text, .password: return text
        case .email:
            guard let email = ContactRules.normalizedEmail(text) else {
                throw AnswerError(code: "invalidEmail", message: "Enter a valid email address.")
            }
            return email
        case .tel:
            guard ContactRules.isValidPhone(text) else {
                throw AnswerError(code: "invalidPhone", message: "Enter a valid phone number.")
            }
            return text
        case .url:
            guard let scheme = text.split(separator: ":", maxSplits: 1).first, text.contains("://"),
                ["http", "https"].contains(scheme.lowercased()), !text.contains(where: \.isWhitespace),
                text.count > scheme.count + 3
            else { throw Self.invalid("https://example.com") }
            return text
        case .color:
            let hex = text.hasPrefix("#") ? text.dropFirst() : Substring(text)
            guard hex.count == 6 || hex.count == 3, hex.allSatisfy(\.isHexDigit) else { throw Self.invalid("#FF8800") }
            let digits = hex.count == 3 ? hex.map { "\($0)\($0)" }.joined() : String(hex)
            return "#" + digits.lowercased()
        case .time:
            guard let (hour, minute) = Self.time(text) else { throw Self.invalid("14:30") }
            return Self.twoDigits(hour) + ":" + Self.twoDigits(minute)
        case .month:
            let parts = text.split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 2, parts[0].count == 4, let year = Int(parts[0]), parts[1].count == 2,
                let month = Int(parts[1]), (1...12).contains(month), year > 0
            else { throw Self.invalid("2026-12") }
            return text
        case .week:
            let parts = text.split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 2, parts[0].count == 4, Int(parts[0]) != nil, parts[1].count == 3,
                parts[1].first == "W", let week = Int(parts[1].dropFirst()), (1...53).contains(week)
            else { throw Self.invalid("2026-W49") }
            return text
        case .dateTime:
            let parts = text.split(separator: "T", omittingEmptySubsequences: false)
            guard parts.count == 2, parts[0].count == 10, CivilDate(exactly: String(parts[0])) != nil,
                let (hour, minute) = Self.time(String(parts[1]))
            else { throw Self.invalid("2026-12-01T14:30") }
            return parts[0] + "T" + Self.twoDigits(hour) + ":" + Self.twoDigits(minute)
        }
    }

    /// `HH:MM` (or `H:MM`), 00:00–23:59.
    static func time(_ text: String) -> (Int, Int)? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
            parts.allSatisfy({ $0.allSatisfy(\.isASCII) }),
            let hour = Int(parts[0]), let minute = Int(parts[1]), (0...23).contains(hour), (0...59).contains(minute)
        else { return nil }
        return (hour, minute)
    }

    static func twoDigits(_ number: Int) -> String { number < 10 ? "0\(number)" : "\(number)" }

    /// `invalidFormat`: "Enter a value like {example}."
    static func invalid(_ example: String) -> AnswerError {
        AnswerError(code: "invalidFormat", message: "Enter a value like \(example).", arguments: ["example": example])
    }
}

/// An input mask (SurveyJS's `maskType` with `maskSettings`): what may be typed, and the value kept.
enum TextMask: Sendable {
    /// `9` a digit, `a` a letter, `#` a digit or letter, anything else literal (`\` escapes one). The
    /// value kept is what was typed for the placeholders with the ASCII letters and digits among the
    /// literals (and the escaped ones), as survey-core keeps it, unless `keepsLiterals`.
    case pattern(String, keepsLiterals: Bool)
    /// A number written with these separators (and, for currency, prefix and suffix); the value kept
    /// is the JSON number.
    case numeric(NumericMask)
    /// A date or time written in `pattern` (`mm/dd/yyyy`, `dd.mm.yyyy`, `yyyy-mm-dd`, `HH:MM`, …); the
    /// value kept is ISO 8601 (`2026-12-01`, `14:30`, `2026-12-01T14:30`).
    case dateTime(String)

    /// Whether the mask keeps a number (`numeric`, `currency`), and so checks a JSON number given as the answer.
    var takesNumbers: Bool {
        if case .numeric = self { return true }
        return false
    }

    struct NumericMask: Sendable {
        var decimalSeparator: Character = "."
        var thousandsSeparator: Character? = ","
        var precision = 2
        var allowsNegative = true
        var minimum: Double?
        var maximum: Double?
        var prefix = ""
        var suffix = ""
    }

    static let types = ["pattern", "numeric", "currency", "datetime"]

    /// The hint shown in an empty field when the author gave none: the pattern.
    var placeholder: String? {
        switch self {
        case .pattern(let pattern, _), .dateTime(let pattern): return pattern
        case .numeric: return nil
        }
    }

    /// The presentation hint: `"mask"`, or `"numeric"` for a number.
    var presentation: String {
        if case .numeric = self { return "numeric" }
        return "mask"
    }

    /// Reads `mask`: `{"type": "pattern"|"numeric"|"currency"|"datetime", …settings}`.
    static func read(from reader: inout OptionsReader) throws(SurveyError) -> TextMask {
        let type = try reader.string("type")
        switch type {
        case "pattern":
            let pattern = try reader.string("pattern")
            guard pattern.contains(where: { "9a#".contains($0) }) else {
                throw reader.error(
                    "pattern", "'pattern' needs at least one placeholder: 9 (digit), a (letter) or # (either)",
                    kind: .invalidOptions)
            }
            return .pattern(pattern, keepsLiterals: try reader.bool("saveMaskedValue", default: false))
        case "numeric", "currency":
            var mask = NumericMask()
            let decimal = try reader.string("decimalSeparator", default: ".")
            let thousands = try reader.string("thousandsSeparator", default: ",")
            guard decimal.count == 1, thousands.count <= 1, decimal != thousands, let first = decimal.first,
                !first.isNumber
            else {
                throw reader.error(
                    "decimalSeparator", "the separators must be single, different characters that are not digits",
                    kind: .invalidOptions)
            }
            mask.decimalSeparator = first
            mask.thousandsSeparator = thousands.first
            mask.precision = try reader.int("precision", default: 2, in: 0...15)
            mask.allowsNegative = try reader.bool("allowNegativeValues", default: true)
            mask.minimum = try reader.optionalDouble("min")
            mask.maximum = try reader.optionalDouble("max")
            if let low = mask.minimum, let high = mask.maximum, low > high {
                throw reader.error("max", "'max' must not be less than 'min'", kind: .invalidOptions)
            }
            if type == "currency" {
                mask.prefix = try reader.string("prefix", default: "")
                mask.suffix = try reader.string("suffix", default: "")
            }
            return .numeric(mask)
        case "datetime":
            let pattern = try reader.string("pattern")
            guard dateParts(of: pattern) != nil else {
                throw reader.error(
                    "pattern",
                    "'pattern' must be a date (with dd, mm and yyyy or yy), a time (HH:MM) or both, such as mm/dd/yyyy",
                    kind: .invalidOptions)
            }
            return .dateTime(pattern)
        default:
            throw reader.error("type", Suggestion.unknown("type", type, validValues: types), kind: .invalidOptions)
        }
    }

    /// What was typed (`answer`), checked against the mask, as the value kept.
    func normalize(_ answer: JSONValue) throws(AnswerError) -> JSONValue {
        switch self {
        case .pattern(let pattern, let keepsLiterals):
            guard case .string(let text) = answer else { throw AnswerError.wrongShape(expected: "text", got: answer) }
            return .string(try Self.match(text.trimmed, pattern: pattern, keepsLiterals: keepsLiterals))
        case .numeric(let mask):
            let number: Double
            switch answer {
            case .number(let value): number = value
            case .string(let text): number = try Self.number(text.trimmed, mask: mask)
            default: throw AnswerError.wrongShape(expected: "a number", got: answer)
            }
            guard number.isFinite else { throw Self.notANumber }
            try NumberRules.check(
                number, minimum: mask.allowsNegative ? mask.minimum : max(mask.minimum ?? 0, 0), maximum: mask.maximum)
            let scale = (0..<mask.precision).reduce(1.0) { value, _ in value * 10 }
            return .number((number * scale).rounded(.towardZero) / scale)
        case .dateTime(let pattern):
            guard case .string(let text) = answer else { throw AnswerError.wrongShape(expected: "text", got: answer) }
            return .string(try Self.dateTime(text.trimmed, pattern: pattern))
        }
    }

    static let notANumber = AnswerError(code: "notANumber", message: "Enter a number.")

    /// One position of a pattern mask: a placeholder (`9`, `a`, `#`), or a literal that is kept in
    /// the value (`fixed`: an ASCII letter or digit, or any character escaped with `\`) or only shown.
    enum PatternToken: Equatable {
        case slot(Character)
        case literal(Character, fixed: Bool)
    }

    /// `pattern` read as survey-core reads it (its pattern mask's "fixed" and "const" literals).
    static func tokens(of pattern: String) -> [PatternToken] {
        var result: [PatternToken] = []
        var escaped = false
        for character in pattern {
            if escaped {
                result.append(.literal(character, fixed: true))
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if "9a#".contains(character) {
                result.append(.slot(character))
            } else {
                result.append(
                    .literal(character, fixed: character.isASCII && (character.isLetter || character.isNumber)))
            }
        }
        return result
    }

    /// What was typed for pattern mask `pattern`: the whole masked text, the value survey-core keeps
    /// (the placeholders' characters and the fixed literals, `+1 (999) 999-9999` → `12025550123`), or
    /// the placeholders' characters alone. The value kept is survey-core's, or the masked text when
    /// `keepsLiterals` (`saveMaskedValue`).
    static func match(_ text: String, pattern: String, keepsLiterals: Bool) throws(AnswerError) -> String {
        let invalid = TextInputType.invalid(pattern)
        let tokens = tokens(of: pattern)
        let characters = Array(text)
        func fits(_ character: Character, _ slot: Character) -> Bool {
            switch slot {
            case "9": character.isASCII && character.isNumber
            case "a": character.isLetter
            default: character.isLetter || (character.isASCII && character.isNumber)
            }
        }
        /// The placeholders' characters when `characters` is typed over `shown` (the tokens it holds).
        func read(_ shown: [PatternToken]) -> [Character]? {
            guard characters.count == shown.count else { return nil }
            var raw: [Character] = []
            for (character, token) in zip(characters, shown) {
                switch token {
                case .slot(let slot):
                    guard fits(character, slot) else { return nil }
                    raw.append(character)
                case .literal(let literal, _):
                    guard character == literal else { return nil }
                }
            }
            return raw
        }
        let kept = tokens.filter { if case .literal(_, fixed: false) = $0 { false } else { true } }
        let slots = tokens.filter { if case .slot = $0 { true } else { false } }
        guard let raw = read(tokens) ?? read(kept) ?? read(slots) else { throw invalid }
        var index = raw.startIndex
        var result = ""
        for token in keepsLiterals ? tokens : kept {
            switch token {
            case .slot:
                result.append(raw[index])
                index += 1
            case .literal(let literal, _): result.append(literal)
            }
        }
        return result
    }

    static func number(_ text: String, mask: NumericMask) throws(AnswerError) -> Double {
        var body = Substring(text)
        var negative = false
        if body.hasPrefix("-") {
            negative = true
            body = body.dropFirst()
        }
        if !mask.prefix.isEmpty, body.hasPrefix(mask.prefix) { body = body.dropFirst(mask.prefix.count) }
        if !mask.suffix.isEmpty, body.hasSuffix(mask.suffix) { body = body.dropLast(mask.suffix.count) }
        if !negative, body.hasPrefix("-") {
            negative = true
            body = body.dropFirst()
        }
        var digits = ""
        var seenDecimal = false
        for character in String(body).trimmed {
            if character.isASCII, character.isNumber {
                digits.append(character)
            } else if character == mask.decimalSeparator, !seenDecimal, mask.precision > 0 {
                seenDecimal = true
                digits.append(".")
            } else if character == mask.thousandsSeparator, !seenDecimal {
                continue
            } else {
                throw Self.notANumber
            }
        }
        guard let value = Double(digits), !digits.isEmpty, digits != "." else { throw Self.notANumber }
        return negative ? -value : value
    }

    /// The positions of a date/time pattern's parts, or `nil` when it is not one.
    static func dateParts(of pattern: String) -> [(token: String, range: Range<Int>)]? {
        let characters = Array(pattern)
        var parts: [(String, Range<Int>)] = []
        var index = 0
        while index < characters.count {
            var matched = false
            for token in ["yyyy", "yy", "mm", "dd", "HH", "MM"] {
                let end = index + token.count
                if end <= characters.count, String(characters[index..<end]) == token {
                    parts.append((token, index..<end))
                    index = end
                    matched = true
                    break
                }
            }
            if !matched {
                if characters[index].isLetter || characters[index].isNumber { return nil }
                index += 1
            }
        }
        let tokens = Set(parts.map(\.0))
        guard tokens.count == parts.count else { return nil }
        let year = tokens.contains("yyyy") != tokens.contains("yy")
        // A full date, a month of a year (`mm/yyyy`) or a year alone.
        let date =
            (tokens.isSuperset(of: ["mm", "dd"]) && year) || (tokens.contains("mm") && !tokens.contains("dd") && year)
            || (tokens.isSubset(of: ["yyyy", "yy"]) && year)
        let time = tokens.isSuperset(of: ["HH", "MM"])
        let onlyDate = tokens.subtracting(["mm", "dd", "yyyy", "yy"]).isEmpty
        let onlyTime = tokens.subtracting(["HH", "MM"]).isEmpty
        guard (date && (onlyDate || time)) || (time && onlyTime) else { return nil }
        return parts
    }

    /// The value kept for a date/time pattern as ISO 8601, given in that form (what survey-core
    /// stores, and so what its data and scripts hold): `2026-12-01`, `2026-12` (`mm/yyyy`), `2026`
    /// (`yyyy`), `14:30`, `2026-12-01T14:30`; `nil` when `text` is not one.
    static func isoDateTime(_ text: String, parts: [(token: String, range: Range<Int>)]) -> String? {
        let tokens = Set(parts.map(\.token))
        let hasDate = !tokens.isDisjoint(with: ["yyyy", "yy"])
        var isoPattern = tokens.contains("dd") ? "yyyy-mm-dd" : tokens.contains("mm") ? "yyyy-mm" : "yyyy"
        if tokens.contains("HH") { isoPattern = hasDate ? isoPattern + " HH:MM" : "HH:MM" }
        // (a pattern's literals are no letters: the `T` between date and time is read as a space)
        let written = hasDate && tokens.contains("HH") ? String(text.map { $0 == "T" ? " " : $0 }) : text
        guard let isoParts = dateParts(of: isoPattern) else { return nil }
        return try? dateTime(written, pattern: isoPattern, parts: isoParts)
    }

    /// What was typed in date/time `pattern` (or the ISO 8601 value it keeps), as that ISO value. A
    /// two-digit year `yy` is 19yy above 68, else 20yy, as survey-core reads it.
    static func dateTime(_ text: String, pattern: String) throws(AnswerError) -> String {
        guard let parts = dateParts(of: pattern) else { throw TextInputType.invalid(pattern) }
        do {
            return try dateTime(text, pattern: pattern, parts: parts)
        } catch {
            if let iso = isoDateTime(text, parts: parts) { return iso }
            throw error
        }
    }

    static func dateTime(_ text: String, pattern: String, parts: [(token: String, range: Range<Int>)])
        throws(AnswerError) -> String
    {
        let invalid = TextInputType.invalid(pattern)
        let characters = Array(text)
        let pattern = Array(pattern)
        guard characters.count == pattern.count else { throw invalid }
        var values: [String: Int] = [:]
        var cursor = 0
        for part in parts {
            for offset in cursor..<part.range.lowerBound where characters[offset] != pattern[offset] { throw invalid }
            let field = characters[part.range]
            guard field.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(String(field)) else {
                throw invalid
            }
            values[part.token] = number
            cursor = part.range.upperBound
        }
        for offset in cursor..<characters.count where characters[offset] != pattern[offset] { throw invalid }
        var result = ""
        let year = values["yyyy"] ?? values["yy"].map { $0 > 68 ? 1900 + $0 : 2000 + $0 }
        if let month = values["mm"], let day = values["dd"] {
            let year = year ?? 0
            guard
                let date = CivilDate(
                    exactly: "\(year)-\(TextInputType.twoDigits(month))-\(TextInputType.twoDigits(day))"),
                year >= 1
            else { throw invalid }
            result = date.description
        } else if let year {
            guard (1...9999).contains(year) else { throw invalid }
            result = String(year)
            while result.count < 4 { result = "0" + result }
            if let month = values["mm"] {
                guard (1...12).contains(month) else { throw invalid }
                result += "-" + TextInputType.twoDigits(month)
            }
        }
        if let hour = values["HH"], let minute = values["MM"] {
            guard (0...23).contains(hour), (0...59).contains(minute) else { throw invalid }
            let time = TextInputType.twoDigits(hour) + ":" + TextInputType.twoDigits(minute)
            result = result.isEmpty ? time : result + "T" + time
        }
        return result
    }
}

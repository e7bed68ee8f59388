import SurveyCore

/// A calendar date, `YYYY-MM-DD`, optionally between two dates.
///
/// | Option | Type | Default | Meaning |
/// |---|---|---|---|
/// | `earliest` | `"YYYY-MM-DD"` | none | First allowed date. |
/// | `latest` | `"YYYY-MM-DD"` | none | Last allowed date; not before `earliest`. |
///
/// **Answer:** a string `YYYY-MM-DD` naming a real day of the proleptic Gregorian calendar
/// (`2024-02-29` yes, `2023-02-29` no), trimmed. Checked without locale-dependent parsing.
/// Errors: `invalidDate`, `dateTooEarly` (`min`), `dateTooLate` (`max`).
///
/// ```json
/// { "id": "visit", "type": "date", "title": "When did you visit?",
///   "options": { "earliest": "2024-01-01", "latest": "2024-12-31" } }
/// ```
public struct DateType: SummarizedByInput {
    /// The decoded options of a date question.
    public struct Options: Sendable {
        var earliest: String?
        var latest: String?
    }

    /// Creates the type (its configuration comes from each question's options).
    public init() {}

    public var typeID: String { "date" }
    public var summary: String { "A calendar date (YYYY-MM-DD) between optional earliest and latest dates" }

    public func makeOptions(from reader: inout OptionsReader) throws(SurveyError) -> Options {
        var options = Options()
        for key in ["earliest", "latest"] {
            guard let text = try reader.optionalString(key) else { continue }
            guard Self.isValidDate(text) else {
                throw reader.error(key, "'\(key)' must be a real date written YYYY-MM-DD, got '\(text)'")
            }
            if key == "earliest" { options.earliest = text } else { options.latest = text }
        }
        if let earliest = options.earliest, let latest = options.latest, latest < earliest {
            throw reader.error(
                "latest", "'latest' (\(latest)) must not be before 'earliest' (\(earliest))", kind: .invalidOptions)
        }
        return options
    }

    public func input(for options: Options, in context: PresentationContext) -> InputPrimitive {
        .date(DateInput(earliest: options.earliest, latest: options.latest))
    }

    public func normalize(_ answer: JSONValue, options: Options) throws(AnswerError) -> JSONValue {
        guard case .string(let raw) = answer, Self.isValidDate(raw.trimmed) else {
            throw AnswerError(code: "invalidDate", message: "Enter a date as YYYY-MM-DD.")
        }
        // Same fixed-width format, so string order is date order.
        let date = raw.trimmed
        if let earliest = options.earliest, date < earliest {
            throw AnswerError(
                code: "dateTooEarly", message: "Enter a date on or after \(earliest).", arguments: ["min": earliest])
        }
        if let latest = options.latest, date > latest {
            throw AnswerError(
                code: "dateTooLate", message: "Enter a date on or before \(latest).", arguments: ["max": latest])
        }
        return .string(date)
    }

    /// Whether `text` is exactly `YYYY-MM-DD` (ASCII digits) and names a real day.
    static func isValidDate(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return false }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10) else { return false }
        guard (1...12).contains(month), day >= 1 else { return false }
        return day <= daysIn(month: month, year: year)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    static func isLeapYear(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }
}

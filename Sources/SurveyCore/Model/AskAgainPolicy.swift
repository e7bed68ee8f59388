/// Whether a respondent who completed or dismissed a survey is asked it again: the survey's
/// `settings.askAgain`.
///
/// - `"never"` (the default, as in-app surveys expect): once answered or dismissed, never again.
/// - `"always"`: every run asks.
/// - an ISO-8601 duration such as `"P30D"`, `"P1M"`, `"PT12H"` or `"P1Y2M3DT4H5M6S"`: asked again once
///   that much time has passed since the respondent last completed or dismissed it.
///
/// The decision itself needs the respondent's history, so it is made where responses are kept
/// (`ResponseStore.shouldAsk(respondent:survey:at:)` in `SurveyResponses`).
public enum AskAgainPolicy: Sendable, Hashable, CustomStringConvertible {
    case never
    case always
    case after(ISODuration)

    /// Reads `never`, `always` or an ISO-8601 duration.
    /// - Returns: `nil` when `text` is none of them.
    public init?(_ text: String) {
        switch text {
        case "never": self = .never
        case "always": self = .always
        default:
            guard let duration = ISODuration(text) else { return nil }
            self = .after(duration)
        }
    }

    /// The setting as written in a survey.
    public var description: String {
        switch self {
        case .never: return "never"
        case .always: return "always"
        case .after(let duration): return duration.description
        }
    }
}

/// An ISO-8601 duration (`PnYnMnWnDTnHnMnS`, whole numbers), kept as calendar components so that
/// `P1M` means one calendar month, not 30 days.
public struct ISODuration: Sendable, Hashable, CustomStringConvertible {
    public var years = 0
    public var months = 0
    public var weeks = 0
    public var days = 0
    public var hours = 0
    public var minutes = 0
    public var seconds = 0

    /// Creates a duration from components.
    public init(
        years: Int = 0, months: Int = 0, weeks: Int = 0, days: Int = 0, hours: Int = 0, minutes: Int = 0,
        seconds: Int = 0
    ) {
        self.years = years
        self.months = months
        self.weeks = weeks
        self.days = days
        self.hours = hours
        self.minutes = minutes
        self.seconds = seconds
    }

    /// Parses `P30D`, `PT12H`, `P1Y2M10DT2H30M`, `P2W`. Each number is a whole number of at most 6
    /// digits; at least one component is required; `T` must be followed by a time component.
    public init?(_ text: String) {
        var bytes = Array(text.utf8)[...]
        guard bytes.first == UInt8(ascii: "P"), bytes.count > 1 else { return nil }
        bytes = bytes.dropFirst()
        var inTime = false
        var sawComponent = false
        var sawTimeComponent = false
        var lastRank = -1
        while let first = bytes.first {
            if first == UInt8(ascii: "T") {
                guard !inTime else { return nil }
                inTime = true
                bytes = bytes.dropFirst()
                continue
            }
            var number = 0
            var digits = 0
            while let digit = bytes.first, digit >= 48, digit <= 57 {
                digits += 1
                guard digits <= 6 else { return nil }
                number = number * 10 + Int(digit - 48)
                bytes = bytes.dropFirst()
            }
            guard digits > 0, let designator = bytes.first else { return nil }
            bytes = bytes.dropFirst()
            let rank: Int
            switch (inTime, designator) {
            case (false, UInt8(ascii: "Y")): rank = 0; years = number
            case (false, UInt8(ascii: "M")): rank = 1; months = number
            case (false, UInt8(ascii: "W")): rank = 2; weeks = number
            case (false, UInt8(ascii: "D")): rank = 3; days = number
            case (true, UInt8(ascii: "H")): rank = 4; hours = number
            case (true, UInt8(ascii: "M")): rank = 5; minutes = number
            case (true, UInt8(ascii: "S")): rank = 6; seconds = number
            default: return nil
            }
            guard rank > lastRank else { return nil }
            lastRank = rank
            sawComponent = true
            if inTime { sawTimeComponent = true }
        }
        guard sawComponent, !inTime || sawTimeComponent else { return nil }
    }

    public var description: String {
        var text = "P"
        if years != 0 { text += "\(years)Y" }
        if months != 0 { text += "\(months)M" }
        if weeks != 0 { text += "\(weeks)W" }
        if days != 0 { text += "\(days)D" }
        if hours != 0 || minutes != 0 || seconds != 0 {
            text += "T"
            if hours != 0 { text += "\(hours)H" }
            if minutes != 0 { text += "\(minutes)M" }
            if seconds != 0 { text += "\(seconds)S" }
        }
        return text == "P" ? "PT0S" : text
    }
}

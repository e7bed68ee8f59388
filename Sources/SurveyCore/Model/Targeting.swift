import Foundation

/// Who is asked a survey and when: the rules `settings` gives, read together.
///
/// The decision itself needs the respondent's history, attributes and the clock, so it is made where
/// responses are kept (`Eligibility.decide` in `SurveyResponses`); this is only what the survey says.
/// docs/targeting.md describes every rule.
public struct Targeting: Sendable, Hashable {
    /// How often one respondent is shown the survey.
    public var display: DisplayRule
    /// How long after the respondent last completed or dismissed the survey they may be asked it again
    /// (`settings.recontactDays`, or the duration of `settings.askAgain`); `nil`: no wait.
    public var recontact: ISODuration?

    /// The percentage of respondents asked (`settings.rollout`); `nil`: everyone.
    public var rollout: Double?
    /// `settings.schedule.start`: not asked before.
    public var start: Date?
    /// `settings.schedule.end`: not asked from then on.
    public var end: Date?
    /// `settings.audience`: asked only when it is true.
    public var audience: String?

    /// The rules of `settings`: `askAgain` mapped onto them when `display` is not given (`never` is
    /// ``DisplayRule/once``, `always` is ``DisplayRule/always``, a duration is ``DisplayRule/always``
    /// with that ``recontact`` wait).
    public init(settings: SurveySettings) {
        rollout = settings.rollout
        audience = settings.audience
        start = settings.scheduleStart
        end = settings.scheduleEnd
        if let display = settings.display {
            self.display = display
            recontact = settings.recontactDays.map { ISODuration(days: $0) }
            return
        }
        switch settings.askAgain {
        case .never:
            display = .once
            recontact = nil
        case .always:
            display = .always
            recontact = nil
        case .after(let duration):
            display = .always
            recontact = duration
        }
    }

    /// How the display rule is set, in words: "askAgain is never", "display is untilSubmitted".
    public static func displayPhrase(_ settings: SurveySettings) -> String {
        settings.display.map { "display is \($0)" } ?? "askAgain is \(settings.askAgain)"
    }

    /// Reads `display`, `recontactDays`, `rollout` and `schedule` of `settings`.
    static func read(_ reader: inout OptionsReader, into settings: inout SurveySettings) throws(SurveyError) {
        if let value = reader.value("display") {
            switch value {
            case .string("once"): settings.display = .once
            case .string("untilSubmitted"): settings.display = .untilSubmitted
            case .string("always"): settings.display = .always
            case .number(let number) where number >= 1 && number <= 1_000_000 && number.rounded() == number:
                settings.display = .atMost(Int(number))
            default:
                throw reader.error(
                    "display",
                    "'display' must be \"once\", \"untilSubmitted\", \"always\" or a whole number of displays of at least 1, got \(value)"
                )
            }
        }
        settings.recontactDays = try reader.optionalInt("recontactDays", in: 0...36_500)
        if reader.members["askAgain"] != nil, settings.display != nil || settings.recontactDays != nil {
            throw reader.error(
                "askAgain",
                "'askAgain' and 'display'/'recontactDays' say the same thing; keep one (askAgain never is display once, "
                    + "always is display always, a duration P7D is display always with recontactDays 7)")
        }
        settings.rollout = try reader.optionalDouble("rollout", in: 0...100)
        var schedule = try reader.object("schedule")
        for key in ["start", "end"] {
            guard let text = try schedule.optionalString(key) else { continue }
            guard let date = parseTime(text) else {
                throw schedule.error(
                    key,
                    "'\(key)' must be a date (YYYY-MM-DD, midnight UTC) or an ISO 8601 time with a zone, got '\(text)'")
            }
            if key == "start" { settings.scheduleStart = date } else { settings.scheduleEnd = date }
        }
        if let start = settings.scheduleStart, let end = settings.scheduleEnd, end <= start {
            throw schedule.error("end", "the schedule ends before it starts")
        }
        try schedule.finish()
        if let audience = try reader.optionalString("audience") {
            do {
                _ = try compileAudience(audience, functions: audienceStubs)
            } catch {
                var message = "'audience' at column \(error.column): \(error.message)"
                if case .unknownReference = error.kind {
                    message += " (an audience reads the respondent's attributes, written {@name})"
                }
                throw reader.error("audience", message)
            }
            settings.audience = audience
        }
    }

    /// The history functions an audience may call, with how many arguments: a survey id, and for the
    /// first three an optional ISO-8601 window (`completed('onboarding', 'P30D')`). Implemented where
    /// the history is (`Eligibility` in `SurveyResponses`).
    public static let historyFunctions: [(name: String, arity: ClosedRange<Int>)] = [
        ("completed", 1...2), ("dismissed", 1...2), ("displayed", 1...2), ("completions", 1...1),
        ("dismissals", 1...1), ("displays", 1...1),
    ]

    /// The standard functions and stand-ins for ``historyFunctions``, to check an audience when loading.
    static let audienceStubs: ExpressionFunctionRegistry = {
        var registry = ExpressionFunctionRegistry.standard
        for (name, arity) in historyFunctions {
            do {
                try registry.register(ExpressionFunction(name: name, arity: arity, isPure: false) { _, _ in .null })
            } catch {
                assertionFailure("duplicate history function \(name)")
            }
        }
        return registry
    }()

    /// Compiles an audience expression: `{@name}` reads the respondent's attribute `name`; any other
    /// reference is an error.
    /// - Returns: the expression and the attribute names of its slots, in slot order.
    /// - Throws: ``ExpressionCompileError`` with a 1-based column.
    public static func compileAudience(_ source: String, functions: ExpressionFunctionRegistry)
        throws(ExpressionCompileError) -> (expression: Expression, attributes: [String])
    {
        final class Names {
            var list: [String] = []
        }
        let names = Names()
        let expression = try Expression(source, functions: functions) { reference in
            guard reference.hasPrefix("@"), reference.count > 1 else { return nil }
            let name = String(reference.dropFirst())
            if let index = names.list.firstIndex(of: name) { return index }
            names.list.append(name)
            return names.list.count - 1
        }
        return (expression, names.list)
    }

    /// Writes what ``read(_:into:)`` reads.
    static func write(_ settings: SurveySettings, to members: inout [String: JSONValue]) {
        if let display = settings.display {
            if case .atMost(let count) = display {
                members["display"] = .number(Double(count))
            } else {
                members["display"] = .string(display.description)
            }
        }
        if let days = settings.recontactDays { members["recontactDays"] = .number(Double(days)) }
        if let rollout = settings.rollout { members["rollout"] = .number(rollout) }
        var schedule: [String: JSONValue] = [:]
        if let start = settings.scheduleStart { schedule["start"] = .string(timestamp(start)) }
        if let end = settings.scheduleEnd { schedule["end"] = .string(timestamp(end)) }
        if !schedule.isEmpty { members["schedule"] = .object(schedule) }
        if let audience = settings.audience { members["audience"] = .string(audience) }
    }

    /// `YYYY-MM-DD` (midnight UTC) or an ISO 8601 time with a zone (fractional seconds allowed).
    public static func parseTime(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        if let date = formatter.date(from: text) { return date }
        guard text.count == 10, let day = CivilDate(text), day.description == text else { return nil }
        formatter.formatOptions = [.withFullDate]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.date(from: text)
    }

    /// A time as ISO 8601 in UTC with milliseconds.
    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }
}

/// How often one respondent is shown a survey (`settings.display`), Formbricks' display options.
public enum DisplayRule: Sendable, Hashable, CustomStringConvertible {
    /// Until they complete or dismiss it once (`askAgain: never`). An unfinished response continues.
    case once
    /// Until they complete it: a dismissal does not count.
    case untilSubmitted
    /// Every time the other rules allow.
    case always
    /// At most this many responses (displays) in all, however they ended.
    case atMost(Int)

    /// The setting as written in a survey: `once`, `untilSubmitted`, `always`, or the number.
    public var description: String {
        switch self {
        case .once: "once"
        case .untilSubmitted: "untilSubmitted"
        case .always: "always"
        case .atMost(let count): "\(count)"
        }
    }
}

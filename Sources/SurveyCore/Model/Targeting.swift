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

    /// The rules of `settings`: `askAgain` mapped onto them when `display` is not given (`never` is
    /// ``DisplayRule/once``, `always` is ``DisplayRule/always``, a duration is ``DisplayRule/always``
    /// with that ``recontact`` wait).
    public init(settings: SurveySettings) {
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

    /// How the display rule is set, in words: "askAgain is never".
    public static func displayPhrase(_ settings: SurveySettings) -> String {
        "askAgain is \(settings.askAgain)"
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

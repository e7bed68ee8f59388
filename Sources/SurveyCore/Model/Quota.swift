import Foundation

/// A quota: at most ``limit`` responses whose answers match ``when`` are collected; the others get
/// the ``action`` (`quotas` in the survey format, LimeSurvey's and Qualtrics' quotas).
///
/// ```json
/// {"quotas": [{"id": "fr-18-24", "when": "{country} = 'fr' and {age} = '18-24'", "limit": 200,
///              "count": "completed", "action": "end",
///              "message": {"en": "Thank you! We have heard from enough people like you."}}]}
/// ```
///
/// The store counts a quota exactly (`ResponseStore.write(_:claiming:)` in `SurveyResponses`), and a
/// session is told which quotas are full (``SurveySession/fullQuotas``): docs/targeting.md.
public struct QuotaDefinition: Sendable, Hashable {
    /// Unique within the survey; the store counts by it.
    public var id: String
    /// The condition over answers, calculated values and host variables that puts a response in the quota.
    public var when: String
    /// How many responses the quota takes (0: none, the quota is closed).
    public var limit: Int
    /// What a response counts as: completed, or started (counted at the first Next that matches).
    public var count: QuotaCount
    /// What a respondent over the quota gets.
    public var action: QuotaAction

    public init(id: String, when: String, limit: Int, count: QuotaCount = .completed, action: QuotaAction) {
        self.id = id
        self.when = when
        self.limit = limit
        self.count = count
        self.action = action
    }
}

/// What a quota counts (`count` of a quota).
public enum QuotaCount: String, Sendable, Hashable, CaseIterable {
    /// A response counts when it is completed matching the quota (the default).
    case completed
    /// A response counts at the first Next after which it matches the quota.
    case started
}

/// What a respondent over a quota gets (`action` of a quota).
public enum QuotaAction: Sendable, Hashable {
    /// The survey ends for them with this message (`"action": "end"`, `"message"`): their response
    /// is kept, not counted, and marked over quota.
    case end(message: LocalizedText?)
    /// They continue at this step or page (`"action": "skip"`, `"skipTo"`), past the questions the
    /// quota is full for.
    case skip(to: String)
    /// They continue as if nothing happened; their response is marked over quota (`"action": "flag"`).
    case flag

    /// The action's name in the format: `end`, `skip` or `flag`.
    public var name: String {
        switch self {
        case .end: "end"
        case .skip: "skip"
        case .flag: "flag"
        }
    }
}

extension QuotaDefinition {
    /// Reads one element of `$.quotas`.
    init(reading item: inout OptionsReader) throws(SurveyError) {
        id = try item.string("id")
        guard !id.isEmpty else { throw item.error("id", "a quota's 'id' must not be empty") }
        when = try item.string("when")
        guard let limit = try item.optionalInt("limit", in: 0...1_000_000_000) else {
            throw item.error(nil, "a quota needs a 'limit' (how many responses it takes)", kind: .missingField)
        }
        self.limit = limit
        let countName = try item.string("count", default: "completed")
        guard let count = QuotaCount(rawValue: countName) else {
            throw item.error("count", "a quota's 'count' must be \"completed\" or \"started\", got '\(countName)'")
        }
        self.count = count
        let actionName = try item.string("action", default: "end")
        let message = try item.optionalText("message")
        let skipTo = try item.optionalString("skipTo")
        switch actionName {
        case "end":
            if skipTo != nil { throw item.error("skipTo", "'skipTo' goes with \"action\": \"skip\", not \"end\"") }
            action = .end(message: message)
        case "skip":
            guard let skipTo else {
                throw item.error(
                    nil, "a quota whose action is \"skip\" needs 'skipTo' (the step or page to go to)",
                    kind: .missingField)
            }
            if message != nil { throw item.error("message", "'message' goes with \"action\": \"end\", not \"skip\"") }
            action = .skip(to: skipTo)
        case "flag":
            if skipTo != nil { throw item.error("skipTo", "'skipTo' goes with \"action\": \"skip\", not \"flag\"") }
            if message != nil { throw item.error("message", "'message' goes with \"action\": \"end\", not \"flag\"") }
            action = .flag
        default:
            throw item.error(
                "action", "a quota's 'action' must be \"end\", \"skip\" or \"flag\", got '\(actionName)'")
        }
        try item.finish()
    }

    /// The quota as JSON, omitting members that have their default value.
    public var jsonValue: JSONValue {
        var members: [String: JSONValue] = [
            "id": .string(id), "when": .string(when), "limit": .number(Double(limit)),
        ]
        if count != .completed { members["count"] = .string(count.rawValue) }
        switch action {
        case .end(let message):
            if let message { members["message"] = message.jsonValue }
        case .skip(let target):
            members["action"] = .string("skip")
            members["skipTo"] = .string(target)
        case .flag:
            members["action"] = .string("flag")
        }
        return .object(members)
    }
}

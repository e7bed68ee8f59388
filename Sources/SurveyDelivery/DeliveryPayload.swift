import Foundation
import SurveyCore
import SurveyResponses

/// The JSON a target receives for one response (payload version 1; see docs/delivery.md).
///
/// ```json
/// { "payloadVersion": 1, "responseId": "0193…", "respondentId": "user-42", "surveyId": "onboarding",
///   "surveyVersion": "3", "locale": "en", "status": "completed",
///   "createdAt": "2026-12-02T10:00:00.000Z", "completedAt": "2026-12-02T10:03:12.250Z",
///   "path": ["welcome", "about-you"], "answers": { "age": 42 },
///   "funnel": { "seen": ["age", "name"], "answered": ["age"], "dismissed": [] } }
/// ```
public enum DeliveryPayload {
    /// The version of the payload's shape; a change that removes or renames a member raises it.
    public static let version = 1

    /// The payload of `response`, with the funnel facts `events` recorded for it. `isPartial` says
    /// its path and answers are those so far of an unfinished response (``PartialResponses``):
    /// `"partial": true`. Every payload says whether the response is `finished` (completed) and its
    /// `responseVersion` (``Response/version``: its action count, plus ``Response/versionOffset``
    /// when its actions were replaced; a later version has a higher one).
    public static func json(of response: Response, events: [FunnelEvent], isPartial: Bool = false) -> JSONValue {
        var members: [String: JSONValue] = [
            "payloadVersion": .number(Double(version)), "responseId": .string(response.id.rawValue),
            "respondentId": .string(response.respondentID), "surveyId": .string(response.surveyID),
            "surveyVersion": response.surveyVersion.map(JSONValue.string) ?? .null,
            "locale": .string(response.locale), "status": .string(response.status.rawValue),
            "createdAt": .string(timestamp(response.createdAt)),
            "completedAt": response.completedAt.map { .string(timestamp($0)) } ?? .null,
            "path": .array(response.path.map(JSONValue.string)), "answers": .object(response.answers),
            "finished": .bool(response.status == .completed),
            "responseVersion": .number(Double(response.version)),
            "updatedAt": .string(timestamp(response.updatedAt)),
        ]
        if isPartial { members["partial"] = .bool(true) }
        func steps(_ kind: FunnelEventKind) -> JSONValue {
            .array(Set(events.filter { $0.kind == kind }.compactMap(\.stepID)).sorted().map(JSONValue.string))
        }
        members["funnel"] = .object([
            "seen": steps(.stepSeen), "answered": steps(.answered), "dismissed": steps(.dismissed),
        ])
        return .object(members)
    }

    /// The key order of the payload's members, for readable output.
    static let keyOrder = [
        "payloadVersion", "responseId", "respondentId", "surveyId", "surveyVersion", "locale", "status", "createdAt",
        "completedAt", "updatedAt", "finished", "partial", "responseVersion", "path", "answers", "funnel",
    ]

    /// The payload as UTF-8 JSON.
    public static func data(of response: Response, events: [FunnelEvent], isPartial: Bool = false) -> Data {
        Data(
            JSONWriter.string(
                from: json(of: response, events: events, isPartial: isPartial), pretty: false, keyOrder: keyOrder
            ).utf8)
    }

    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }
}

import Foundation
import SurveyCore
import SurveyRendering
import SurveyResponses

/// A session's revision: which stored version of its response it is at, so a client can send
/// commands "only if nothing happened since" and a command sent twice is applied once.
///
/// The revision is the response's stored action count and the time of its last write (in
/// milliseconds), as `"<actions>.<milliseconds>"`. Every stored action changes it, on any server of
/// the store. The JSON API sends it as the `ETag` of a session's replies and honours `If-Match` on
/// `POST /v1/sessions/{token}/commands`; the web pages send it in a hidden field of each form.
enum Revision {
    /// The revision of the response `exchange` records into, or `nil` when it records none.
    static func of(_ exchange: EventExchange) -> String? {
        guard let response = exchange.recordedResponse else { return nil }
        return "\(response.actionCount).\(SurveyAPI.milliseconds(response.updatedAt))"
    }

    /// The revision as an HTTP entity tag (quoted).
    static func entityTag(_ revision: String) -> String { "\"\(revision)\"" }

    /// Whether an `If-Match` value (`*`, or entity tags separated by commas, weak ones too) names
    /// `revision`.
    static func matches(_ header: String, _ revision: String?) -> Bool {
        let tags = header.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        if tags.contains("*") { return true }
        guard let revision else { return false }
        let wanted = entityTag(revision)
        return tags.contains { $0 == wanted || $0 == "W/" + wanted }
    }
}

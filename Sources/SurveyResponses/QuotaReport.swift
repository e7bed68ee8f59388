import Foundation
import SurveyCore

/// The live counts of a survey's quotas (`QuotaDefinition`) in a store: how many responses each
/// counts, of its limit (`survey responses quotas FILE`).
///
/// ```swift
/// let report = try QuotaReport(survey: survey, store: store)
/// print(report.text)  // young  completed  1/200  199 left  {age} = 'young'
/// ```
public struct QuotaReport: Sendable, Hashable {
    /// One quota's count.
    public struct Row: Sendable, Hashable {
        public var id: String
        public var when: String
        public var count: QuotaCount
        public var limit: Int
        /// How many responses it counts now.
        public var counted: Int
        /// How many responses it ended (``ResponseStatus/endedByQuota``): screened out, not counted.
        public var ended: Int = 0
        /// Whether it takes no more (counted ≥ limit).
        public var isFull: Bool { counted >= limit }
    }

    public var surveyID: String
    /// The survey's quotas in its order.
    public var rows: [Row]

    /// Reads the counts of `survey`'s quotas from `store` (``ResponseStore/quotaCounts(survey:)``):
    /// a quota no response counted in yet counts 0; and how many responses each ended (the
    /// ``ResponseStatus/endedByQuota`` responses, read by the store's status index).
    public init(survey: Survey, store: any ResponseStore) throws(StoreError) {
        let counts = try store.quotaCounts(survey: survey.id)
        var ended: [String: Int] = [:]
        if !survey.definition.quotas.isEmpty {
            let query = ResponseQuery(surveyID: survey.id, statuses: [.endedByQuota])
            for response in try store.responses(matching: query) {
                if let quota = response.quotasReached.last { ended[quota.quotaID, default: 0] += 1 }
            }
        }
        surveyID = survey.id
        rows = survey.definition.quotas.map {
            Row(
                id: $0.id, when: $0.when, count: $0.count, limit: $0.limit, counted: counts[$0.id] ?? 0,
                ended: ended[$0.id] ?? 0)
        }
    }

    /// One line per quota: id, what it counts, counted/limit, what is left (or `full`), its condition.
    public var text: String {
        guard !rows.isEmpty else { return "survey '\(surveyID)' has no quotas\n" }
        let idWidth = rows.map(\.id.count).max() ?? 0
        return rows.map { row in
            let id = row.id.padding(toLength: idWidth, withPad: " ", startingAt: 0)
            let left = row.isFull ? "full" : "\(row.limit - row.counted) left"
            let ended = row.ended == 0 ? "" : "  \(row.ended) ended-by-quota"
            return "\(id)  \(row.count.rawValue)  \(row.counted)/\(row.limit)  \(left)\(ended)  \(row.when)\n"
        }.joined()
    }

    /// `{"surveyId", "quotas": [{"id", "when", "count", "limit", "counted", "full", "ended"}]}`.
    public var jsonValue: JSONValue {
        .object([
            "surveyId": .string(surveyID),
            "quotas": .array(
                rows.map { row in
                    .object([
                        "id": .string(row.id), "when": .string(row.when), "count": .string(row.count.rawValue),
                        "limit": .number(Double(row.limit)), "counted": .number(Double(row.counted)),
                        "full": .bool(row.isFull), "ended": .number(Double(row.ended)),
                    ])
                }),
        ])
    }
}

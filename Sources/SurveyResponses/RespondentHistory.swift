import Foundation
import SurveyCore

/// What a respondent did with each survey, as eligibility reads it: how often they were shown it
/// (each response is one display), when last, and how often and when they last completed or
/// dismissed it. One store read (``ResponseStore/history(respondent:)``) gives all of it.
public struct RespondentHistory: Sendable, Hashable {
    /// One survey's part of the history.
    public struct Record: Sendable, Hashable {
        /// Responses created (displays), whatever became of them.
        public var displays = 0
        /// When the last response was created.
        public var lastDisplayedAt: Date?
        public var completions = 0
        /// When the respondent last completed it.
        public var lastCompletedAt: Date?
        public var dismissals = 0
        /// When the respondent last dismissed it.
        public var lastDismissedAt: Date?
        /// Responses still in progress.
        public var unfinished = 0
        /// Responses a full quota ended (``ResponseStatus/endedByQuota``): not completions.
        public var quotaEndings = 0
        /// When a quota last ended it for the respondent.
        public var lastQuotaEndedAt: Date?

        public init() {}

        /// The last completion, dismissal or end by a quota, whichever came later, with its status.
        public var lastFinished: (status: ResponseStatus, at: Date)? {
            let finishes: [(status: ResponseStatus, at: Date?)] = [
                (.completed, lastCompletedAt), (.dismissed, lastDismissedAt), (.endedByQuota, lastQuotaEndedAt),
            ]
            var last: (status: ResponseStatus, at: Date)?
            for finish in finishes {
                if let at = finish.at, last == nil || at > last!.at { last = (finish.status, at) }
            }
            return last
        }
    }

    /// By survey id.
    public var surveys: [String: Record]

    public init(surveys: [String: Record] = [:]) {
        self.surveys = surveys
    }

    /// The survey's record (empty when the respondent never saw it).
    public subscript(surveyID: String) -> Record { surveys[surveyID] ?? Record() }

    /// When the respondent was last shown any survey.
    public var lastDisplayedAt: Date? { surveys.values.compactMap(\.lastDisplayedAt).max() }

    /// Adds `count` responses of `surveyID` with `status`, the latest created at `created` and
    /// finished (completed, dismissed) or last updated at `finished`.
    public mutating func add(
        surveyID: String, status: ResponseStatus, count: Int, lastCreatedAt created: Date, lastFinishedAt finished: Date
    ) {
        var record = surveys[surveyID] ?? Record()
        record.displays += count
        record.lastDisplayedAt = max(record.lastDisplayedAt ?? created, created)
        switch status {
        case .completed:
            record.completions += count
            record.lastCompletedAt = max(record.lastCompletedAt ?? finished, finished)
        case .dismissed:
            record.dismissals += count
            record.lastDismissedAt = max(record.lastDismissedAt ?? finished, finished)
        case .endedByQuota:
            record.quotaEndings += count
            record.lastQuotaEndedAt = max(record.lastQuotaEndedAt ?? finished, finished)
        case .inProgress:
            record.unfinished += count
        case .abandoned:
            break
        }
        surveys[surveyID] = record
    }
}

extension ResponseStore {
    /// The history read from every response of the respondent (``forEachResponse(matching:_:)``); the
    /// SQL stores answer with one grouped query on their respondent index instead.
    public func history(respondent respondentID: String) throws(StoreError) -> RespondentHistory {
        var history = RespondentHistory()
        for response in try responses(matching: ResponseQuery(respondentID: respondentID)) {
            history.add(
                surveyID: response.surveyID, status: response.status, count: 1, lastCreatedAt: response.createdAt,
                lastFinishedAt: response.completedAt ?? response.updatedAt)
        }
        return history
    }
}

import Foundation
import SurveyCore

/// What unfinished responses hold so far: the path and the answers on it of each in-progress or
/// abandoned response to a survey, computed by replaying its stored actions on the survey, for
/// exports and lists that show partial responses (drop-off analysis, partial delivery).
///
/// A stored response keeps its path and answers only once it is completed or dismissed; until then
/// its actions are the record. Only responses to the survey's own id and version are replayed (an
/// action may mean something else on another version); a replay stops at the first action the
/// survey refuses, keeping what came before.
///
/// ```swift
/// let partial = try PartialResponses(survey: survey, store: store, matching: ResponseQuery(surveyID: survey.id))
/// try store.forEachResponse(matching: query) { response in
///     let (shown, isPartial) = partial.completing(response)
///     print(ResponseExport.jsonLine(of: shown, isPartial: isPartial))
/// }
/// ```
public struct PartialResponses: Sendable {
    /// A response's path and answers so far.
    public struct SoFar: Sendable, Hashable {
        /// The units shown, in order (after Back, the path actually taken).
        public var path: [String]
        /// The answers of visible questions on that path, by step id.
        public var answers: [String: JSONValue]
    }

    /// What each replayed response holds so far, by id.
    public private(set) var replayed: [ResponseID: SoFar] = [:]

    /// Nothing replayed: every response is shown as stored.
    public init() {}

    /// Replays every in-progress or abandoned response of `store` that `query` selects and that
    /// answers `survey` as it is (same id and version).
    /// - Throws: ``StoreError`` when the store cannot be read.
    public init(survey: Survey, store: any ResponseStore, matching query: ResponseQuery) throws {
        var unfinished = query
        unfinished.surveyID = survey.id
        unfinished.surveyVersion = survey.definition.version
        unfinished.statuses = (query.statuses ?? Set(ResponseStatus.allCases)).intersection([.inProgress, .abandoned])
        var candidates: [Response] = []
        try store.forEachResponse(matching: unfinished) { response in
            // Read first, replayed after: a store holds its connection while it streams.
            if response.actionCount > 0, response.surveyVersion == survey.definition.version {
                candidates.append(response)
            }
        }
        for response in candidates {
            replayed[response.id] = Self.replay(response, actions: try store.actions(of: response.id), survey: survey)
        }
    }

    /// `response`'s path and answers so far: `actions` replayed on `survey` from the response's seed,
    /// locale and date, up to the first action the survey refuses.
    public static func replay(_ response: Response, actions: [RecordedAction], survey: Survey) -> SoFar {
        var session = SurveySession(survey: survey, seed: response.seed, locale: response.locale, today: response.today)
        for entry in actions where session.status == .inProgress {
            guard session.apply(entry.action) else { break }
        }
        let result = session.completionResult()
        return SoFar(path: result.path, answers: result.answers)
    }

    /// Whether `response` is unfinished (in progress or abandoned, with actions) and was not
    /// replayed: it is shown as stored, without its answers so far (`"answers": {}`), because the
    /// survey was not given or the response answers another version of it.
    public func isShownAsStored(_ response: Response) -> Bool {
        (response.status == .inProgress || response.status == .abandoned) && response.actionCount > 0
            && replayed[response.id] == nil
    }

    /// `response` with its path and answers so far when it was replayed (`isPartial` is then true),
    /// else as it is.
    public func completing(_ response: Response) -> (response: Response, isPartial: Bool) {
        guard let soFar = replayed[response.id] else { return (response, false) }
        var shown = response
        shown.path = soFar.path
        shown.answers = soFar.answers
        return (shown, true)
    }
}

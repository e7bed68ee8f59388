import Foundation
import SurveyCore

/// What unfinished responses hold so far: the path and the answers on it of an in-progress or
/// abandoned response to a survey, computed by replaying its stored actions on the survey, for
/// exports, lists, reports and deliveries that show partial responses (drop-off analysis, partial
/// delivery).
///
/// A stored response keeps its path and answers only once it is completed or dismissed; until then
/// its actions are the record. Responses to the survey's id are replayed: those of its version as
/// they were taken, stopping at the first action the survey refuses and keeping what came before;
/// those of another version as they would be carried over to this one (``ResponseMigration``, by
/// step id), the answers that no longer fit shown as orphaned. Nothing is written.
///
/// The replay is done as each response goes past (``completing(_:)``), reading that response's
/// actions then: a stream of responses read in parts on several threads replays on those threads,
/// and nothing is kept once a response is written, so memory stays that of one response.
///
/// ```swift
/// let partial = PartialResponses(survey: survey, store: store)
/// try store.forEachResponse(matching: query) { response in
///     let (shown, isPartial) = try partial.completing(response)
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
        /// For a response of another version: the answers this version does not take.
        public var orphaned: [OrphanedAnswer] = []
    }

    let survey: Survey?
    let store: (any ResponseStore)?

    /// Nothing replayed: every response is shown as stored.
    public init() {
        survey = nil
        store = nil
    }

    /// Replays the in-progress and abandoned responses of `store` that answer `survey` (same id, any
    /// version), each when it is shown.
    ///
    /// A store's streaming reads (``ResponseStore/forEachResponse(matching:_:)``) must allow
    /// ``ResponseStore/actions(of:)`` from within their body, as the stores of this package do.
    public init(survey: Survey, store: any ResponseStore) {
        self.survey = survey
        self.store = store
    }

    /// Whether `response` is replayed: it is unfinished, has actions, and answers the survey's id.
    public func replays(_ response: Response) -> Bool {
        guard let survey else { return false }
        return (response.status == .inProgress || response.status == .abandoned) && response.actionCount > 0
            && response.surveyID == survey.id
    }

    /// `response`'s path and answers so far, replayed from its stored actions; `nil` when it is not
    /// replayed (``replays(_:)``).
    /// - Throws: ``StoreError`` when its actions cannot be read.
    public func soFar(of response: Response) throws(StoreError) -> SoFar? {
        guard replays(response), let survey, let store else { return nil }
        let actions = try store.actions(of: response.id)
        guard response.surveyVersion == survey.definition.version else {
            let migration = ResponseMigration.replay(response, actions: actions, on: survey)
            let result = migration.session.completionResult()
            return SoFar(path: result.path, answers: result.answers, orphaned: migration.orphaned)
        }
        return Self.replay(response, actions: actions, survey: survey)
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

    /// Whether `response` is unfinished (in progress or abandoned, with actions) and is not replayed:
    /// it is shown as stored, without its answers so far (`"answers": {}`), because the survey was
    /// not given.
    public func isShownAsStored(_ response: Response) -> Bool {
        (response.status == .inProgress || response.status == .abandoned) && response.actionCount > 0
            && !replays(response)
    }

    /// `response` with its path and answers so far when it is replayed (`isPartial` is then true),
    /// else as it is.
    /// - Throws: ``StoreError`` when its actions cannot be read.
    public func completing(_ response: Response) throws(StoreError) -> (response: Response, isPartial: Bool) {
        guard let soFar = try soFar(of: response) else { return (response, false) }
        var shown = response
        shown.path = soFar.path
        shown.answers = soFar.answers
        // An abandoned response keeps the answers set aside when it was abandoned: not shown twice.
        shown.orphaned += soFar.orphaned.filter { orphan in
            !response.orphaned.contains { $0.stepID == orphan.stepID && $0.value == orphan.value }
        }
        return (shown, true)
    }
}

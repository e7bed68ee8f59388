/// Rewrites the answers of a run into another data shape, for hosts that expect it: SurveyImport's
/// `SurveyJSDataShape` gives survey-core's data for a converted SurveyJS survey (Other as `"other"`
/// with the text in `<id>-Comment`, a dynamic panel's empty panels).
///
/// Set one on a ``Survey`` (``Survey/resultShape``); ``SurveySession/completionResult()`` applies it,
/// so every front end, test and store that reads completion results sees the same shape.
///
/// ```swift
/// struct Uppercased: ResultShape {
///     func shape(_ answers: [String: JSONValue], of session: SurveySession) -> [String: JSONValue] {
///         Dictionary(uniqueKeysWithValues: answers.map { ($0.key.uppercased(), $0.value) })
///     }
/// }
/// var survey = try SurveyLoader(registry: .builtins()).load(text: json)
/// survey.resultShape = Uppercased()
/// ```
public protocol ResultShape: Sendable {
    /// `answers` (the run's answers by step id, as the engine keeps them) in this shape. `session`
    /// says what the run showed (its path, what is visible).
    func shape(_ answers: [String: JSONValue], of session: SurveySession) -> [String: JSONValue]

    /// Result keys this shape adds that name no step (`<id>-total`): expectations may name them.
    var addedKeys: Set<String> { get }

    /// `data`, a response in this shape, as the answers a session takes, by answer key: the inverse of
    /// ``shape(_:of:)`` as far as there is one (a response audit replays these, then compares what the
    /// replay's result gives in this shape with `data`). By default `data` as it is.
    func answers(fromShaped data: [String: JSONValue]) -> [String: JSONValue]

    /// Scripted answers written as this shape keeps them, as answers by step id: a step whose answer
    /// the shape stores under another step's key (a second SurveyJS question of one name) gets the
    /// answer given for that key. By default the answers as given.
    func scriptAnswers(_ answers: [String: JSONValue]) -> [String: JSONValue]
}

extension ResultShape {
    public var addedKeys: Set<String> { [] }

    public func answers(fromShaped data: [String: JSONValue]) -> [String: JSONValue] { data }
    public func scriptAnswers(_ answers: [String: JSONValue]) -> [String: JSONValue] { answers }
}

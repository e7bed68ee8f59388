import SurveyCore

/// "Where did you hear about us?": one source from a list of presets and custom sources.
///
/// | Option | Type | Default | Meaning |
/// |---|---|---|---|
/// | `sources` | array | every preset, in the order below | Preset ids (strings) and custom sources `{ "value", "label"?, "icon"?, "visibleIf"? }`; values unique. |
/// | `shuffle` | Boolean | `false` | Offer the sources in a seeded random order. The `other` preset is then moved last; front ends are expected to keep `isOther` choices in place when shuffling. |
/// | `presentation` | string | none | A presentation hint such as `"icons"`. |
///
/// Presets (value, label, icon name = value): `app-store` App Store, `google` Google, `instagram`
/// Instagram, `tiktok` TikTok, `youtube` YouTube, `facebook` Facebook, `x` X (Twitter), `reddit`
/// Reddit, `threads` Threads, `linkedin` LinkedIn, `product-hunt` Product Hunt, `referral` Friend or
/// colleague, `podcast` Podcast, `article` Article or blog, `other` Other (asks for the respondent's
/// own text). Custom sources without an `icon` get no icon name.
///
/// **Answer:** as for `single-choice`: a source value, or (with the `other` preset) the respondent's
/// own text. Errors: `wrongShape`, `notAChoice` (`value`), `otherTextRequired`, and `required` for an
/// empty answer.
///
/// ```json
/// { "id": "heard", "type": "discovery-source", "title": "Where did you hear about us?",
///   "options": { "sources": ["google", "tiktok", { "value": "meetup", "label": "A meetup" }, "other"] } }
/// ```
public struct DiscoverySourceType: SummarizedByInput {
    /// The decoded options of a discovery-source question.
    public struct Options: Sendable {
        var sources: ChoiceSet
    }

    /// The preset sources, in default order.
    static let presets: [ChoiceDefinition] = {
        let brands: [(String, String)] = [
            ("app-store", "App Store"), ("google", "Google"), ("instagram", "Instagram"), ("tiktok", "TikTok"),
            ("youtube", "YouTube"), ("facebook", "Facebook"), ("x", "X (Twitter)"), ("reddit", "Reddit"),
            ("threads", "Threads"), ("linkedin", "LinkedIn"), ("product-hunt", "Product Hunt"),
        ]
        var presets = brands.map {
            ChoiceDefinition(value: $0.0, label: .authored(LocalizedText($0.1)), iconName: $0.0)
        }
        presets.append(ChoiceDefinition(value: "referral", label: .builtin(.referral), iconName: "referral"))
        presets.append(ChoiceDefinition(value: "podcast", label: .builtin(.podcast), iconName: "podcast"))
        presets.append(ChoiceDefinition(value: "article", label: .builtin(.article), iconName: "article"))
        presets.append(ChoiceDefinition(value: "other", label: .uiString(.other), iconName: "other", isOther: true))
        return presets
    }()

    /// Creates the type (its configuration comes from each question's options).
    public init() {}

    public var typeID: String { "discovery-source" }
    public var summary: String {
        "\"Where did you hear about us?\" with App Store, Google, TikTok… presets and custom sources"
    }

    public func makeOptions(from reader: inout OptionsReader) throws(SurveyError) -> Options {
        let presetIDs = Self.presets.map(\.value)
        var sources =
            try ChoiceList.read("sources", from: &reader) {
                (json, path, stepID) throws(SurveyError) -> ChoiceDefinition in
                guard case .string(let id) = json else {
                    return try ChoiceList.element(json, path: path, stepID: stepID, form: .full)
                }
                guard let preset = Self.presets.first(where: { $0.value == id }) else {
                    throw SurveyError(
                        .invalidOptions,
                        Suggestion.unknown("preset source", id, validValues: presetIDs)
                            + "; write custom sources as { \"value\": …, \"label\": … }",
                        path: path, stepID: stepID)
                }
                return preset
            } ?? Self.presets
        let isShuffled = try reader.bool("shuffle", default: false)
        if isShuffled, let index = sources.firstIndex(where: \.isOther) {
            sources.append(sources.remove(at: index))
        }
        return Options(
            sources: ChoiceSet(
                choices: sources, isShuffled: isShuffled, presentation: try ChoiceSet.readPresentation(from: &reader)))
    }

    public func input(for options: Options, in context: PresentationContext) -> InputPrimitive {
        .singleChoice(options.sources.input(in: context))
    }

    public func normalize(_ answer: JSONValue, options: Options) throws(AnswerError) -> JSONValue {
        if answer.isEmptyAnswer { throw AnswerError.required }
        return try options.sources.select(answer).jsonValue
    }
}

import SurveyCore

/// A content step that asks nothing: a title (the step's own `title`), body text and an optional
/// image, video or audio reference.
///
/// | Option | Type | Default | Meaning |
/// |---|---|---|---|
/// | `body` | text | none | The text shown under the title. |
/// | `media` | object | none | `{ "url" or "file": string, "kind": "image" \| "video" \| "audio", "alt"?: text }` — exactly one of `url` and `file`. |
///
/// **Answer:** none. ``collectsAnswer`` is `false`, the input primitive is `.none`, and
/// ``normalize(_:options:)`` throws `notAnswerable`.
///
/// Renderers receive `body` and `media` as ``QuestionPresentation/content`` (the input primitive is
/// `.none`).
///
/// ```json
/// { "id": "welcome", "type": "content", "title": "Welcome!",
///   "options": { "body": "This takes two minutes.",
///                "media": { "url": "https://example.com/hello.png", "kind": "image", "alt": "A wave" } } }
/// ```
public struct ContentType: SummarizedByInput {
    /// The decoded options of a content step.
    public struct Options: Sendable, Hashable {
        /// The body text.
        public var body: LocalizedText?
        /// The media reference.
        public var media: Media?
    }

    /// An image, video or audio file shown by a content step.
    public struct Media: Sendable, Hashable {
        /// The URL or file path.
        public var reference: String
        /// Whether ``reference`` came from `url` (`true`) or `file` (`false`).
        public var isURL: Bool
        /// `"image"`, `"video"` or `"audio"`.
        public var kind: String
        /// A text alternative.
        public var alternativeText: LocalizedText?
    }

    /// Creates the type (its configuration comes from each question's options).
    public init() {}

    public var typeID: String { "content" }
    public var summary: String { "A content step (title, body, image/video/audio) that takes no answer" }
    public var collectsAnswer: Bool { false }

    public func makeOptions(from reader: inout OptionsReader) throws(SurveyError) -> Options {
        var options = Options(body: try reader.optionalText("body"))
        if reader.value("media") != nil {
            var media = try reader.object("media")
            let url = try media.optionalString("url")
            let file = try media.optionalString("file")
            let reference: String
            switch (url, file) {
            case (let url?, nil): reference = url
            case (nil, let file?): reference = file
            case (_?, _?):
                throw media.error("file", "give either 'url' or 'file', not both", kind: .invalidOptions)
            case (nil, nil):
                throw media.error(nil, "missing required member 'url' or 'file' (a string)", kind: .missingField)
            }
            guard !reference.isEmpty else {
                throw media.error(
                    url == nil ? "file" : "url", "the media reference must not be empty", kind: .invalidOptions)
            }
            let kind = try media.string("kind")
            guard ["image", "video", "audio"].contains(kind) else {
                throw media.error(
                    "kind", Suggestion.unknown("media kind", kind, validValues: ["image", "video", "audio"]))
            }
            let alt = try media.optionalText("alt")
            try media.finish()
            options.media = Media(reference: reference, isURL: url != nil, kind: kind, alternativeText: alt)
        }
        return options
    }

    public func input(for options: Options, in context: PresentationContext) -> InputPrimitive {
        .none
    }

    public func content(for options: Options, in context: PresentationContext) -> ContentPresentation? {
        ContentPresentation(
            body: context.text(options.body),
            media: options.media.map {
                MediaReference(
                    reference: $0.reference, isURL: $0.isURL, kind: $0.kind,
                    alternativeText: context.text($0.alternativeText))
            })
    }

    public func normalize(_ answer: JSONValue, options: Options) throws(AnswerError) -> JSONValue {
        throw AnswerError(code: "notAnswerable", message: "This step takes no answer.")
    }
}

/// What a content step shows besides its title: body text and an optional media reference.
///
/// Question types that present content (like the built-in `content` type) return it from
/// ``QuestionType/content(for:in:)``; renderers find it on ``QuestionPresentation/content``.
public struct ContentPresentation: Sendable, Hashable {
    /// Body text, localised (and piped when presented by a session).
    public var body: String?
    /// An image, video or audio reference.
    public var media: MediaReference?

    public init(body: String? = nil, media: MediaReference? = nil) {
        self.body = body
        self.media = media
    }

    /// `{"body": …, "media": {"reference", "isURL", "kind", "alt"}}`, leaving out what is absent.
    public var jsonValue: JSONValue {
        var members: [String: JSONValue] = [:]
        if let body { members["body"] = .string(body) }
        if let media { members["media"] = media.jsonValue }
        return .object(members)
    }
}

/// A reference to media shown by a content step; never the bytes themselves.
public struct MediaReference: Sendable, Hashable {
    /// A URL or a file path.
    public var reference: String
    /// Whether ``reference`` is a URL (otherwise a file path).
    public var isURL: Bool
    /// "image", "video" or "audio".
    public var kind: String
    /// Alternative text for people who cannot see or hear the media.
    public var alternativeText: String?

    public init(reference: String, isURL: Bool, kind: String, alternativeText: String? = nil) {
        self.reference = reference
        self.isURL = isURL
        self.kind = kind
        self.alternativeText = alternativeText
    }

    /// `{"reference", "isURL", "kind", "alt"?}`.
    public var jsonValue: JSONValue {
        var members: [String: JSONValue] = [
            "reference": .string(reference), "isURL": .bool(isURL), "kind": .string(kind),
        ]
        if let alternativeText { members["alt"] = .string(alternativeText) }
        return .object(members)
    }
}

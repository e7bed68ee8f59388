import SurveyCore

/// Something of a SurveyJS survey the conversion did not carry over, with where it is.
public struct ImportNote: Sendable, Hashable, CustomStringConvertible {
    /// How much leaving it out matters.
    public enum Kind: String, Sendable, Hashable {
        /// It changes what respondents see, what they are asked or what is stored: the converted
        /// survey behaves differently. `--strict` refuses a conversion with any of these.
        case notConverted = "not converted"
        /// It only changes layout or styling (widths, title positions, numbering, button texts):
        /// the flow and the data are the same without it.
        case layoutOnly = "ignored (layout only)"
        /// A name had to change or be given, with no effect on the data: a page named like a
        /// question or like an earlier page (this format keeps one namespace of unique ids), an
        /// element without a name (named as survey-core names it, `question1`).
        case renamed = "renamed"
        /// A name no question or calculated value defines, read as a value the host sets (as
        /// survey-core's `setVariable`): declared as a host variable, empty until set.
        case hostVariable = "host variable"
        /// A property an app added to an element (not one survey-core declares): survey-core keeps
        /// it and does nothing with it; the converted survey keeps it under `x-surveyjs`.
        case custom = "kept (custom)"
        /// A JSON object of the file gives a member twice: the last value is used, as JavaScript's
        /// `JSON.parse` (and so survey-core) keeps it; most likely a slip of the author.
        case repeatedKey = "repeated key"
    }

    /// How much it matters.
    public var kind: Kind
    /// Where it is in the SurveyJS JSON.
    public var path: JSONPath
    /// What was left out, e.g. "property 'maxTimeToFinish'".
    public var what: String
    /// Why, e.g. "timers are not supported".
    public var why: String
    /// The line and column of ``path`` in the source text, when known.
    public var position: SourcePosition?
    /// The source file, when known.
    public var file: String?

    public init(
        _ kind: Kind, path: JSONPath, what: String, why: String, position: SourcePosition? = nil, file: String? = nil
    ) {
        self.kind = kind
        self.path = path
        self.what = what
        self.why = why
        self.position = position
        self.file = file
    }

    /// `FILE:LINE:COL: not converted: what (why)`, and for a note that changes behaviour the JSON
    /// path too (`…; at $.pages[0].elements[2].maxTimeToFinish`).
    public var description: String {
        let place = position == nil && !path.components.isEmpty ? " at \(path)" : ""
        let located = position != nil && kind == .notConverted && !path.components.isEmpty ? "; at \(path)" : ""
        return SourcePosition.messagePrefix(file: file, position: position)
            + "\(kind.rawValue): \(what)\(place) (\(why))\(located)"
    }
}

/// A SurveyJS survey that cannot be converted at all (not an object, no pages or elements).
public struct SurveyJSImportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public var message: String
    /// Where, in the SurveyJS JSON.
    public var path: JSONPath
    /// The line and column, when known.
    public var position: SourcePosition?
    /// The source file, when known.
    public var file: String?

    public init(_ message: String, path: JSONPath = .root, position: SourcePosition? = nil, file: String? = nil) {
        self.message = message
        self.path = path
        self.position = position
        self.file = file
    }

    public var description: String {
        SourcePosition.messagePrefix(file: file, position: position) + message
    }
}

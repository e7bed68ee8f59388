import SurveyCore

/// A signature drawn by the respondent (SurveyJS's `signaturepad`), stored as a reference to the
/// image file the front end saved (path or URI), never the bytes.
///
/// | Option | Type | Default | Meaning |
/// |---|---|---|---|
/// | `formats` | non-empty array of extensions | `["png", "svg", "jpeg", "jpg"]` | Allowed image types (case-insensitive, a leading dot is ignored). |
/// | `inlineData` | Boolean | `false` | Also accept the image itself as a `data:` URI of one of those types, stored as given (SurveyJS's `storeDataAsText`, its default: what survey-core stores). |
///
/// **Answer:** `{ "file": "<path or URI>", "format"?: "<extension>" }` or a plain path string,
/// normalised to `{ "file", "format" }`; without `format` the file's extension is used (ignoring a
/// URI's query and fragment). Inline images (a `data` or `base64` member, or a `data:` URI such as
/// SurveyJS stores) are refused unless `inlineData` says otherwise: then a `data:image/…` URI is the
/// answer as it is. Errors: `wrongShape`, `unsupportedFormat` (`formats`).
///
/// As an input it is a `file-reference` with presentation `"signature"` and `maxFiles` 1; the
/// terminal asks for the image's path. The summary counts signatures per format.
///
/// ```json
/// { "id": "signed", "type": "signature", "title": "Sign here", "required": true }
/// ```
public struct SignatureType: SummarizesTallies {
    /// The decoded options of a signature question.
    public struct Options: Sendable {
        var formats: [String]
        var acceptsInlineData = false
    }

    static let defaultFormats = ["png", "svg", "jpeg", "jpg"]

    /// Creates the type (its configuration comes from each question's options).
    public init() {}

    public var typeID: String { "signature" }
    public var summary: String { "A drawn signature, stored as a reference to its image file (png, svg, jpeg)" }

    public func makeOptions(from reader: inout OptionsReader) throws(SurveyError) -> Options {
        Options(
            formats: try FileReferences.formats(from: &reader, default: Self.defaultFormats),
            acceptsInlineData: try reader.bool("inlineData", default: false))
    }

    public func input(for options: Options, in context: PresentationContext) -> InputPrimitive {
        .fileReference(FileInput(allowedFormats: options.formats, presentation: "signature", maximumCount: 1))
    }

    public func normalize(_ answer: JSONValue, options: Options) throws(AnswerError) -> JSONValue {
        if answer.isNull { return .null }
        if options.acceptsInlineData, case .string(let text) = answer, FileReferences.isDataURI(text) {
            // `data:image/png;base64,…`: the type must be one of the formats.
            let type = text.trimmed.dropFirst(5).prefix { $0 != ";" && $0 != "," }.lowercased()
            let format = type.hasPrefix("image/") ? FileReferences.canonicalFormat(String(type.dropFirst(6))) : ""
            guard options.formats.contains(format) || (format == "svg+xml" && options.formats.contains("svg")) else {
                throw FileReferences.unsupportedFormat(options.formats)
            }
            return .string(text.trimmed)
        }
        let reference = try FileReferences.reference(answer, inlineData: Self.inlineData)
        let file = reference.file
        let format = reference.format
        if file.isEmpty { return .null }
        if FileReferences.isDataURI(file) { throw Self.inlineData }
        guard let format = format ?? FileReferences.fileExtension(of: file), options.formats.contains(format) else {
            throw FileReferences.unsupportedFormat(options.formats)
        }
        return .object(["file": .string(file), "format": .string(format)])
    }

    public func summarize(_ tally: AnswerTally, options: Options, in context: PresentationContext) -> AnswerSummary {
        let answers = tally.answers
        let answered = answers.filter { !$0.isEmptyAnswer }
        return AnswerSummary(
            answered: answered.count,
            buckets: FileReferences.formatBuckets(options.formats, files: answered.map { [$0] }))
    }

    static let inlineData = FileReferences.inlineData("the signature image", kind: "image")
}

import SurveyCore

/// A recorded audio answer, stored as a reference to the file (path or URI), never the bytes.
///
/// | Option | Type | Default | Meaning |
/// |---|---|---|---|
/// | `maxDurationSeconds` | number > 0 | `120` | Longest allowed recording. |
/// | `formats` | non-empty array of extensions | `["m4a", "wav", "mp3", "ogg", "opus"]` | Allowed file types (case-insensitive, a leading dot is ignored). |
///
/// **Answer:** `{ "file": "<path or URI>", "durationSeconds"?: number, "format"?: "<extension>" }`,
/// or a plain string path, normalised to `{ "file", "format" }` (plus `durationSeconds` when given).
/// Without `format` the file's extension is used (ignoring a URI's query and fragment); formats are
/// lower-cased. Inline audio (a `data` or `base64` member, or a `data:` URI) is rejected: store a
/// reference, not the bytes. Errors: `wrongShape`, `unsupportedFormat` (`formats`, the allowed list),
/// `tooLongRecording` (`max`), `notANumber` and `belowMinimum` (`min`) for a bad duration.
///
/// The summary counts answers per format (in `formats` order) and gives the mean, median, minimum
/// and maximum of the durations that were reported.
///
/// ```json
/// { "id": "voice", "type": "voice", "title": "Tell us in your own words",
///   "options": { "maxDurationSeconds": 60, "formats": ["m4a", "wav"] } }
/// ```
public struct VoiceType: SummarizesTallies {
    /// The decoded options of a voice question.
    public struct Options: Sendable {
        var maximumDuration: Double
        var formats: [String]
    }

    static let defaultFormats = ["m4a", "wav", "mp3", "ogg", "opus"]

    /// Creates the type (its configuration comes from each question's options).
    public init() {}

    public var typeID: String { "voice" }
    public var summary: String { "A recorded audio answer, stored as a file reference with a maximum duration" }

    public func makeOptions(from reader: inout OptionsReader) throws(SurveyError) -> Options {
        let maximum = try reader.double("maxDurationSeconds", default: 120)
        guard maximum > 0 else {
            throw reader.error(
                "maxDurationSeconds", "'maxDurationSeconds' must be greater than 0", kind: .invalidOptions)
        }
        let formats = try FileReferences.formats(from: &reader, default: Self.defaultFormats)
        return Options(maximumDuration: maximum, formats: formats)
    }

    public func input(for options: Options, in context: PresentationContext) -> InputPrimitive {
        .fileReference(
            FileInput(
                allowedFormats: options.formats, maximumDurationSeconds: options.maximumDuration, presentation: "audio")
        )
    }

    public func normalize(_ answer: JSONValue, options: Options) throws(AnswerError) -> JSONValue {
        var duration: Double?
        let reference = try FileReferences.reference(answer, extra: ["durationSeconds"], inlineData: Self.inlineData)
        let file = reference.file
        if let seconds = reference.form?.members["durationSeconds"] {
            duration = try NumberRules.number(from: seconds, field: "durationSeconds")
        }
        if file.isEmpty { throw AnswerError.wrongShape(expected: "a file path or URI", got: .string(file)) }
        if FileReferences.isDataURI(file) { throw Self.inlineData }
        guard let format = reference.format ?? FileReferences.fileExtension(of: file), options.formats.contains(format)
        else {
            throw FileReferences.unsupportedFormat(options.formats)
        }
        var result: [String: JSONValue] = ["file": .string(file), "format": .string(format)]
        if let duration {
            try NumberRules.check(duration, minimum: 0, field: "durationSeconds")
            guard duration <= options.maximumDuration else {
                let text = JSONValue.format(number: options.maximumDuration)
                throw AnswerError(
                    code: "tooLongRecording", message: "The recording may be at most \(text) seconds long.",
                    arguments: ["max": text], field: "durationSeconds")
            }
            result["durationSeconds"] = .number(duration)
        }
        return .object(result)
    }

    public func summarize(_ tally: AnswerTally, options: Options, in context: PresentationContext) -> AnswerSummary {
        let answers = tally.answers
        let answered = answers.filter { !$0.isEmptyAnswer }
        let durations = answered.compactMap { $0["durationSeconds"]?.numberValue }.sorted()
        return AnswerSummary(
            answered: answered.count,
            buckets: options.formats.map { format in
                let count = answered.filter { $0["format"]?.stringValue == format }.count
                return .init(
                    value: format, label: format, count: count,
                    percentage: Summaries.percentage(count, of: answered.count))
            },
            mean: InputPrimitive.mean(durations), median: InputPrimitive.median(durations),
            minimum: durations.first, maximum: durations.last)
    }

    static let inlineData = FileReferences.inlineData("the recording", kind: "audio")
}

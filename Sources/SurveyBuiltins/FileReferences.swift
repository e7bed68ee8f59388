import SurveyCore

/// What the kinds that store a reference to a file (`voice`, `file`, `signature`) share: the
/// `formats` option, a file's extension, and the refusal of inline bytes.
enum FileReferences {
    /// Reads a `formats` option (file extensions, case-insensitive, a leading dot ignored), or
    /// returns `defaults` when it is absent. An empty list is refused: leave the option out instead.
    static func formats(from reader: inout OptionsReader, default defaults: [String]) throws(SurveyError) -> [String] {
        try optionalFormats(from: &reader) ?? defaults
    }

    /// Reads a `formats` option, or `nil` when it is absent (any file type).
    static func optionalFormats(from reader: inout OptionsReader) throws(SurveyError) -> [String]? {
        guard let names = try reader.optionalStringArray("formats") else { return nil }
        guard !names.isEmpty else {
            throw reader.error("formats", "'formats' must list at least one file type", kind: .invalidOptions)
        }
        var formats: [String] = []
        for (index, name) in names.enumerated() {
            let format = canonicalFormat(name)
            let path = reader.path.appending("formats").appending(index)
            guard !format.isEmpty, !format.contains("/") else {
                throw SurveyError(
                    .invalidOptions, "'\(name)' is not a file extension such as \"pdf\"", path: path,
                    stepID: reader.stepID)
            }
            guard !formats.contains(format) else {
                throw SurveyError(
                    .invalidOptions, "format '\(format)' is listed twice", path: path, stepID: reader.stepID)
            }
            formats.append(format)
        }
        return formats
    }

    /// Lower-cased, without a leading dot.
    static func canonicalFormat(_ name: String) -> String {
        let lowered = name.trimmed.lowercased()
        return lowered.hasPrefix(".") ? String(lowered.dropFirst()) : lowered
    }

    /// The path or URI without a URI's query and fragment.
    static func pathPart(of file: String) -> Substring {
        var path = Substring(file)
        if file.contains("://"), let end = path.firstIndex(where: { $0 == "?" || $0 == "#" }) {
            path = path[..<end]
        }
        return path
    }

    /// The last component of a path or URI (ignoring a URI's query and fragment).
    static func fileName(of file: String) -> String {
        let path = pathPart(of: file)
        return String(path.split(separator: "/", omittingEmptySubsequences: false).last ?? path)
    }

    /// The lower-cased extension of a path or URI's last component, ignoring a URI's query and fragment.
    static func fileExtension(of file: String) -> String? {
        let name = fileName(of: file)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        let ext = name[name.index(after: dot)...]
        return ext.isEmpty ? nil : ext.lowercased()
    }

    /// Whether an answer object carries the bytes themselves (a `data`/`base64` member, or a
    /// `data:` URI in `file` or `content`).
    static func carriesBytes(_ members: [String: JSONValue]) -> Bool {
        if members["data"] != nil || members["base64"] != nil { return true }
        return ["file", "content"].contains { key in
            members[key]?.stringValue.map(isDataURI) ?? false
        }
    }

    static func isDataURI(_ text: String) -> Bool {
        text.trimmed.lowercased().hasPrefix("data:")
    }

    /// The refusal of inline bytes, naming what should be stored instead (`what`: "the recording").
    static func inlineData(_ what: String, kind: String) -> AnswerError {
        AnswerError(
            code: "wrongShape", message: "Store a reference to \(what) (a file path or URI), not the \(kind) bytes.",
            arguments: ["expected": "a file path or URI", "got": "inline \(kind) data"])
    }

    /// One file answer: a path string, or `{ "file", "format"?, …extra }`.
    /// - Returns: the trimmed path, the canonical `format` when given, and the form (for `extra` members).
    /// - Throws: `wrongShape` (a shape other than those, a missing `file`, an unknown member, or inline
    ///   bytes, as `inlineData`).
    static func reference(
        _ answer: JSONValue, extra: [String] = [], inlineData: AnswerError
    ) throws(AnswerError) -> (file: String, format: String?, form: FormAnswer?) {
        switch answer {
        case .string(let path):
            return (path.trimmed, nil, nil)
        case .object(let members):
            if carriesBytes(members) { throw inlineData }
            let form = try FormAnswer(
                answer, allowed: ["file", "format"] + extra, describedAs: "an object with a 'file'")
            guard let path = try form.text("file") else {
                var error = AnswerError.wrongShape(expected: "a file path or URI", got: form.members["file"] ?? .null)
                error.field = "file"
                throw error
            }
            return (path, try form.text("format").map(canonicalFormat), form)
        default:
            throw AnswerError.wrongShape(expected: "a file path or an object with a 'file'", got: answer)
        }
    }

    /// `unsupportedFormat` with the allowed list.
    static func unsupportedFormat(_ formats: [String], field: String? = nil) -> AnswerError {
        let list = formats.joined(separator: ", ")
        return AnswerError(
            code: "unsupportedFormat", message: "Use a file of type \(list).", arguments: ["formats": list],
            field: field)
    }

    /// A summary bucket per format, in `formats` order, of answers whose files have that `format`
    /// (a file answer counts once per format it holds).
    static func formatBuckets(_ formats: [String], files: [[JSONValue]]) -> [AnswerSummary.Bucket] {
        formats.map { format in
            let count = files.filter { list in list.contains { $0["format"]?.stringValue == format } }.count
            return .init(
                value: format, label: format, count: count, percentage: Summaries.percentage(count, of: files.count))
        }
    }
}

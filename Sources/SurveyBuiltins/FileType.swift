import SurveyCore

/// Files the respondent attaches (SurveyJS's `file`), stored as references (paths or URIs), never
/// the bytes.
///
/// | Option | Type | Default | Meaning |
/// |---|---|---|---|
/// | `formats` | non-empty array of extensions | any | Allowed file types (case-insensitive, a leading dot is ignored). |
/// | `maxSizeBytes` | integer ≥ 1 | none | Largest allowed file, checked against each file's `size` when it is given (the terminal fills it in for local files). |
/// | `multiple` | Boolean | `false` | Whether several files may be attached (SurveyJS's `allowMultiple`). |
/// | `maxFiles` | integer ≥ 1 | none | Most files, with `multiple`. |
/// | `inlineData` | Boolean | `false` | Also accept a file given as its bytes, `{ "name", "type"?, "content": "data:…" }`, stored as given (SurveyJS's `storeDataAsText`, its default: what survey-core stores); its size is the decoded bytes'. |
///
/// **Answer:** an array of files, each `{ "file": "<path or URI>", "name"?, "type"?, "size"?, "format"? }`
/// (`content` is accepted for `file`, as SurveyJS stores a URL there); a plain path string, or one
/// file object, is one file. Normalised to `{ "file", "name", "format"?, "type"?, "size"? }` per file:
/// `name` defaults to the path's last component, `format` to its extension (lower-cased), `type` is
/// the MIME type as given, `size` a whole number of bytes. An empty array is no answer. Inline bytes (a
/// `data` or `base64` member, or a `data:` URI) are refused unless `inlineData` says otherwise. Errors (with `field` `files[i].member`
/// where one file is at fault): `wrongShape`, `unsupportedFormat` (`formats`), `fileTooLarge` (`max`,
/// e.g. "5 MB"), `tooManyFiles` (`max`). The engine never sees the bytes, so a file without `size`
/// cannot be checked against `maxSizeBytes`: front ends that have the file should send its size.
///
/// As an input it is a `file-reference` with presentation `"file"` and `maxSizeBytes` / `maxFiles`
/// (`1` unless `multiple`); the terminal takes paths separated by commas and fills in each local
/// file's size. The summary counts answers per format and gives the mean, median, minimum and
/// maximum number of files.
///
/// ```json
/// { "id": "cv", "type": "file", "title": "Attach your CV",
///   "options": { "formats": ["pdf", "docx"], "maxSizeBytes": 5242880 } }
/// ```
public struct FileType: SummarizesTallies {
    /// The decoded options of a file question.
    public struct Options: Sendable {
        var formats: [String]?
        var maximumSize: Int?
        var allowsMultiple: Bool
        var maximumCount: Int?
        var acceptsInlineData = false
    }

    static let members = ["file", "content", "name", "type", "size", "format"]

    /// Creates the type (its configuration comes from each question's options).
    public init() {}

    public var typeID: String { "file" }
    public var summary: String {
        "Attached files, stored as references (path or URI) with allowed types, size and count"
    }

    public func makeOptions(from reader: inout OptionsReader) throws(SurveyError) -> Options {
        let formats = try FileReferences.optionalFormats(from: &reader)
        let maximumSize = try reader.optionalInt("maxSizeBytes", in: 1...Int(Int64.max / 2))
        let multiple = try reader.bool("multiple", default: false)
        let maximumCount = try reader.optionalInt("maxFiles", in: 1...100_000)
        if maximumCount != nil, !multiple {
            throw reader.error(
                "maxFiles", "'maxFiles' needs \"multiple\": true (a single-file question takes one file)",
                kind: .invalidOptions)
        }
        return Options(
            formats: formats, maximumSize: maximumSize, allowsMultiple: multiple, maximumCount: maximumCount,
            acceptsInlineData: try reader.bool("inlineData", default: false))
    }

    public func input(for options: Options, in context: PresentationContext) -> InputPrimitive {
        .fileReference(
            FileInput(
                allowedFormats: options.formats ?? [], presentation: "file", maximumSizeBytes: options.maximumSize,
                maximumCount: options.allowsMultiple ? options.maximumCount : 1))
    }

    public func parse(line: String, options: Options, in context: PresentationContext) throws(AnswerError) -> JSONValue
    {
        let paths = options.allowsMultiple ? line.split(separator: ",").map { String($0).trimmed } : [line.trimmed]
        return .array(paths.filter { !$0.isEmpty }.map { .object(["file": .string($0)]) })
    }

    public func normalize(_ answer: JSONValue, options: Options) throws(AnswerError) -> JSONValue {
        let files: [JSONValue]
        switch answer {
        case .null: return .null
        case .array(let list): files = list
        case .string, .object: files = [answer]
        default:
            throw AnswerError.wrongShape(expected: "an array of files (paths or objects with a 'file')", got: answer)
        }
        if files.isEmpty { return .null }
        let maximum = options.allowsMultiple ? options.maximumCount : 1
        if let maximum, files.count > maximum {
            throw AnswerError(
                code: "tooManyFiles", message: "Attach at most \(maximum) files.", arguments: ["max": String(maximum)])
        }
        var result: [JSONValue] = []
        for (index, file) in files.enumerated() {
            result.append(try normalize(file: file, field: "files[\(index)]", options: options))
        }
        return .array(result)
    }

    func normalize(file: JSONValue, field: String, options: Options) throws(AnswerError) -> JSONValue {
        func fault(_ error: AnswerError, _ member: String? = nil) -> AnswerError {
            var error = error
            error.field = member.map { "\(field).\($0)" } ?? field
            return error
        }
        var members: [String: JSONValue] = [:]
        switch file {
        case .string(let path): members["file"] = .string(path)
        case .object(let object):
            if options.acceptsInlineData, let content = object["content"]?.stringValue,
                FileReferences.isDataURI(content)
            {
                return try inline(object, content: content, options: options, fault: fault)
            }
            if FileReferences.carriesBytes(object) { throw fault(Self.inlineData) }
            members = object
        default:
            throw fault(AnswerError.wrongShape(expected: "a file path or an object with a 'file'", got: file))
        }
        let form: FormAnswer
        do {
            form = try FormAnswer(.object(members), allowed: Self.members, describedAs: "a file object")
        } catch { throw fault(error, error.field) }
        members = form.members
        func text(_ key: String) throws(AnswerError) -> String? {
            do { return try form.text(key) } catch { throw fault(error, key) }
        }
        if members["file"] != nil, members["content"] != nil {
            throw fault(
                AnswerError(
                    code: "wrongShape", message: "Give the file as 'file' or 'content', not both.",
                    arguments: ["expected": "one of 'file' and 'content'", "got": "both"]), "content")
        }
        var given = try text("file")
        if given == nil { given = try text("content") }
        guard let path = given else {
            throw fault(
                AnswerError.wrongShape(expected: "a file path or URI", got: members["file"] ?? .null), "file")
        }
        if FileReferences.isDataURI(path) { throw fault(Self.inlineData) }
        var result: [String: JSONValue] = ["file": .string(path)]
        let name = try text("name") ?? FileReferences.fileName(of: path)
        result["name"] = .string(name)
        let format =
            try text("format").map(FileReferences.canonicalFormat) ?? FileReferences.fileExtension(of: name)
            ?? FileReferences.fileExtension(of: path)
        if let formats = options.formats {
            guard let format, formats.contains(format) else {
                throw fault(FileReferences.unsupportedFormat(formats))
            }
        }
        if let format { result["format"] = .string(format) }
        if let type = try text("type") { result["type"] = .string(type) }
        if let size = members["size"] {
            let bytes: Double
            do { bytes = try NumberRules.number(from: size, field: "size") } catch { throw fault(error, "size") }
            guard bytes >= 0, bytes == bytes.rounded(), bytes <= Double(Int64.max / 2) else {
                throw fault(AnswerError.wrongShape(expected: "a whole number of bytes", got: size), "size")
            }
            if let maximum = options.maximumSize, bytes > Double(maximum) {
                let limit = FileInput.byteCount(maximum)
                throw fault(
                    AnswerError(
                        code: "fileTooLarge", message: "The file may be at most \(limit).", arguments: ["max": limit]),
                    "size")
            }
            result["size"] = .number(bytes)
        }
        return .object(result)
    }

    /// A file given as its bytes (`inlineData`): `{ "name", "type"?, "content": "data:…" }` kept as given,
    /// its format (from the name) and decoded size checked.
    func inline(
        _ object: [String: JSONValue], content: String, options: Options, fault: (AnswerError, String?) -> AnswerError
    ) throws(AnswerError) -> JSONValue {
        let form: FormAnswer
        do {
            form = try FormAnswer(.object(object), allowed: ["name", "type", "content"], describedAs: "a file object")
        } catch { throw fault(error, error.field) }
        let given: String?
        do { given = try form.text("name") } catch { throw fault(error, "name") }
        guard let name = given else {
            throw fault(AnswerError.wrongShape(expected: "the file's name", got: object["name"] ?? .null), "name")
        }
        if let formats = options.formats {
            guard let format = FileReferences.fileExtension(of: name), formats.contains(format) else {
                throw fault(FileReferences.unsupportedFormat(formats), nil)
            }
        }
        // Base64 holds 3 bytes in 4 characters.
        let encoded = content.split(separator: ",", maxSplits: 1).last.map(\.utf8.count) ?? 0
        if let maximum = options.maximumSize, encoded / 4 * 3 > maximum {
            let limit = FileInput.byteCount(maximum)
            throw fault(
                AnswerError(
                    code: "fileTooLarge", message: "The file may be at most \(limit).", arguments: ["max": limit]),
                "content")
        }
        var result: [String: JSONValue] = ["name": .string(name), "content": .string(content)]
        if let type = object["type"]?.stringValue { result["type"] = .string(type) }
        return .object(result)
    }

    public func summarize(_ tally: AnswerTally, options: Options, in context: PresentationContext) -> AnswerSummary {
        let answers = tally.answers
        let files = answers.filter { !$0.isEmptyAnswer }.compactMap(\.arrayValue)
        let counts = files.map { Double($0.count) }.sorted()
        var formats = options.formats ?? []
        if options.formats == nil {
            var seen = Set<String>()
            for list in files {
                for file in list {
                    if let format = file["format"]?.stringValue, seen.insert(format).inserted { formats.append(format) }
                }
            }
            formats.sort()
        }
        return AnswerSummary(
            answered: files.count, buckets: FileReferences.formatBuckets(formats, files: files),
            mean: InputPrimitive.mean(counts), median: InputPrimitive.median(counts), minimum: counts.first,
            maximum: counts.last)
    }

    static let inlineData = FileReferences.inlineData("the file", kind: "file")
}

import Foundation
import SurveyCore

/// Survey sources as a host reads them: a file or a remote survey, in this engine's format or
/// SurveyJS's (converted in memory), or a document that makes a survey (a question table), with
/// remote choice lists filled in; every load error is placed in the file as its author wrote it.
///
/// The network is not this library's: give a ``RemoteSurveyContent`` (SurveyDelivery's fetcher, in
/// the `survey` command) to read remote surveys, question tables and `choicesByUrl`; without one,
/// only files are read and those documents load as they are.
///
/// ```swift
/// let source = SurveySource(loader: SurveyLoader(registry: .builtins())) { print("warning: \($0)") }
/// let text = try source.read("intake.surveyjs.json")
/// let survey = try source.load(text, file: "intake.surveyjs.json")  // errors at SurveyJS elements
/// ```
public struct SurveySource {
    /// Loads (and checks) surveys.
    public var loader: SurveyLoader
    /// Remote surveys, question tables and choice lists; `nil`: files only.
    public var remote: (any RemoteSurveyContent)?
    /// Told each warning for the user (an element not converted, a cached copy used offline), as it happens.
    public var warn: (String) -> Void
    /// Whether a SurveyJS survey's results come in survey-core's data shape (``SurveyJSDataShape``,
    /// the default) or the engine's own (answers by step id, as for surveys in this engine's format).
    public var givesSurveyJSDataShape = true
    /// Whether a SurveyJS survey loads as survey-core loads it when an expression cannot be parsed
    /// (survey-core ignores such an expression: it is left out, with a note); by default the load
    /// refuses it, naming the expression and its place.
    public var lenientExpressions = false

    /// - Parameters:
    ///   - loader: loads the surveys, and checks a remote copy before it is used and cached.
    ///   - remote: what reads remote content; `nil` for files only.
    ///   - warn: told each warning (without a `warning:` prefix).
    public init(
        loader: SurveyLoader, remote: (any RemoteSurveyContent)? = nil, warn: @escaping (String) -> Void = { _ in }
    ) {
        self.loader = loader
        self.remote = remote
        self.warn = warn
    }

    /// The survey id for a file: its name without the directory, `.json` and `.surveyjs`.
    public static func defaultID(for file: String) -> String {
        var name = Substring(file.split(separator: "/").last ?? Substring(file))
        if name.hasSuffix(".json") { name = name.dropLast(5) }
        if name.hasSuffix(".surveyjs") { name = name.dropLast(9) }
        return name.isEmpty ? "survey" : String(name)
    }

    /// The text of the survey at `location`: a file (``TextFile/read(_:maximumSize:)``), or a remote
    /// survey when ``remote`` says it is one, fetched through its cache (a copy that does not load
    /// with ``loader`` is never used or cached; offline the cached copy is used, with a warning).
    /// - Throws: ``TextReadError`` when nothing can be read.
    public func read(_ location: String) throws(TextReadError) -> String {
        guard let remote, remote.isRemote(location) else { return try TextFile.read(location) }
        let document = try remote.fetch(location) { body in
            guard let text = String(data: body, encoding: .utf8) else { throw Refusal(description: "not UTF-8 text") }
            do throws(SurveyLoadError) {
                _ = try load(text, file: location)
            } catch {
                throw Refusal(description: error.errors.first.map { $0.description } ?? "it does not load")
            }
        }
        if let warning = document.warning { warn(warning) }
        guard let text = String(data: document.body, encoding: .utf8) else {
            throw TextReadError(location, "the survey is not UTF-8 text")
        }
        return text
    }

    /// Loads `text` (read from `file`): a SurveyJS survey (by its shape) is converted first, its
    /// elements not converted told to ``warn``, and load errors are placed at the SurveyJS elements
    /// they come from.
    /// - Throws: ``SurveyLoadError`` with every problem, positioned in `file` as written.
    public func load(_ text: String, file: String) throws(SurveyLoadError) -> Survey {
        let prepared = try prepare(text, file: file)
        do {
            var survey = try loader(for: prepared).load(text: prepared.text, source: prepared.isOriginal ? file : nil)
            if givesSurveyJSDataShape { survey.resultShape = SurveyJSDataShape(survey) }
            return survey
        } catch {
            throw SurveyLoadError(
                errors: withLenienceHint(prepared.locate(error), converted: prepared.conversion != nil))
        }
    }

    /// `errors`, each expression that does not parse in a converted SurveyJS survey saying how
    /// survey-core loads it (unless ``lenientExpressions`` is on already).
    func withLenienceHint(_ errors: [SurveyError], converted: Bool) -> [SurveyError] {
        guard converted, !lenientExpressions else { return errors }
        return errors.map { error in
            guard error.kind == .expressionSyntax else { return error }
            var hinted = error
            hinted.message +=
                " (survey-core loads the survey and ignores this expression; the lenient-expressions option"
                + " (--lenient-expressions) loads it that way here)"
            return hinted
        }
    }

    /// `text` (read from `file`) made ready to load: a SurveyJS survey converted, a question table
    /// made into its survey, and every `choicesByUrl` fetched.
    /// - Throws: ``SurveyLoadError`` for a question table or a choice list that cannot be had.
    public func prepare(_ text: String, file: String) throws(SurveyLoadError) -> PreparedSurvey {
        // One pass over the text for every key that calls for more than the loader (a byte search: a
        // survey can be 100 MB).
        let sniffed = text.containsUTF8(
            ["\"pages\"", "\"elements\"", "\"questions\""]
                + (remote.map { [$0.questionTableMarker, $0.remoteChoicesMarker] } ?? []),
            parallelism: loader.parallelism)
        if let remote, sniffed[3], let json = try? JSONParser.parse(text),
            let table = try questionTable(json, text: text, file: file, remote: remote)
        {
            return table
        }
        let conversion = sniffed[0] || sniffed[1] || sniffed[2] ? convertIfSurveyJS(text, file: file) : nil
        var prepared = PreparedSurvey(
            text: conversion?.text ?? text, isOriginal: conversion == nil, conversion: conversion, original: text,
            file: file)
        // A converted survey is already JSON; only a file's own text is parsed here.
        guard let remote,
            conversion == nil
                ? sniffed[4] : prepared.text.containsUTF8(remote.remoteChoicesMarker, parallelism: loader.parallelism),
            let json = conversion?.survey ?? (try? JSONParser.parse(prepared.text))
        else {
            return prepared
        }
        let resolution: RemoteChoices
        do {
            resolution = try remote.resolveRemoteChoices(in: json, offUnreachable: conversion != nil)
        } catch {
            throw SurveyLoadError(errors: prepared.locate(error))
        }
        for warning in resolution.warnings { warn(warning) }
        guard resolution.resolved > 0 || resolution.survey != json else { return prepared }
        prepared.text = JSONWriter.string(from: resolution.survey, pretty: true)
        prepared.isOriginal = false
        return prepared
    }

    /// The problems of loading `conversion` (of the SurveyJS text `original`, read from `file`) as a
    /// run would load it, with its `choicesByUrl` lists fetched, placed at the SurveyJS elements.
    /// - Returns: no problems when the converted survey loads.
    public func problems(of conversion: SurveyJSConversion, original: String, file: String) -> [SurveyError] {
        do throws(SurveyLoadError) {
            var checked = conversion.text
            if let remote, checked.containsUTF8(remote.remoteChoicesMarker, parallelism: loader.parallelism) {
                // The converted survey as JSON, not its text parsed again.
                let resolution = try remote.resolveRemoteChoices(in: conversion.survey, offUnreachable: true)
                for warning in resolution.warnings { warn(warning) }
                checked = JSONWriter.string(from: resolution.survey)
            }
            _ = try loader(hostFunctions: SurveyJSDataShape.hostFunctions(in: conversion.survey)).load(text: checked)
            return []
        } catch {
            return withLenienceHint(Self.locate(error, in: conversion, original: original, file: file), converted: true)
        }
    }

    /// The loader for `prepared`: with the functions a SurveyJS survey calls that no one provides
    /// giving null, as in survey-core (see ``SurveyJSDataShape/hostFunctions(in:)``). ``load(_:file:)``
    /// loads with it; a tool that loads ``prepare(_:file:)``'s result itself (`survey lint`) uses it too.
    public func loader(for prepared: PreparedSurvey) -> SurveyLoader {
        if let conversion = prepared.conversion {
            return loader(hostFunctions: SurveyJSDataShape.hostFunctions(in: conversion.survey))
        }
        // A converted file saved by `survey import`: its extension says so.
        guard prepared.text.containsUTF8("\"hostFunctions\"", parallelism: loader.parallelism),
            let json = try? JSONParser.parse(prepared.text)
        else { return loader }
        return loader(hostFunctions: SurveyJSDataShape.hostFunctions(in: json))
    }

    /// ``loader`` with each of `names` it does not have registered as a function that gives null.
    func loader(hostFunctions names: [String]) -> SurveyLoader {
        var result = loader
        for name in names where result.functions.function(named: name) == nil {
            try? result.functions.register(
                ExpressionFunction(name: name, arity: 0...Int.max, origin: "the host (not provided: null)") { _, _ in
                    .null
                })
        }
        return result
    }

    /// The survey a question table makes (`json` names the table), through ``remote``: a table that
    /// does not make a survey ``loader`` loads is never used; offline, the last good one. `nil` when
    /// `json` names no question table.
    func questionTable(_ json: JSONValue, text: String, file: String, remote: any RemoteSurveyContent)
        throws(SurveyLoadError) -> PreparedSurvey?
    {
        let made: (text: String, warning: String?)?
        do {
            made = try remote.questionTable(json, file: file) { survey in
                do throws(SurveyLoadError) {
                    _ = try loader.load(text: survey)
                } catch {
                    throw Refusal(description: error.errors.map(\.message).joined(separator: "; "))
                }
            }
        } catch let error as SurveyLoadError {
            throw error
        } catch {
            throw SurveyLoadError(errors: [SurveyError(.invalidValue, "\(error)", file: file)])
        }
        guard let made else { return nil }
        if let warning = made.warning { warn(warning) }
        return PreparedSurvey(
            text: made.text, isOriginal: false, conversion: nil, original: text, file: file, isGenerated: true)
    }

    /// The ids of the kinds in `registry` that plugins registered (not built in): the custom
    /// SurveyJS question types a conversion maps to them.
    public static func pluginKinds(of registry: QuestionTypeRegistry) -> Set<String> {
        Set(registry.types.filter { $0.origin != "built-in" }.map(\.typeID))
    }

    /// The conversion of `text` when it is a SurveyJS survey (what is not converted told to
    /// ``warn``), else `nil`. Called only when ``prepare(_:file:)``'s sniff found a SurveyJS key,
    /// so the text is not scanned again here.
    func convertIfSurveyJS(_ text: String, file: String) -> SurveyJSConversion? {
        // A key given twice keeps its last value in a SurveyJS file (as JSON.parse); ours stays strict.
        guard let parsed = try? JSONParser.parseKeepingLastKey(text), SurveyJSImporter.looksLikeSurveyJS(parsed.value),
            var conversion = try? SurveyJSImporter.convert(
                parsed.value, parsedFrom: text, source: file, id: Self.defaultID(for: file),
                lenientExpressions: lenientExpressions, pluginKinds: Self.pluginKinds(of: loader.registry))
        else { return nil }
        conversion.noteRepeatedKeys(parsed.repeated, file: file)
        for note in conversion.notes where note.kind == .repeatedKey { warn(note.description) }
        let missing = conversion.notes.filter { $0.kind == .notConverted }
        for note in missing { warn(note.description) }
        if !missing.isEmpty {
            warn(
                "\(file) is a SurveyJS survey; \(missing.count) item\(missing.count == 1 ? " was" : "s were") not converted (see 'survey import surveyjs \(file)')"
            )
        }
        return conversion
    }

    /// Load errors of a converted survey, placed at the SurveyJS element each comes from (the
    /// message names the path in the converted survey).
    public static func locate(
        _ error: SurveyLoadError, in conversion: SurveyJSConversion, original: String, file: String
    ) -> [SurveyError] {
        error.errors.map { problem in
            var located = problem
            located.file = file
            let origin = problem.path.flatMap { conversion.origin(of: $0) }
            located.path = origin
            located.position = origin.flatMap { SourceLocator.position(of: $0, in: original) }
            if let path = problem.path, !path.components.isEmpty {
                located.message += " (in the converted survey at \(path))"
            }
            return located
        }
    }

    /// A check's refusal of a fetched copy (its description is part of the warning or error).
    struct Refusal: Error, CustomStringConvertible {
        var description: String
    }
}

/// A survey's text made ready to load (``SurveySource/prepare(_:file:)``), and how to place what is
/// found in it back in the file as written.
public struct PreparedSurvey: Sendable {
    /// The text to load: the file's own, or a converted or completed one.
    public var text: String
    /// Whether ``text`` is the file's own text (errors carry their positions).
    public var isOriginal: Bool
    /// The SurveyJS conversion ``text`` came from, if any.
    public var conversion: SurveyJSConversion?
    /// The file's text as read.
    public var original: String
    /// The file's name, for messages.
    public var file: String
    /// Whether ``text`` was made from a question table (its paths are not the file's).
    public var isGenerated = false

    public init(
        text: String, isOriginal: Bool, conversion: SurveyJSConversion?, original: String, file: String,
        isGenerated: Bool = false
    ) {
        self.text = text
        self.isOriginal = isOriginal
        self.conversion = conversion
        self.original = original
        self.file = file
        self.isGenerated = isGenerated
    }

    /// Load errors of ``text``, placed in the original file.
    public func locate(_ error: SurveyLoadError) -> [SurveyError] {
        if isGenerated {
            return error.errors.map { problem in
                var located = problem
                located.file = file
                located.position = nil
                if let path = problem.path { located.message += " (in the survey made from the table, at \(path))" }
                located.path = nil
                return located
            }
        }
        if isOriginal, error.errors.allSatisfy({ $0.position != nil || $0.path == nil }) { return error.errors }
        if let conversion { return SurveySource.locate(error, in: conversion, original: original, file: file) }
        return error.errors.map { problem in
            var located = problem
            located.file = file
            located.position = problem.path.flatMap { SourceLocator.position(of: $0, in: original) }
            return located
        }
    }

    /// A JSON path of ``text`` as a path of the original file (`nil` for a survey made from a table).
    public func originalPath(_ path: JSONPath) -> JSONPath? {
        if isGenerated { return nil }
        return conversion.map { $0.origin(of: path) } ?? path
    }
}

/// What reading survey sources needs from the network, given to ``SurveySource`` by a host that
/// has it (the `survey` command gives SurveyDelivery's fetcher and its cache): fetching a survey by
/// URL, making a survey from a question table, and filling in choice lists fetched from URLs.
public protocol RemoteSurveyContent {
    /// Whether `location` names a remote survey (fetched with ``fetch(_:accept:)``) rather than a file.
    func isRemote(_ location: String) -> Bool

    /// The document at `location`, and a warning for the user (a cached copy used, and why).
    /// - Parameter accept: checks a new copy before it is used and kept; throws to refuse it.
    /// - Throws: ``TextReadError`` when nothing can be had.
    func fetch(_ location: String, accept: (Data) throws -> Void) throws(TextReadError) -> (
        body: Data, warning: String?
    )

    /// The quoted JSON key without which a text names no question table (a byte search before parsing).
    var questionTableMarker: String { get }

    /// The survey (JSON text) the question table `json` names, and a warning for the user; `nil`
    /// when `json` names no question table.
    /// - Parameter accept: checks a survey made from the table before it is used and kept; throws to refuse it.
    /// - Throws: ``SurveyLoadError`` for a malformed table description (placed in `file`); any
    ///   other error when no survey can be had.
    func questionTable(_ json: JSONValue, file: String, accept: (String) throws -> Void) throws -> (
        text: String, warning: String?
    )?

    /// The quoted JSON key without which a survey has no remote choice lists (a byte search before parsing).
    var remoteChoicesMarker: String { get }

    /// `survey` (in this engine's format) with every remote choice list filled in.
    /// - Parameter offUnreachable: for a converted SurveyJS survey: a list that cannot be had (and no
    ///   listed `choices`) switches its question off with a warning, as survey-core shows it with no
    ///   choices, instead of refusing the survey.
    /// - Throws: ``SurveyLoadError`` with every problem, at JSON paths into `survey`.
    func resolveRemoteChoices(in survey: JSONValue, offUnreachable: Bool) throws(SurveyLoadError) -> RemoteChoices
}

/// A survey with its remote choice lists filled in (``RemoteSurveyContent/resolveRemoteChoices(in:)``).
public struct RemoteChoices: Sendable {
    /// The survey, in this engine's format.
    public var survey: JSONValue
    /// Warnings for the user (a cached list used, and why).
    public var warnings: [String]
    /// How many questions got their choices from a URL.
    public var resolved: Int

    public init(survey: JSONValue, warnings: [String], resolved: Int) {
        self.survey = survey
        self.warnings = warnings
        self.resolved = resolved
    }
}

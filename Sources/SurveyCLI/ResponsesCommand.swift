import Foundation
import SurveyCore
import SurveyResponses

enum ResponsesCommand: Command {
    /// The options only this command declares, read by these constants.
    enum Options {
        static let survey = CommandSpec.Option(
            name: "--survey", valueName: "ID", help: "Only responses to this survey id.")
        static let respondent = CommandSpec.Option(
            name: "--respondent", valueName: "ID", help: "Only this respondent's responses (required by delete).")
        static let status = CommandSpec.Option(
            name: "--status", valueName: "S",
            help:
                "Only in-progress, completed, dismissed, abandoned or ended-by-quota (repeatable; 'all' for every status).",
            isRepeatable: true)
        static let since = CommandSpec.Option(
            name: "--since", valueName: "TIME",
            help: "Only responses created at or after TIME (YYYY-MM-DD or ISO 8601).")
        static let until = CommandSpec.Option(
            name: "--until", valueName: "TIME", help: "Only responses created before TIME.")
        static let surveyVersion = CommandSpec.Option(
            name: "--survey-version", valueName: "V", help: "Only responses given on this survey version.")
        static let locale = CommandSpec.Option(
            name: "--locale", valueName: "L", help: "Only responses given in this locale.")
        static let limit = CommandSpec.Option(name: "--limit", valueName: "N", help: "At most N responses.")
        static let format = CommandSpec.Option(
            name: "--format", valueName: "F", help: "list: text|jsonl; export: jsonl|csv; funnel, quotas: text|json.")
        static let out = CommandSpec.Option(
            name: "--out", valueName: "PATH", help: "export: write to PATH instead of standard output.")
    }

    static let spec = CommandSpec(
        name: "responses", summary: "List, show, export, count and erase stored responses.",
        usage: """
            responses list [FILE] [--survey ID] [--respondent ID] [--status S] [--since T] [--until T] [--format text|jsonl]
                   survey responses show RESPONSE-ID
                   survey responses export [FILE] [--format jsonl|csv] [--out PATH] [filters]
                   survey responses funnel FILE [--format text|json]
                   survey responses delete --respondent ID
                   survey responses compact
                   survey responses cooldown [DURATION|none]
                   survey responses quotas FILE [--format text|json]
            (every form takes --store PATH|URL; the default is the store survey run uses)
            """,
        positionalHelp: [
            (
                "list [FILE]",
                "One line per response: id, respondent, survey, status, created, updated (jsonl: every field; "
                    + "with FILE, unfinished responses' answers so far, marked partial)."
            ),
            ("show ID", "One response: header, path, answers and its recorded actions, as JSON."),
            (
                "export [FILE]",
                "Responses as JSON Lines or CSV keyed by step id (FILE gives the CSV columns' order, and "
                    + "unfinished responses' answers so far, replayed from their actions and marked partial)."
            ),
            ("funnel FILE", "Per survey and step: invited, started, seen, answered, dismissed, completed, drop-off."),
            ("delete", "Erase every response of --respondent ID (the right to erasure)."),
            (
                "cooldown [DURATION|none]",
                "Show, set (an ISO-8601 duration such as P7D) or remove the store's global cooldown: nobody is "
                    + "shown a new survey within that time of the last one (docs/targeting.md)."
            ),
            (
                "quotas FILE",
                "Each quota of the survey: what it counts, how many responses it counts of its limit, what is "
                    + "left, its condition (live counts from the store; docs/targeting.md)."
            ),
            (
                "compact",
                "Rewrite a SQLite store so each table lies together on disk: reports and exports of a store "
                    + "written over time then read it in order (blocks writers while it runs)."
            ),
        ],
        options: [
            storeOption,
            Options.survey,
            Options.respondent,
            Options.status,
            Options.since,
            Options.until,
            Options.surveyVersion,
            Options.locale,
            Options.limit,
            Options.format,
            Options.out,
            pluginOption, isolatePluginsOption, pluginTimeoutOption, lenientExpressionsOption,
        ],
        minimumPositionals: 1, maximumPositionals: 2,
        discussion: """
            Keys and CSV columns are the survey author's step ids. Times are UTC, ISO 8601.
            Exit status: 0 success, 1 a store or input problem (an unknown response id, an unreadable
            store), 2 wrong usage.
            """)

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        let action = arguments.positionals[0]
        let operand = arguments.positionals.count > 1 ? arguments.positionals[1] : nil
        let known = ["list", "show", "export", "funnel", "delete", "compact", "cooldown", "quotas"]
        guard known.contains(action) else {
            throw UsageError(
                "unknown action '\(action)'; expected \(known.joined(separator: ", "))", command: spec.name)
        }
        if action == "delete" || action == "compact", let operand {
            throw UsageError("\(action) takes no argument, got '\(operand)'", command: spec.name)
        }
        let query = try self.query(arguments)
        let location = arguments.value(storeOption) ?? context.defaultStorePath
        if arguments.value(storeOption) == nil, !FileManager.default.fileExists(atPath: location),
            action != "cooldown" || operand == nil
        {
            throw InputError(
                "\(location): no responses are stored yet (survey run creates this store; --store to choose another)")
        }
        let store = try context.openStore(location)
        do {
            switch action {
            case "list":
                let survey = try operand.map { try context.loadSurvey($0, plugins: PluginSelection(arguments)) }
                var query = query
                if let survey, query.surveyID == nil { query.surveyID = survey.id }
                try list(store, query: query, survey: survey, format: try format(arguments, ["text", "jsonl"]))
            case "show":
                guard let operand else { throw UsageError("show needs a RESPONSE-ID", command: spec.name) }
                try show(store, id: operand)
            case "export":
                let survey = try operand.map { try context.loadSurvey($0, plugins: PluginSelection(arguments)) }
                var query = query
                if let survey, query.surveyID == nil { query.surveyID = survey.id }
                try export(
                    store, query: query, survey: survey, format: try format(arguments, ["jsonl", "csv"]),
                    out: arguments.value(Options.out), context: context)
            case "funnel":
                guard let operand else { throw UsageError("funnel needs the survey FILE", command: spec.name) }
                let survey = try context.loadSurvey(operand, plugins: PluginSelection(arguments))
                let report = FunnelReport(counts: try store.funnelCounts(survey: survey.id), survey: survey)
                if try format(arguments, ["text", "json"]) == "json" {
                    Console.line(JSONWriter.string(from: report.jsonValue, pretty: true))
                } else {
                    Console.out(report.text)
                }
            case "quotas":
                guard let operand else { throw UsageError("quotas needs the survey FILE", command: spec.name) }
                let survey = try context.loadSurvey(operand, plugins: PluginSelection(arguments))
                let report = try QuotaReport(survey: survey, store: store)
                if try format(arguments, ["text", "json"]) == "json" {
                    Console.line(JSONWriter.string(from: report.jsonValue, pretty: true))
                } else {
                    Console.out(report.text)
                }
            case "compact":
                let started = Date()
                guard let (before, after) = try store.compact() else {
                    Console.line("\(store.name): nothing to compact (the database server keeps its own tables)")
                    break
                }
                func megabytes(_ bytes: Int64) -> String { String(format: "%.1f MB", Double(bytes) / 1_000_000) }
                Console.line(
                    "compacted \(store.name): \(megabytes(before)) -> \(megabytes(after)) in "
                        + String(format: "%.1f s", Date().timeIntervalSince(started)))
            case "cooldown":
                if let operand {
                    guard operand == "none" || ISODuration(operand) != nil else {
                        throw UsageError(
                            "cooldown must be an ISO-8601 duration such as P7D, or none, got '\(operand)'",
                            command: spec.name)
                    }
                    try store.setSetting(
                        named: Eligibility.cooldownSetting, to: operand == "none" ? nil : operand)
                }
                let current = try Eligibility.storeCooldown(store)
                Console.line("global cooldown: \(current.map(\.description) ?? "none")")
            default:
                guard let respondent = arguments.value(Options.respondent) else {
                    throw UsageError("delete needs --respondent ID", command: spec.name)
                }
                let deleted = try store.deleteResponses(respondent: respondent)
                Console.line("deleted \(deleted) response\(deleted == 1 ? "" : "s") of respondent '\(respondent)'")
            }
        } catch let error as StoreError {
            throw InputError(error.description)
        }
        return .success
    }

    static func format(_ arguments: ParsedArguments, _ allowed: [String]) throws(UsageError) -> String {
        guard let format = arguments.value(Options.format) else { return allowed[0] }
        guard allowed.contains(format) else {
            throw UsageError(
                "--format must be \(allowed.joined(separator: " or ")) here, got '\(format)'", command: spec.name)
        }
        return format
    }

    static func query(_ arguments: ParsedArguments, command: String = spec.name) throws(UsageError) -> ResponseQuery {
        var query = ResponseQuery(
            surveyID: arguments.value(ifDeclared: Options.survey),
            respondentID: arguments.value(ifDeclared: Options.respondent),
            surveyVersion: arguments.value(Options.surveyVersion), locale: arguments.value(Options.locale))
        let statuses = arguments.all(Options.status)
        if !statuses.isEmpty, !statuses.contains("all") {
            var selected = Set<ResponseStatus>()
            for text in statuses {
                guard let status = ResponseStatus(rawValue: text) else {
                    throw UsageError(
                        "--status must be in-progress, completed, dismissed, abandoned, ended-by-quota or all, got '\(text)'",
                        command: command)
                }
                selected.insert(status)
            }
            query.statuses = selected
        }
        query.since = try arguments.value(Options.since).map { text throws(UsageError) in
            try time(text, "--since", command: command)
        }
        query.until = try arguments.value(Options.until).map { text throws(UsageError) in
            try time(text, "--until", command: command)
        }
        if let text = arguments.value(ifDeclared: Options.limit) {
            guard let limit = Int(text), limit > 0 else {
                throw UsageError("--limit must be a positive whole number, got '\(text)'", command: command)
            }
            query.limit = limit
        }
        return query
    }

    /// `YYYY-MM-DD` (midnight UTC) or a full ISO 8601 time with a zone.
    static func time(_ text: String, _ option: String, command: String = spec.name) throws(UsageError) -> Date {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withFullDate]
        formatter.timeZone = TimeZone(identifier: "UTC")
        if text.count == 10, let date = formatter.date(from: text),
            ResponseExport.timestamp(date).hasPrefix(text)
        {
            return date
        }
        throw UsageError(
            "\(option) must be a date (YYYY-MM-DD) or an ISO 8601 time such as 2026-12-01T09:30:00Z, got '\(text)'",
            command: command)
    }

    static func list(_ store: any ResponseStore, query: ResponseQuery, survey: Survey?, format: String) throws {
        if format == "jsonl" {
            let partial = survey.map { PartialResponses(survey: $0, store: store) } ?? PartialResponses()
            var asStored = 0
            try store.forEachResponse(matching: query) { stored in
                let (response, isPartial) = try partial.completing(stored)
                if partial.isShownAsStored(stored) { asStored += 1 }
                Console.line(ResponseExport.jsonLine(of: response, isPartial: isPartial))
            }
            noteUnreplayed(asStored, command: "list", hasSurvey: survey != nil)
            return
        }
        var count = 0
        Console.line(["response", "respondent", "survey", "status", "created", "updated"].joined(separator: "\t"))
        try store.forEachResponse(matching: query) { response in
            count += 1
            Console.line(
                [
                    response.id.rawValue, response.respondentID,
                    response.surveyID + (response.surveyVersion.map { "@" + $0 } ?? ""), response.status.rawValue,
                    ResponseExport.timestamp(response.createdAt), ResponseExport.timestamp(response.updatedAt),
                ].joined(separator: "\t"))
        }
        Console.error("\(count) response\(count == 1 ? "" : "s") in \(store.name)")
    }

    static func show(_ store: any ResponseStore, id text: String) throws {
        guard let id = ResponseID(text), let response = try store.response(id) else {
            throw InputError("\(store.name): no response has the id '\(text)'")
        }
        var members = ResponseExport.jsonValue(of: response).objectValue ?? [:]
        members["today"] = .string(response.today)
        members["actions"] = .array(
            try store.actions(of: id).map { recorded in
                var action = recorded.action.jsonValue.objectValue ?? [:]
                action["sequence"] = .number(Double(recorded.sequence))
                action["at"] = .string(ResponseExport.timestamp(recorded.recordedAt))
                return .object(action)
            })
        Console.line(JSONWriter.string(from: .object(members), pretty: true))
    }

    static func export(
        _ store: any ResponseStore, query: ResponseQuery, survey: Survey?, format: String, out: String?,
        context: CommandContext, byteOrderMark: Bool = false
    ) throws {
        var sink = try OutputSink(path: out)
        defer { sink.close() }
        // For spreadsheet apps that read CSV as UTF-8 only when it starts with a byte order mark.
        if byteOrderMark, format == "csv" { try sink.write("\u{FEFF}") }
        guard let format = ResponseExport.Format(rawValue: format) else {
            throw InputError("unknown export format \(format) (jsonl or csv)")
        }
        var columns: [String] = []
        if format == .csv {
            if let survey {
                columns = ResponseExport.stepColumns(of: survey)
            } else {
                // Without the survey, the columns are every answered step id, sorted (one extra pass).
                var seen = Set<String>()
                try store.forEachResponse(matching: query) { seen.formUnion($0.answers.keys) }
                columns = seen.sorted()
            }
            try sink.write(ResponseExport.csvHeader(stepIDs: columns) + "\r\n")
        }
        // With the survey, unfinished responses show their path and answers so far.
        let partial = survey.map { PartialResponses(survey: $0, store: store) }
        let summary = try ResponseExport.write(
            format, from: store, matching: query, columns: columns, partial: partial ?? PartialResponses()
        ) { bytes in
            try sink.write(bytes: bytes)
        }
        try sink.flush()
        if !summary.extraSteps.isEmpty {
            Console.error(
                "survey responses export: answers to steps the survey no longer has were left out: "
                    + summary.extraSteps.sorted().joined(separator: ", ")
                    + " (export without FILE, or as jsonl, to see them)")
        }
        noteUnreplayed(summary.unfinishedShownAsStored, command: "export", hasSurvey: survey != nil)
    }

    /// Says on stderr that `count` unfinished responses were shown without their answers so far, and
    /// what shows them: the survey file (replay needs it; the store keeps only its id and version; any
    /// version of the survey replays them).
    static func noteUnreplayed(_ count: Int, command: String, hasSurvey: Bool) {
        guard count > 0 else { return }
        let responses = count == 1 ? "1 unfinished response is" : "\(count) unfinished responses are"
        Console.error(
            "survey responses \(command): \(responses) shown as stored, without the answers so far"
                + (hasSurvey
                    ? " (they answer another survey than the file's; give that survey's file to replay them)"
                    : " (give the survey file, survey responses \(command) FILE, to replay them)"))
    }
}

/// Standard output or a file, buffered.
struct OutputSink {
    var handle: FileHandle?
    var buffer: [UInt8] = []
    let path: String?

    init(path: String?) throws(InputError) {
        self.path = path
        guard let path else { return }
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            throw InputError("\(path): cannot create the file")
        }
        handle = FileHandle(forWritingAtPath: path)
        if handle == nil { throw InputError("\(path): cannot write the file") }
    }

    mutating func write(_ text: String) throws { try write(bytes: text.utf8) }

    mutating func write(bytes: some Sequence<UInt8>) throws {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 16 { try flush() }
    }

    mutating func flush() throws {
        guard !buffer.isEmpty else { return }
        if let handle {
            do {
                try handle.write(contentsOf: buffer)
            } catch {
                throw InputError("\(path ?? "output"): cannot write (\(CommandContext.reason(error)))")
            }
        } else {
            Console.out(String(decoding: buffer, as: UTF8.self))
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Closes the file; call ``flush()`` first to hear of write errors.
    mutating func close() {
        try? handle?.close()
        handle = nil
    }
}

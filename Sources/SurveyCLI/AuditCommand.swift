import Foundation
import SurveyAnalysis
import SurveyCore
import SurveyResponses

// MARK: audit

/// `survey audit`: a thin shell over ``ResponseAudit`` (docs/audit.md).
enum AuditCommand: Command {
    /// The options only this command declares, read by these constants.
    enum Options {
        static let responses = CommandSpec.Option(
            name: "--responses", valueName: "PATH|-",
            help:
                "The responses: JSON Lines or a JSON array (SurveyJS data, our results, export records, webhook payloads)."
        )
        static let format = CommandSpec.Option(
            name: "--format", valueName: "text|json|sarif",
            help: "Output: text (default, one line per problem and a summary), json, or sarif (SARIF 2.1.0).")
        static let dataShape = CommandSpec.Option(
            name: "--data-shape", valueName: "ours|surveyjs",
            help:
                "The shape of a SurveyJS survey's responses (default surveyjs, survey-core's data; ours: the engine's)."
        )
        static let fix = CommandSpec.Option(
            name: "--fix", valueName: "OUT",
            help: "Also write the cleaned responses to OUT as JSON Lines (never the input itself).")
        static let parallel = CommandSpec.Option(
            name: "--parallel", valueName: "N", help: "Audit on N threads (default: every core).")
    }

    static let spec = CommandSpec(
        name: "audit",
        summary: "Check submitted responses against a survey's logic: could a respondent have given them?",
        usage:
            "audit FILE (--responses PATH|- | --store S) [--format text|json|sarif] [--data-shape ours|surveyjs] "
            + "[--fix OUT] [--seed N] [--today YYYY-MM-DD] [--plugin PATH]...",
        positionalHelp: [("FILE", "The survey definition (ours or SurveyJS's JSON).")],
        options: [
            Options.responses, storeOption, Options.format, Options.dataShape, Options.fix, Options.parallel,
            seedOption, todayOption, localeOption, pluginOption, isolatePluginsOption, pluginTimeoutOption,
            lenientExpressionsOption,
        ],
        minimumPositionals: 1, maximumPositionals: 1,
        discussion: """
            Each response is replayed through the engine as a respondent would answer it (visibility,
            enableIf, triggers, calculated values, validators) and compared with what the replay gives.
            Problem codes: \(AuditProblem.Code.allCases.map(\.rawValue).joined(separator: ", ")) (docs/audit.md).
            A record that says its seed, locale or date (an export record, --store) is replayed with them;
            one whose status is not completed is skipped, except ended-by-quota: replayed with that quota full.
            Exits 1 when a response has a problem, 2 on
            wrong usage, else 0.
            """)

    /// One response to audit and what names it in the report.
    struct Item {
        var label: String
        var response: JSONValue
    }

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        let formatName = arguments.value(Options.format) ?? "text"
        guard ["text", "json", "sarif"].contains(formatName) else {
            throw UsageError("--format must be text, json or sarif, got '\(formatName)'", command: spec.name)
        }
        let shape: DataShapeChoice
        switch arguments.value(Options.dataShape) ?? "surveyjs" {
        case "surveyjs": shape = .surveyJS
        case "ours", "engine": shape = .engine
        case let other: throw UsageError("--data-shape must be ours or surveyjs, got '\(other)'", command: spec.name)
        }
        let input = arguments.value(Options.responses)
        let store = arguments.value(storeOption)
        guard (input == nil) != (store == nil) else {
            throw UsageError("give either --responses PATH|- or --store S", command: spec.name)
        }
        let fix = arguments.value(Options.fix)
        if let fix, let input, input != "-",
            URL(fileURLWithPath: fix).standardizedFileURL.path
                == URL(fileURLWithPath: input).standardizedFileURL.path
        {
            throw UsageError("--fix writes next to the input, never over it: give another file", command: spec.name)
        }
        var parallelism = ProcessInfo.processInfo.activeProcessorCount
        if let text = arguments.value(Options.parallel) {
            guard let value = Int(text), value >= 1, value <= 1024 else {
                throw UsageError("--parallel must be a whole number from 1 to 1024, got '\(text)'", command: spec.name)
            }
            parallelism = value
        }
        let seed = try seed(arguments, command: spec.name)
        let today = try today(arguments, command: spec.name) ?? FunctionContext.current().today
        let survey = try context.loadSurvey(
            arguments.positionals[0], plugins: PluginSelection(arguments), dataShape: shape)
        let audit = ResponseAudit(
            survey: survey, seed: seed, today: today, locale: arguments.value(localeOption))

        var items: [Item] = []
        var unreadable: [(label: String, message: String)] = []
        var skipped = 0
        let source: String
        if let input {
            source = input == "-" ? "<stdin>" : input
            let text =
                input == "-"
                ? String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
                : try context.read(input)
            (items, unreadable) = Self.items(in: text, source: source)
        } else {
            let location = store ?? ""
            source = location
            let opened = try context.openStore(location)
            do {
                try opened.forEachResponse(matching: ResponseQuery(surveyID: survey.id)) { response in
                    var record = ResponseExport.jsonValue(of: response)
                    if case .object(var members) = record {
                        members["today"] = .string(response.today)
                        record = .object(members)
                    }
                    items.append(Item(label: "\(location)#\(response.id.rawValue)", response: record))
                }
            } catch {
                throw InputError("\(location): cannot read the responses (\(error))")
            }
        }
        // A response whose status says it is not finished is not audited (its answers stop midway).
        items.removeAll { item in
            guard let status = item.response["status"]?.stringValue, status != "completed", status != "ended-by-quota",
                ResponseAudit.answers(in: item.response)?.path != .root
            else { return false }
            skipped += 1
            return true
        }
        let reports = audit.audit(responses: items.map(\.response), parallelism: parallelism)

        if let fix {
            var output = ""
            for (item, report) in zip(items, reports) {
                output += JSONWriter.string(from: Self.cleaned(item.response, report), pretty: false) + "\n"
            }
            try context.write(output, to: fix)
        }
        let failed = reports.filter { !$0.isClean }.count + unreadable.count
        switch formatName {
        case "json": Console.line(JSONWriter.string(from: json(items, reports, unreadable, skipped), pretty: true))
        case "sarif": Console.line(JSONWriter.string(from: sarif(items, reports, unreadable, source), pretty: true))
        default:
            for (label, message) in unreadable { Console.line("\(label): not-a-response $: \(message)") }
            for (item, report) in zip(items, reports) {
                for problem in report.problems { Console.line("\(item.label): \(problem)") }
            }
            var counts: [String: Int] = [:]
            for report in reports { for problem in report.problems { counts[problem.code.rawValue, default: 0] += 1 } }
            if !unreadable.isEmpty { counts["not-a-response", default: 0] += unreadable.count }
            let total = items.count + unreadable.count
            var summary =
                "\(total) response\(total == 1 ? "" : "s") audited: \(total - failed) clean, \(failed) with problems"
            if !counts.isEmpty {
                summary +=
                    " (" + counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
                    + ")"
            }
            if skipped > 0 { summary += "; \(skipped) unfinished skipped" }
            Console.line(summary)
        }
        return failed > 0 ? .failure : .success
    }

    /// The responses of `text`: a JSON array, or JSON Lines (blank lines skipped); a line that is not
    /// JSON is reported as unreadable with its line and column.
    static func items(in text: String, source: String) -> ([Item], [(label: String, message: String)]) {
        let trimmed = text.drop { $0.isWhitespace }
        if trimmed.first == "[" {
            do {
                let parsed = try JSONParser.parse(text)
                let list = parsed.arrayValue ?? []
                return (list.enumerated().map { Item(label: "\(source)[\($0.offset)]", response: $0.element) }, [])
            } catch {
                return ([], [("\(source)", "not JSON: \(error)")])
            }
        }
        var items: [Item] = []
        var unreadable: [(label: String, message: String)] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            guard line.contains(where: { !$0.isWhitespace }) else { continue }
            let label = "\(source):\(number + 1)"
            do {
                items.append(Item(label: label, response: try JSONParser.parse(String(line))))
            } catch {
                unreadable.append((label, "not JSON: \(error)"))
            }
        }
        return (items, unreadable)
    }

    /// `response` with its answers replaced by the cleaned ones (and, for a record of ours, the path by the replay's).
    static func cleaned(_ response: JSONValue, _ report: AuditReport) -> JSONValue {
        guard case .object(var members) = response, ResponseAudit.answers(in: response)?.path != .root else {
            return .object(report.cleaned)
        }
        members["answers"] = .object(report.cleaned)
        members["path"] = .array(report.path.map { .string($0) })
        return .object(members)
    }

    static func json(
        _ items: [Item], _ reports: [AuditReport], _ unreadable: [(label: String, message: String)], _ skipped: Int
    ) -> JSONValue {
        var problems: [JSONValue] = unreadable.map {
            .object([
                "response": .string($0.label), "code": "not-a-response", "path": "$", "message": .string($0.message),
            ])
        }
        for (item, report) in zip(items, reports) {
            for problem in report.problems {
                guard case .object(var members) = problem.jsonValue else { continue }
                members["response"] = .string(item.label)
                problems.append(.object(members))
            }
        }
        let failed = reports.filter { !$0.isClean }.count + unreadable.count
        return .object([
            "responses": .number(Double(items.count + unreadable.count)), "failed": .number(Double(failed)),
            "skipped": .number(Double(skipped)), "problems": .array(problems),
        ])
    }

    static func sarif(
        _ items: [Item], _ reports: [AuditReport], _ unreadable: [(label: String, message: String)], _ source: String
    ) -> JSONValue {
        func result(_ code: String, _ message: String, _ label: String, _ path: String) -> JSONValue {
            .object([
                "ruleId": .string(code), "level": "error", "message": .object(["text": .string(message)]),
                "locations": [
                    .object([
                        "physicalLocation": .object(["artifactLocation": .object(["uri": .string(source)])]),
                        "logicalLocations": [.object(["fullyQualifiedName": .string(label + " " + path)])],
                    ])
                ],
            ])
        }
        var results = unreadable.map { result("not-a-response", $0.message, $0.label, "$") }
        for (item, report) in zip(items, reports) {
            for problem in report.problems {
                results.append(
                    result(
                        problem.code.rawValue, (problem.stepID.map { "\($0): " } ?? "") + problem.message, item.label,
                        problem.path.description))
            }
        }
        let rules: [JSONValue] = AuditProblem.Code.allCases.map { .object(["id": .string($0.rawValue)]) }
        return .object([
            "$schema": "https://json.schemastore.org/sarif-2.1.0.json", "version": "2.1.0",
            "runs": [
                .object([
                    "tool": .object([
                        "driver": .object([
                            "name": "survey audit", "informationUri": "docs/audit.md", "rules": .array(rules),
                        ])
                    ]),
                    "results": .array(results),
                ])
            ],
        ])
    }
}

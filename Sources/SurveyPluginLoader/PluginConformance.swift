import SurveyCore
import SurveyPluginMessages

/// A rule of the plugin conformance checker (`survey plugin check`): something a plugin must do
/// for the engine to rely on it, each with a stable id.
public enum PluginRule: String, Sendable, CaseIterable, Comparable {
    /// The file is missing, not a shared library, or not a regular file.
    case notAPlugin = "not-a-plugin"
    /// The library does not export `survey_plugin_entry`.
    case missingEntrySymbol = "missing-entry-symbol"
    /// The descriptor's major ABI version is not the one this engine reads.
    case abiVersion = "abi-version"
    /// A `struct_size` is smaller than ABI 1.0's (a header this engine does not know).
    case structSize = "struct-size"
    /// The descriptor is malformed: a required callback or `free_string` missing, an invalid id,
    /// an unknown value type, an options schema the engine cannot enforce, a duplicate id.
    case invalidDescriptor = "invalid-descriptor"
    /// A callback or function ended the process (a signal, or `exit`).
    case crash
    /// A callback or function did not answer within the time allowed.
    case timeout
    /// A callback returned text that is not JSON.
    case invalidJSON = "invalid-json"
    /// A callback returned NULL.
    case nullResult = "null-result"
    /// A callback returned JSON of the wrong shape (a result that is neither `{"ok"}` nor
    /// `{"error"}`, a description that is not an input primitive, a malformed summary).
    case resultShape = "result-shape"
    /// An error result without a non-empty `message` (the respondent would see nothing useful).
    case errorWithoutMessage = "error-without-message"
    /// The same call, made twice with the same input, gave different results.
    case nondeterministic
    /// `normalize` of an answer's normal form is not that normal form again.
    case notIdempotent = "not-idempotent"
    /// Repeated calls keep C heap memory: a callback that does not free what it allocates, or a
    /// `free_string` that does not free.
    case leak

    /// One line saying what the rule requires.
    public var summary: String {
        switch self {
        case .notAPlugin: "the file is a loadable shared library"
        case .missingEntrySymbol: "the library exports survey_plugin_entry"
        case .abiVersion: "the plugin is built for the ABI major version this engine reads"
        case .structSize: "every struct_size is at least ABI 1.0's"
        case .invalidDescriptor: "the descriptor is complete and valid (callbacks, ids, types, options schema)"
        case .crash: "no callback or function ends the process, whatever its input"
        case .timeout: "every call answers within the time allowed"
        case .invalidJSON: "callbacks return JSON text"
        case .nullResult: "callbacks return a result, not NULL"
        case .resultShape: "results have the documented shapes (result, input primitive, summary)"
        case .errorWithoutMessage: "every error result has a non-empty message"
        case .nondeterministic: "the same input always gives the same result"
        case .notIdempotent: "normalize(normal form) is the same normal form"
        case .leak: "repeated calls keep no memory (strings are released through free_string)"
        }
    }

    /// Rules order as they are declared: load problems first, then call problems.
    public static func < (left: PluginRule, right: PluginRule) -> Bool {
        (allCases.firstIndex(of: left) ?? 0) < (allCases.firstIndex(of: right) ?? 0)
    }
}

/// One problem the checker found.
public struct PluginFinding: Sendable, Hashable {
    /// The rule broken.
    public var rule: PluginRule
    /// The question kind (`kind 'color'`) or function (`function 'bmi'`) it is about; `nil` for the plugin.
    public var subject: String?
    /// The callback (`normalize`) or `call` for a function; `nil` for a load problem.
    public var callback: String?
    /// What happened.
    public var message: String
    /// The input that showed it (an excerpt), when there is one.
    public var input: String?
    /// How many inputs showed the same rule for the same subject and callback.
    public var occurrences = 1

    /// Creates a finding.
    public init(rule: PluginRule, subject: String?, callback: String?, message: String, input: String? = nil) {
        self.rule = rule
        self.subject = subject
        self.callback = callback
        self.message = message
        self.input = input
    }
}

/// What `survey plugin check` reports for one plugin file.
public struct PluginCheckReport: Sendable {
    /// The plugin file as given.
    public var path: String
    /// The problems, one per rule, subject and callback (the first input that showed it).
    public var findings: [PluginFinding]
    /// The question kinds exercised, by id.
    public var kinds: [String]
    /// The expression functions exercised, by name.
    public var functions: [String]
    /// How many calls the checker made.
    public var calls: Int
    /// What the checker could not try, such as a kind whose options `{}` its `check_options`
    /// refuses and no survey gave others.
    public var notes: [String]

    /// Whether the plugin broke no rule.
    public var passes: Bool { findings.isEmpty }

    /// One line per finding (`PATH: rule: kind 'x', normalize: message (input: …)`), then notes.
    public var text: String {
        var lines = findings.map { finding in
            var line = "\(path): error: "
            line += [finding.subject, finding.callback].compactMap { $0 }.joined(separator: ", ")
            if finding.subject != nil || finding.callback != nil { line += ": " }
            line += finding.message
            if let input = finding.input { line += " (input: \(input))" }
            if finding.occurrences > 1 { line += " (\(finding.occurrences) inputs)" }
            return line + " [\(finding.rule.rawValue)]"
        }
        lines += notes.map { "\(path): note: \($0)" }
        return lines.map { $0 + "\n" }.joined()
    }

    /// The report as JSON: `{"plugin", "passed", "kinds", "functions", "calls", "findings": [{"rule",
    /// "subject", "callback", "message", "input", "occurrences"}], "notes"}`.
    public var json: JSONValue {
        [
            "plugin": .string(path), "passed": .bool(passes), "kinds": .array(kinds.map(JSONValue.string)),
            "functions": .array(functions.map(JSONValue.string)), "calls": .number(Double(calls)),
            "findings": .array(
                findings.map { finding in
                    var members: [String: JSONValue] = [
                        "rule": .string(finding.rule.rawValue), "message": .string(finding.message),
                        "occurrences": .number(Double(finding.occurrences)),
                    ]
                    if let subject = finding.subject { members["subject"] = .string(subject) }
                    if let callback = finding.callback { members["callback"] = .string(callback) }
                    if let input = finding.input { members["input"] = .string(input) }
                    return .object(members)
                }),
            "notes": .array(notes.map(JSONValue.string)),
        ]
    }
}

extension PluginCheckReport {
    /// The report as SARIF 2.1.0 (for code scanning and editors): one result per finding, located
    /// at the plugin file, its kind or function and callback as a logical location.
    public var sarif: JSONValue {
        let rules = PluginRule.allCases
        let descriptors: [JSONValue] = rules.map { rule in
            [
                "id": .string(rule.rawValue), "shortDescription": ["text": .string(rule.summary)],
                "help": ["text": .string("\(rule.summary). See docs/plugin-abi.md, \"Check a plugin\".")],
                "defaultConfiguration": ["level": "error"],
            ]
        }
        let results: [JSONValue] = findings.map { finding in
            var location: [String: JSONValue] = ["physicalLocation": ["artifactLocation": ["uri": .string(path)]]]
            let logical = [finding.subject, finding.callback].compactMap { $0 }.joined(separator: ", ")
            if !logical.isEmpty { location["logicalLocations"] = [["name": .string(logical), "kind": "function"]] }
            var message = finding.message
            if let input = finding.input { message += " (input: \(input))" }
            return [
                "ruleId": .string(finding.rule.rawValue),
                "ruleIndex": .number(Double(rules.firstIndex(of: finding.rule) ?? 0)), "level": "error",
                "message": ["text": .string(message)], "locations": [.object(location)],
                "properties": ["occurrences": .number(Double(finding.occurrences))],
            ]
        }
        return [
            "$schema": "https://json.schemastore.org/sarif-2.1.0.json", "version": "2.1.0",
            "runs": [
                [
                    "tool": ["driver": ["name": "survey plugin check", "rules": .array(descriptors)]],
                    "results": .array(results),
                ]
            ],
        ]
    }
}

/// The plugin conformance checker: loads a plugin in the plugin host child process (so a plugin
/// that crashes or hangs cannot take the checker with it) and calls every callback of every
/// question kind and every function it declares with generated edge cases, reporting each
/// ``PluginRule`` broken.
///
/// ```swift
/// let checker = PluginChecker(isolation: PluginIsolation(executable: "/usr/local/bin/survey", timeout: 2))
/// let report = checker.check(path: "libdemo.so")
/// print(report.text)   // libdemo.so: error: kind 'demo', normalize: … [invalid-json]
/// ```
///
/// Per kind: `check_options` with `{}` and with the options of every question of that kind in the
/// survey given; `describe` in every locale; `normalize` (and `normalize_localized`) with wrong
/// JSON types, empty, huge and non-ASCII strings, deep nesting and the values the description
/// offers, each twice (determinism) and again on its normal form (idempotence); `parse_line` with
/// empty, garbage and huge lines; `summarize` with no answers and with the accepted ones. Per
/// function: every argument at edge values of its type, twice. Repeated calls measure the heap.
/// Answers the engine never passes to `normalize` (null, blank text, `[]`, `{}`) are not sent.
public struct PluginChecker: Sendable {
    /// How the plugin host is started; its `timeout` is the longest a call may take (rule `timeout`).
    public var isolation: PluginIsolation
    /// Question options to try, by kind id (the `options` of a survey's questions of that kind).
    public var options: [String: [JSONValue]]
    /// The locales to describe each kind in (default English and French).
    public var locales: [String]
    /// How many times a call is repeated to measure the heap (rule `leak`).
    public var repetitions: Int

    /// Creates a checker.
    /// - Parameters:
    ///   - isolation: the plugin host, normally `survey plugin-host`, with the per-call timeout.
    ///   - options: options objects to try per kind id, besides `{}`.
    ///   - locales: the locales to ask descriptions in.
    ///   - repetitions: calls per heap measurement.
    public init(
        isolation: PluginIsolation, options: [String: [JSONValue]] = [:], locales: [String] = ["en", "fr"],
        repetitions: Int = 200
    ) {
        self.isolation = isolation
        self.options = options
        self.locales = locales
        self.repetitions = repetitions
    }

    /// Answers of every JSON type and size that `normalize` must survive.
    static let edgeAnswers: [JSONValue] = [
        "garbage", "é漢🙂", "\u{0}", .string(String(repeating: "x", count: 65_536)), 0, -1, 1.5, 1e300, true,
        false, [1, "two", .null], ["unexpected": ["nested": [1, 2]]],
        (0..<64).reduce(JSONValue.array([1])) { nested, _ in .array([nested]) },
    ]

    /// Checks the plugin at `path`.
    public func check(path: String) -> PluginCheckReport {
        var run = CheckRun(path: path, isolation: isolation, repetitions: repetitions)
        run.check(options: options, locales: locales)
        return run.report
    }
}

/// One run of the checker over one plugin.
private struct CheckRun {
    let path: String
    let host: PluginHostConnection
    let repetitions: Int
    var report: PluginCheckReport
    /// The callbacks given up on after a timeout (every later call would wait as long).
    var abandoned: Set<String> = []

    init(path: String, isolation: PluginIsolation, repetitions: Int) {
        self.path = path
        self.repetitions = repetitions
        host = PluginHostConnection(
            isolation: isolation, files: [path], environment: PluginLoader.processEnvironment, diagnostics: { _ in })
        report = PluginCheckReport(path: path, findings: [], kinds: [], functions: [], calls: 0, notes: [])
    }

    mutating func add(_ finding: PluginFinding) {
        if let index = report.findings.firstIndex(where: {
            $0.rule == finding.rule && $0.subject == finding.subject && $0.callback == finding.callback
        }) {
            report.findings[index].occurrences += 1
        } else {
            report.findings.append(finding)
        }
    }

    static func excerpt(_ text: String) -> String {
        let flat = String(text.map { $0.isNewline ? " " : $0 })
        return flat.count > 60 ? String(flat.prefix(60)) + "… (\(text.utf8.count) bytes)" : flat
    }

    // MARK: loading

    mutating func check(options: [String: [JSONValue]], locales: [String]) {
        let plugins: [JSONValue]
        do {
            plugins = try host.start()
        } catch {
            add(
                PluginFinding(rule: Self.rule(forLoadError: error), subject: nil, callback: nil, message: error.message)
            )
            return
        }
        guard let plugin = plugins.first else { return }
        for type in plugin["types"]?.arrayValue ?? [] {
            guard let id = type["id"]?.stringValue else { continue }
            report.kinds.append(id)
            let callbacks = Set((type["callbacks"]?.arrayValue ?? []).compactMap(\.stringValue))
            let collectsAnswer = type["collectsAnswer"]?.boolValue ?? true
            var candidates: [JSONValue] = [[:]]
            for candidate in options[id] ?? [] where !candidates.contains(candidate) { candidates.append(candidate) }
            checkKind(id, callbacks: callbacks, collectsAnswer: collectsAnswer, options: candidates, locales: locales)
        }
        for function in plugin["functions"]?.arrayValue ?? [] {
            guard let name = function["name"]?.stringValue else { continue }
            report.functions.append(name)
            checkFunction(name, signature: function["signature"]?.stringValue ?? "")
        }
    }

    static func rule(forLoadError error: PluginError) -> PluginRule {
        switch error.kind {
        case .notFound, .notSharedObject: .notAPlugin
        case .missingEntrySymbol: .missingEntrySymbol
        case .abiVersionMismatch: .abiVersion
        case .structSizeMismatch: .structSize
        case .invalidDescriptor, .duplicateTypeID, .duplicateFunction, .invalidJSON, .pluginReportedError,
            .invalidManifest:
            .invalidDescriptor
        case .hostFailure: .crash
        }
    }

    // MARK: calls

    /// What one call through the host gave.
    enum Outcome: Equatable {
        case json(JSONValue)
        /// A rule the call itself broke (crash, timeout, invalid JSON, NULL) and its message.
        case broken(PluginRule, String)
    }

    /// Calls `callback` of kind `id`; a broken call is recorded as a finding.
    mutating func call(_ callback: String, kind id: String, options: String, argument: String?) -> Outcome {
        let label = "\(id) \(callback)"
        guard !abandoned.contains(label) else { return .broken(.timeout, "given up after a timeout") }
        let request: JSONValue = [
            "call": .string(callback), "plugin": 0, "type": .string(id), "options": .string(options),
            "argument": argument.map(JSONValue.string) ?? .null,
        ]
        let outcome = send(request, label: callback)
        if case .broken(let rule, let message) = outcome {
            if rule == .timeout { abandoned.insert(label) }
            add(
                PluginFinding(
                    rule: rule, subject: "kind '\(id)'", callback: callback, message: message,
                    input: argument.map(Self.excerpt)))
        }
        return outcome
    }

    mutating func send(_ request: JSONValue, label: String) -> Outcome {
        report.calls += 1
        switch host.request(request, label: label) {
        case .success(let reply):
            if let json = reply["json"] { return .json(json) }
            if let value = reply["value"] { return .json(value) }
            let failure = reply["failure"]
            let message = failure?["message"]?.stringValue ?? "\(label) failed"
            switch PluginError.Kind(rawValue: failure?["kind"]?.stringValue ?? "") {
            case .invalidJSON: return .broken(.invalidJSON, message)
            case .pluginReportedError: return .broken(.nullResult, message)
            default: return .broken(.invalidDescriptor, message)
            }
        case .failure(let failure):
            switch failure.reason {
            case .ended: return .broken(.crash, failure.message)
            case .timedOut: return .broken(.timeout, failure.message)
            case .other: return .broken(.crash, failure.message)
            }
        }
    }

    /// Makes the call `repetitions` times in the host and reports a leak when the heap grew by
    /// more than 8 bytes a call.
    mutating func measure(_ request: JSONValue, subject: String, callback: String, input: String?) {
        if let kind = request["type"]?.stringValue, abandoned.contains("\(kind) \(callback)") { return }
        guard repetitions > 0, case .object(var members) = request else { return }
        members["measure"] = .number(Double(repetitions))
        report.calls += repetitions + 1
        guard case .success(let reply) = host.request(.object(members), label: callback),
            let growth = reply["heapGrowth"]?.numberValue
        else { return }
        let perCall = growth / Double(repetitions)
        if perCall > 8 {
            add(
                PluginFinding(
                    rule: .leak, subject: subject, callback: callback,
                    message:
                        "the heap grew by \(Int(growth)) bytes over \(repetitions) calls (about \(Int(perCall.rounded())) bytes a call): memory is kept, or a returned string is not released by free_string",
                    input: input.map(Self.excerpt)))
        }
    }

    // MARK: question kinds

    mutating func checkKind(
        _ id: String, callbacks: Set<String>, collectsAnswer: Bool, options candidates: [JSONValue],
        locales: [String]
    ) {
        let subject = "kind '\(id)'"
        for candidate in candidates {
            var options = candidate.description
            if callbacks.contains("check_options") {
                guard case .json(let json) = call("check_options", kind: id, options: options, argument: nil) else {
                    continue
                }
                checkDeterminism(json, "check_options", kind: id, options: options, argument: nil)
                switch result(json, subject: subject, callback: "check_options", input: options) {
                case .success(let accepted): options = accepted.description
                default:
                    if candidates.count == 1 {
                        report.notes.append(
                            "\(subject): check_options refuses {}; give a survey with --survey to check its other callbacks"
                        )
                    }
                    continue
                }
            }
            checkOptions(id, options: options, callbacks: callbacks, collectsAnswer: collectsAnswer, locales: locales)
        }
    }

    /// A result's value or error members; a finding (and `nil`) when it has the wrong shape.
    mutating func result(_ json: JSONValue, subject: String, callback: String, input: String?)
        -> PluginMessages.Result?
    {
        if let error = json["error"], json["ok"] == nil {
            guard let message = error["message"]?.stringValue, !message.allSatisfy(\.isWhitespace) else {
                add(
                    PluginFinding(
                        rule: .errorWithoutMessage, subject: subject, callback: callback,
                        message: "the error result has no message to show: \(Self.excerpt(json.description))",
                        input: input.map(Self.excerpt)))
                return nil
            }
        }
        let decoded = PluginMessages.result(json)
        if case .malformed(let problem) = decoded {
            add(
                PluginFinding(
                    rule: .resultShape, subject: subject, callback: callback,
                    message: "\(problem): \(Self.excerpt(json.description))", input: input.map(Self.excerpt)))
            return nil
        }
        return decoded
    }

    mutating func checkDeterminism(
        _ first: JSONValue, _ callback: String, kind id: String, options: String, argument: String?
    ) {
        guard case .json(let second) = call(callback, kind: id, options: options, argument: argument),
            second != first
        else { return }
        add(
            PluginFinding(
                rule: .nondeterministic, subject: "kind '\(id)'", callback: callback,
                message:
                    "the same input gave \(Self.excerpt(first.description)), then \(Self.excerpt(second.description))",
                input: argument.map(Self.excerpt)))
    }

    mutating func checkOptions(
        _ id: String, options: String, callbacks: Set<String>, collectsAnswer: Bool, locales: [String]
    ) {
        let subject = "kind '\(id)'"
        // describe, in every locale.
        var described: JSONValue?
        for locale in locales {
            let context = JSONValue.object(["locale": .string(locale), "defaultLocale": "en"]).description
            guard case .json(let json) = call("describe", kind: id, options: options, argument: context) else {
                continue
            }
            checkDeterminism(json, "describe", kind: id, options: options, argument: context)
            do {
                _ = try InputPrimitive(json: json)
                if described == nil { described = json }
            } catch {
                add(
                    PluginFinding(
                        rule: .resultShape, subject: subject, callback: "describe",
                        message: "not an input primitive (\(error.message)): \(Self.excerpt(json.description))",
                        input: context))
            }
        }
        // ABI 1.2: a computed kind's expression, for each accepted option set.
        if callbacks.contains("computed_expression"),
            case .json(let json) = call("computed_expression", kind: id, options: options, argument: nil)
        {
            checkDeterminism(json, "computed_expression", kind: id, options: options, argument: nil)
            if case .success(let expression)? = result(
                json, subject: subject, callback: "computed_expression", input: options),
                expression.stringValue.map({ !$0.allSatisfy(\.isWhitespace) }) != true
            {
                add(
                    PluginFinding(
                        rule: .resultShape, subject: subject, callback: "computed_expression",
                        message:
                            "expected {\"ok\": \"<expression>\"}, got \(Self.excerpt(json.description))",
                        input: Self.excerpt(options)))
            }
        }
        let english = JSONValue.object(["locale": "en", "defaultLocale": "en"])
        measure(
            [
                "call": "describe", "plugin": 0, "type": .string(id), "options": .string(options),
                "argument": .string(english.description),
            ], subject: subject, callback: "describe", input: nil)
        guard collectsAnswer else { return }

        // normalize: edge cases and the values the description offers, twice, then on the normal form.
        var accepted: [JSONValue] = []
        for answer in PluginChecker.edgeAnswers + Self.offeredAnswers(described) {
            let text = answer.description
            guard case .json(let json) = call("normalize", kind: id, options: options, argument: text) else {
                continue
            }
            checkDeterminism(json, "normalize", kind: id, options: options, argument: text)
            guard case .success(let normal)? = result(json, subject: subject, callback: "normalize", input: text)
            else { continue }
            accepted.append(normal)
            guard normal != answer,
                case .json(let again) = call("normalize", kind: id, options: options, argument: normal.description)
            else { continue }
            if again != ["ok": normal] {
                add(
                    PluginFinding(
                        rule: .notIdempotent, subject: subject, callback: "normalize",
                        message:
                            "\(Self.excerpt(text)) normalises to \(Self.excerpt(normal.description)), which normalises to \(Self.excerpt(again.description))",
                        input: text))
            }
        }
        let sample = (accepted.first ?? "garbage").description
        measure(
            [
                "call": "normalize", "plugin": 0, "type": .string(id), "options": .string(options),
                "argument": .string(sample),
            ], subject: subject, callback: "normalize", input: sample)

        if callbacks.contains("normalize_localized") {
            for locale in locales {
                for answer in [JSONValue.string("garbage"), 1e300] + accepted.prefix(2) {
                    let request = JSONValue.object([
                        "answer": answer, "context": ["locale": .string(locale), "defaultLocale": "en"],
                    ]).description
                    guard
                        case .json(let json) = call(
                            "normalize_localized", kind: id, options: options, argument: request)
                    else { continue }
                    checkDeterminism(json, "normalize_localized", kind: id, options: options, argument: request)
                    _ = result(json, subject: subject, callback: "normalize_localized", input: request)
                }
            }
        }
        if callbacks.contains("parse_line") {
            for line in ["", " ", "1", "garbage", "é漢🙂", String(repeating: "9", count: 65_536)] {
                let request = JSONValue.object(["line": .string(line), "context": english]).description
                guard case .json(let json) = call("parse_line", kind: id, options: options, argument: request)
                else { continue }
                checkDeterminism(json, "parse_line", kind: id, options: options, argument: request)
                _ = result(json, subject: subject, callback: "parse_line", input: request)
            }
        }
        if callbacks.contains("summarize") {
            for answers in [[], accepted] {
                let request = JSONValue.object(["answers": .array(answers), "context": english]).description
                guard case .json(let json) = call("summarize", kind: id, options: options, argument: request)
                else { continue }
                checkDeterminism(json, "summarize", kind: id, options: options, argument: request)
                if PluginMessages.summary(json: json) == nil {
                    add(
                        PluginFinding(
                            rule: .resultShape, subject: subject, callback: "summarize",
                            message:
                                "not a summary ('answered' and each bucket's 'value' and 'count' are required): \(Self.excerpt(json.description))",
                            input: Self.excerpt(request)))
                }
            }
        }
    }

    /// The answers an input primitive's JSON offers: its choices' values, its number bounds, true and false.
    static func offeredAnswers(_ description: JSONValue?) -> [JSONValue] {
        guard let description else { return [] }
        var answers: [JSONValue] = []
        for choice in description["choices"]?.arrayValue ?? [] {
            guard let value = choice["value"]?.stringValue else { continue }
            answers.append(
                choice["numeric"]?.boolValue == true
                    ? Double(value).map(JSONValue.number) ?? .string(value) : .string(value))
        }
        for bound in ["min", "max"] {
            if let number = description[bound]?.numberValue { answers.append(.number(number)) }
        }
        if let earliest = description["earliest"]?.stringValue { answers.append(.string(earliest)) }
        switch description["kind"]?.stringValue {
        case "boolean": answers += [true, false]
        case "free-text": answers.append("hello")
        default: break
        }
        return Array(answers.prefix(12))
    }

    // MARK: functions

    mutating func checkFunction(_ name: String, signature: String) {
        let subject = "function '\(name)'"
        let types: [String]
        if let open = signature.firstIndex(of: "("), let close = signature.firstIndex(of: ")"), open < close {
            types = signature[signature.index(after: open)..<close].split(separator: ",").map {
                String($0.drop(while: \.isWhitespace))
            }
        } else {
            types = []
        }
        let typical: [String: JSONValue] = ["double": 1, "int64": 1, "bool": true, "string": "text"]
        let edges: [String: [JSONValue]] = [
            "double": [0, -1, 0.5, 1e300, -1e300], "int64": [0, -1, 9_007_199_254_740_991],
            "bool": [true, false], "string": ["", "é漢🙂", .string(String(repeating: "x", count: 65_536))],
        ]
        var argumentLists: [[JSONValue]] = [types.map { typical[$0] ?? .null }]
        for (position, type) in types.enumerated() {
            for value in edges[type] ?? [] {
                var arguments = argumentLists[0]
                arguments[position] = value
                argumentLists.append(arguments)
            }
        }
        var gaveUp = false
        for arguments in argumentLists where !gaveUp {
            let input = Self.excerpt(JSONValue.array(arguments).description)
            let request: JSONValue = ["function": .string(name), "plugin": 0, "arguments": .array(arguments)]
            let first = send(request, label: "function '\(name)'")
            switch first {
            case .broken(let rule, let message):
                add(PluginFinding(rule: rule, subject: subject, callback: "call", message: message, input: input))
                gaveUp = rule == .timeout
                continue
            case .json(let value):
                let second = send(request, label: "function '\(name)'")
                if case .broken(let rule, let message) = second {
                    add(PluginFinding(rule: rule, subject: subject, callback: "call", message: message, input: input))
                    gaveUp = rule == .timeout
                } else if second != first {
                    guard case .json(let other) = second else { continue }
                    add(
                        PluginFinding(
                            rule: .nondeterministic, subject: subject, callback: "call",
                            message:
                                "the same arguments gave \(Self.excerpt(value.description)), then \(Self.excerpt(other.description))",
                            input: input))
                }
            }
        }
        guard !gaveUp else { return }
        measure(
            ["function": .string(name), "plugin": 0, "arguments": .array(argumentLists[0])], subject: subject,
            callback: "call", input: JSONValue.array(argumentLists[0]).description)
    }
}

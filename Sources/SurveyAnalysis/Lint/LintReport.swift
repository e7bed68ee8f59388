import SurveyCore

/// The findings of one lint run over one or more files, in the formats `survey lint` prints.
public struct LintReport: Sendable {
    /// The output formats.
    public enum Format: String, Sendable, CaseIterable {
        /// One line per finding, `FILE:LINE:COL: severity: message [rule] (step 'id')`.
        case text
        /// `{"findings": [...], "summary": {...}}`.
        case json
        /// SARIF 2.1.0, for GitHub code scanning and editors.
        case sarif
    }

    public var findings: [LintFinding]

    public init(findings: [LintFinding]) {
        self.findings = findings
    }

    /// How many findings have `severity`.
    public func count(_ severity: LintSeverity) -> Int { findings.filter { $0.severity == severity }.count }

    /// Whether the run fails: an error, or (with `warningsAsErrors`) a warning.
    public func fails(warningsAsErrors: Bool) -> Bool {
        findings.contains { $0.severity == .error || (warningsAsErrors && $0.severity == .warning) }
    }

    /// The report in `format` (text ends with a summary line; every format ends with a newline).
    public func rendered(as format: Format) -> String {
        switch format {
        case .text: return text
        case .json: return JSONWriter.string(from: jsonValue, pretty: true) + "\n"
        case .sarif: return JSONWriter.string(from: sarifValue, pretty: true) + "\n"
        }
    }

    /// "1 error, 2 warnings, 0 info".
    public var summary: String {
        let errors = count(.error)
        let warnings = count(.warning)
        return
            "\(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s"), \(count(.info)) info"
    }

    var text: String {
        findings.map { $0.description + "\n" }.joined()
    }

    var jsonValue: JSONValue {
        .object([
            "findings": .array(findings.map(Self.json)),
            "summary": .object([
                "errors": .number(Double(count(.error))), "warnings": .number(Double(count(.warning))),
                "infos": .number(Double(count(.info))),
            ]),
        ])
    }

    static func json(_ finding: LintFinding) -> JSONValue {
        var members: [String: JSONValue] = [
            "rule": .string(finding.rule.id), "severity": .string(finding.severity.rawValue),
            "message": .string(finding.message),
        ]
        if let file = finding.file { members["file"] = .string(file) }
        if let position = finding.position {
            members["line"] = .number(Double(position.line))
            members["column"] = .number(Double(position.column))
        }
        if let stepID = finding.stepID { members["stepId"] = .string(stepID) }
        if let path = finding.path { members["path"] = .string(path.description) }
        return .object(members)
    }

    /// Where the rules are documented.
    public static let documentationURI = "docs/lint.md"

    var sarifValue: JSONValue {
        let rules = LintRule.allCases
        let ruleIndex = Dictionary(uniqueKeysWithValues: rules.enumerated().map { ($1, $0) })
        let descriptors: [JSONValue] = rules.map { rule in
            .object([
                "id": .string(rule.id),
                "name": .string(Self.camelCase(rule.id)),
                "shortDescription": .object(["text": .string(rule.summary)]),
                "help": .object(["text": .string("\(rule.summary) See \(Self.documentationURI), section \(rule.id).")]),
                "defaultConfiguration": .object(["level": .string(Self.level(rule.defaultSeverity))]),
            ])
        }
        let results: [JSONValue] = findings.map { finding in
            var location: [String: JSONValue] = [:]
            var physical: [String: JSONValue] = [:]
            if let file = finding.file { physical["artifactLocation"] = .object(["uri": .string(Self.uri(file))]) }
            if let position = finding.position {
                physical["region"] = .object([
                    "startLine": .number(Double(position.line)), "startColumn": .number(Double(position.column)),
                ])
            }
            if !physical.isEmpty { location["physicalLocation"] = .object(physical) }
            if let stepID = finding.stepID {
                location["logicalLocations"] = .array([.object(["name": .string(stepID), "kind": .string("member")])])
            }
            var result: [String: JSONValue] = [
                "ruleId": .string(finding.rule.id),
                "ruleIndex": .number(Double(ruleIndex[finding.rule] ?? 0)),
                "level": .string(Self.level(finding.severity)),
                "message": .object(["text": .string(finding.message)]),
            ]
            if !location.isEmpty { result["locations"] = .array([.object(location)]) }
            if let path = finding.path { result["properties"] = .object(["jsonPath": .string(path.description)]) }
            return .object(result)
        }
        return .object([
            "$schema": .string("https://json.schemastore.org/sarif-2.1.0.json"),
            "version": .string("2.1.0"),
            "runs": .array([
                .object([
                    "tool": .object([
                        "driver": .object([
                            "name": .string("survey lint"),
                            "rules": .array(descriptors),
                        ])
                    ]),
                    "columnKind": .string("unicodeCodePoints"),
                    "results": .array(results),
                ])
            ]),
        ])
    }

    static func level(_ severity: LintSeverity) -> String {
        switch severity {
        case .error: return "error"
        case .warning: return "warning"
        case .info: return "note"
        }
    }

    /// `unreachable-step` → `UnreachableStep`.
    static func camelCase(_ id: String) -> String {
        id.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    /// A relative file path as a URI reference (forward slashes, reserved characters escaped).
    static func uri(_ path: String) -> String {
        var result = path.hasPrefix("/") ? "file://" : ""
        for scalar in path.unicodeScalars {
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", "-", ".", "_", "~", "/": result.unicodeScalars.append(scalar)
            case "\\": result += "/"
            default:
                for byte in String(scalar).utf8 {
                    let hex = String(byte, radix: 16, uppercase: true)
                    result += "%" + (hex.count == 1 ? "0" + hex : hex)
                }
            }
        }
        return result
    }
}

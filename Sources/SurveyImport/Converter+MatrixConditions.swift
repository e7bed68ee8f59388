import Foundation
import SurveyCore

// The conditions of a matrix's rows and columns: each one's `visibleIf` (kept on the row or column,
// where the engine's matrix kinds read it), and the question's `rowsVisibleIf` / `columnsVisibleIf`,
// which survey-core evaluates for each row or column with `{item}` as its value.

extension Converter {
    /// `list` (rows or columns, as ``choices(_:path:images:)`` converted them) with the shared
    /// condition `shared` (the question's `rowsVisibleIf` or `columnsVisibleIf`, at `path`) joined to
    /// each one's own, `{item}` written as the row's or column's value.
    mutating func joiningItemCondition(_ shared: JSONValue?, at path: JSONPath, to list: [JSONValue]) -> [JSONValue] {
        guard let source = expression(shared, path)?.stringValue else { return list }
        if source.range(of: "{item.", options: .caseInsensitive) != nil {
            note(
                .notConverted, path, "a condition reading {item.…}",
                "only {item} (the row's or column's value) is read; the rows and columns show without it")
            return list
        }
        return list.map { element in
            let value = element["value"] ?? element
            let literal: String
            switch value {
            case .number(let number): literal = JSONValue.format(number: number)
            case .string(let text):
                literal =
                    "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'")
                    + "'"
            default: return element
            }
            let condition = Self.replacingItem(in: source, with: literal)
            var members = element.objectMembers ?? ["value": value]
            if let own = members["visibleIf"]?.stringValue {
                members["visibleIf"] = .string("(\(own)) and (\(condition))")
            } else {
                members["visibleIf"] = .string(condition)
            }
            return .object(members)
        }
    }

    /// `source` with each `{item}` (any letter case, spaces inside the braces allowed) written as `literal`.
    static func replacingItem(in source: String, with literal: String) -> String {
        guard
            let pattern = try? NSRegularExpression(pattern: "\\{\\s*item\\s*\\}", options: [.caseInsensitive])
        else { return source }
        let range = NSRange(source.startIndex..., in: source)
        return pattern.stringByReplacingMatches(
            in: source, range: range, withTemplate: NSRegularExpression.escapedTemplate(for: literal))
    }

    /// A dropdown matrix column's `visibleIf`, which survey-core evaluates in each row (reading the
    /// row's cells as `{row.<column>}`), as the engine's matrix-dropdown kind reads it.
    mutating func columnVisibleIf(_ column: inout Members, into result: inout [String: JSONValue]) {
        guard let condition = expression(column.take("visibleIf"), column.path("visibleIf"))?.stringValue else {
            return
        }
        noteHostFunctions(in: condition, at: column.path("visibleIf"), pluginsMayProvide: false)
        result["visibleIf"] = .string(Self.nullingUnknownCalls(in: condition))
    }
}

extension Converter {
    /// Leaves out the `setvalue` triggers aimed at a dotted name (`q.member`) no question (`taken`,
    /// lowercased) has: survey-core's `setTriggerValue` sets a question found by that name, or a plain
    /// name in its data, and nothing else.
    mutating func dropDottedTargets(of triggers: inout [JSONValue], taken: Set<String>) {
        var kept: [JSONValue] = []
        var moved: [Int: Int] = [:]
        for (index, trigger) in triggers.enumerated() {
            if trigger["type"] == "setvalue", let target = trigger["target"]?.stringValue, target.contains("."),
                !taken.contains(target.lowercased())
            {
                let origin = origins[JSONPath.root.appending("triggers").appending(index)] ?? .root
                note(
                    .notConverted, origin.appending("setToName"), "a setvalue trigger aimed at '\(target)'",
                    "no question has this name, and survey-core sets nothing for a dotted name; left out")
                continue
            }
            moved[index] = kept.count
            kept.append(trigger)
        }
        guard kept.count < triggers.count else { return }
        triggers = kept
        // Where each kept trigger came from, under its new position.
        var remapped: [JSONPath: JSONPath] = [:]
        for (path, origin) in origins {
            var components = path.components
            if components.count >= 2, components[0] == .key("triggers"), case .index(let old) = components[1] {
                guard let new = moved[old] else { continue }
                components[1] = .index(new)
            }
            remapped[JSONPath(components)] = origin
        }
        origins = remapped
    }
}

extension Converter {
    /// A matrix whose every row must be answered (`isAllRowRequired`): survey-core refuses it empty
    /// as well, as long as a row shows — here it is required when a row always shows (one whose
    /// rows are all conditional is left as it is: survey-core passes it when they are all hidden).
    func requireEveryRow(_ kind: inout ConvertedKind) {
        let rows = kind.options["rows"]?.arrayValue ?? []
        if rows.contains(where: { $0["visibleIf"] == nil }) { kind.requiresAnswer = true }
    }
}

extension Converter {
    /// Whether the survey's first page is a start page (`firstPageIsStartPage`, or the older
    /// `firstPageIsStarted`): survey-core shows it whole, also with `questionsOnPageMode: "questionPerPage"`.
    func hasStartPage(_ members: Members) -> Bool {
        members.members["firstPageIsStartPage"] == .bool(true) || members.members["firstPageIsStarted"] == .bool(true)
    }
}

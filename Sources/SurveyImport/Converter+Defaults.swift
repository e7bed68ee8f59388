import Foundation
import SurveyCore

/// Defaults and choice bounds as survey-core reads them: dates in ISO 8601, a default fitted to the
/// question it is given to, the listed choice values, `minSelectedChoices` making a question required.
extension Converter {
    /// A date or date-time default written as browsers accept it (`11/22/1982 12:00:00`) in ISO 8601,
    /// as this engine's dates are; any other value as it is.
    mutating func isoDefault(_ value: JSONValue, of kind: ConvertedKind, _ members: Members) -> JSONValue {
        let withTime = kind.options["inputType"] == "datetime-local"
        guard kind.type == "date" || withTime, let text = value.stringValue,
            let iso = Self.isoDate(text, withTime: withTime)
        else { return value }
        note(
            .notConverted, members.path("defaultValue"), "defaultValue '\(text)'",
            "written '\(iso)': dates are ISO 8601 here, where survey-core keeps the text as given")
        return .string(iso)
    }

    /// Converted kinds that answer with a listed choice.
    static let choiceKinds: Set<String> = [
        "single-choice", "dropdown", "multiple-choice", "tagbox", "image-choice", "ranking", "boolean",
    ]

    /// A `defaultValue` as the converted kind takes it, as survey-core reads it: a one-element list
    /// of a single-value question is its element, a number of a text question without `keepNumbers` its text, a choice
    /// not listed (survey-core clears it on completion) or a matrix row or column not listed is left
    /// out; `nil` when nothing is left.
    mutating func fittedDefault(_ value: JSONValue, of kind: ConvertedKind, _ members: Members) -> JSONValue? {
        let singleValueKinds: Set<String> = [
            "text", "number", "date", "slider", "single-choice", "dropdown", "rating", "nps", "scale", "boolean",
        ]
        var value = value
        if case .array(let elements) = value, elements.count == 1, singleValueKinds.contains(kind.type) {
            value = elements[0]
        }
        let path = members.path("defaultValue")
        // survey-core reads an empty text, or one of spaces only, as no default (a text box starts
        // empty, a matrix unanswered).
        if case .string(let text) = value, text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { return nil }
        if kind.isRange {
            guard case .array(let pair) = value, pair.count == 2 else {
                note(.notConverted, path, "defaultValue \(describe(value))", "a range slider's default is [low, high]")
                return nil
            }
            return ["from": pair[0], "to": pair[1]]
        }
        switch (kind.type, value) {
        case ("text", .number) where kind.options["keepNumbers"] != true:
            let text = JSONValue.format(text: value)
            note(
                .notConverted, path, "defaultValue \(text)",
                "a text question's default is the text '\(text)' here; survey-core keeps the number until edited")
            return .string(text)
        case ("single-choice", .string), ("single-choice", .number), ("dropdown", .string), ("dropdown", .number):
            guard let listed = Self.listedChoiceValues(kind, key: "choices"),
                !listed.contains(JSONValue.format(text: value))
            else { return value }
            note(
                .notConverted, path, "defaultValue \(describe(value))",
                "not one of the choices: left out (survey-core holds it until the survey completes, then clears it)")
            return nil
        case ("multiple-choice", .array(let elements)), ("tagbox", .array(let elements)):
            // Values the question does not list (a `[" "]` left by an editor): survey-core holds them
            // until the survey completes, then clears them; the listed ones are kept.
            let listed = Self.listedChoiceValues(kind, key: "choices")
            let kept = elements.filter { element in
                let text = JSONValue.format(text: element)
                return !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty && listed?.contains(text) != false
            }
            guard kept.count < elements.count else { return value }
            note(
                .notConverted, path, "defaultValue \(describe(value))",
                "values the question does not list are left out (survey-core holds them until the survey completes, then clears them)"
            )
            return kept.isEmpty ? nil : .array(kept)
        case ("matrix", .object(let answers)):
            guard let rows = Self.listedChoiceValues(kind, key: "rows"),
                let columns = Self.listedChoiceValues(kind, key: "columns")
            else { return value }
            let kept = answers.filter { rows.contains($0.key) && columns.contains(JSONValue.format(text: $0.value)) }
            guard kept.count < answers.count else { return value }
            let dropped = answers.keys.filter { kept[$0] == nil }.sorted()
            note(
                .notConverted, path, "defaultValue rows \(dropped.map { "'\($0)'" }.joined(separator: ", "))",
                "a row or column the matrix does not list: left out (survey-core keeps a row it does not list)")
            return kept.isEmpty ? nil : .object(kept)
        case ("matrix-dropdown", .object(let answers)):
            // Cells of columns the matrix does not list (survey-core keeps them in its data, where no
            // cell shows them) are left out; the data shape keeps them while the question is untouched.
            let columns = Set((kind.options["columns"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue })
            let rows = Set((kind.options["rows"]?.arrayValue ?? []).map { JSONValue.format(text: $0["value"] ?? $0) })
            var kept = answers
            var dropped: [String] = []
            for (row, cells) in answers.sorted(by: { $0.key < $1.key }) {
                guard rows.contains(row) else {
                    kept[row] = nil
                    dropped.append("'\(row)'")
                    continue
                }
                guard let cells = cells.objectValue else { continue }
                let known = cells.filter { columns.contains($0.key) }
                dropped += cells.keys.filter { known[$0] == nil }.sorted().map { "'\(row).\($0)'" }
                kept[row] = known.isEmpty ? nil : .object(known)
            }
            guard !dropped.isEmpty else { return value }
            note(
                .notConverted, path,
                "defaultValue cells \(dropped.prefix(6).joined(separator: ", "))\(dropped.count > 6 ? ", …" : "")",
                "a row or column the matrix does not list: left out (survey-core keeps it in its data)")
            if let name = members.members["name"]?.stringValue { dataShape.objectDefaults[name] = value }
            return kept.isEmpty ? nil : .object(kept)
        case ("number", .string(let text)) where Double(text.trimmingCharacters(in: .whitespaces)) == nil:
            note(
                .notConverted, path, "defaultValue \(describe(value))",
                "not a number: left out (survey-core keeps the text in a numeric box)")
            return nil
        case ("repeat", .array(let entries)):
            return fittedEntries(entries, of: kind, at: path)
        case ("multiple-text", .object):
            // One entry of its items, as a repeat's entries are fitted.
            let fitted = fittedEntries([value], of: kind, at: path)?.arrayValue?.first
            // survey-core's data keeps the members no item takes while the question is left as it starts.
            if fitted != value, let name = members.members["name"]?.stringValue {
                dataShape.objectDefaults[name] = value
            }
            return fitted == [:] ? nil : fitted
        default:
            return value
        }
    }

    /// A dynamic panel's or matrix's default entries (or a multiple text's default) without the members
    /// no item of the converted kind takes (items the converter left out, such as an image picker):
    /// survey-core keeps them in its data, where nothing here asks them.
    mutating func fittedEntries(_ entries: [JSONValue], of kind: ConvertedKind, at path: JSONPath) -> JSONValue? {
        let names = Set((kind.options["items"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue })
        let taken = names.union(kind.entryOthers.map { $0 + "-Comment" })
        var dropped = Set<String>()
        let fitted = entries.map { entry -> JSONValue in
            guard case .object(let members) = entry else { return entry }
            let kept = members.filter { taken.contains($0.key) }
            dropped.formUnion(members.keys.filter { kept[$0] == nil })
            return .object(kept)
        }
        guard !dropped.isEmpty else { return .array(entries) }
        note(
            .notConverted, path, "defaultValue members \(dropped.sorted().map { "'\($0)'" }.joined(separator: ", "))",
            "no item of the converted group takes them (left out); survey-core keeps them in its data")
        return .array(fitted)
    }

    /// The values of `kind`'s listed `key` choices (as text), when they are all it offers (no
    /// Other, None, custom or fetched choices); `nil` otherwise.
    static func listedChoiceValues(_ kind: ConvertedKind, key: String) -> Set<String>? {
        guard case .array(let choices)? = kind.options[key],
            kind.options["other"] == nil, kind.options["none"] == nil, kind.options["allowCustomChoices"] == nil,
            kind.options["choicesByUrl"] == nil
        else { return nil }
        return Set(choices.map { JSONValue.format(text: $0["value"] ?? $0) })
    }

    /// `M/D/YYYY` with an optional `H:MM[:SS]` as `YYYY-MM-DD` (with `THH:MM` when `withTime`).
    static func isoDate(_ text: String, withTime: Bool) -> String? {
        let parts = text.split(separator: " ", maxSplits: 1)
        let date = parts.first?.split(separator: "/").compactMap { Int($0) } ?? []
        guard date.count == 3, (1...12).contains(date[0]), (1...31).contains(date[1]), date[2] >= 1000 else {
            return nil
        }
        func two(_ number: Int) -> String { number < 10 ? "0\(number)" : "\(number)" }
        var iso = "\(date[2])-\(two(date[0]))-\(two(date[1]))"
        guard withTime else { return iso }
        let time = parts.count > 1 ? parts[1].split(separator: ":").compactMap { Int($0) } : [0, 0]
        guard time.count >= 2, (0...23).contains(time[0]), (0...59).contains(time[1]) else { return nil }
        iso += "T\(two(time[0])):\(two(time[1]))"
        return iso
    }

    /// Whether a choice kind's `minSelections` (`minSelectedChoices`) of 1 or more makes it required:
    /// survey-core's check (`checkMinSelectedChoicesUnreached`) refuses no selection as well as too
    /// few, so a question, column or item with one cannot be left unanswered there either.
    static func minimumMakesRequired(_ options: [String: JSONValue]) -> Bool {
        (options["minSelections"]?.intValue ?? 0) >= 1
    }

    /// Whether a converted kind's options make it required (as above), or its `requiresAnswer` does.
    static func minimumMakesRequired(_ kind: ConvertedKind) -> Bool {
        kind.requiresAnswer || minimumMakesRequired(kind.options)
    }
}

import Foundation
import SurveyCore

/// survey-core's data shape for the results of a converted SurveyJS survey: what a team that swaps
/// survey-core for this engine gets in place of `survey.data`.
///
/// The engine keeps an Other answer as its text and a dynamic panel nobody filled in as no answer;
/// survey-core 3.0.4 stores the first as `"other"` with the text in `<name>-Comment` (unless the
/// survey says `"storeOthersAsComment": false`) and the second as its empty panels (`[{}]` for a
/// `panelCount` of 1, once its page was shown). The converter records which questions need which
/// under the survey's `x-surveyjs` extension (`{"data": {"othersAsComment": [ids], "emptyPanels":
/// {id: count}, "emptyRows": {id: rows shown}, "files": [ids], "entryFiles": {id: [items]}}}`; survey-core keeps a file as `{name, type, content}`), so a
/// converted file saved with `survey import` keeps the shape too.
///
/// ``SurveySource`` gives surveys it converts (or that carry the extension) this shape unless told
/// otherwise (`survey run --data-shape engine`); a survey loaded with ``SurveyLoader`` directly gets
/// it by setting ``Survey/resultShape``:
///
/// ```swift
/// var survey = try SurveyLoader(registry: .builtins()).load(text: conversion.text)
/// survey.resultShape = SurveyJSDataShape(survey)
/// ```
public struct SurveyJSDataShape: ResultShape {
    /// The survey member that holds what the converter kept for SurveyJS.
    public static let extensionKey = "x-surveyjs"

    /// Questions whose Other answer is stored as `"other"` plus `<id>-Comment`, with their listed values.
    var othersAsComment: [(id: String, values: Set<String>)] = []
    /// The same for items of repeats (dynamic panels and matrices), inside each entry: by repeat, each
    /// item with its listed values.
    var entryOthersAsComment: [(id: String, items: [(name: String, values: Set<String>)])] = []
    /// Dynamic panels and how many empty panels survey-core's data holds for them, with their unit.
    var emptyPanels: [(id: String, count: Int, unit: String, entry: [String: JSONValue])] = []
    /// File questions: survey-core keeps each file as `{name, type, content}`.
    var files: [String] = []
    /// The same for file items of repeats (dynamic panels), inside each entry: by repeat, its file items.
    var entryFiles: [(id: String, items: [String])] = []
    /// Questions whose choices have Boolean values: offered as "true"/"false", stored as Booleans.
    var booleanChoices: [String] = []
    /// Questions with choices whose values are objects: each offered as its JSON text, stored as the object.
    var objectChoices: [(id: String, values: [String: JSONValue])] = []
    /// Matrices with column totals (`totalType` by column), stored as `<id>-total`.
    var totals: [(id: String, columns: [String: String])] = []
    /// Dynamic matrices and how many rows they show: fewer rows, all empty, are no answer.
    var emptyRows: [(id: String, shown: Int, minimum: Int)] = []
    /// Dynamic panels whose count is bound to a question (`bindings.panelCount`), with their unit.
    var bindings: [(id: String, question: String, maximum: Int, unit: String)] = []
    /// Dynamic panels whose count is an expression, with it and their unit: survey-core's data holds
    /// that many empty panels once shown.
    var countedPanels: [(id: String, count: String, unit: String)] = []
    /// Dynamic panels that share another's entries (a shared valueName), with that panel's id, their
    /// items' defaults and how many entries at most get them (nil: all): their answers are merged
    /// into its entries, entry by entry.
    var sharedEntries: [(id: String, owner: String, defaults: [String: JSONValue], limit: Int?)] = []
    /// Questions whose key in survey-core's data is not their id (a question named `""`): id → key.
    var dataNames: [(id: String, key: String)] = []
    /// Names a `setvalue` trigger writes that no question has, each held by a question never shown:
    /// survey-core keeps them in its data.
    var dataKeys: [String] = []
    /// Second questions of a name (renamed here), with the first's id: survey-core keeps one value.
    var duplicates: [(id: String, owner: String)] = []
    /// Dropdown matrices with column defaults: their rows, the defaults, and their unit. survey-core's
    /// data holds every row with the defaults (under the answers) once the matrix was shown.
    var rowDefaults: [(id: String, rows: [String], cells: [String: JSONValue], unit: String)] = []
    /// The values a second question of a name with listed choices (and no Other) can take.
    var duplicateChoices: [String: Set<String>] = [:]
    /// Expression questions: survey-core's data holds their values while they show, on a page the
    /// respondent reached or not.
    var computed: [String] = []
    /// Expression questions with `clearIfInvisible: "none"`: survey-core keeps their values, hidden or not.
    var keptComputed: [String] = []
    /// Whether the survey keeps hidden answers (`clearInvisibleValues: "none"`).
    var keepsHiddenAnswers = false
    /// Multiple texts whose default has members no item takes: the default as the question starts
    /// with it here, and as survey-core's data keeps it until the respondent answers.
    var objectDefaults: [(id: String, fitted: JSONValue, original: JSONValue)] = []
    /// Range sliders, asked as `{"from", "to"}`: survey-core stores `[from, to]`.
    var ranges: [String] = []

    /// The shape `survey` asks for in its `x-surveyjs` extension; `nil` when it has none (a survey
    /// written in this engine's format keeps the engine's shape, unless it declares column totals:
    /// then it gets them, `<id>-total`).
    public init?(_ survey: Survey) {
        let data = survey.definition.extensions[Self.extensionKey]?["data"]
        // A survey in this engine's format gets the shape for the column totals it declares.
        let declared = Self.declaredTotals(in: survey.definition.steps)
        guard data != nil || !declared.isEmpty else { return nil }
        var record = data.map(Record.init(json:)) ?? Record()
        record.totals.merge(declared) { recorded, _ in recorded }
        var steps: [String: (step: StepDefinition, unit: String)] = [:]
        func visit(_ step: StepDefinition, unit: String) {
            steps[step.id] = (step, unit)
            for child in step.steps { visit(child, unit: unit) }
        }
        for step in survey.definition.steps { visit(step, unit: step.id) }
        for id in record.othersAsComment {
            guard let step = steps[id]?.step else { continue }
            var listing = step
            // Choices carried forward are the source's (its Other aside), whether the source shows or not.
            var hops = 0
            while listing.options["choices"] == nil, let source = listing.choicesFromQuestion,
                let next = steps[source]?.step,
                hops < 16
            {
                (listing, hops) = (next, hops + 1)
            }
            var values = Set(
                (listing.options["choices"]?.arrayValue ?? []).compactMap { choice in
                    (choice["value"] ?? choice).choiceKey
                })
            if step.options["none"] != nil { values.insert("none") }
            othersAsComment.append((id, values))
        }
        for (id, names) in record.entryOthersAsComment.sorted(by: { $0.key < $1.key }) {
            guard let step = steps[id]?.step else { continue }
            let items = step.options["items"]?.arrayValue ?? []
            var shaped: [(name: String, values: Set<String>)] = []
            for name in names {
                guard let item = items.first(where: { $0["name"]?.stringValue == name }) else { continue }
                var values = Set(
                    (item["options"]?["choices"]?.arrayValue ?? []).compactMap { choice in
                        (choice["value"] ?? choice).choiceKey
                    })
                if item["options"]?["none"] != nil { values.insert("none") }
                shaped.append((name, values))
            }
            if !shaped.isEmpty { entryOthersAsComment.append((id, shaped)) }
        }
        files = record.files
        entryFiles = record.entryFiles.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        emptyRows = record.emptyRows.sorted { $0.key < $1.key }.map {
            ($0.key, $0.value, steps[$0.key]?.step.options["minCount"]?.intValue ?? 0)
        }
        booleanChoices = record.booleanChoices
        ranges = record.ranges
        objectChoices = record.objectChoices.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        dataKeys = record.dataKeys
        computed = record.computed
        keptComputed = record.keptComputed
        keepsHiddenAnswers = survey.definition.settings.clearInvisibleValues == .none
        for (id, original) in record.objectDefaults.sorted(by: { $0.key < $1.key }) {
            guard let fitted = steps[id]?.step.defaultValue else { continue }
            objectDefaults.append((id, fitted, original))
        }
        duplicates = record.duplicates.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        for (id, _) in duplicates {
            guard let step = steps[id]?.step, step.options["other"] == nil,
                let choices = step.options["choices"]?.arrayValue
            else { continue }
            var values = Set(choices.compactMap { ($0["value"] ?? $0).choiceKey })
            if step.options["none"] != nil { values.insert("none") }
            duplicateChoices[id] = values
        }
        sharedEntries = record.sharedEntries.sorted { $0.key < $1.key }.map {
            ($0.key, $0.value, record.panelDefaults[$0.key] ?? [:], record.defaultedPanels[$0.key])
        }
        dataNames = record.dataNames.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        totals = record.totals.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        for (id, binding) in record.bindings.sorted(by: { $0.key < $1.key }) {
            guard let unit = steps[id]?.unit, let question = binding["question"]?.stringValue else { continue }
            bindings.append((id, question, max(0, min(binding["max"]?.intValue ?? 100, 10_000)), unit))
        }
        for (id, entry) in record.rowDefaults.sorted(by: { $0.key < $1.key }) {
            guard let unit = steps[id]?.unit, let cells = entry["cells"]?.objectMembers else { continue }
            let rows = (entry["rows"]?.arrayValue ?? []).compactMap(\.stringValue)
            rowDefaults.append((id, rows, cells, unit))
        }
        for id in record.countedPanels where record.sharedEntries[id] == nil && record.duplicates[id] == nil {
            guard let (step, unit) = steps[id], let count = step.options["count"]?.stringValue else { continue }
            countedPanels.append((id, count, unit))
        }
        for (id, count) in record.emptyPanels.sorted(by: { $0.key < $1.key }) {
            guard let unit = steps[id]?.unit else { continue }
            emptyPanels.append((id, count, unit, record.panelDefaults[id] ?? [:]))
        }
    }

    /// The functions a converted SurveyJS survey calls that the engine does not have (`hostFunctions`
    /// of its `x-surveyjs` extension): survey-core gives null for a function the app did not
    /// register, and so does ``SurveySource`` for these, unless a plugin provides them.
    public static func hostFunctions(in survey: JSONValue) -> [String] {
        (survey[extensionKey]?["hostFunctions"]?.arrayValue ?? []).compactMap(\.stringValue)
    }

    /// The questions that only hold a value a `setvalue` trigger writes under a name no question of
    /// the SurveyJS survey has (never shown, so tools leave them out of their findings).
    public static func dataKeys(of survey: Survey) -> Set<String> {
        guard let data = survey.definition.extensions[extensionKey]?["data"] else { return [] }
        return Set(Record(json: data).dataKeys)
    }

    /// A second question of a name is answered with the answer given for the name (survey-core shows
    /// one value in both) when it is one the question can take, unless the script answers it itself.
    /// A choice whose value is an object is answered with the object, as survey-core's data holds it.
    public func scriptAnswers(_ answers: [String: JSONValue]) -> [String: JSONValue] {
        var result = answers
        for (id, key) in dataNames {
            if let value = result.removeValue(forKey: key) { result[id] = value }
        }
        for id in ranges { Self.rangeAsFields(of: id, in: &result) }
        for (id, values) in objectChoices { Self.keyObjectChoice(of: id, values: values, in: &result) }
        for (id, owner) in duplicates where result[id] == nil {
            guard let answer = answers[owner] else { continue }
            if let values = duplicateChoices[id],
                !(answer.arrayValue ?? [answer]).allSatisfy({ $0.choiceKey.map(values.contains) ?? false })
            {
                continue
            }
            result[id] = answer
        }
        return result
    }

    /// The matrices' totals, `<id>-total`, and survey-core's keys of questions keyed otherwise (`""`).
    public var addedKeys: Set<String> { Set(totals.map { $0.id + "-total" } + dataNames.map(\.key)) }

    public func shape(_ answers: [String: JSONValue], of session: SurveySession) -> [String: JSONValue] {
        var data = answers
        // One list of entries under the shared name: each sharing panel's answers go into the entry
        // at the same position (a later panel's answer to the same key wins, as a later edit would).
        for (id, owner, defaults, limit) in sharedEntries {
            guard let shared = data.removeValue(forKey: id)?.arrayValue else {
                // Not answered (never shown): survey-core still keeps a panel of it per entry (shown one
                // at a time, only the first `limit`), which puts its items' defaults into the entry.
                if !defaults.isEmpty, case .array(let entries)? = data[owner] {
                    data[owner] = .array(
                        entries.enumerated().map { index, entry in
                            index < limit ?? .max ? Self.filling(entry, with: defaults) : entry
                        })
                }
                continue
            }
            var entries = data[owner]?.arrayValue ?? []
            for (index, entry) in shared.enumerated() {
                while entries.count <= index { entries.append(.object([:])) }
                var merged = entries[index].objectMembers ?? [:]
                for (key, value) in entry.objectMembers ?? [:] { merged[key] = value }
                entries[index] = .object(merged)
            }
            data[owner] = .array(entries)
        }
        // Whether the run showed step `id` of unit `unit` (its unit on the path, the step visible).
        var path: Set<String>?
        func shown(_ id: String, in unit: String) -> Bool {
            if path == nil { path = Set(session.pathIDs) }
            return path?.contains(unit) == true && session.isVisible(id)
        }
        for (id, values) in othersAsComment { Self.storeOther(of: id, values: values, in: &data) }
        for (id, items) in entryOthersAsComment {
            guard case .array(var entries)? = data[id] else { continue }
            for index in entries.indices {
                guard case .object(var entry) = entries[index] else { continue }
                for (name, values) in items { Self.storeOther(of: name, values: values, in: &entry) }
                entries[index] = .object(entry)
            }
            data[id] = .array(entries)
        }
        // A bound count and its panels are kept equal: the panels answered set the count; a count
        // given with no panel answered makes that many empty panels once the panel is shown.
        for (id, question, maximum, unit) in bindings {
            if case .array(let list)? = data[id], !list.isEmpty {
                data[question] = .number(Double(list.count))
            } else if let count = data[question].flatMap(Self.number), count >= 1, shown(id, in: unit) {
                data[id] = .array(Array(repeating: .object([:]), count: min(Int(count), maximum)))
            }
        }
        // survey-core keeps every matrix's totals in its data, answered or not.
        for (id, columns) in totals {
            data[id + "-total"] = .object(Self.totals(columns, of: id, in: data, today: session.today))
        }
        // survey-core keeps a dynamic matrix's rows that hold nothing when there are as many as it
        // shows or more; fewer, it keeps its minRowCount empty rows (`[{}]` of a matrix showing 2 is
        // no answer, or `[{}]` again with minRowCount 1).
        for (id, shown, minimum) in emptyRows {
            if case .array(let list)? = data[id], list.count < shown, list.allSatisfy(\.isEmptyAnswer) {
                data[id] = minimum > 0 ? .array(Array(repeating: .object([:]), count: minimum)) : nil
            }
        }
        for (id, values) in objectChoices {
            switch data[id] {
            case .string(let key)?: if let value = values[key] { data[id] = value }
            case .array(let list)?: data[id] = .array(list.map { $0.stringValue.flatMap { values[$0] } ?? $0 })
            default: break
            }
        }
        for id in booleanChoices {
            switch data[id] {
            case .string(let text)? where text == "true" || text == "false": data[id] = .bool(text == "true")
            case .array(let list)?:
                data[id] = .array(list.map { $0 == "true" ? .bool(true) : $0 == "false" ? .bool(false) : $0 })
            case .object(let rows)?:
                // A matrix whose columns are Booleans: each row's column.
                data[id] = .object(rows.mapValues { $0 == "true" ? .bool(true) : $0 == "false" ? .bool(false) : $0 })
            default: break
            }
        }
        for id in files {
            guard case .array(let list)? = data[id] else { continue }
            data[id] = .array(list.map(Self.surveyJSFile))
        }
        for (id, items) in entryFiles { Self.mapEntryFiles(of: id, items: items, in: &data, Self.surveyJSFile) }
        for (id, count, unit, entry) in emptyPanels where data[id] == nil && shown(id, in: unit) {
            data[id] = .array(Array(repeating: .object(entry), count: count))
        }
        for (id, count, unit) in countedPanels where data[id] == nil && shown(id, in: unit) {
            let panels = Self.panelCount(count, of: session)
            if panels > 0 { data[id] = .array(Array(repeating: .object([:]), count: panels)) }
        }
        for (id, rows, cells, unit) in rowDefaults where shown(id, in: unit) {
            var matrix = data[id]?.objectMembers ?? [:]
            for row in rows {
                var values = matrix[row]?.objectMembers ?? [:]
                for (column, value) in cells where values[column] == nil { values[column] = value }
                matrix[row] = .object(values)
            }
            data[id] = .object(matrix)
        }
        for id in dataKeys { data[id] = session.answer(for: id) }
        for (id, fitted, original) in objectDefaults where data[id] == fitted { data[id] = original }
        if !keepsHiddenAnswers {
            for id in computed where data[id] == nil && session.isVisible(id) { data[id] = session.answer(for: id) }
        }
        for id in keptComputed where data[id] == nil { data[id] = session.answer(for: id) }
        // One value under the shared name: the first question's, else the one given to a second.
        for (id, owner) in duplicates {
            guard let value = data.removeValue(forKey: id) else { continue }
            if data[owner] == nil { data[owner] = value }
        }
        for id in ranges {
            if case .object(let fields)? = data[id], let from = fields["from"], let to = fields["to"] {
                data[id] = [from, to]
            }
        }
        for (id, key) in dataNames {
            if let value = data.removeValue(forKey: id) { data[key] = value }
        }
        return data
    }

    /// `entry` with `defaults` for the members it has no value for (an entry that is no object as it is).
    static func filling(_ entry: JSONValue, with defaults: [String: JSONValue]) -> JSONValue {
        guard case .object(var members) = entry else { return entry }
        for (key, value) in defaults where members[key] == nil { members[key] = value }
        return .object(members)
    }

    /// survey-core's `[low, high]` of range slider `id` as the fields the engine asks.
    static func rangeAsFields(of id: String, in values: inout [String: JSONValue]) {
        if case .array(let pair)? = values[id], pair.count == 2 { values[id] = ["from": pair[0], "to": pair[1]] }
    }

    /// survey-core's data as the engine's answers: an Other answer's `"other"` and `<id>-Comment` as its
    /// text, files as `{file, name, type}`, Boolean choices as their listed texts, a dynamic panel's
    /// untouched empty panels as no answer; the matrices' totals are left out (they follow from the
    /// answers). A shared dynamic panel's entries and a bound panel count stay as they are.
    public func answers(fromShaped data: [String: JSONValue]) -> [String: JSONValue] {
        var answers = data
        for (id, key) in dataNames {
            if let value = answers.removeValue(forKey: key) { answers[id] = value }
        }
        for (id, _) in totals { answers[id + "-total"] = nil }
        for id in ranges { Self.rangeAsFields(of: id, in: &answers) }
        for (id, _, _, entry) in emptyPanels {
            if case .array(let list)? = answers[id], list.allSatisfy({ $0 == .object(entry) || $0.isEmptyAnswer }) {
                answers[id] = nil
            }
        }
        for id in files {
            guard case .array(let list)? = answers[id] else { continue }
            answers[id] = .array(list.map(Self.engineFile))
        }
        for (id, items) in entryFiles { Self.mapEntryFiles(of: id, items: items, in: &answers, Self.engineFile) }
        for (id, values) in objectChoices { Self.keyObjectChoice(of: id, values: values, in: &answers) }
        for id in booleanChoices {
            switch answers[id] {
            case .bool(let flag)?: answers[id] = .string(flag ? "true" : "false")
            case .array(let list)?:
                answers[id] = .array(list.map { $0.boolValue.map { .string($0 ? "true" : "false") } ?? $0 })
            case .object(let rows)?:
                answers[id] = .object(rows.mapValues { $0.boolValue.map { .string($0 ? "true" : "false") } ?? $0 })
            default: break
            }
        }
        for (id, values) in othersAsComment { Self.takeOther(of: id, values: values, in: &answers) }
        for (id, items) in entryOthersAsComment {
            guard case .array(var entries)? = answers[id] else { continue }
            for index in entries.indices {
                guard case .object(var entry) = entries[index] else { continue }
                for (name, values) in items { Self.takeOther(of: name, values: values, in: &entry) }
                entries[index] = .object(entry)
            }
            answers[id] = .array(entries)
        }
        return answers
    }

    /// The inverse of ``storeOther(of:values:in:)``: `"other"` (not a listed value) with a text in
    /// `<key>-Comment` becomes that text.
    /// An object answer of a question with object choices, as the JSON text the choice is offered as.
    static func keyObjectChoice(of id: String, values: [String: JSONValue], in answers: inout [String: JSONValue]) {
        let keys = Dictionary(values.map { ($0.value, $0.key) }) { first, _ in first }
        switch answers[id] {
        case .object?: if let key = answers[id].flatMap({ keys[$0] }) { answers[id] = .string(key) }
        case .array(let list)?: answers[id] = .array(list.map { keys[$0].map(JSONValue.string) ?? $0 })
        default: break
        }
    }

    static func takeOther(of key: String, values: Set<String>, in data: inout [String: JSONValue]) {
        guard !values.contains("other"), case .string(let text)? = data[key + "-Comment"] else { return }
        switch data[key] {
        case .string("other")?:
            data[key] = .string(text)
            data[key + "-Comment"] = nil
        case .array(var list)?:
            guard let index = list.firstIndex(of: "other") else { return }
            list[index] = .string(text)
            data[key] = .array(list)
            data[key + "-Comment"] = nil
        default: break
        }
    }

    /// Each file of the file items `items` in every entry of repeat `id`, mapped by `transform`.
    static func mapEntryFiles(
        of id: String, items: [String], in data: inout [String: JSONValue], _ transform: (JSONValue) -> JSONValue
    ) {
        guard case .array(var entries)? = data[id] else { return }
        for index in entries.indices {
            guard case .object(var entry) = entries[index] else { continue }
            for name in items {
                if case .array(let list)? = entry[name] { entry[name] = .array(list.map(transform)) }
            }
            entries[index] = .object(entry)
        }
        data[id] = .array(entries)
    }

    /// The inverse of ``surveyJSFile(_:)``: `{name, type, content}` as `{file, name, type}`.
    static func engineFile(_ file: JSONValue) -> JSONValue {
        guard case .object(var members) = file, members["file"] == nil,
            let content = members.removeValue(forKey: "content")
        else { return file }
        members["file"] = content
        return .object(members)
    }

    /// Column `column`'s total of type `type` over the rows of `answer` (an array of rows, or an
    /// object of rows by row value): `count` counts the rows that answer it, the others take its
    /// numbers (numeric texts too); 0 when there are none.
    static func total(_ type: String, of column: String, in answer: JSONValue?) -> JSONValue {
        let rows: [JSONValue] =
            switch answer {
            case .array(let list)?: list
            case .object(let members)?: members.keys.sorted().compactMap { members[$0] }
            default: []
            }
        let cells = rows.compactMap { $0[column] }.filter { !$0.isEmptyAnswer }
        if type == "count" { return .number(Double(cells.count)) }
        let numbers = cells.compactMap(Self.number)
        guard !numbers.isEmpty else { return .number(0) }
        switch type {
        case "sum": return .number(numbers.reduce(0, +))
        case "avg": return .number(numbers.reduce(0, +) / Double(numbers.count))
        case "min": return .number(numbers.min() ?? 0)
        case "max": return .number(numbers.max() ?? 0)
        default: return .number(0)
        }
    }

    /// A number, or a text that is one.
    static func number(_ value: JSONValue) -> Double? {
        if let number = value.numberValue { return number }
        return value.stringValue.flatMap { JSONValue.decimalNumber($0.trimmingCharacters(in: .whitespaces)) }
    }

    /// A file as survey-core keeps it: `{name, type, content}` (the reference, or the data URL, as `content`).
    static func surveyJSFile(_ file: JSONValue) -> JSONValue {
        guard case .object(let members) = file, let reference = members["file"] else { return file }
        var result: [String: JSONValue] = ["content": reference]
        if let name = members["name"] { result["name"] = name }
        if let type = members["type"] { result["type"] = type }
        return .object(result)
    }

    /// Writes the answer of `key` in `data` as survey-core stores an Other answer: a text that is none
    /// of `values` becomes `"other"`, the text going to `<key>-Comment` (in a list, the first such).
    static func storeOther(of key: String, values: Set<String>, in data: inout [String: JSONValue]) {
        switch data[key] {
        case .string(let text)? where !values.contains(text):
            data[key] = "other"
            data[key + "-Comment"] = .string(text)
        case .array(let list)?:
            guard let index = list.firstIndex(where: { $0.stringValue.map { !values.contains($0) } ?? false })
            else { break }
            var shaped = list
            data[key + "-Comment"] = list[index]
            shaped[index] = "other"
            data[key] = .array(shaped)
        default: break
        }
    }

    /// What the converter records (the `data` member of the `x-surveyjs` extension).
    struct Record {
        var othersAsComment: [String] = []
        /// Repeats whose items keep an Other answer as `"other"` plus `<item>-Comment` in each entry.
        var entryOthersAsComment: [String: [String]] = [:]
        var emptyPanels: [String: Int] = [:]
        var emptyRows: [String: Int] = [:]

        var files: [String] = []
        /// Repeats with file items: survey-core keeps each of their files as `{name, type, content}`.
        var entryFiles: [String: [String]] = [:]
        var booleanChoices: [String] = []
        var ranges: [String] = []
        var objectChoices: [String: [String: JSONValue]] = [:]
        var dataKeys: [String] = []
        /// Expression questions (the shape's `computed`).
        var computed: [String] = []
        /// Expression questions that keep their values hidden (`clearIfInvisible: "none"`).
        var keptComputed: [String] = []
        /// Multiple texts' defaults as written, when no item takes some of their members.
        var objectDefaults: [String: JSONValue] = [:]
        /// Second questions of a name → the first's id.
        var duplicates: [String: String] = [:]
        /// Dropdown matrices with column defaults: `{"rows": [values], "cells": {column: default}}`.
        var rowDefaults: [String: [String: JSONValue]] = [:]
        var totals: [String: [String: String]] = [:]
        var bindings: [String: [String: JSONValue]] = [:]
        /// Dynamic panels sharing another's entries: sharing panel → the panel whose entries they are.
        var sharedEntries: [String: String] = [:]
        /// The items' defaults an untouched panel holds, by dynamic panel.
        var panelDefaults: [String: [String: JSONValue]] = [:]
        /// Sharing dynamic panels shown one panel at a time (a `displayMode` or `renderMode` other than
        /// `list`): survey-core builds only the panels they start with, so only that many entries get
        /// their items' defaults.
        var defaultedPanels: [String: Int] = [:]
        /// Dynamic panels whose count is an expression (`panelCountExpression`).
        var countedPanels: [String] = []
        /// Questions keyed otherwise in survey-core's data (named `""`): id → key.
        var dataNames: [String: String] = [:]

        var isEmpty: Bool {
            othersAsComment.isEmpty && entryOthersAsComment.isEmpty && emptyPanels.isEmpty && emptyRows.isEmpty
                && files.isEmpty && entryFiles.isEmpty
                && booleanChoices.isEmpty && ranges.isEmpty && objectChoices.isEmpty && dataKeys.isEmpty
                && duplicates.isEmpty
                && computed.isEmpty && keptComputed.isEmpty && objectDefaults.isEmpty
                && rowDefaults.isEmpty
                && totals.isEmpty
                && bindings.isEmpty
                && sharedEntries.isEmpty
                && countedPanels.isEmpty && dataNames.isEmpty
        }

        init() {}

        init(json: JSONValue) {
            othersAsComment = (json["othersAsComment"]?.arrayValue ?? []).compactMap(\.stringValue)
            for (id, names) in json["entryOthersAsComment"]?.objectMembers ?? [:] {
                entryOthersAsComment[id] = (names.arrayValue ?? []).compactMap(\.stringValue)
            }
            files = (json["files"]?.arrayValue ?? []).compactMap(\.stringValue)
            for (id, names) in json["entryFiles"]?.objectMembers ?? [:] {
                entryFiles[id] = (names.arrayValue ?? []).compactMap(\.stringValue)
            }
            booleanChoices = (json["booleanChoices"]?.arrayValue ?? []).compactMap(\.stringValue)
            ranges = (json["ranges"]?.arrayValue ?? []).compactMap(\.stringValue)
            objectChoices = (json["objectChoices"]?.objectMembers ?? [:]).compactMapValues(\.objectMembers)
            dataKeys = (json["dataKeys"]?.arrayValue ?? []).compactMap(\.stringValue)
            computed = (json["computed"]?.arrayValue ?? []).compactMap(\.stringValue)
            keptComputed = (json["keptComputed"]?.arrayValue ?? []).compactMap(\.stringValue)
            objectDefaults = json["objectDefaults"]?.objectMembers ?? [:]
            duplicates = (json["duplicates"]?.objectMembers ?? [:]).compactMapValues(\.stringValue)
            rowDefaults = (json["rowDefaults"]?.objectMembers ?? [:]).compactMapValues(\.objectMembers)
            for (id, binding) in json["bindings"]?.objectMembers ?? [:] {
                if let members = binding.objectMembers { bindings[id] = members }
            }
            sharedEntries = (json["sharedEntries"]?.objectMembers ?? [:]).compactMapValues(\.stringValue)
            countedPanels = (json["countedPanels"]?.arrayValue ?? []).compactMap(\.stringValue)
            dataNames = (json["dataNames"]?.objectMembers ?? [:]).compactMapValues(\.stringValue)
            for (id, columns) in json["totals"]?.objectMembers ?? [:] {
                totals[id] = (columns.objectMembers ?? [:]).compactMapValues(\.stringValue)
            }
            for (id, entry) in json["panelDefaults"]?.objectMembers ?? [:] {
                if let members = entry.objectMembers { panelDefaults[id] = members }
            }
            defaultedPanels = (json["defaultedPanels"]?.objectMembers ?? [:]).compactMapValues(\.intValue)
            for (id, count) in json["emptyRows"]?.objectMembers ?? [:] {
                if let count = count.intValue, count > 0 { emptyRows[id] = min(count, 10_000) }
            }
            for (id, count) in json["emptyPanels"]?.objectMembers ?? [:] {
                if let count = count.intValue, count > 0 { emptyPanels[id] = min(count, 10_000) }
            }
        }

        var json: JSONValue {
            var members: [String: JSONValue] = [:]
            if !othersAsComment.isEmpty { members["othersAsComment"] = .array(othersAsComment.map { .string($0) }) }
            if !entryOthersAsComment.isEmpty {
                members["entryOthersAsComment"] = .object(
                    entryOthersAsComment.mapValues { .array($0.map { .string($0) }) })
            }
            if !emptyPanels.isEmpty { members["emptyPanels"] = .object(emptyPanels.mapValues { .number(Double($0)) }) }
            if !emptyRows.isEmpty { members["emptyRows"] = .object(emptyRows.mapValues { .number(Double($0)) }) }
            if !files.isEmpty { members["files"] = .array(files.map { .string($0) }) }
            if !entryFiles.isEmpty {
                members["entryFiles"] = .object(entryFiles.mapValues { .array($0.map { .string($0) }) })
            }
            if !booleanChoices.isEmpty { members["booleanChoices"] = .array(booleanChoices.map { .string($0) }) }
            if !ranges.isEmpty { members["ranges"] = .array(ranges.map { .string($0) }) }
            if !objectChoices.isEmpty { members["objectChoices"] = .object(objectChoices.mapValues { .object($0) }) }
            if !dataKeys.isEmpty { members["dataKeys"] = .array(dataKeys.map { .string($0) }) }
            if !computed.isEmpty { members["computed"] = .array(computed.map { .string($0) }) }
            if !keptComputed.isEmpty { members["keptComputed"] = .array(keptComputed.map { .string($0) }) }
            if !objectDefaults.isEmpty { members["objectDefaults"] = .object(objectDefaults) }
            if !duplicates.isEmpty { members["duplicates"] = .object(duplicates.mapValues { .string($0) }) }
            if !dataNames.isEmpty { members["dataNames"] = .object(dataNames.mapValues { .string($0) }) }
            if !rowDefaults.isEmpty { members["rowDefaults"] = .object(rowDefaults.mapValues { .object($0) }) }
            if !bindings.isEmpty { members["bindings"] = .object(bindings.mapValues { .object($0) }) }
            if !sharedEntries.isEmpty { members["sharedEntries"] = .object(sharedEntries.mapValues { .string($0) }) }
            if !countedPanels.isEmpty { members["countedPanels"] = .array(countedPanels.map { .string($0) }) }
            if !totals.isEmpty {
                members["totals"] = .object(totals.mapValues { .object($0.mapValues { .string($0) }) })
            }
            if !panelDefaults.isEmpty { members["panelDefaults"] = .object(panelDefaults.mapValues { .object($0) }) }
            if !defaultedPanels.isEmpty {
                members["defaultedPanels"] = .object(defaultedPanels.mapValues { .number(Double($0)) })
            }
            return .object(members)
        }
    }
}

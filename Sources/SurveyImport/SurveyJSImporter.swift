import SurveyCore

/// A SurveyJS survey converted into this engine's format.
public struct SurveyJSConversion: Sendable {
    /// The survey in this engine's format (load it with `SurveyLoader`).
    public var survey: JSONValue
    /// Everything that was not carried over (in the order of the file when converted from text).
    public var notes: [ImportNote]
    /// Where each converted page, panel, question, trigger and calculated value came from: a path
    /// in ``survey`` → the path of its SurveyJS element.
    public var origins: [JSONPath: JSONPath]

    /// The names the survey reads that no question or calculated value defines, each with where it is
    /// first read in the SurveyJS survey: the converted survey declares them as host `variables`
    /// (empty until the host sets them, as survey-core's `setVariable`); `survey lint` warns about
    /// each (`unknown-reference`).
    public var hostNames: [(name: String, path: JSONPath)] = []

    /// The expressions left out because they cannot be parsed (survey-core ignores them too, logging
    /// "Invalid expression"): the text, the parser's message with its column, and where it is in the
    /// SurveyJS survey. `survey lint` reports each as an `invalid-expression` error.
    public var unparsableExpressions: [(text: String, message: String, path: JSONPath)] = []

    /// Whether anything that changes behaviour or data was left out.
    public var isWhole: Bool { !notes.contains { $0.kind == .notConverted } }

    /// The notes as a person reads them: each note that changes behaviour or a name on a line of its
    /// own (`FILE:LINE:COL: not converted: what (why)`), then one line for the layout-only properties
    /// (each name once, with how often) and one for the custom properties kept under `x-surveyjs` —
    /// both left out when `quiet`.
    /// - Parameter file: the name the summary lines start with.
    public func noteLines(file: String, quiet: Bool = false) -> [String] {
        var lines = notes.filter { $0.kind != .layoutOnly && $0.kind != .custom }.map(\.description)
        guard !quiet else { return lines }
        func tally(_ kind: ImportNote.Kind) -> (count: Int, text: String)? {
            var counts: [String: Int] = [:]
            var order: [String] = []
            for note in notes where note.kind == kind {
                if counts[note.what] == nil { order.append(note.what) }
                counts[note.what, default: 0] += 1
            }
            guard !order.isEmpty else { return nil }
            let shown = order.prefix(12).map { what in
                let name = what.hasPrefix("property '") ? String(what.dropFirst(10).dropLast()) : what
                return counts[what] == 1 ? name : "\(name) ×\(counts[what] ?? 0)"
            }
            let rest = order.count > 12 ? ", and \(order.count - 12) more" : ""
            return (counts.values.reduce(0, +), shown.joined(separator: ", ") + rest)
        }
        if let layout = tally(.layoutOnly) {
            lines.append("\(file): layout only, no effect here (\(layout.count)): \(layout.text)")
        }
        if let custom = tally(.custom) {
            lines.append(
                "\(file): \(custom.count) custom propert\(custom.count == 1 ? "y" : "ies") kept under x-surveyjs: \(custom.text)"
            )
        }
        return lines
    }

    /// The survey as JSON text for people: two-space indents, `id` and `type` first in every object.
    public var text: String {
        JSONWriter.string(from: survey, pretty: true, keyOrder: Self.keyOrder) + "\n"
    }

    /// The SurveyJS path the element at `path` (or its nearest converted ancestor) came from; a
    /// choice, row or column of a converted question (`options.choices[2].visibleIf`) is taken to be
    /// the one at the same position in the SurveyJS element (`choices[2].visibleIf`).
    public func origin(of path: JSONPath) -> JSONPath? {
        var components = path.components
        var removed: [JSONPath.Component] = []
        while true {
            if let origin = origins[JSONPath(components)] {
                guard removed.count >= 3, removed[0] == .key("options"), case .key(let list) = removed[1],
                    ["choices", "rows", "columns"].contains(list), case .index = removed[2]
                else { return origin }
                return JSONPath(origin.components + removed.dropFirst())
            }
            guard let last = components.popLast() else { return nil }
            removed.insert(last, at: 0)
        }
    }

    static let keyOrder = [
        "formatVersion", "id", "version", "type", "name", "title", "description", "defaultLocale", "settings",
        "if", "value", "label", "expression", "required", "requiredIf", "visibleIf", "enableIf", "readOnly", "enabled",
        "options", "calculatedValues", "triggers", "completionMessages", "steps",
    ]
}

/// Converts surveys written in SurveyJS's JSON format (survey-core 1.x–2.x: pages, panels, elements,
/// triggers, calculated values, validators) into this engine's format.
///
/// The conversion never drops anything silently: what it cannot carry over is an ``ImportNote``
/// naming the JSON path and the reason. Expressions are copied as they are (the expression
/// language is SurveyJS's); `choicesVisibleIf` with `{item}` becomes a `visibleIf` on each choice.
/// docs/import.md lists every mapping.
public enum SurveyJSImporter {
    /// Whether `json` is a SurveyJS survey rather than one in this engine's format: an object with
    /// `pages`, `elements` or `questions` and neither `formatVersion` nor `steps`.
    public static func looksLikeSurveyJS(_ json: JSONValue) -> Bool {
        guard case .object(let members) = json, members["formatVersion"] == nil, members["steps"] == nil else {
            return false
        }
        return members["pages"] != nil || members["elements"] != nil || members["questions"] != nil
    }

    /// Converts a parsed SurveyJS survey; `id` becomes the survey id (SurveyJS surveys have none:
    /// use the file's name).
    /// - Parameter lenientExpressions: leave out an expression survey-core cannot parse either (as
    ///   survey-core ignores it), with a note and an entry in ``SurveyJSConversion/unparsableExpressions``;
    ///   by default it is kept, and loading the converted survey refuses it with its position.
    /// - Parameter pluginKinds: the ids of the question kinds loaded plugins registered: a custom
    ///   SurveyJS question type of the same name becomes that kind, its common members (name, title,
    ///   visibleIf, isRequired…) converted as for any question and the others its options; without
    ///   it such an element is left out with a note.
    /// - Throws: ``SurveyJSImportError`` when `json` is not a SurveyJS survey at all.
    public static func convert(
        _ json: JSONValue, id: String, lenientExpressions: Bool = false, pluginKinds: Set<String> = []
    ) throws(SurveyJSImportError) -> SurveyJSConversion {
        guard case .object = json else {
            throw SurveyJSImportError("a SurveyJS survey is a JSON object, got \(json.kindDescription)")
        }
        var converter = Converter()
        converter.leavesOutUnparsableExpressions = lenientExpressions
        converter.pluginKinds = pluginKinds
        let survey = try converter.survey(json, id: id)
        var conversion = SurveyJSConversion(survey: survey, notes: converter.notes, origins: converter.origins)
        conversion.hostNames = converter.hostNames
        conversion.unparsableExpressions = converter.unparsableExpressions
        return conversion
    }

    /// Parses and converts SurveyJS JSON text; notes and errors carry `source` and line:column.
    /// - Parameter pluginKinds: as for ``convert(_:id:lenientExpressions:pluginKinds:)``.
    /// - Throws: ``SurveyJSImportError`` for invalid JSON or a text that is not a SurveyJS survey.
    public static func convert(
        text: String, source: String?, id: String, lenientExpressions: Bool = false, pluginKinds: Set<String> = []
    ) throws(SurveyJSImportError) -> SurveyJSConversion {
        // A key given twice keeps its last value, as survey-core's JSON.parse keeps it (noted).
        let parsed: (value: JSONValue, repeated: [JSONParser.RepeatedKey])
        do {
            parsed = try JSONParser.parseKeepingLastKey(text)
        } catch {
            throw SurveyJSImportError("invalid JSON: \(error.message)", position: error.position, file: source)
        }
        var conversion = try convert(
            parsed.value, parsedFrom: text, source: source, id: id, lenientExpressions: lenientExpressions,
            pluginKinds: pluginKinds)
        conversion.noteRepeatedKeys(parsed.repeated, file: source)
        return conversion
    }

    /// Converts `json`, already parsed from `text`; notes and errors carry `source` and the
    /// line:column in `text`. `pluginKinds`: as for ``convert(_:id:lenientExpressions:pluginKinds:)``.
    public static func convert(
        _ json: JSONValue, parsedFrom text: String, source: String?, id: String, lenientExpressions: Bool = false,
        pluginKinds: Set<String> = []
    ) throws(SurveyJSImportError) -> SurveyJSConversion {
        var conversion: SurveyJSConversion
        do {
            conversion = try convert(json, id: id, lenientExpressions: lenientExpressions, pluginKinds: pluginKinds)
        } catch {
            var located = error
            located.file = source
            located.position = SourceLocator.position(of: error.path, in: text)
            throw located
        }
        let positions = text.utf8.withContiguousStorageIfAvailable {
            SourceLocator.positions(of: conversion.notes.map(\.path), in: $0)
        }
        for index in conversion.notes.indices {
            conversion.notes[index].file = source
            conversion.notes[index].position =
                positions?[index] ?? SourceLocator.position(of: conversion.notes[index].path, in: text)
        }
        // In the order of the file.
        conversion.notes = conversion.notes.enumerated().sorted { a, b in
            let left = a.element.position.map { ($0.line, $0.column) } ?? (Int.max, a.offset)
            let right = b.element.position.map { ($0.line, $0.column) } ?? (Int.max, b.offset)
            return left != right ? left < right : a.offset < b.offset
        }.map(\.element)
        return conversion
    }
}

/// The members of one SurveyJS object, with the ones the conversion used.
struct Members {
    let members: [String: JSONValue]
    let path: JSONPath
    private(set) var used: Set<String> = []
    /// Members given under another name survey-core reads as theirs: name → the name written.
    private var written: [String: String] = [:]

    /// Other spellings survey-core's serializer reads as a property (its `alternativeName`s that
    /// only spell the same property otherwise): written → the property's name.
    static let alternativeNames: [String: String] = [
        "placeHolder": "placeholder", "commentPlaceHolder": "commentPlaceholder",
        "otherPlaceHolder": "otherPlaceholder", "mininumRateDescription": "minRateDescription",
        "maximumRateDescription": "maxRateDescription", "autoComplete": "autocomplete",
        "useDisplayValuesInTitle": "useDisplayValuesInDynamicTexts", "columnsLocation": "columnLayout",
        "rateDisplayMode": "rateType", "templateTitleLocation": "templateQuestionTitleLocation",
    ]

    /// `members` of the object at `path`; a member written under another spelling survey-core reads
    /// (``alternativeNames``) is read under the property's name, unless that name is given too.
    init(_ members: [String: JSONValue], path: JSONPath) {
        var members = members
        for (alternative, name) in Self.alternativeNames where members[name] == nil {
            guard let value = members.removeValue(forKey: alternative) else { continue }
            members[name] = value
            written[name] = alternative
        }
        self.members = members
        self.path = path
    }

    /// The value of `key` (marking it used), `nil` when absent or `null`. A text "true" or "false"
    /// (any case) given to a property survey-core declares Boolean is that Boolean, and a text given
    /// to a property it declares number is read as JavaScript's parseInt reads it (`nil` when that
    /// gives no number, or for an empty text: survey-core then checks nothing with it), as
    /// survey-core's serializer reads them.
    mutating func take(_ key: String) -> JSONValue? {
        used.insert(key)
        guard let value = members[key], !value.isNull else { return nil }
        if case .string(let text) = value, SurveyCoreProperties.booleans.contains(key) {
            switch text.lowercased() {
            case "true": return .bool(true)
            case "false": return .bool(false)
            default: break
            }
        }
        if case .string(let text) = value, SurveyCoreProperties.numbers.contains(key) {
            return Self.parseInt(text).map { .number(Double($0)) }
        }
        return value
    }

    /// JavaScript's `parseInt(text)`: leading white space, a sign, then decimal digits (or hex ones
    /// after `0x`) up to the first other character; `nil` for NaN (no digit) and past ±2^53.
    static func parseInt(_ text: String) -> Int? {
        var rest = Substring(text).drop { $0.isWhitespace }
        var sign = 1
        if let first = rest.first, first == "-" || first == "+" {
            sign = first == "-" ? -1 : 1
            rest = rest.dropFirst()
        }
        var radix = 10
        if rest.lowercased().hasPrefix("0x") {
            radix = 16
            rest = rest.dropFirst(2)
        }
        let digits = rest.prefix { $0.isASCII && $0.hexDigitValue.map { $0 < radix } == true }
        guard !digits.isEmpty, digits.count <= 15, let value = Int(digits, radix: radix) else { return nil }
        return sign * value
    }

    /// The first of `keys` present (SurveyJS renamed several properties: `hasOther` → `showOtherItem`).
    mutating func take(anyOf keys: String...) -> (key: String, value: JSONValue)? {
        var found: (String, JSONValue)?
        for key in keys {
            if let value = take(key), found == nil { found = (key, value) }
        }
        return found
    }

    /// Member `key` as the file spells it.
    func spelling(_ key: String) -> String { written[key] ?? key }

    /// Where member `key` is in the file (under the spelling written).
    func path(_ key: String) -> JSONPath { path.appending(written[key] ?? key) }

    /// Marks `keys` as used without reading them.
    mutating func markUsed(_ keys: [String]) { used.formUnion(keys) }

    /// The members not used, sorted.
    var unused: [String] { members.keys.filter { !used.contains($0) }.sorted() }
}

extension JSONValue {
    var objectMembers: [String: JSONValue]? {
        if case .object(let members) = self { return members }
        return nil
    }
}

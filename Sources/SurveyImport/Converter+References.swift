import Foundation
import SurveyCore

// survey-core reads a `{name}` that no question or calculated value defines as empty until the host
// sets it (`survey.setVariable`), and matches names without regard to case. The converted survey
// says the same in this format's terms: such names become declared host `variables` (empty until
// `--var NAME=VALUE`, the protocol's `start` or the library sets them), and a reference written in
// another case than its question's name is written as the name is.

extension Converter {
    /// Members whose strings are expressions, and members whose texts may pipe `{name}`.
    static let expressionMembers: Set<String> = [
        "visibleIf", "enableIf", "requiredIf", "defaultValueExpression", "if", "expression", "run", "count",
        "minValueExpression", "maxValueExpression", "setValueIf", "setValueExpression", "resetValueIf",
        "minExpression", "maxExpression", "instanceVisibleIf",
    ]
    static let textMembers: Set<String> = [
        "title", "description", "text", "html", "body", "commentText", "label", "itemTitle", "content", "placeholder",
        "requiredMessage", "url",
    ]
    /// Names survey-core gives a meaning of its own inside rows, panels and items, or reads from the
    /// survey itself: never host variables.
    static let contextualNames: Set<String> = Set(contextualSpellings.keys)
    /// ``contextualNames`` as the engine spells them: survey-core reads `{PANEL.q1}` and `{Item}` too.
    static let contextualSpellings: [String: String] = Dictionary(
        uniqueKeysWithValues: [
            "row", "panel", "item", "parentPanel", "rootPanel", "composite", "panelIndex", "rowIndex", "itemIndex",
            "visibleRowIndex", "visiblePanelIndex", "rowName", "rowValue", "rowTitle", "choice", "pageNo",
            "pageCount", "locale",
        ].map { ($0.lowercased(), $0) })
    /// The names `displayValue('name')` and `displayValues('name', …)` in `text` name, as written.
    static func displayValueNames(in text: String) -> [String] {
        guard text.range(of: "displayvalue", options: .caseInsensitive) != nil else { return [] }
        var names: [String] = []
        var rest = Substring(text)
        while let call = rest.range(of: "displayvalue", options: .caseInsensitive) {
            var after = rest[call.upperBound...]
            if after.first == "s" || after.first == "S" { after = after.dropFirst() }
            after = after.drop { $0 == " " }
            rest = after
            guard after.first == "(" else { continue }
            after = after.dropFirst().drop { $0 == " " }
            guard let quote = after.first, quote == "'" || quote == "\"" else { continue }
            let name = after.dropFirst().prefix { $0 != quote }
            if !name.isEmpty, !name.contains("{") { names.append(String(name)) }
        }
        return names
    }

    /// A page with `{pageNo}` and `{pageCount}` (any case) in its texts written as numbers: survey-core
    /// gives the place of the page shown among the visible pages, and their count. Written here as the
    /// page's place in the file and the number of pages (the same while no page is hidden).
    static func numberingTexts(of page: JSONValue, number: Int, of count: Int) -> JSONValue {
        func rewrite(_ value: JSONValue, inText: Bool) -> JSONValue {
            switch value {
            case .string(let text) where inText && text.range(of: "{page", options: .caseInsensitive) != nil:
                return .string(
                    replacingReferences(in: text) { reference in
                        switch reference.trimmingCharacters(in: .whitespaces).lowercased() {
                        case "pageno": return String(number)
                        case "pagecount": return String(count)
                        default: return "{" + reference + "}"
                        }
                    })
            case .object(let members):
                var rewritten = members
                for (key, member) in members {
                    rewritten[key] = rewrite(member, inText: inText || textMembers.contains(key))
                }
                return .object(rewritten)
            case .array(let elements): return .array(elements.map { rewrite($0, inText: inText) })
            default: return value
            }
        }
        return rewrite(page, inText: false)
    }

    /// The ``contextualNames`` a row, a panel, a composite question or a choice gives a meaning to
    /// (not those of the survey itself, such as `{pageNo}`): outside one, survey-core reads them as empty.
    static let rowAndItemNames: Set<String> = contextualNames.subtracting(["pageno", "pagecount", "locale"])
    /// Names survey-core computes for quizzes (`correctAnswer`).
    static let quizNames: Set<String> = [
        "correctanswers", "incorrectanswers", "correctedanswers", "inCorrectAnswers".lowercased(), "questioncount",
    ]

    /// Declares every name the converted survey reads but does not define as a host variable, and
    /// writes each reference that differs from its name only in case as the name is written.
    /// `text` with each `{name-total.column}` of a matrix with that column total written as the
    /// function that computes it (`sumInArray({name}, 'column')`), as survey-core computes it.
    static func replacingTotals(
        in text: String, _ totals: [String: (id: String, totals: [String: String])]
    ) -> String {
        replacingReferences(in: text) { inner in
            let reference = inner.trimmingCharacters(in: .whitespaces)
            let parts = reference.split(separator: ".", maxSplits: 1).map(String.init)
            guard parts.count == 2, let matrix = totals[parts[0].lowercased()], let type = matrix.totals[parts[1]],
                let function = totalFunctions[type]
            else { return "{" + inner + "}" }
            return "\(function)({\(matrix.id)}, '\(parts[1])')"
        }
    }

    mutating func resolveReferences(in survey: inout [String: JSONValue]) {
        var defined: [String: String] = [:]  // lowercased → as written
        let rangeSliders = Set(dataShape.ranges)
        func define(_ name: String) {
            if defined[name.lowercased()] == nil { defined[name.lowercased()] = name }
        }
        var containers: [String: String] = [:]  // pages and panels, lowercased → as written
        func collect(_ steps: [JSONValue]) {
            for step in steps {
                // Pages, panels and content hold no value: `{name}` never reads them.
                if let id = step["id"]?.stringValue, !["page", "panel", "content"].contains(step["type"]?.stringValue) {
                    define(id)
                    define(id + "-Comment")
                } else if let id = step["id"]?.stringValue, step["type"]?.stringValue != "content" {
                    containers[id.lowercased()] = id
                }
                collect(step["steps"]?.arrayValue ?? [])
            }
        }
        collect(survey["steps"]?.arrayValue ?? [])
        for value in survey["calculatedValues"]?.arrayValue ?? [] {
            if let name = value["name"]?.stringValue { define(name) }
        }
        for panel in survey["panels"]?.arrayValue ?? [] {
            if let id = panel["id"]?.stringValue { containers[id.lowercased()] = id }
        }
        var unknown: [(name: String, path: JSONPath)] = []
        var seen: Set<String> = []
        var unreadProperties: [(name: String, path: JSONPath, isText: Bool)] = []
        /// `{$element.property}` as the engine reads it (the element's name as written), or `nil` for
        /// one it does not read.
        func property(_ trimmed: String, root: String) -> String? {
            guard trimmed.count > root.count + 1, trimmed.dropFirst(root.count).first == "." else { return nil }
            let element = root.dropFirst().lowercased()
            let property = String(trimmed.dropFirst(root.count + 1))
            if element == "survey" {
                return ElementPropertyValue.surveyProperties.contains(property) ? trimmed : nil
            }
            // `{$self.…}`, `{$panel.…}`, `{$parent.…}`, `{$item.…}`: relative to the element the
            // expression belongs to, which the engine knows when it compiles it.
            if ElementPropertyValue.relativeElements.contains(element) {
                return ElementPropertyValue.relativeProperties(of: element).contains(property)
                    ? "$\(element).\(property)" : nil
            }
            if let name = defined[element], !name.hasSuffix("-Comment") {
                return ElementPropertyValue.questionProperties.contains(property) ? "$\(name).\(property)" : nil
            }
            if let name = containers[element] {
                return ElementPropertyValue.containerProperties.contains(property) ? "$\(name).\(property)" : nil
            }
            return nil
        }
        /// - Parameter scoped: whether the expression sits inside a question's options (a repeat's
        ///   items, a matrix's cells, choices), where the question gives `{row.…}`, `{panel.…}`,
        ///   `{item}` and the rest of ``contextualNames`` their meaning; elsewhere survey-core reads
        ///   them as empty, and so they become host variables like any unknown name.
        func rewrite(_ text: String, at origin: JSONPath, isText: Bool, scoped: Bool = true) -> String {
            if !isText { noteHostFunctions(in: text, at: origin, pluginsMayProvide: true) }
            // `{name-total.column}` in an expression: the column's total over the matrix's rows.
            let text = isText || matrixTotals.isEmpty ? text : Self.replacingTotals(in: text, matrixTotals)
            // `displayValue('name')` of a name no question or calculated value has: survey-core gives
            // no value; here it is a host variable's, empty unless the host sets it.
            if !isText {
                for name in Self.displayValueNames(in: text) where defined[name.lowercased()] == nil {
                    if seen.insert(name.lowercased()).inserted { unknown.append((name, origin)) }
                }
            }
            // `countInArray({a}, 'x', {room} = true)`: the condition reads each item's fields.
            let rowFields = isText ? [] : Self.inArrayConditionNames(in: text)
            func rewriting(_ text: String, _ transform: (Substring) -> String) -> String {
                isText
                    ? Self.rewritingReferences(in: text, transform)
                    : Self.rewritingExpressionReferences(in: text, transform)
            }
            return rewriting(text) { written in
                // `{#name}` (survey-core's "no conversion" mark) names `name`: the engine reads it the same.
                let reference = !isText && written.first == "#" && written.count > 1 ? written.dropFirst() : written
                let trimmed = reference.trimmingCharacters(in: .whitespaces)
                let root = String(trimmed.prefix { $0 != "." && $0 != "[" })
                let key = root.lowercased()
                if root.hasPrefix("$"), root.count > 1 {
                    if let read = property(trimmed, root: root) { return read }
                    // survey-core reads any property of its objects; one this engine does not have reads
                    // as empty, a host value.
                    if seen.insert(trimmed.lowercased()).inserted { unreadProperties.append((trimmed, origin, isText)) }
                    return trimmed
                }
                let outOfContext = !scoped && !isText && Self.rowAndItemNames.contains(key) && defined[key] == nil
                if let spelling = Self.contextualSpellings[key], spelling != root, !rowFields.contains(key),
                    !outOfContext,
                    defined[key] == nil
                {
                    return spelling + trimmed.dropFirst(root.count)
                }
                guard !root.isEmpty, !root.hasPrefix("$"), !root.hasPrefix("#"),
                    !Self.contextualNames.contains(key) || outOfContext, !rowFields.contains(key),
                    isText ? Self.isTextName(root) : Self.isExpressionName(root)
                else { return String(reference) }
                if let name = defined[key], rangeSliders.contains(name) {
                    // A range slider's `[low, high]`: `{range[0]}` and `{range[1]}` are its two fields.
                    let rest = trimmed.dropFirst(root.count)
                    for (index, field) in ["[0]": ".from", "[1]": ".to"] where rest.hasPrefix(index) {
                        return name + field + rest.dropFirst(index.count)
                    }
                }
                if let name = defined[key] {
                    // survey-core matches names whatever their case.
                    return name == root ? String(reference) : name + trimmed.dropFirst(root.count)
                }
                if seen.insert(key).inserted { unknown.append((root, origin)) }
                return String(reference)
            }
        }
        /// `value`, at `ours` in the converted survey, under `member`; `origin` is where the nearest
        /// converted element came from in the SurveyJS file.
        func visit(_ value: JSONValue, member: String?, ours: JSONPath, origin: JSONPath) -> JSONValue {
            let origin = origins[ours] ?? origin
            switch value {
            case .string(let text)
            where member.map { Self.expressionMembers.contains($0) || Self.textMembers.contains($0) } ?? false:
                let isText = member.map { Self.textMembers.contains($0) } ?? false
                guard text.contains("{") || (!isText && !Self.displayValueNames(in: text).isEmpty) else {
                    // No reference to rewrite, but maybe a call of the app's own function (`isReady()`).
                    if !isText {
                        noteHostFunctions(in: text, at: origin.appending(member ?? ""), pluginsMayProvide: true)
                    }
                    return value
                }
                var text = text
                if member == "visibleIf" {
                    // `{$self.isVisible}` in the element's own visibleIf: survey-core reads the visibility
                    // the condition last gave (true before it first runs), state this engine does not
                    // keep; it reads true.
                    let replaced = Self.replacingReferences(in: text) { reference in
                        reference.trimmingCharacters(in: .whitespaces).lowercased() == "$self.isvisible"
                            ? "true" : "{" + reference + "}"
                    }
                    if replaced != text {
                        note(
                            .notConverted, origin.appending("visibleIf"), "{$self.isVisible} in its own visibleIf",
                            "survey-core reads the visibility this condition last gave (true at first); here it reads true (docs/expressions.md#element-properties)"
                        )
                        text = replaced
                    }
                }
                let scoped = ours.components.contains(.key("options"))
                return .string(rewrite(text, at: origin.appending(member ?? ""), isText: isText, scoped: scoped))
            case .object(let members):
                var result: [String: JSONValue] = [:]
                let isText = member.map { Self.textMembers.contains($0) } ?? false
                // In key order: which unknown name is met first decides the variables' order.
                for key in members.keys.sorted() {
                    guard let inner = members[key] else { continue }
                    // A localised text: every locale's string is a text.
                    result[key] = visit(
                        inner, member: isText && inner.stringValue != nil ? member : key, ours: ours.appending(key),
                        origin: origin)
                }
                return .object(result)
            case .array(let elements):
                return .array(
                    elements.enumerated().map { visit($1, member: member, ours: ours.appending($0), origin: origin) })
            default:
                return value
            }
        }
        for key in survey.keys.sorted() where key != "id" && key != "formatVersion" {
            if let value = survey[key] {
                survey[key] = visit(value, member: key, ours: .root.appending(key), origin: .root)
            }
        }
        guard !unknown.isEmpty || !unreadProperties.isEmpty else { return }
        var variables = survey["variables"]?.arrayValue ?? []
        for (name, origin, isText) in unreadProperties {
            variables.append(["name": .string(name)])
            let what = isText ? "shows" : "reads"
            note(
                .hostVariable, origin, "{\(name)}",
                "survey-core \(what) this property of its own objects; this engine does not have it (docs/expressions.md#element-properties): it reads as empty unless the host sets it"
            )
        }
        var steps = survey["steps"]?.arrayValue ?? []
        var ids = Set(steps.compactMap { $0["id"]?.stringValue })
        hostNames = unknown
        for (name, origin) in unknown {
            variables.append(["name": .string(name)])
            // A host value named like a page (pages hold no value): the page gives way.
            if let index = steps.firstIndex(where: { $0["id"]?.stringValue == name }),
                case .object(var page) = steps[index]
            {
                let renamed = Self.firstFree(name + "-page", bare: true, from: 2) {
                    ids.contains($0) || seen.contains($0.lowercased())
                }
                ids.insert(renamed)
                page["id"] = .string(renamed)
                steps[index] = .object(page)
                note(
                    .renamed, (origins[.root.appending("steps").appending(index)] ?? .root).appending("name"),
                    "page '\(name)' is now '\(renamed)'", "the survey reads a value {\(name)}, which the host sets")
            }
            // Named like an html element or a panel (they hold no value either): that gives way too.
            renameContainers(named: name, in: &steps, ours: .root.appending("steps"), taken: &ids, seen: seen)
            if leftOut.contains(name.lowercased()) {
                note(
                    .hostVariable, origin, "{\(name)}",
                    "the element named '\(name)' was left out (see its note); survey-core, which also drops what it does not know, reads it as empty, and so does this engine unless the host sets it (--var \(name)=VALUE)"
                )
            } else if Self.rowAndItemNames.contains(name.lowercased()) {
                note(
                    .hostVariable, origin, "{\(name)}",
                    "survey-core gives this name a meaning only inside a matrix row, a dynamic panel, a composite question or a choice, and reads it as empty here; so does this engine, unless the host sets it (--var \(name)=VALUE)"
                )
            } else if Self.quizNames.contains(name.lowercased()) {
                note(
                    .notConverted, origin, "{\(name)}",
                    "survey-core counts the quiz questions (those with a correctAnswer), and this survey has none; here it is a host variable, empty unless set with --var \(name)=VALUE"
                )
            } else {
                note(
                    .hostVariable, origin, "{\(name)}",
                    "no question or calculated value has this name: it reads as empty until the host sets it (--var \(name)=VALUE), as survey-core's setVariable does"
                )
            }
        }
        survey["variables"] = .array(variables)
        survey["steps"] = .array(steps)
    }

    /// Records each function `expression` calls that the engine does not have (an app registers it
    /// in survey-core) in ``hostFunctions``, with a note at `origin` the first time.
    /// - Parameter pluginsMayProvide: whether a plugin's function of that name is used (the survey's
    ///   own expressions), or the call is replaced by null (a repeat item's, which the engine's own
    ///   functions evaluate).
    mutating func noteHostFunctions(in expression: String, at origin: JSONPath, pluginsMayProvide: Bool) {
        for function in Self.calledFunctions(in: expression)
        where ExpressionFunctionRegistry.standard.function(named: function) == nil
            && !hostFunctions.contains(where: { $0.lowercased() == function.lowercased() })
        {
            hostFunctions.append(function)
            note(
                .hostVariable, origin, "\(function)()",
                "not a function of this engine: survey-core calls the one the app registers, and gives null without it; here it gives null"
                    + (pluginsMayProvide ? " unless a plugin provides it (--plugin)" : ""))
        }
    }

    /// The names (lowercased) that the condition arguments of `sumInArray`, `countInArray`, … read:
    /// survey-core reads them as each item's fields, not as the survey's names.
    static func inArrayConditionNames(in expression: String) -> Set<String> {
        guard expression.range(of: "inarray", options: .caseInsensitive) != nil else { return [] }
        var result = Set<String>()
        let characters = Array(expression)
        var index = 0
        while index < characters.count {
            guard characters[index].isLetter else {
                index += 1
                continue
            }
            var end = index
            while end < characters.count, characters[end].isLetter || characters[end].isNumber { end += 1 }
            let word = String(characters[index..<end]).lowercased()
            var open = end
            while open < characters.count, characters[open] == " " { open += 1 }
            guard word.hasSuffix("inarray"), open < characters.count, characters[open] == "(" else {
                index = end
                continue
            }
            // The arguments after the second, up to the matching parenthesis.
            var depth = 0
            var argument = 0
            var quote: Character?
            var position = open
            var reference: String?
            while position < characters.count {
                let next = characters[position]
                if let open = quote {
                    if next == open { quote = nil }
                } else if var name = reference {
                    if next == "}" {
                        if argument >= 2 {
                            let root = name.trimmingCharacters(in: .whitespaces).prefix { $0 != "." && $0 != "[" }
                            result.insert(root.lowercased())
                        }
                        reference = nil
                    } else {
                        name.append(next)
                        reference = name
                    }
                } else if next == "'" || next == "\"" {
                    quote = next
                } else if next == "{" {
                    reference = ""
                } else if next == "(" {
                    depth += 1
                } else if next == ")" {
                    depth -= 1
                    if depth == 0 { break }
                } else if next == ",", depth == 1 {
                    argument += 1
                }
                position += 1
            }
            index = position + 1
        }
        return result
    }

    /// The names of the functions `expression` calls (`name(`, outside quotes and braces).
    static func calledFunctions(in expression: String) -> [String] {
        var result: [String] = []
        var word = ""
        var quote: Character?
        var braces = 0
        var pendingWord: String?
        for character in expression {
            if let open = quote {
                if character == open { quote = nil }
                continue
            }
            if braces > 0 {
                if character == "{" { braces += 1 } else if character == "}" { braces -= 1 }
                continue
            }
            if character.isLetter || character == "_" || (character.isNumber && !word.isEmpty) {
                word.append(character)
                pendingWord = nil
                continue
            }
            if !word.isEmpty {
                pendingWord = word
                word = ""
            }
            if character == " " { continue }
            if character == "(", let name = pendingWord, !result.contains(name),
                !Self.operatorWords.contains(name.lowercased())
            {
                result.append(name)
            }
            pendingWord = nil
            switch character {
            case "'", "\"": quote = character
            case "{": braces = 1
            default: break
            }
        }
        return result
    }

    /// The words of survey-core's grammar that are operators, never calls: `{a} = 1 and ({b} = 2)`.
    static let operatorWords: Set<String> = [
        "and", "or", "not", "negate", "contains", "contain", "notcontains", "notcontain", "anyof", "allof", "noneof",
        "empty", "notempty", "equal", "equals", "notequal", "notequals", "less", "lessorequal", "greater",
        "greaterorequal", "power",
    ]

    /// `expression` with each call of a function the engine does not have replaced by `null`, what
    /// survey-core gives for a function the app did not register: for the expressions of a repeat's
    /// items, which the engine's own functions evaluate.
    static func nullingUnknownCalls(in expression: String) -> String {
        let unknown = calledFunctions(in: expression).filter {
            ExpressionFunctionRegistry.standard.function(named: $0) == nil
        }
        guard !unknown.isEmpty else { return expression }
        let characters = Array(expression)
        var result = ""
        var index = 0
        var quote: Character?
        var braces = 0
        while index < characters.count {
            let character = characters[index]
            if let open = quote {
                if character == open { quote = nil }
                result.append(character)
                index += 1
                continue
            }
            if braces > 0 {
                if character == "{" { braces += 1 } else if character == "}" { braces -= 1 }
                result.append(character)
                index += 1
                continue
            }
            if character.isLetter || character == "_",
                index == 0
                    || !(characters[index - 1].isLetter || characters[index - 1].isNumber
                        || characters[index - 1] == "_")
            {
                var end = index
                while end < characters.count,
                    characters[end].isLetter || characters[end].isNumber || characters[end] == "_"
                {
                    end += 1
                }
                let word = String(characters[index..<end])
                var open = end
                while open < characters.count, characters[open] == " " { open += 1 }
                if open < characters.count, characters[open] == "(",
                    unknown.contains(where: { $0.lowercased() == word.lowercased() })
                {
                    // Skip to the matching parenthesis (quotes and braces inside are skipped whole).
                    var depth = 0
                    var inner: Character?
                    var position = open
                    while position < characters.count {
                        let next = characters[position]
                        if let innerQuote = inner {
                            if next == innerQuote { inner = nil }
                        } else if next == "'" || next == "\"" {
                            inner = next
                        } else if next == "(" {
                            depth += 1
                        } else if next == ")" {
                            depth -= 1
                            if depth == 0 { break }
                        }
                        position += 1
                    }
                    result += "null"
                    index = position + 1
                    continue
                }
                result += word
                index = end
                continue
            }
            switch character {
            case "'", "\"": quote = character
            case "{": braces = 1
            default: break
            }
            result.append(character)
            index += 1
        }
        return result
    }

    /// Renames the html elements (content steps) and panels inside pages that are named `name` (a
    /// value the host sets), with a note each: they hold no value, and a host variable needs the name.
    mutating func renameContainers(
        named name: String, in steps: inout [JSONValue], ours: JSONPath, taken ids: inout Set<String>,
        seen: Set<String>
    ) {
        for index in steps.indices {
            guard case .object(var step) = steps[index] else { continue }
            let here = ours.appending(index)
            var changed = false
            if step["id"]?.stringValue == name, let type = step["type"]?.stringValue,
                type == "content" || type == "panel"
            {
                let what = type == "content" ? "html element" : "panel"
                let renamed = Self.firstFree(name + (type == "content" ? "-html" : "-panel"), bare: true, from: 2) {
                    ids.contains($0) || seen.contains($0.lowercased())
                }
                ids.insert(renamed)
                step["id"] = .string(renamed)
                changed = true
                note(
                    .renamed, (origins[here] ?? .root).appending("name"), "\(what) '\(name)' is now '\(renamed)'",
                    "the survey reads a value {\(name)}, which the host sets")
            }
            if case .array(var inner) = step["steps"] {
                renameContainers(named: name, in: &inner, ours: here.appending("steps"), taken: &ids, seen: seen)
                step["steps"] = .array(inner)
                changed = true
            }
            if changed { steps[index] = .object(step) }
        }
    }
}

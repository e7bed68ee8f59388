import Foundation
import SurveyCore

extension TextRenderer {
    /// Asks one question; `nil` when the respondent skipped it (or kept the stored answer).
    mutating func ask(_ question: QuestionPresentation, presentation: StepPresentation, parser: LineParser)
        -> RendererAction?
    {
        if case .repeating(let group) = question.input {
            return askRepeat(question, group)
        }
        showTitle(question)
        if case .composite(let composite) = question.input {
            return askComposite(question, composite)
        }
        let picks = hasPicker(question.input)
        if !picks { showInput(question.input) }
        if let answer = question.answer {
            line(paint("= " + display(answer, for: question.input), .dim))
        } else if !question.isRequired, !picks {
            line(paint(strings[.pressEnterToSkip], .dim))
        }
        if let error = question.error { showError(error.message) }
        while true {
            let reply = readAnswer(prompt: "", for: question.input, current: question.answer)
            guard case .line(let text) = reply else {
                if case .command(let action) = reply { return action }
                return nil
            }
            if text.allSatisfy(\.isWhitespace) { return nil }
            if showSearch(text, in: question.input) { continue }
            var typed = text
            if case .freeText(let input) = question.input, input.isMultiline {
                typed = readMoreLines(after: text)
            }
            do {
                var value: JSONValue
                if let chosen = try choiceAnswer(typed, for: question.input, parser: parser, stepID: question.id) {
                    value = chosen
                } else {
                    value = try parser.parse(typed, forStep: question.id)
                }
                if case .fileReference(let file) = question.input, file.maximumSizeBytes != nil {
                    value = try Self.withLocalFileSizes(value)
                }
                if let choices = question.input.choiceInput, let other = choices.choices.first(where: \.isOther) {
                    switch askOtherText(in: value, other: other) {
                    case .some(.line(let replaced)):
                        // An empty text keeps the bare Other choice, which the type refuses with its own message.
                        if !replaced.allSatisfy(\.isWhitespace) { value = .string(replaced) }
                    case .some(.command(let action)): return action
                    case .none: break
                    }
                    if case .array(let values) = value, values.contains(.string(other.value)) {
                        switch readLine(prompt: strings[.otherPrompt]) {
                        case .command(let action): return action
                        case .line(let text) where !text.allSatisfy(\.isWhitespace):
                            value = .array(values.map { $0 == .string(other.value) ? .string(text) : $0 })
                        case .line: break
                        }
                    }
                }
                return .answer(stepID: question.id, value: value)
            } catch {
                showError(strings.message(for: error))
            }
        }
    }

    /// A file answer typed in the terminal with each local file's `size` filled in from the file
    /// system (a file question with a size limit needs it); URIs are left as they are.
    /// - Throws: ``AnswerError`` `fileNotFound` when a local path names no readable regular file.
    static func withLocalFileSizes(_ value: JSONValue) throws(AnswerError) -> JSONValue {
        func sized(_ file: JSONValue) throws(AnswerError) -> JSONValue {
            guard case .object(var members) = file, members["size"] == nil,
                let path = members["file"]?.stringValue, !path.contains("://")
            else { return file }
            let expanded = (path as NSString).expandingTildeInPath
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: expanded),
                attributes[.type] as? FileAttributeType == .typeRegular,
                let size = (attributes[.size] as? NSNumber)?.doubleValue
            else {
                throw AnswerError(
                    code: "fileNotFound", message: "No file at \(path).", arguments: ["file": path])
            }
            members["size"] = .number(size)
            return .object(members)
        }
        guard case .array(let files) = value else { return try sized(value) }
        var result: [JSONValue] = []
        for file in files { result.append(try sized(file)) }
        return .array(result)
    }

    /// A line typed for a choice question, read against the choices as shown: numbers are positions
    /// in the list on screen (which leaves out hidden choices and may be shuffled), `0` or the label
    /// of a "Select all" item stands for every regular choice offered; anything else (a value, a
    /// label, an Other text) goes through the question type's own parser. `nil` for other inputs.
    func choiceAnswer(_ line: String, for input: InputPrimitive, parser: LineParser, stepID: String)
        throws(AnswerError) -> JSONValue?
    {
        switch input {
        case .singleChoice(let choices):
            let text = line.trimmingCharacters(in: .whitespaces)
            guard let number = Int(text), choices.choices.indices.contains(number - 1) else { return nil }
            return .string(choices.choices[number - 1].value)
        case .multipleChoice(let choices):
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.isEmpty { return .array([]) }
            var values: [JSONValue] = []
            func add(_ value: JSONValue) {
                if choices.isOrdered || !values.contains(value) { values.append(value) }
            }
            for part in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
                if let label = choices.selectAllLabel, part == "0" || part.lowercased() == label.lowercased() {
                    choices.selectAllValues.forEach { add(.string($0)) }
                } else if let number = Int(part), choices.choices.indices.contains(number - 1) {
                    add(.string(choices.choices[number - 1].value))
                } else {
                    let parsed = try parser.parse(part, forStep: stepID)
                    (parsed.arrayValue ?? [parsed]).forEach(add)
                }
            }
            return .array(values)
        default:
            return nil
        }
    }

    /// For a single choice that picked "Other": asks its text.
    mutating func askOtherText(in value: JSONValue, other: Choice) -> Reply? {
        guard value == .string(other.value) else { return nil }
        return readLine(prompt: strings[.otherPrompt])
    }

    /// Multi-line text ends with an empty line.
    mutating func readMoreLines(after first: String) -> String {
        var lines = [first]
        if isKeyed {
            while case .line(let next) = editLine(prompt: "", commands: false), !next.isEmpty { lines.append(next) }
            return lines.joined(separator: "\n")
        }
        while let next = input.readLine(), !next.isEmpty { lines.append(next) }
        return lines.joined(separator: "\n")
    }

    /// Drop-downs and tag boxes, and any list longer than 15 choices, can be searched with `/text`.
    static func isSearchable(_ choices: ChoiceInput) -> Bool {
        choices.presentation == "dropdown" || choices.presentation == "tagbox" || choices.choices.count > 15
    }

    /// `/text` typed at a searchable list: the choices whose label contains the text, with their
    /// numbers in the full list; `false` when the line is no search.
    func showSearch(_ typed: String, in input: InputPrimitive) -> Bool {
        guard let choices = input.choiceInput, Self.isSearchable(choices), typed.hasPrefix("/") else { return false }
        let text = typed.dropFirst().trimmingCharacters(in: .whitespaces).lowercased()
        let found = choices.choices.enumerated().filter { text.isEmpty || $0.element.label.lowercased().contains(text) }
        if found.isEmpty { line(paint("—", .dim)) }
        for (offset, choice) in found { line("  \(offset + 1)) \(choice.label)") }
        return true
    }

    func showInput(_ input: InputPrimitive) {
        switch input {
        case .none:
            break
        case .singleChoice(let choices):
            showChoices(choices.choices)
            line(paint(strings[.chooseOne], .dim))
            if Self.isSearchable(choices) { line(paint(strings[.searchHint], .dim)) }
        case .multipleChoice(let choices):
            if let label = choices.selectAllLabel { line("  0) \(label)") }
            showChoices(choices.choices)
            if choices.isOrdered {
                let example = (1...max(1, min(3, choices.choices.count))).reversed().map(String.init)
                line(paint(strings.format(.rankingHint, ["example": example.joined(separator: ",")]), .dim))
            } else {
                let example = choices.choices.count >= 3 ? "1,3" : choices.choices.count == 2 ? "1,2" : "1"
                let hint = strings.format(.multipleChoiceHint, ["example": example])
                line(paint(strings[.selectAllThatApply] + " · " + hint, .dim))
            }
            if Self.isSearchable(choices) { line(paint(strings[.searchHint], .dim)) }
        case .number(let number):
            showNumber(number)
        case .boolean(let boolean):
            let (yes, no) = symbols(for: boolean.presentation)
            line("  [y] \(yes)\(boolean.trueLabel)   [n] \(no)\(boolean.falseLabel)")
        case .date(let date):
            let range = [date.earliest.map { "≥ \($0)" }, date.latest.map { "≤ \($0)" }].compactMap { $0 }
            line(paint((["YYYY-MM-DD"] + range).joined(separator: "  "), .dim))
        case .freeText(let text):
            var hint = text.placeholder ?? strings[.typeAnswer]
            if let maximum = text.maximumLength { hint += " (≤ \(maximum))" }
            if text.isMultiline { hint += " · " + strings[.multilineHint] }
            line(paint(hint, .dim))
        case .fileReference(let file):
            var hint = "📎 " + (file.allowedFormats.isEmpty ? "*" : file.allowedFormats.joined(separator: ", "))
            if let seconds = file.maximumDurationSeconds { hint += "  ≤ \(JSONValue.format(number: seconds)) s" }
            if let bytes = file.maximumSizeBytes { hint += "  ≤ \(FileInput.byteCount(bytes))" }
            if file.maximumCount != 1, file.presentation == "file" {
                hint += "  · " + (file.maximumCount.map { "≤ \($0) " } ?? "") + "path, path, …"
            }
            line(paint(style.usesSymbols ? hint : String(hint.dropFirst(2)), .dim))
        case .composite, .repeating:
            break
        }
    }

    func showChoices(_ choices: [Choice]) {
        for (index, choice) in choices.enumerated() {
            let image = choice.imageReference.map { "  [image: \($0)]" } ?? ""
            line("  \(index + 1)) \(choice.label)\(choice.isOther ? " …" : "")" + paint(image, .dim))
        }
    }

    func symbols(for presentation: String?) -> (String, String) {
        guard style.usesSymbols else { return ("", "") }
        switch presentation {
        case "happy-sad": return ("☺ ", "☹ ")
        case "thumbs": return ("👍 ", "👎 ")
        default: return ("", "")
        }
    }

    func showNumber(_ number: NumberInput) {
        let low = number.minimum.map(JSONValue.format(number:))
        let high = number.maximum.map(JSONValue.format(number:))
        if number.presentation == "stars", let low, let high, let count = number.maximum.flatMap({ Int(exactly: $0) }),
            count <= 10
        {
            let stars = style.usesSymbols ? String(repeating: "☆", count: count) : String(repeating: "*", count: count)
            line("  \(stars)  (\(low)–\(high))")
            return
        }
        if let minimum = number.minimum, let maximum = number.maximum, let step = number.step, step > 0,
            (maximum - minimum) / step <= 10
        {
            var points: [String] = []
            var value = minimum
            // At most 11 points, even where adding `step` no longer changes a huge `value`.
            while value <= maximum + step / 1000, points.count <= 10 {
                points.append(JSONValue.format(number: value))
                value += step
            }
            line("  " + points.joined(separator: "  "))
        } else if low != nil || high != nil {
            line("  " + paint("\(low ?? "…")–\(high ?? "…")", .dim))
        }
        if number.minimumLabel != nil || number.maximumLabel != nil {
            let labels = [
                number.minimumLabel.map { "\(low ?? "min") = \($0)" },
                number.maximumLabel.map { "\(high ?? "max") = \($0)" },
            ].compactMap { $0 }
            line(paint("  " + labels.joined(separator: " · "), .dim))
        }
    }

    /// How a stored answer reads: choice labels, stars, yes/no labels.
    func display(_ answer: JSONValue, for input: InputPrimitive) -> String {
        switch input {
        case .singleChoice(let choices), .multipleChoice(let choices):
            let values = answer.arrayValue ?? [answer]
            return values.map { value in
                choices.choices.first { $0.value == value.choiceKey }?.label ?? value.displayText
            }.joined(separator: ", ")
        case .boolean(let boolean):
            return boolean.flag(of: answer) == true ? boolean.trueLabel : boolean.falseLabel
        case .freeText(let text) where text.presentation?.hasPrefix("expression/") == true:
            guard let number = answer.numberValue else { return answer.displayText }
            let style = (text.presentation ?? "").split(separator: "/").map(String.init)
            switch style.count > 1 ? style[1] : "" {
            case "percent": return JSONValue.format(number: (number * 10_000).rounded() / 100) + " %"
            case "currency":
                return (style.count > 2 ? style[2] + " " : "") + String(format: "%.2f", number)
            default: return JSONValue.format(number: number)
            }
        case .number(let number) where number.presentation == "stars":
            guard let stars = answer.intValue, let maximum = number.maximum.flatMap({ Int(exactly: $0) }), stars >= 0,
                stars <= maximum
            else { return answer.displayText }
            let (full, empty) = style.usesSymbols ? ("★", "☆") : ("*", ".")
            return String(repeating: full, count: stars) + String(repeating: empty, count: maximum - stars)
        default:
            return answer.displayText
        }
    }

    // MARK: Composite

    /// Asks a form field by field, or a matrix row by row, and answers the whole object.
    mutating func askComposite(_ question: QuestionPresentation, _ composite: CompositeInput) -> RendererAction? {
        let isMatrix = composite.presentation == "matrix"
        if isMatrix, !isKeyed, let columns = composite.fields.first?.input.choiceInput {
            showChoices(columns.choices)
        }
        var draft = drafts[question.id] ?? question.answer?.objectValue ?? [:]
        var fields = composite.fields
        if let error = question.error {
            showError(error.message)
            // A cell's error ("row.column") asks its row again.
            if let field = error.error.field, drafts[question.id] != nil,
                let only = fields.first(where: { $0.name == field })
                    ?? fields.first(where: { field.hasPrefix($0.name + ".") })
            {
                fields = [only]
            }
        }
        for field in fields {
            // A field of fields (a matrix-dropdown row): ask each cell as "row › column".
            if case .composite(let cells) = field.input {
                var row = draft[field.name]?.objectValue ?? [:]
                for cell in cells.fields {
                    switch askField(cell, label: field.label + " › " + cell.label, current: row[cell.name]) {
                    case .command(let action): return action
                    case .value(let value): row[cell.name] = value
                    case .skipped, .ended: break
                    }
                }
                if !row.isEmpty { draft[field.name] = .object(row) }
                continue
            }
            switch askField(field, label: field.label, current: draft[field.name], showsInput: !isMatrix) {
            case .command(let action): return action
            case .ended: return nil
            case .skipped: break
            case .value(var value):
                if let choices = field.input.choiceInput, let other = choices.choices.first(where: \.isOther),
                    value == .string(other.value)
                {
                    switch readLine(prompt: strings[.otherPrompt]) {
                    case .command(let action): return action
                    case .line(let text) where !text.allSatisfy(\.isWhitespace): value = .string(text)
                    case .line: break
                    }
                }
                draft[field.name] = value
            }
        }
        guard !draft.isEmpty else { return nil }
        drafts[question.id] = draft
        return .answer(stepID: question.id, value: .object(draft))
    }

    /// Asks a repeat instance by instance, field by field; each answered field is sent as its instance
    /// (`id[k]`), and the next call goes on from there with the fields the engine now shows. At "Add
    /// an entry?", `-N` removes entry N.
    mutating func askRepeat(_ question: QuestionPresentation, _ group: RepeatInput) -> RendererAction? {
        var cursor: RepeatCursor
        if let saved = repeatCursors[question.id] {
            cursor = saved
        } else {
            showTitle(question)
            cursor = RepeatCursor(draft: (question.answer?.arrayValue ?? []).map { $0.objectValue ?? [:] })
            let bounds =
                group.count.map { "\($0)" }
                ?? "\(group.minimumCount)–" + (group.maximumCount.map(String.init) ?? "…")
            line(paint(bounds + " × " + group.fields.map(\.label).joined(separator: ", "), .dim))
        }
        if let error = question.error {
            showError(error.message)
            // "index.item": start again at that instance and item.
            if let field = error.error.field {
                let parts = field.split(separator: ".", maxSplits: 1).map(String.init)
                if let index = Int(parts[0]) {
                    cursor.instance = index
                    cursor.field = parts.count > 1 ? group.fields.firstIndex { $0.name == parts[1] } ?? 0 : 0
                    cursor.headed = false
                }
            }
        }
        instances: while true {
            if cursor.field == 0, !cursor.headed {
                if let count = group.count {
                    if cursor.instance >= count { break instances }
                } else if cursor.instance >= (group.maximumCount ?? Int.max) {
                    break instances
                } else if cursor.instance >= cursor.draft.count, cursor.instance >= group.minimumCount {
                    let hint = cursor.draft.isEmpty ? "" : ", " + strings[.removeEntryHint]
                    let reply = readLine(prompt: strings[.addEntry] + " [y/N" + hint + "]")
                    if case .command(let action) = reply {
                        repeatCursors[question.id] = cursor
                        return action
                    }
                    guard case .line(let text) = reply else { break instances }
                    // "-N": remove entry N (from 1); the engine renumbers the rest.
                    let trimmed = text.trimmingCharacters(in: .whitespaces)
                    if trimmed.hasPrefix("-"), let number = Int(trimmed.dropFirst()) {
                        guard number >= 1, number <= cursor.draft.count else {
                            showError(strings[.removeEntryHint])
                            continue instances
                        }
                        cursor.draft.remove(at: number - 1)
                        cursor.instance = cursor.draft.count
                        repeatCursors[question.id] = cursor
                        let stored = question.answer?.arrayValue?.count ?? 0
                        return number - 1 < stored
                            ? .answer(stepID: "\(question.id)[\(number - 1)]", value: .null)
                            : .answer(stepID: question.id, value: .array(cursor.draft.map { .object($0) }))
                    }
                    guard Self.isYes(text) else { break instances }
                }
                let title =
                    cursor.instance < group.instanceTitles.count
                    ? group.instanceTitles[cursor.instance] : "#\(cursor.instance + 1)"
                line(paint("— " + title + " —", .bold))
                cursor.headed = true
                while cursor.draft.count <= cursor.instance { cursor.draft.append([:]) }
            }
            if cursor.field >= group.fields.count {
                cursor.instance += 1
                cursor.field = 0
                cursor.headed = false
                continue
            }
            let field = group.fields[cursor.field]
            let hidden = cursor.instance < group.hiddenFields.count ? group.hiddenFields[cursor.instance] : []
            if hidden.contains(field.name) {
                cursor.field += 1
                continue
            }
            switch askField(field, label: field.label, current: cursor.draft[cursor.instance][field.name]) {
            case .command(let action):
                repeatCursors[question.id] = cursor
                return action
            case .skipped, .ended:
                cursor.field += 1
            case .value(let value):
                cursor.draft[cursor.instance][field.name] = value
                cursor.field += 1
                repeatCursors[question.id] = cursor
                // The instance alone (`id[k]`), which costs the same however many there are; the whole
                // list when instances before it were left empty and are not stored yet.
                let stored = question.answer?.arrayValue?.count ?? 0
                return cursor.instance <= stored
                    ? .answer(
                        stepID: "\(question.id)[\(cursor.instance)]", value: .object(cursor.draft[cursor.instance]))
                    : .answer(stepID: question.id, value: .array(cursor.draft.map { .object($0) }))
            }
        }
        repeatCursors[question.id] = nil
        let answer = JSONValue.array(cursor.draft.map { .object($0) })
        return cursor.draft.isEmpty || question.answer == answer ? nil : .answer(stepID: question.id, value: answer)
    }

    /// Whether a reply means yes (in the engine's languages, or y/n).
    static func isYes(_ text: String) -> Bool {
        ["y", "yes", "o", "oui", "j", "ja", "s", "si", "sí", "sim", "はい", "네", "是"].contains(
            text.trimmingCharacters(in: .whitespaces).lowercased())
    }

    /// What asking one field gave.
    enum FieldReply {
        case value(JSONValue)
        /// An empty line.
        case skipped
        /// The input ended.
        case ended
        case command(RendererAction)
    }

    /// Asks one field of a composite (a form field, a matrix row, a cell, a repeat's item) until its
    /// line parses; `/text` searches a searchable list, an empty line skips it. `showsInput` prints
    /// the field's choices or range first (a matrix shows its columns once, above its rows).
    mutating func askField(_ field: CompositeField, label: String, current: JSONValue?, showsInput: Bool = true)
        -> FieldReply
    {
        if let description = field.description { line(paint(description, .dim)) }
        if showsInput, !hasPicker(field.input) { showFieldInput(field.input) }
        let prompt =
            label + (field.isRequired ? " *" : "") + (current.map { " [" + display($0, for: field.input) + "]" } ?? "")
        while true {
            let reply = readAnswer(prompt: prompt, for: field.input, current: current)
            guard case .line(let text) = reply else {
                if case .command(let action) = reply { return .command(action) }
                return .ended
            }
            if text.allSatisfy(\.isWhitespace) { return .skipped }
            if showSearch(text, in: field.input) { continue }
            do {
                return .value(try field.input.parse(line: text))
            } catch {
                showError(strings.message(for: error))
            }
        }
    }

    func showFieldInput(_ input: InputPrimitive) {
        switch input {
        case .singleChoice, .multipleChoice, .number, .boolean, .date: showInput(input)
        default: break
        }
    }
}

/// How far a repeat has been filled in, in the terminal.
struct RepeatCursor {
    /// The instances so far.
    var draft: [[String: JSONValue]]
    var instance = 0
    var field = 0
    /// Whether the current instance's heading was shown.
    var headed = false
}

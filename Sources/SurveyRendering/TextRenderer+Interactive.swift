import Foundation
import SurveyCore

/// The interactive mode of ``TextRenderer`` (keys from a ``KeySource``): each prompt is a widget
/// redrawn in place, a ``ChoicePicker`` for lists, yes/no and short scales, a ``LineEditor`` for
/// everything else. A widget only gives the text a line would have held, so what the answer means,
/// and the flow, stay the line mode's (and the driver's).
extension TextRenderer {
    /// Whether keys are read (the interactive mode) rather than lines.
    var isKeyed: Bool { keys != nil }

    /// The next key: typed ahead, or read; `nil` at the end of input.
    mutating func nextKey() -> Key? {
        if live.typedAhead.isEmpty {
            guard let read = keys?.readKeys() else { return nil }
            live.typedAhead = read[...]
        }
        return live.typedAhead.popFirst()
    }

    var screenSize: (columns: Int, rows: Int) { keys?.size ?? (80, 24) }

    /// Draws `lines` in the live region (below what was printed), the cursor at `cursor`.
    func draw(_ lines: [String], cursor: (row: Int, column: Int)?) {
        write(live.region.frame(lines, cursor: cursor, width: screenSize.columns))
    }

    /// Leaves the live region as it stands; what follows is printed below it.
    func closeRegion() {
        if live.region.rowCount > 0 { write(live.region.close()) }
    }

    /// A new screen for a unit: the survey's title, the progress bar, then what the renderer said
    /// since (a refused Back, a store failure), all redrawn at the same places each time.
    func clearScreen() {
        write("\u{1B}[H\u{1B}[2J")
        live.region = ScreenRegion()
        if let surveyTitle { line(paint(surveyTitle, .bold)) }
    }

    /// Prints what waited for the next screen.
    func flushMessages() {
        for message in live.pendingMessages { line(message) }
        live.pendingMessages = []
    }

    /// Whether the interactive mode asks `input` with a list (``picker(for:current:)``).
    func hasPicker(_ input: InputPrimitive) -> Bool {
        isKeyed && picker(for: input, current: nil) != nil
    }

    /// A list for a choice, yes/no, stars or a short scale; `nil` for what is typed.
    func picker(for input: InputPrimitive, current: JSONValue?) -> ChoicePicker? {
        let rows = max(3, screenSize.rows - 10)
        let given = current.map { $0.arrayValue ?? [$0] } ?? []
        switch input {
        case .singleChoice(let choices):
            let items = choices.choices.enumerated().map { index, choice in
                ChoicePicker.Item(label: choiceLabel(choice), answer: String(index + 1))
            }
            return ChoicePicker(
                items: items, mode: .single, visibleRows: rows, current: numbers(of: given, in: choices))
        case .multipleChoice(let choices):
            var items = choices.choices.enumerated().map { index, choice in
                ChoicePicker.Item(label: choiceLabel(choice), answer: String(index + 1))
            }
            let current = numbers(of: given, in: choices)
            if choices.isOrdered {
                // A ranking starts in the order given before.
                let ordered = current.compactMap { number in items.first { $0.answer == number } }
                items = ordered + items.filter { !current.contains($0.answer) }
                return ChoicePicker(items: items, mode: .ranking, visibleRows: rows)
            }
            if let label = choices.selectAllLabel {
                let group = choices.choices.enumerated().filter { choices.selectAllValues.contains($0.element.value) }
                    .map { String($0.offset + 1) }
                items.insert(ChoicePicker.Item(label: label, answer: "0", group: group), at: 0)
            }
            return ChoicePicker(items: items, mode: .multiple, visibleRows: rows, current: current)
        case .boolean(let boolean):
            let (yes, no) = symbols(for: boolean.presentation)
            let flag = current.flatMap { boolean.flag(of: $0) }
            return ChoicePicker(
                items: [
                    .init(label: yes + boolean.trueLabel, answer: "yes"),
                    .init(label: no + boolean.falseLabel, answer: "no"),
                ],
                mode: .single, visibleRows: rows, current: flag.map { [$0 ? "yes" : "no"] } ?? [])
        case .number(let number):
            guard let points = scalePoints(number) else { return nil }
            let stars = number.presentation == "stars" ? number.maximum.flatMap { Int(exactly: $0) } : nil
            let items = points.enumerated().map { index, point in
                var label = JSONValue.format(number: point)
                if let stars, let count = Int(exactly: point), count >= 0, count <= stars {
                    let (full, empty) = style.usesSymbols ? ("★", "☆") : ("*", ".")
                    label =
                        String(repeating: full, count: count) + String(repeating: empty, count: stars - count) + "  "
                        + label
                }
                if index == 0, let low = number.minimumLabel { label += "  " + low }
                if index == points.count - 1, let high = number.maximumLabel { label += "  " + high }
                return ChoicePicker.Item(label: label, answer: JSONValue.format(number: point))
            }
            let current = current?.numberValue.map { [JSONValue.format(number: $0)] } ?? []
            return ChoicePicker(items: items, mode: .single, visibleRows: rows, current: current)
        default:
            return nil
        }
    }

    /// The points of a scale with at most 11 of them (a range with a step, or stars); `nil` otherwise.
    func scalePoints(_ number: NumberInput) -> [Double]? {
        guard let minimum = number.minimum, let maximum = number.maximum, maximum >= minimum else { return nil }
        let step = number.step ?? (number.presentation == "stars" ? 1 : 0)
        guard step > 0, (maximum - minimum) / step <= 10 else { return nil }
        var points: [Double] = []
        var value = minimum
        while value <= maximum + step / 1000, points.count <= 10 {
            points.append(value)
            value += step
        }
        return points
    }

    func choiceLabel(_ choice: Choice) -> String {
        choice.label + (choice.isOther ? " …" : "")
            + paint(choice.imageReference.map { "  [image: \($0)]" } ?? "", .dim)
    }

    /// The positions (from 1) of `values` among the choices shown.
    func numbers(of values: [JSONValue], in choices: ChoiceInput) -> [String] {
        values.compactMap { value in
            choices.choices.firstIndex { $0.value == value.choiceKey }.map { String($0 + 1) }
        }
    }

    /// Interactive: asks `input` with a list when it has one, else edits a line.
    mutating func readAnswer(prompt: String, for input: InputPrimitive, current: JSONValue?) -> Reply {
        guard isKeyed, var picker = picker(for: input, current: current) else { return readLine(prompt: prompt) }
        startWidget()
        let error = live.pendingError.map { paint("! " + $0, .red) }
        live.pendingError = nil
        write("\u{1B}[?25l")
        defer { write("\u{1B}[?25h") }
        while true {
            var lines = prompt.isEmpty ? [] : [paint(prompt, .cyan)]
            if let error { lines.append(error) }
            let listed = picker.lines(symbols: style.usesSymbols)
            lines += listed.dropLast(picker.showsHelp ? 2 : 1).map { line in
                line.hasPrefix("❯") || line.hasPrefix(">") ? paint(line, .cyan) : line
            }
            lines += listed.suffix(picker.showsHelp ? 2 : 1).map { paint($0, .dim) }
            draw(lines, cursor: nil)
            guard let key = nextKey() else {
                closeRegion()
                return .command(.quit)
            }
            switch picker.handle(key) {
            case .moving:
                continue
            case .command(let command):
                draw(prompt.isEmpty ? [] : [paint(prompt, .cyan)], cursor: nil)
                return .command(Self.action(for: command))
            case .answered(let text):
                let chosen = Set(text.split(separator: ",").map(String.init))
                let labels = picker.items.filter { $0.group == nil && chosen.contains($0.answer) }.map(\.label)
                let marker = style.usesSymbols ? "› " : "> "
                draw(
                    [
                        (prompt.isEmpty ? "" : paint(prompt, .cyan) + " ") + paint(marker, .cyan)
                            + labels.joined(separator: picker.mode == .ranking ? " > " : ", ")
                    ], cursor: nil)
                live.lastSubmitted = true
                return .line(text)
            }
        }
    }

    static func action(for command: Character) -> RendererAction {
        switch command {
        case "b": return .back
        case "d": return .dismiss
        default: return .quit
        }
    }

    /// Before a widget: a widget after a refused one takes its place; else the last stays above.
    func startWidget() {
        if live.pendingError == nil || !live.lastSubmitted { closeRegion() }
        live.lastSubmitted = false
    }

    /// Interactive: a line edited in place (`b`, `d`, `q` alone on it are commands, as in line mode,
    /// and `?` shows the keys). The end of input quits.
    mutating func editLine(prompt: String, commands: Bool = true) -> Reply {
        startWidget()
        var editor = LineEditor()
        var showsHelp = false
        let error = live.pendingError.map { paint("! " + $0, .red) }
        live.pendingError = nil
        let marker = style.usesSymbols ? "› " : "> "
        let head = prompt.isEmpty ? marker : prompt + " " + marker
        let hint = "enter confirm · b/d/q + enter: back, dismiss, quit · ? keys"
        let help = "←/→ home/end ctrl-a/e/k/u/w edit · ← on an empty line: back · ctrl-c quits, progress saved"
        while true {
            let width = screenSize.columns
            let room = max(8, width - DisplayWidth.of(head) - 2)
            let (visible, column) = editor.visible(width: room)
            var lines = [paint(head, .cyan) + visible]
            if let error { lines.append(error) }
            lines.append(paint(hint, .dim))
            if showsHelp { lines.append(paint(help, .dim)) }
            draw(lines, cursor: (0, DisplayWidth.of(head) + column))
            guard let key = nextKey() else {
                closeRegion()
                return .command(.quit)
            }
            switch editor.handle(key) {
            case .editing:
                continue
            case .command("?"):
                showsHelp.toggle()
            case .command(let command):
                guard commands else { continue }
                draw([paint(head, .cyan) + editor.text], cursor: nil)
                return .command(Self.action(for: command))
            case .submitted(let text):
                let trimmed = text.trimmingCharacters(in: .whitespaces)
                if commands, trimmed == "?" {
                    showsHelp.toggle()
                    editor = LineEditor()
                    continue
                }
                draw([paint(head, .cyan) + text], cursor: nil)
                live.lastSubmitted = true
                guard commands else { return .line(text) }
                switch trimmed.lowercased() {
                case "b": return .command(.back)
                case "d": return .command(.dismiss)
                case "q": return .command(.quit)
                default: return .line(text)
                }
            }
        }
    }
}

/// What the interactive mode keeps between prompts (a reference, so that printing from anywhere
/// can leave the live region first).
final class InteractiveState {
    /// The lines redrawn in place.
    var region = ScreenRegion()
    /// Keys read and not handled yet (a terminal may send several in one read).
    var typedAhead: ArraySlice<Key> = []
    /// An error for the next widget to show under its prompt (a refused line).
    var pendingError: String?
    /// What the renderer said between two screens, shown on the next.
    var pendingMessages: [String] = []
    /// Whether the last widget ended with a line submitted (it is then redrawn in place if refused).
    var lastSubmitted = false
}

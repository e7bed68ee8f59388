/// A list the respondent moves through with the keys: one item picked (↑/↓ or j/k, then Enter or
/// Space), several toggled (Space, then Enter), or all put in order (Space picks an item up, ↑/↓
/// move it, Space puts it down, Enter confirms). A list longer than the rows it may use is filtered
/// by typing (Backspace erases, Escape clears the filter). ←/`b` is Back, `d` dismiss, `q` quit and
/// `?` help; where letters filter, they follow Escape (or Alt). Pure: keys in, the lines to draw out.
///
/// The picker answers with the text the line front end would read (positions in the list as shown,
/// `1,3` for several), so both modes go through the same parsing.
///
/// ```swift
/// var picker = ChoicePicker(items: [.init(label: "Red", answer: "1"), .init(label: "Blue", answer: "2")], mode: .single)
/// _ = picker.handle(.down)
/// picker.handle(.enter)  // .answered("2")
/// ```
public struct ChoicePicker: Sendable, Hashable {
    /// One line of the list.
    public struct Item: Sendable, Hashable {
        /// What is shown.
        public var label: String
        /// What picking it answers (for several: joined with commas).
        public var answer: String
        /// For a "select all" item: the answers it stands for (toggled together).
        public var group: [String]?

        /// An item.
        public init(label: String, answer: String, group: [String]? = nil) {
            self.label = label
            self.answer = answer
            self.group = group
        }
    }

    /// How many items are picked.
    public enum Mode: Sendable, Hashable {
        case single, multiple, ranking
    }

    /// What a key did.
    public enum Outcome: Sendable, Hashable {
        /// The list goes on (the cursor, the selection, the filter or the help may have changed).
        case moving
        /// The answer as the line front end reads it; `""` when nothing was picked.
        case answered(String)
        /// A command: `b` back, `d` dismiss, `q` quit.
        case command(Character)
    }

    /// The items in the order shown (a ranking: the current order).
    public private(set) var items: [Item]
    public let mode: Mode
    /// The rows the list may use; a longer list scrolls and is filtered by typing.
    public let visibleRows: Int
    /// The index in ``shown`` of the item under the cursor.
    public private(set) var cursor = 0
    /// The answers of the items toggled on (several).
    public private(set) var selected: Set<String> = []
    /// Ranking: whether the item under the cursor is picked up (↑/↓ move it).
    public private(set) var isHolding = false
    /// What was typed to filter the list.
    public private(set) var filter = ""
    /// Whether the key help is shown.
    public private(set) var showsHelp = false
    /// Escape was pressed: the next key is a command.
    public private(set) var awaitsCommand = false
    /// The first row shown (the list scrolls to keep the cursor visible).
    public private(set) var top = 0

    /// A picker over `items`; `current` are the answers already given (the cursor starts on the first).
    public init(items: [Item], mode: Mode, visibleRows: Int = 10, current: [String] = []) {
        self.items = items
        self.mode = mode
        self.visibleRows = max(1, visibleRows)
        if mode == .multiple { selected = Set(current) }
        if let first = current.first, let index = items.firstIndex(where: { $0.answer == first }) {
            cursor = index
        }
        scroll()
    }

    /// Whether typing filters the list (it is longer than its rows; never a ranking).
    public var filters: Bool { mode != .ranking && items.count > visibleRows }

    /// The indices in ``items`` of the items shown (those whose label contains the filter).
    public var shown: [Int] {
        guard !filter.isEmpty else { return Array(items.indices) }
        let needle = filter.lowercased()
        return items.indices.filter { items[$0].label.lowercased().contains(needle) }
    }

    /// Applies `key`.
    public mutating func handle(_ key: Key) -> Outcome {
        if awaitsCommand {
            awaitsCommand = false
            if case .character(let character) = key, let outcome = command(character) { return outcome }
            if key == .escape { return .moving }
        }
        let visible = shown
        switch key {
        case .up, .control("p"):
            move(by: -1, count: visible.count)
        case .character("k") where !filters:
            move(by: -1, count: visible.count)
        case .down, .control("n"):
            move(by: 1, count: visible.count)
        case .character("j") where !filters:
            move(by: 1, count: visible.count)
        case .pageUp:
            move(by: -visibleRows, count: visible.count)
        case .pageDown:
            move(by: visibleRows, count: visible.count)
        case .home:
            move(by: -visible.count, count: visible.count)
        case .end:
            move(by: visible.count, count: visible.count)
        case .character(" ") where mode == .single && filters:
            filter.append(" ")
            cursor = 0
        case .character(" "):
            guard cursor < visible.count else { return .moving }
            switch mode {
            case .single: return .answered(items[visible[cursor]].answer)
            case .multiple: toggle(items[visible[cursor]])
            case .ranking: isHolding.toggle()
            }
        case .enter:
            switch mode {
            case .single:
                guard cursor < visible.count else { return .moving }
                return .answered(items[visible[cursor]].answer)
            case .multiple:
                let answers = items.filter { $0.group == nil && selected.contains($0.answer) }.map(\.answer)
                return .answered(answers.joined(separator: ","))
            case .ranking:
                return .answered(items.map(\.answer).joined(separator: ","))
            }
        case .left:
            return .command("b")
        case .escape:
            if filters, !filter.isEmpty {
                filter = ""
                cursor = 0
            } else {
                awaitsCommand = true
            }
        case .backspace:
            if filters, !filter.isEmpty {
                filter.removeLast()
                cursor = 0
            }
        case .alt(let character):
            if let outcome = command(character) { return outcome }
        case .character(let character):
            if filters {
                filter.append(character)
                cursor = 0
            } else if let outcome = command(character) {
                return outcome
            }
        default:
            break
        }
        scroll()
        return .moving
    }

    /// `b`, `d`, `q` as commands; `?` shows or hides the help.
    mutating func command(_ character: Character) -> Outcome? {
        switch character {
        case "b", "d", "q": return .command(character)
        case "?":
            showsHelp.toggle()
            return .moving
        default: return nil
        }
    }

    mutating func move(by offset: Int, count: Int) {
        guard count > 0 else { return }
        let target = max(0, min(count - 1, cursor + offset))
        if mode == .ranking, isHolding, target != cursor {
            // The held item goes along: one place at a time.
            let step = target > cursor ? 1 : -1
            var position = cursor
            while position != target {
                items.swapAt(position, position + step)
                position += step
            }
        }
        cursor = target
    }

    mutating func toggle(_ item: Item) {
        if let group = item.group {
            let all = group.allSatisfy(selected.contains)
            for answer in group {
                if all { selected.remove(answer) } else { selected.insert(answer) }
            }
            return
        }
        if selected.contains(item.answer) { selected.remove(item.answer) } else { selected.insert(item.answer) }
    }

    mutating func scroll() {
        let count = shown.count
        if cursor >= count { cursor = max(0, count - 1) }
        if cursor < top { top = cursor }
        if cursor >= top + visibleRows { top = cursor - visibleRows + 1 }
        top = max(0, min(top, max(0, count - visibleRows)))
    }

    /// Whether `item` is shown as picked (several: toggled on; a "select all": all of its group).
    public func isSelected(_ item: Item) -> Bool {
        if let group = item.group { return !group.isEmpty && group.allSatisfy(selected.contains) }
        return selected.contains(item.answer)
    }

    /// The lines to draw: the filter (when typing filters), the visible items with the cursor,
    /// and the key hints (or the help).
    public func lines(symbols: Bool) -> [String] {
        var lines: [String] = []
        if filters { lines.append((symbols ? "🔎 " : "/ ") + filter + (filter.isEmpty ? "(type to filter)" : "")) }
        let visible = shown
        if visible.isEmpty { lines.append("  —") }
        let pointer = symbols ? "❯" : ">"
        for row in top..<min(visible.count, top + visibleRows) {
            let item = items[visible[row]]
            let isCursor = row == cursor
            var mark = ""
            switch mode {
            case .single: break
            case .multiple: mark = isSelected(item) ? (symbols ? "◉ " : "[x] ") : (symbols ? "○ " : "[ ] ")
            case .ranking: mark = "\(row + 1). " + (isCursor && isHolding ? (symbols ? "↕ " : "<> ") : "")
            }
            lines.append((isCursor ? pointer + " " : "  ") + mark + item.label)
        }
        if visible.count > visibleRows {
            lines.append("  (\(top + 1)–\(min(visible.count, top + visibleRows)) of \(visible.count))")
        }
        lines.append(contentsOf: (showsHelp ? help : hint).split(separator: "\n").map(String.init))
        return lines
    }

    /// The one-line key hint under the list.
    public var hint: String {
        let pick: String
        switch mode {
        case .single: pick = "↑/↓ move · enter choose"
        case .multiple: pick = "↑/↓ move · space toggle · enter confirm"
        case .ranking: pick = "↑/↓ move · space pick up/put down · enter confirm"
        }
        return pick + (filters ? " · type to filter · esc then ? help" : " · ? help")
    }

    /// The keys, when `?` was pressed.
    public var help: String {
        let letters = filters ? "esc then b/d/q" : "b/d/q"
        return hint + "\n← or \(letters): back, dismiss (don't ask again), quit · ctrl-c quits (progress saved)"
    }
}

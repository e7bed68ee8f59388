/// One line of text being edited at a terminal: the usual keys of a shell prompt. Pure: keys in,
/// text and cursor out.
///
/// ←/→ and Home/End (Ctrl-A/Ctrl-E) move; Backspace and Delete erase; Ctrl-U erases to the start,
/// Ctrl-K to the end, Ctrl-W the word before the cursor; Enter submits. Escape, then `b`, `d`, `q`
/// or `?` (or Alt with the key) is a command, as are ← (back) and Ctrl-D (quit) on an empty line.
///
/// ```swift
/// var editor = LineEditor(text: "helo")
/// _ = editor.handle(.left)
/// _ = editor.handle(.character("l"))  // "hello", cursor before the "o"
/// ```
public struct LineEditor: Sendable, Hashable {
    /// The text typed so far.
    public private(set) var characters: [Character]
    /// Where the cursor is: the number of characters before it.
    public private(set) var cursor: Int
    /// Escape was pressed: the next key is a command.
    public private(set) var awaitsCommand = false

    /// What a key did.
    public enum Outcome: Sendable, Hashable {
        /// Editing goes on (the text or the cursor may have changed).
        case editing
        /// Enter: the line as typed.
        case submitted(String)
        /// A command key: `b`, `d`, `q` or `?`.
        case command(Character)
    }

    /// An editor holding `text`, the cursor at its end.
    public init(text: String = "") {
        characters = Array(text)
        cursor = characters.count
    }

    /// The text typed so far.
    public var text: String { String(characters) }

    /// Applies `key`.
    public mutating func handle(_ key: Key) -> Outcome {
        if awaitsCommand {
            awaitsCommand = false
            if case .character(let character) = key, Self.commands.contains(character) { return .command(character) }
            if key == .escape { return .editing }
        }
        switch key {
        case .character(let character):
            characters.insert(character, at: cursor)
            cursor += 1
        case .left where characters.isEmpty:
            return .command("b")
        case .left, .control("b"):
            cursor = max(0, cursor - 1)
        case .right, .control("f"):
            cursor = min(characters.count, cursor + 1)
        case .home, .control("a"):
            cursor = 0
        case .end, .control("e"):
            cursor = characters.count
        case .backspace, .control("h"):
            if cursor > 0 {
                characters.remove(at: cursor - 1)
                cursor -= 1
            }
        case .delete:
            if cursor < characters.count { characters.remove(at: cursor) }
        case .control("d"):
            if characters.isEmpty { return .command("q") }
            if cursor < characters.count { characters.remove(at: cursor) }
        case .control("u"):
            characters.removeFirst(cursor)
            cursor = 0
        case .control("k"):
            characters.removeLast(characters.count - cursor)
        case .control("w"):
            var start = cursor
            while start > 0, characters[start - 1].isWhitespace { start -= 1 }
            while start > 0, !characters[start - 1].isWhitespace { start -= 1 }
            characters.removeSubrange(start..<cursor)
            cursor = start
        case .enter:
            return .submitted(text)
        case .escape:
            awaitsCommand = true
        case .alt(let character) where Self.commands.contains(character):
            return .command(character)
        default:
            break
        }
        return .editing
    }

    /// The keys that follow Escape (or Alt) as commands: back, dismiss, quit, help.
    static let commands: Set<Character> = ["b", "d", "q", "?"]

    /// The part of the text shown in `width` columns, scrolled so the cursor is visible, and the
    /// cursor's column within it.
    public func visible(width: Int) -> (text: String, cursorColumn: Int) {
        let width = max(1, width)
        let widths = characters.map(DisplayWidth.of)
        var start = 0
        // Scroll right until the text up to the cursor (and the cursor itself) fits.
        while widths[start..<cursor].reduce(0, +) >= width { start += 1 }
        var end = start
        var used = 0
        while end < characters.count, used + widths[end] <= width - 1 || end < cursor {
            used += widths[end]
            end += 1
        }
        return (String(characters[start..<end]), widths[start..<cursor].reduce(0, +))
    }
}

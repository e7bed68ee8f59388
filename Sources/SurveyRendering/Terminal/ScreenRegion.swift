/// How many terminal columns text takes: East Asian wide characters and emoji two, combining marks
/// none, ANSI colour sequences none.
enum DisplayWidth {
    static func of(_ character: Character) -> Int {
        guard let scalar = character.unicodeScalars.first else { return 0 }
        let value = scalar.value
        if value < 0x20 || (0x7F..<0xA0).contains(value) { return 0 }
        if character.unicodeScalars.count == 1, scalar.properties.generalCategory == .nonspacingMark { return 0 }
        if (0x1100...0x115F).contains(value) || (0x2E80...0xA4CF).contains(value) || (0xAC00...0xD7A3).contains(value)
            || (0xF900...0xFAFF).contains(value) || (0xFE30...0xFE4F).contains(value)
            || (0xFF00...0xFF60).contains(value) || (0xFFE0...0xFFE6).contains(value)
            || (0x1F300...0x1FAFF).contains(value) || (0x20000...0x3FFFD).contains(value)
        {
            return 2
        }
        return 1
    }

    /// The width of `text`, colour sequences left out.
    static func of(_ text: String) -> Int {
        var width = 0
        var inEscape = false
        for character in text {
            if inEscape {
                if let scalar = character.unicodeScalars.first, (0x40...0x7E).contains(scalar.value), character != "[" {
                    inEscape = false
                }
                continue
            }
            if character == "\u{1B}" {
                inEscape = true
                continue
            }
            width += of(character)
        }
        return width
    }

    /// `text` cut to at most `width` columns (colour sequences kept, and reset when cut).
    static func truncate(_ text: String, to width: Int) -> String {
        guard of(text) > width else { return text }
        var result = ""
        var used = 0
        var inEscape = false
        for character in text {
            if inEscape {
                result.append(character)
                if let scalar = character.unicodeScalars.first, (0x40...0x7E).contains(scalar.value), character != "[" {
                    inEscape = false
                }
                continue
            }
            if character == "\u{1B}" {
                inEscape = true
                result.append(character)
                continue
            }
            let next = of(character)
            if used + next > max(0, width - 1) {
                result.append("…")
                break
            }
            used += next
            result.append(character)
        }
        return text.contains("\u{1B}") ? result + "\u{1B}[0m" : result
    }
}

/// The lines at the bottom of the terminal that the interactive front end redraws in place (a
/// list being moved through, a line being edited, an error under it). Pure: it only makes the text
/// to write; ``Terminal`` writes it.
///
/// Each frame moves the cursor back to the region's first line, clears to the end of the screen,
/// writes the new lines (cut to the terminal's width, so none wraps and the count of rows stays
/// right) and puts the cursor where the frame asks.
///
/// ```swift
/// var region = ScreenRegion()
/// let text = region.frame(["› Blue", "  Green"], cursor: nil, width: 80)
/// ```
public struct ScreenRegion: Sendable, Hashable {
    /// The rows drawn by the last frame.
    public private(set) var rowCount = 0
    /// The row of the region the cursor was left on.
    public private(set) var cursorRow = 0

    /// An empty region starting at the cursor's line.
    public init() {}

    /// The text that replaces the region with `lines`, leaving the cursor at `cursor` (row and
    /// column in the region), or after the last line's text when `nil`.
    public mutating func frame(_ lines: [String], cursor: (row: Int, column: Int)?, width: Int) -> String {
        var text = rewind()
        text += "\u{1B}[J"
        let shown = lines.isEmpty ? [""] : lines.map { DisplayWidth.truncate($0, to: max(1, width - 1)) }
        text += shown.joined(separator: "\r\n")
        rowCount = shown.count
        cursorRow = shown.count - 1
        if let cursor {
            let row = max(0, min(cursor.row, shown.count - 1))
            if row < cursorRow { text += "\u{1B}[\(cursorRow - row)A" }
            text += "\r"
            if cursor.column > 0 { text += "\u{1B}[\(cursor.column)C" }
            cursorRow = row
        }
        return text
    }

    /// Leaves the region as it is on the screen (its last frame stays in the transcript): the
    /// cursor moves to the line below it, and the next frame starts there.
    public mutating func close() -> String {
        guard rowCount > 0 else { return "" }
        let down = rowCount - 1 - cursorRow
        rowCount = 0
        cursorRow = 0
        return (down > 0 ? "\u{1B}[\(down)B" : "") + "\r\n"
    }

    /// Moves the cursor back to the region's first column of its first row.
    func rewind() -> String {
        guard rowCount > 0 else { return "\r" }
        return (cursorRow > 0 ? "\u{1B}[\(cursorRow)A" : "") + "\r"
    }
}

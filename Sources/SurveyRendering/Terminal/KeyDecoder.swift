/// A key pressed at a terminal, as the interactive front end reads it.
public enum Key: Sendable, Hashable {
    /// A printable character (a space included).
    case character(Character)
    case up, down, left, right, home, end, pageUp, pageDown
    case enter, tab, backspace, delete, escape
    /// A control key: `control("a")` is Ctrl-A (byte 1).
    case control(Character)
    /// A character typed with Alt (or after Escape at once): `ESC b` is `alt("b")`.
    case alt(Character)
}

/// Turns the bytes a terminal sends in raw mode into ``Key``s: UTF-8 characters, control keys and
/// the VT100/xterm escape sequences of the arrow, Home/End, Page and Delete keys. Pure: bytes in,
/// keys out; a sequence or character cut between two reads is kept until the next.
///
/// ```swift
/// var decoder = KeyDecoder()
/// decoder.decode(Array("\u{1B}[Bx".utf8), isFinal: true)  // [.down, .character("x")]
/// ```
public struct KeyDecoder: Sendable {
    /// Bytes of a key not complete yet.
    var pending: [UInt8] = []

    /// A decoder with nothing pending.
    public init() {}

    /// Whether bytes of an unfinished key are waiting for more.
    public var hasPending: Bool { !pending.isEmpty }

    /// The keys in `bytes` (after those left from the last call). With `isFinal`, nothing more is
    /// coming at once: a lone Escape is the Escape key and an unfinished sequence is dropped.
    public mutating func decode(_ bytes: [UInt8], isFinal: Bool) -> [Key] {
        let input = pending + bytes
        pending = []
        var keys: [Key] = []
        var index = 0
        while index < input.count {
            let byte = input[index]
            switch byte {
            case 0x1B:
                guard index + 1 < input.count else {
                    if isFinal { keys.append(.escape) } else { pending = Array(input[index...]) }
                    return keys
                }
                let next = input[index + 1]
                if next == UInt8(ascii: "[") || next == UInt8(ascii: "O") {
                    // CSI or SS3: parameters, then a final byte in 0x40...0x7E.
                    var end = index + 2
                    while end < input.count, !(0x40...0x7E).contains(input[end]) { end += 1 }
                    guard end < input.count else {
                        if !isFinal { pending = Array(input[index...]) }
                        return keys
                    }
                    let parameters = String(decoding: input[(index + 2)..<end], as: UTF8.self)
                    if let key = Self.sequenceKey(final: input[end], parameters: parameters) { keys.append(key) }
                    index = end + 1
                } else if next == 0x1B {
                    keys.append(.escape)
                    index += 1
                } else {
                    let (character, length) = Self.character(in: input, at: index + 1)
                    if length == 0 {
                        if !isFinal { pending = Array(input[index...]) }
                        return keys
                    }
                    if let character { keys.append(.alt(character)) }
                    index += 1 + length
                }
            case 0x0D, 0x0A:
                keys.append(.enter)
                // A pasted CR LF is one line end.
                index += byte == 0x0D && index + 1 < input.count && input[index + 1] == 0x0A ? 2 : 1
            case 0x09:
                keys.append(.tab)
                index += 1
            case 0x7F, 0x08:
                keys.append(.backspace)
                index += 1
            case 0x00..<0x20:
                keys.append(.control(Character(Unicode.Scalar(byte + 0x60))))
                index += 1
            default:
                let (character, length) = Self.character(in: input, at: index)
                if length == 0 {
                    if !isFinal { pending = Array(input[index...]) }
                    return keys
                }
                if let character { keys.append(.character(character)) }
                index += length
            }
        }
        return keys
    }

    /// The key of `ESC [ parameters final` (or `ESC O final`); `nil` for one the front end ignores.
    static func sequenceKey(final: UInt8, parameters: String) -> Key? {
        switch final {
        case UInt8(ascii: "A"): return .up
        case UInt8(ascii: "B"): return .down
        case UInt8(ascii: "C"): return .right
        case UInt8(ascii: "D"): return .left
        case UInt8(ascii: "H"): return .home
        case UInt8(ascii: "F"): return .end
        case UInt8(ascii: "~"):
            switch parameters.split(separator: ";").first {
            case "1", "7": return .home
            case "4", "8": return .end
            case "3": return .delete
            case "5": return .pageUp
            case "6": return .pageDown
            default: return nil
            }
        default: return nil
        }
    }

    /// The UTF-8 character starting at `index` and its length in bytes; length 0 when it is not
    /// complete yet, a `nil` character (length 1) for a byte that starts none.
    static func character(in bytes: [UInt8], at index: Int) -> (Character?, Int) {
        let lead = bytes[index]
        let length: Int
        switch lead {
        case 0x00..<0x80: length = 1
        case 0xC2..<0xE0: length = 2
        case 0xE0..<0xF0: length = 3
        case 0xF0..<0xF5: length = 4
        default: return (nil, 1)
        }
        guard index + length <= bytes.count else { return (nil, 0) }
        guard let text = String(validating: bytes[index..<(index + length)], as: UTF8.self), let first = text.first
        else { return (nil, 1) }
        return (first, length)
    }
}

// The lexer: the tokens of an expression, read from its UTF-8 bytes one at a time.

extension ExpressionParser {
    /// Where the name is when `bytes` start (after spaces) with a plain reference `{name}`: printable
    /// ASCII without spaces or braces. What a simple comparison reads first, and what the compiler
    /// looks up ahead of compiling a step (``SurveyCompiler/ReferenceHints``).
    static func leadingReference(in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        let count = bytes.count
        var index = 0
        while index < count, ExpressionValue.isSpace(bytes[index]) { index += 1 }
        guard index < count, bytes[index] == UInt8(ascii: "{") else { return nil }
        index += 1
        let nameStart = index
        while index < count, bytes[index] != UInt8(ascii: "}") {
            guard bytes[index] > 32, bytes[index] < 127, bytes[index] != UInt8(ascii: "{") else { return nil }
            index += 1
        }
        guard index < count, index > nameStart else { return nil }
        return nameStart..<index
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= 48 && byte <= 57 }

    static func isIdentifierByte(_ byte: UInt8) -> Bool {
        (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122) || byte == 95 || byte >= 0x80
    }

    mutating func advance() throws(ExpressionCompileError) {
        while position < bytes.count, ExpressionValue.isSpace(bytes[position]) { position += 1 }
        tokenStart = position
        guard position < bytes.count else {
            token = .end
            return
        }
        let byte = bytes[position]
        let next: UInt8 = position + 1 < bytes.count ? bytes[position + 1] : 0
        switch byte {
        case UInt8(ascii: "{"):
            position += 1
            let start = position
            while position < bytes.count, bytes[position] != UInt8(ascii: "}") { position += 1 }
            guard position < bytes.count else { throw error("unclosed '{': expected '}'", at: start - 1) }
            var name = text(from: start, to: position).trimmingWhitespace()
            position += 1
            // SurveyJS's `{#name}` reads the same value as `{name}`.
            if name.hasPrefix("#"), name.count > 1 { name.removeFirst() }
            if name.isEmpty { throw error("empty reference '{}'", at: start - 1) }
            token = .variable(name)
        case UInt8(ascii: "'"), UInt8(ascii: "\""):
            position += 1
            let start = position
            var hasEscape = false
            while position < bytes.count, bytes[position] != byte {
                if bytes[position] == UInt8(ascii: "\\"), position + 1 < bytes.count {
                    hasEscape = true
                    position += 1
                }
                position += 1
            }
            guard position < bytes.count else {
                throw error("unterminated string: expected \(Character(Unicode.Scalar(byte)))", at: tokenStart)
            }
            if hasEscape {
                var text: [UInt8] = []
                var cursor = start
                while cursor < position {
                    if bytes[cursor] == UInt8(ascii: "\\") { cursor += 1 }
                    text.append(bytes[cursor])
                    cursor += 1
                }
                token = .string(String(decoding: text, as: UTF8.self))
            } else {
                token = .string(text(from: start, to: position))
            }
            position += 1
        case UInt8(ascii: "0")
        where next == UInt8(ascii: "x") && position + 2 < bytes.count
            && Self.isDigit(bytes[position + 2]):
            // SurveyJS's hexadecimal `0x1F`… only with decimal digits (`0x10` is 16; `0x1F` does not parse).
            position += 2
            var value = 0.0
            while position < bytes.count, Self.isDigit(bytes[position]) {
                value = value * 16 + Double(bytes[position] - 48)
                position += 1
            }
            token = .number(value)
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."):
            let start = position
            while position < bytes.count {
                let current = bytes[position]
                if Self.isDigit(current) || current == UInt8(ascii: ".") {
                    position += 1
                } else if current == UInt8(ascii: "e") || current == UInt8(ascii: "E"), position + 1 < bytes.count,
                    Self.isDigit(bytes[position + 1]) || bytes[position + 1] == UInt8(ascii: "-")
                        || bytes[position + 1] == UInt8(ascii: "+")
                {
                    position += 2
                } else {
                    break
                }
            }
            let literal = text(from: start, to: position)
            guard let value = Double(literal) else { throw error("invalid number '\(literal)'", at: start) }
            token = .number(value)
        default:
            if Self.isIdentifierByte(byte) {
                let start = position
                while position < bytes.count, Self.isIdentifierByte(bytes[position]) || Self.isDigit(bytes[position]) {
                    position += 1
                }
                let word = text(from: start, to: position)
                token = .identifier(word, Keyword(word))
                return
            }
            guard let (symbol, length) = Self.symbol(byte, next) else {
                throw error("unexpected character '\(Character(Unicode.Scalar(byte)))'")
            }
            position += length
            token = .symbol(symbol)
        }
    }

    /// The symbol that starts with `byte` (followed by `next`) and its length in bytes; `nil` when no
    /// symbol starts with `byte`.
    static func symbol(_ byte: UInt8, _ next: UInt8) -> (Symbol, Int)? {
        switch (byte, next) {
        case (UInt8(ascii: "="), UInt8(ascii: "=")): return (.equal, 2)
        case (UInt8(ascii: "!"), UInt8(ascii: "=")): return (.notEqual, 2)
        case (UInt8(ascii: "<"), UInt8(ascii: ">")): return (.notEqual, 2)
        case (UInt8(ascii: "<"), UInt8(ascii: "=")): return (.lessOrEqual, 2)
        case (UInt8(ascii: ">"), UInt8(ascii: "=")): return (.greaterOrEqual, 2)
        // SurveyJS also reads `=>` and `=<`.
        case (UInt8(ascii: "="), UInt8(ascii: ">")): return (.greaterOrEqual, 2)
        case (UInt8(ascii: "="), UInt8(ascii: "<")): return (.lessOrEqual, 2)
        case (UInt8(ascii: "&"), UInt8(ascii: "&")): return (.and, 2)
        case (UInt8(ascii: "|"), UInt8(ascii: "|")): return (.or, 2)
        // SurveyJS's `*=` for contains, and `^` for powers.
        case (UInt8(ascii: "*"), UInt8(ascii: "=")): return (.starEqual, 2)
        case (UInt8(ascii: "^"), _): return (.caret, 1)
        case (UInt8(ascii: "="), _): return (.equal, 1)
        case (UInt8(ascii: "<"), _): return (.less, 1)
        case (UInt8(ascii: ">"), _): return (.greater, 1)
        case (UInt8(ascii: "!"), _): return (.bang, 1)
        case (UInt8(ascii: "+"), _): return (.plus, 1)
        case (UInt8(ascii: "-"), _): return (.minus, 1)
        case (UInt8(ascii: "*"), _): return (.star, 1)
        case (UInt8(ascii: "/"), _): return (.slash, 1)
        case (UInt8(ascii: "%"), _): return (.percent, 1)
        case (UInt8(ascii: "("), _): return (.openParen, 1)
        case (UInt8(ascii: ")"), _): return (.closeParen, 1)
        case (UInt8(ascii: ","), _): return (.comma, 1)
        case (UInt8(ascii: "["), _): return (.openBracket, 1)
        case (UInt8(ascii: "]"), _): return (.closeBracket, 1)
        default: return nil
        }
    }

    func isKeyword(_ keyword: Keyword) -> Bool {
        if case .identifier(_, let found) = token { return found == keyword }
        return false
    }
}

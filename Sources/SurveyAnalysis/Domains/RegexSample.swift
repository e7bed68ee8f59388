import Foundation

/// A text that a regular expression matches, for answering a question with a `regex` validator in
/// generated paths: the regex subset survey authors write (literals and escapes, `.`, classes with
/// ranges and negation, `\d \w \s` and their negations, groups, alternation, `? * + {n} {n,} {n,m}`,
/// anchors, word boundaries, and lookaheads, whose text is put where they stand).
///
/// Each part is given its fewest repetitions, the first alternative that works and a class's first
/// member; the result is then checked with `NSRegularExpression` as the engine checks answers, so a
/// sample is never wrong: `nil` when the pattern is outside the subset or no sample built this way
/// matches (a pattern nothing matches, such as `a^b`, gives `nil` too).
///
/// ```swift
/// RegexSample.text(matching: #"^\d{9}$"#)              // "000000000"
/// RegexSample.text(matching: "^[A-Z]{2}-[0-9]+$")      // "AA-0"
/// ```
enum RegexSample {
    /// A text `pattern` matches (searched, as a `regex` validator searches), or `nil`.
    static func text(matching pattern: String, caseInsensitive: Bool = false) -> String? {
        guard
            let regex = try? NSRegularExpression(pattern: pattern, options: caseInsensitive ? [.caseInsensitive] : [])
        else { return nil }
        var parser = Parser(Array(pattern.unicodeScalars))
        guard let node = parser.alternation(), parser.isAtEnd else { return nil }
        for candidate in node.samples(limit: 8) {
            let range = NSRange(candidate.startIndex..., in: candidate)
            if regex.firstMatch(in: candidate, range: range) != nil { return candidate }
        }
        return nil
    }

    /// A parsed pattern.
    indirect enum Node {
        /// One of several texts (a literal is a set of one; a class lists the members worth trying).
        case choice([String])
        case sequence([Node])
        case alternatives([Node])
        case repeated(Node, minimum: Int)

        /// Texts this node matches, the shortest first, at most `limit`.
        func samples(limit: Int) -> [String] {
            switch self {
            case .choice(let texts):
                return Array(texts.prefix(limit))
            case .alternatives(let nodes):
                return Array(nodes.flatMap { $0.samples(limit: limit) }.prefix(limit))
            case .repeated(let node, let minimum):
                let parts = node.samples(limit: limit)
                guard minimum > 0 else { return [""] + parts.prefix(limit - 1) }
                return parts.map { String(repeating: $0, count: minimum) }
            case .sequence(let nodes):
                var results = [""]
                for node in nodes {
                    let parts = node.samples(limit: limit)
                    var next: [String] = []
                    for prefix in results {
                        for part in parts where next.count < limit { next.append(prefix + part) }
                    }
                    results = next
                    if results.isEmpty { return [] }
                }
                return results
            }
        }
    }

    /// A recursive-descent parser over the pattern's scalars.
    struct Parser {
        let scalars: [Unicode.Scalar]
        var position = 0

        init(_ scalars: [Unicode.Scalar]) { self.scalars = scalars }

        var isAtEnd: Bool { position == scalars.count }
        var current: Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

        mutating func alternation() -> Node? {
            var options: [Node] = []
            guard let first = sequence() else { return nil }
            options.append(first)
            while current == "|" {
                position += 1
                guard let next = sequence() else { return nil }
                options.append(next)
            }
            return options.count == 1 ? first : .alternatives(options)
        }

        mutating func sequence() -> Node? {
            var nodes: [Node] = []
            while let scalar = current, scalar != "|", scalar != ")" {
                guard var atom = atom() else { return nil }
                guard let quantified = quantifier(on: &atom) else { return nil }
                nodes.append(quantified)
            }
            return .sequence(nodes)
        }

        /// `atom` with the quantifier after it, if any (`nil` for a malformed one).
        mutating func quantifier(on atom: inout Node) -> Node? {
            var minimum = 1
            switch current {
            case "*": minimum = 0
            case "+": minimum = 1
            case "?": minimum = 0
            case "{":
                let start = position
                position += 1
                var digits = ""
                while let scalar = current, ("0"..."9").contains(scalar) {
                    digits.unicodeScalars.append(scalar)
                    position += 1
                }
                while let scalar = current, scalar != "}" {
                    guard ("0"..."9").contains(scalar) || scalar == "," else {
                        position = start
                        return atom
                    }
                    position += 1
                }
                guard current == "}", let count = Int(digits), count <= 10_000 else {
                    position = start
                    return atom
                }
                minimum = count
            default:
                return atom
            }
            position += 1
            if current == "?" || current == "+" { position += 1 }
            return .repeated(atom, minimum: minimum)
        }

        mutating func atom() -> Node? {
            guard let scalar = current else { return nil }
            position += 1
            switch scalar {
            case "^", "$": return .choice([""])
            case ".": return .choice(["a", "0"])
            case "(":
                if current == "?" {
                    position += 1
                    switch current {
                    case ":": position += 1
                    case "=": position += 1  // a lookahead's text is put where it stands
                    case "!":
                        // A negative lookahead: nothing is put in; the check says whether it holds.
                        position += 1
                        var depth = 1
                        while let next = current, depth > 0 {
                            switch next {
                            case "\\": position += 1
                            case "(": depth += 1
                            case ")": depth -= 1
                            default: break
                            }
                            position += 1
                        }
                        return depth == 0 ? .choice([""]) : nil
                    case "<":
                        while let next = current, next != ">" { position += 1 }
                        position += 1
                    default: return nil
                    }
                }
                guard let inner = alternation(), current == ")" else { return nil }
                position += 1
                return inner
            case "[": return characterClass()
            case "\\": return escape(inClass: false).map { .choice($0) }
            case "*", "+", "?", "{", ")", "|": return nil
            default: return .choice([String(scalar)])
            }
        }

        /// The texts an escape stands for (after the backslash).
        mutating func escape(inClass: Bool) -> [String]? {
            guard let scalar = current else { return nil }
            position += 1
            switch scalar {
            case "d": return ["0", "1"]
            case "D": return ["a", "-"]
            case "w": return ["a", "0", "_"]
            case "W": return ["-", " "]
            case "s": return [" "]
            case "S": return ["a", "0"]
            case "b", "B", "A", "z", "Z", "G": return inClass ? nil : [""]
            case "n": return ["\n"]
            case "t": return ["\t"]
            case "u":
                var hex = ""
                for _ in 0..<4 {
                    guard let digit = current, digit.properties.isASCIIHexDigit else { return nil }
                    hex.unicodeScalars.append(digit)
                    position += 1
                }
                return UInt32(hex, radix: 16).flatMap(Unicode.Scalar.init).map { [String($0)] }
            default:
                return scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) ? nil : [String(scalar)]
            }
        }

        /// `[…]` (after the bracket): members worth trying, or for `[^…]` texts outside it.
        mutating func characterClass() -> Node? {
            let negated = current == "^"
            if negated { position += 1 }
            var members: [String] = []
            var excluded: [ClosedRange<Unicode.Scalar>] = []
            var first = true
            while let scalar = current, scalar != "]" || first {
                first = false
                position += 1
                var low: Unicode.Scalar = scalar
                if scalar == "\\" {
                    guard let texts = escape(inClass: true) else { return nil }
                    if texts.count > 1 || texts.first?.unicodeScalars.count != 1 {
                        members += texts
                        for text in texts { if let only = text.unicodeScalars.first { excluded.append(only...only) } }
                        continue
                    }
                    low = texts[0].unicodeScalars.first ?? scalar
                }
                var high = low
                if current == "-", position + 1 < scalars.count, scalars[position + 1] != "]" {
                    position += 1
                    guard let end = current else { return nil }
                    position += 1
                    high = end
                    guard low <= high else { return nil }
                }
                members.append(String(low))
                excluded.append(low...high)
            }
            guard current == "]" else { return nil }
            position += 1
            guard negated else { return .choice(members) }
            let outside = ["a", "z", "A", "0", "5", " ", "-", "_", ".", "x", "é"].filter { text in
                guard let scalar = text.unicodeScalars.first else { return false }
                return !excluded.contains { $0.contains(scalar) }
            }
            return .choice(outside)
        }
    }
}

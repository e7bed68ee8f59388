struct ExpressionParser {
    enum Token: Equatable {
        case number(Double)
        case string(String)
        case variable(String)
        case identifier(String)
        case symbol(String)
        case end
    }

    let scalars: [Unicode.Scalar]
    let functions: ExpressionFunctionRegistry
    let resolve: (String) -> Int?
    var position = 0
    var token: Token = .end
    var tokenStart = 0
    var referencedNames: [String] = []
    var referencedSlots: [Int] = []
    var callsImpureFunction = false

    init(source: String, functions: ExpressionFunctionRegistry, resolve: @escaping (String) -> Int?) {
        scalars = Array(source.unicodeScalars)
        self.functions = functions
        self.resolve = resolve
    }

    func error(_ message: String, at offset: Int? = nil, kind: ExpressionCompileError.Kind = .syntax)
        -> ExpressionCompileError
    {
        ExpressionCompileError(kind: kind, message: message, column: (offset ?? tokenStart) + 1)
    }

    mutating func parse() throws(ExpressionCompileError) -> ExpressionNode {
        try advance()
        if token == .end { throw error("the expression is empty") }
        let node = try parseOr()
        guard token == .end else { throw error("unexpected \(describe(token)) after a complete expression") }
        return node
    }

    func describe(_ token: Token) -> String {
        switch token {
        case .number(let value): return "number \(JSONValue.format(number: value))"
        case .string(let text): return "string '\(text)'"
        case .variable(let name): return "{\(name)}"
        case .identifier(let name): return "'\(name)'"
        case .symbol(let symbol): return "'\(symbol)'"
        case .end: return "end of expression"
        }
    }

    // MARK: Lexer

    mutating func advance() throws(ExpressionCompileError) {
        while position < scalars.count, scalars[position].properties.isWhitespace { position += 1 }
        tokenStart = position
        guard position < scalars.count else {
            token = .end
            return
        }
        let scalar = scalars[position]
        switch scalar {
        case "{":
            position += 1
            let start = position
            while position < scalars.count, scalars[position] != "}" { position += 1 }
            guard position < scalars.count else { throw error("unclosed '{': expected '}'", at: start - 1) }
            var name = String(String.UnicodeScalarView(scalars[start..<position]))
            name = name.trimmingWhitespace()
            position += 1
            if name.isEmpty { throw error("empty reference '{}'", at: start - 1) }
            token = .variable(name)
        case "'", "\"":
            let quote = scalar
            position += 1
            var text = String.UnicodeScalarView()
            while position < scalars.count, scalars[position] != quote {
                if scalars[position] == "\\", position + 1 < scalars.count {
                    position += 1
                }
                text.append(scalars[position])
                position += 1
            }
            guard position < scalars.count else {
                throw error("unterminated string: expected \(quote)", at: tokenStart)
            }
            position += 1
            token = .string(String(text))
        case "0"..."9", ".":
            let start = position
            while position < scalars.count,
                ("0"..."9").contains(scalars[position]) || scalars[position] == "."
                    || ((scalars[position] == "e" || scalars[position] == "E") && position + 1 < scalars.count
                        && (("0"..."9").contains(scalars[position + 1]) || scalars[position + 1] == "-"
                            || scalars[position + 1] == "+"))
                    || ((scalars[position] == "-" || scalars[position] == "+")
                        && (scalars[position - 1] == "e" || scalars[position - 1] == "E"))
            {
                position += 1
            }
            let text = String(String.UnicodeScalarView(scalars[start..<position]))
            guard let value = Double(text) else { throw error("invalid number '\(text)'", at: start) }
            token = .number(value)
        default:
            if scalar.properties.isAlphabetic || scalar == "_" {
                let start = position
                while position < scalars.count,
                    scalars[position].properties.isAlphabetic || scalars[position] == "_"
                        || ("0"..."9").contains(scalars[position])
                {
                    position += 1
                }
                token = .identifier(String(String.UnicodeScalarView(scalars[start..<position])))
                return
            }
            let two =
                position + 1 < scalars.count ? String(String.UnicodeScalarView([scalar, scalars[position + 1]])) : ""
            if ["==", "!=", "<>", "<=", ">=", "&&", "||"].contains(two) {
                position += 2
                token = .symbol(two)
                return
            }
            if "=<>!+-*/%(),[]".unicodeScalars.contains(scalar) {
                position += 1
                token = .symbol(String(scalar))
                return
            }
            throw error("unexpected character '\(scalar)'")
        }
    }

    func isKeyword(_ word: String) -> Bool {
        if case .identifier(let name) = token { return name.lowercased() == word }
        return false
    }

    // MARK: Grammar

    mutating func parseOr() throws(ExpressionCompileError) -> ExpressionNode {
        var node = try parseAnd()
        while isKeyword("or") || token == .symbol("||") {
            try advance()
            node = .binary(.or, node, try parseAnd())
        }
        return node
    }

    mutating func parseAnd() throws(ExpressionCompileError) -> ExpressionNode {
        var node = try parseNot()
        while isKeyword("and") || token == .symbol("&&") {
            try advance()
            node = .binary(.and, node, try parseNot())
        }
        return node
    }

    mutating func parseNot() throws(ExpressionCompileError) -> ExpressionNode {
        if isKeyword("not") || token == .symbol("!") {
            try advance()
            return .not(try parseNot())
        }
        return try parseComparison()
    }

    mutating func comparisonOperator() -> BinaryOperator? {
        switch token {
        case .symbol("="), .symbol("=="): return .equal
        case .symbol("!="), .symbol("<>"): return .notEqual
        case .symbol("<"): return .less
        case .symbol("<="): return .lessOrEqual
        case .symbol(">"): return .greater
        case .symbol(">="): return .greaterOrEqual
        case .identifier(let word):
            switch word.lowercased() {
            case "contains": return .contains
            case "notcontains": return .notContains
            case "anyof": return .anyOf
            case "allof": return .allOf
            case "noneof": return .noneOf
            case "equals", "equal": return .equal
            case "notequals", "notequal": return .notEqual
            default: return nil
            }
        default: return nil
        }
    }

    mutating func parseComparison() throws(ExpressionCompileError) -> ExpressionNode {
        let node = try parseAdditive()
        if isKeyword("empty") {
            try advance()
            return .isEmpty(node, true)
        }
        if isKeyword("notempty") {
            try advance()
            return .isEmpty(node, false)
        }
        if let op = comparisonOperator() {
            try advance()
            if token == .end { throw error("expected a value after the operator") }
            return .binary(op, node, try parseAdditive())
        }
        return node
    }

    mutating func parseAdditive() throws(ExpressionCompileError) -> ExpressionNode {
        var node = try parseMultiplicative()
        while token == .symbol("+") || token == .symbol("-") {
            let op: BinaryOperator = token == .symbol("+") ? .add : .subtract
            try advance()
            node = .binary(op, node, try parseMultiplicative())
        }
        return node
    }

    mutating func parseMultiplicative() throws(ExpressionCompileError) -> ExpressionNode {
        var node = try parseUnary()
        while token == .symbol("*") || token == .symbol("/") || token == .symbol("%") {
            let op: BinaryOperator = token == .symbol("*") ? .multiply : (token == .symbol("/") ? .divide : .remainder)
            try advance()
            node = .binary(op, node, try parseUnary())
        }
        return node
    }

    mutating func parseUnary() throws(ExpressionCompileError) -> ExpressionNode {
        if token == .symbol("-") {
            try advance()
            let operand = try parseUnary()
            if case .literal(.number(let value)) = operand { return .literal(.number(-value)) }
            return .negate(operand)
        }
        if token == .symbol("!") {
            try advance()
            return .not(try parseUnary())
        }
        return try parsePrimary()
    }

    mutating func reference(_ name: String, at offset: Int) throws(ExpressionCompileError) -> ExpressionNode {
        var parts = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        // A name may itself contain dots; prefer the longest prefix that resolves.
        var slot: Int?
        var base = name
        var keys: [String] = []
        while !parts.isEmpty {
            base = parts.joined(separator: ".")
            if let found = resolve(base) {
                slot = found
                break
            }
            keys.insert(parts.removeLast(), at: 0)
        }
        guard let slot else {
            let root = name.split(separator: ".").first.map(String.init) ?? name
            throw error(
                "unknown reference {\(name)}: no step or calculated value '\(root)'", at: offset,
                kind: .unknownReference(root))
        }
        if !referencedSlots.contains(slot) {
            referencedSlots.append(slot)
            referencedNames.append(base)
        }
        return keys.isEmpty ? .variable(slot) : .member(.variable(slot), keys)
    }

    mutating func parsePrimary() throws(ExpressionCompileError) -> ExpressionNode {
        let start = tokenStart
        switch token {
        case .number(let value):
            try advance()
            return .literal(.number(value))
        case .string(let text):
            try advance()
            return .literal(.string(text))
        case .variable(let name):
            try advance()
            return try reference(name, at: start)
        case .symbol("("):
            try advance()
            let node = try parseOr()
            guard token == .symbol(")") else { throw error("expected ')' to close '(' at column \(start + 1)") }
            try advance()
            return node
        case .symbol("["):
            try advance()
            var elements: [ExpressionNode] = []
            if token != .symbol("]") {
                while true {
                    elements.append(try parseOr())
                    if token == .symbol(",") {
                        try advance()
                        continue
                    }
                    guard token == .symbol("]") else { throw error("expected ',' or ']' in a list") }
                    break
                }
            }
            try advance()
            if elements.allSatisfy({ if case .literal = $0 { return true } else { return false } }) {
                return .literal(
                    .array(elements.map { if case .literal(let value) = $0 { return value } else { return .null } }))
            }
            return .array(elements)
        case .identifier(let word):
            try advance()
            switch word.lowercased() {
            case "true": return .literal(.bool(true))
            case "false": return .literal(.bool(false))
            case "null", "undefined": return .literal(.null)
            default: break
            }
            guard token == .symbol("(") else {
                throw error("unexpected word '\(word)'; references are written in braces, like {\(word)}", at: start)
            }
            guard let function = functions.function(named: word) else {
                var message = "unknown function '\(word)()'"
                if let suggestion = closestMatch(to: word, in: functions.names) {
                    message += " (did you mean '\(suggestion)'?)"
                }
                throw error(message, at: start, kind: .unknownFunction(word))
            }
            try advance()
            var arguments: [ExpressionNode] = []
            if token != .symbol(")") {
                while true {
                    arguments.append(try parseOr())
                    if token == .symbol(",") {
                        try advance()
                        continue
                    }
                    guard token == .symbol(")") else {
                        throw error("expected ',' or ')' in the arguments of \(word)()")
                    }
                    break
                }
            }
            try advance()
            guard function.arity.contains(arguments.count) else {
                let expected =
                    function.arity.upperBound == Int.max
                    ? "at least \(function.arity.lowerBound)"
                    : (function.arity.count == 1
                        ? "\(function.arity.lowerBound)"
                        : "\(function.arity.lowerBound) to \(function.arity.upperBound)")
                throw error(
                    "\(function.name)() takes \(expected) argument\(expected == "1" ? "" : "s"), got \(arguments.count)",
                    at: start, kind: .wrongArgumentCount(word))
            }
            if !function.isPure { callsImpureFunction = true }
            return .call(function, arguments)
        case .end:
            throw error("unexpected end of expression, expected a value")
        default:
            throw error("unexpected \(describe(token)), expected a value")
        }
    }
}

extension String {
    func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}

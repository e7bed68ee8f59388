struct ExpressionParser {
    enum Symbol: Equatable {
        case equal, notEqual, less, lessOrEqual, greater, greaterOrEqual
        case and, or, bang, plus, minus, star, slash, percent, caret, starEqual
        case openParen, closeParen, comma, openBracket, closeBracket
    }

    enum Keyword: Equatable {
        case and, or, not, empty, notEmpty, contains, notContains, anyOf, allOf, noneOf, equal, notEqual, power
        case greater, less, greaterOrEqual, lessOrEqual
        case `true`, `false`, null

        init?(_ word: String) {
            guard word.utf8.count <= 14 else { return nil }
            switch word.lowercased() {
            case "and": self = .and
            case "or": self = .or
            case "not", "negate": self = .not
            case "greater": self = .greater
            case "less": self = .less
            case "greaterorequal": self = .greaterOrEqual
            case "lessorequal": self = .lessOrEqual
            case "empty": self = .empty
            case "notempty": self = .notEmpty
            case "contains", "contain": self = .contains
            case "notcontains", "notcontain": self = .notContains
            case "power": self = .power
            case "anyof": self = .anyOf
            case "allof": self = .allOf
            case "noneof": self = .noneOf
            case "equals", "equal": self = .equal
            case "notequals", "notequal": self = .notEqual
            case "true": self = .true
            case "false": self = .false
            case "null", "undefined": self = .null
            default: return nil
            }
        }

        /// ``init(_:)`` on ASCII bytes, without making a string: the word, lower-cased, is packed
        /// into two integers and looked up among the keywords packed the same way.
        init?(ascii word: UnsafeBufferPointer<UInt8>) {
            guard let key = Self.pack(word) else { return nil }
            for (low, high, keyword) in Self.packedWords where low == key.low && high == key.high {
                self = keyword
                return
            }
            return nil
        }

        /// Every spelling ``init(_:)`` accepts, packed by ``pack(_:)``.
        private static let packedWords: [(UInt64, UInt64, Keyword)] = [
            "and", "or", "not", "negate", "greater", "less", "greaterorequal", "lessorequal", "empty", "notempty",
            "contains", "contain", "notcontains", "notcontain", "power", "anyof", "allof", "noneof", "equals", "equal",
            "notequals", "notequal",
            "true", "false", "null", "undefined",
        ].compactMap { word in
            var bytes = Array(word.utf8)
            return bytes.withUnsafeMutableBufferPointer { buffer in
                guard let key = pack(UnsafeBufferPointer(buffer)), let keyword = Keyword(word) else { return nil }
                return (key.low, key.high, keyword)
            }
        }

        /// Up to 16 ASCII bytes, lower-cased, as two integers (`nil` for longer words or other bytes).
        private static func pack(_ word: UnsafeBufferPointer<UInt8>) -> (low: UInt64, high: UInt64)? {
            guard word.count <= 16 else { return nil }
            var low: UInt64 = 0
            var high: UInt64 = 0
            for (offset, byte) in word.enumerated() {
                guard byte < 0x80 else { return nil }
                let lower = UInt64(byte >= 65 && byte <= 90 ? byte | 0x20 : byte)
                if offset < 8 { low |= lower << (8 * offset) } else { high |= lower << (8 * (offset - 8)) }
            }
            return (low, high)
        }
    }

    enum Token: Equatable {
        case number(Double)
        case string(String)
        case variable(String)
        case identifier(String, Keyword?)
        case symbol(Symbol)
        case end
    }

    /// The expression's UTF-8, borrowed from the source string for the duration of the parse.
    let bytes: UnsafeBufferPointer<UInt8>
    let functions: ExpressionFunctionRegistry
    /// Maps a name to its slot (swapped for a row's fields inside an …InArray condition).
    var resolve: (String) -> Int?
    var position = 0
    var token: Token = .end
    var tokenStart = 0
    var referencedNames: [String] = []
    var referencedSlots: [Int] = []
    var callsImpureFunction = false
    /// Questions with an Other choice, by slot (see ``OtherChoices``).
    var otherChoices: [Int: OtherChoices] = [:]
    /// What the compiler adds (``ExpressionCompileContext``), behind one reference: a debug build copies
    /// the parser into the frames of the functions that recurse once per level of nesting, so every
    /// byte of it counts against the stack.
    var context: ExpressionCompileContext?
    /// The configured question of a slot, for `displayValue('name')` (labels of choices and yes/no).
    var displayQuestion: (@Sendable (Int) -> ConfiguredQuestion?)? { context?.displayQuestion }
    /// What `{$name.property}` reads (``ElementPropertyValue``); without it such a reference is unknown.
    var resolveProperty: ElementPropertyResolver? { context?.resolveProperty }
    /// The words read as text constants (`abc` in `{a} = abc`), with their byte offsets, when not `nil`
    /// (for the lint's `unquoted-name`).
    var textWords: [(word: String, offset: Int)]?
    /// Whether ``parseSimpleComparison()`` is tried first (tests compare it with the general parser).
    var readsSimpleComparisons = true
    /// How many parentheses, lists, calls and prefix operators enclose the current token
    /// (at most ``Expression/maximumNesting``).
    var nesting = 0
    /// Whether the operand about to be read may be missing (after `contains`, `anyof`…): it is then
    /// empty. Cleared by the first primary read.
    var operandMayBeMissing = false

    init(bytes: UnsafeBufferPointer<UInt8>, functions: ExpressionFunctionRegistry, resolve: @escaping (String) -> Int?)
    {
        self.bytes = bytes
        self.functions = functions
        self.resolve = resolve
    }

    /// 1-based column (in characters) of a byte offset.
    func column(ofByte offset: Int) -> Int {
        var column = 1
        for index in 0..<min(offset, bytes.count) where bytes[index] & 0xC0 != 0x80 { column += 1 }
        return column
    }

    func error(_ message: String, at offset: Int? = nil, kind: ExpressionCompileError.Kind = .syntax)
        -> ExpressionCompileError
    {
        ExpressionCompileError(kind: kind, message: message, column: column(ofByte: offset ?? tokenStart))
    }

    mutating func parse() throws(ExpressionCompileError) -> ExpressionNode {
        if readsSimpleComparisons, let node = parseSimpleComparison() { return node }
        try advance()
        if token == .end { throw error("the expression is empty") }
        let node = try parseOr()
        guard token == .end else { throw error("unexpected \(describe(token)) after a complete expression") }
        return node
    }

    /// `{name} op literal` (most conditions of a large survey: `{q3} notcontains 'a'`, `{age} >= 18`)
    /// read straight from the bytes, giving exactly the node, names and slots the general parser
    /// gives for it, at a fraction of its cost; `nil`, with nothing changed, for any other text
    /// (which the general parser then reads, with its errors). Only plain forms are taken: a name of
    /// printable ASCII that resolves to a slot without an Other choice, a comparison operator, a
    /// quoted text without escapes or a number of digits and one point.
    mutating func parseSimpleComparison() -> ExpressionNode? {
        guard let simple = readSimpleComparison() else { return nil }
        referencedSlots = [simple.slot]
        referencedNames = [simple.name]
        return simple.node
    }

    /// ``parseSimpleComparison()`` without recording the name it reads in ``referencedNames`` and
    /// ``referencedSlots``: the node, the one name and its slot (building those two one-element arrays,
    /// then freeing them, cost more than reading the condition).
    func readSimpleComparison() -> (node: ExpressionNode, name: String, slot: Int)? {
        Self.readSimpleComparison(bytes, resolve: resolve, otherChoices: otherChoices)
    }

    /// ``readSimpleComparison()`` with no parser: what a step's `visibleIf` compiles through when it
    /// is kept as a cell (``StepCondition``), so that no parser state is set up and torn down for it.
    static func readSimpleComparison(
        _ bytes: UnsafeBufferPointer<UInt8>, resolve: (String) -> Int?, otherChoices: [Int: OtherChoices]
    ) -> (node: ExpressionNode, name: String, slot: Int)? {
        func text(from start: Int, to end: Int) -> String {
            String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<min(end, bytes.count)]), as: UTF8.self)
        }
        let count = bytes.count
        var index = 0
        func skipSpaces() {
            while index < count, ExpressionValue.isSpace(bytes[index]) { index += 1 }
        }
        guard let reference = leadingReference(in: bytes) else { return nil }
        let (nameStart, nameEnd) = (reference.lowerBound, reference.upperBound)
        index = nameEnd + 1
        skipSpaces()
        guard index < count else { return nil }
        let op: BinaryOperator
        var emptiness: Bool?
        let first = bytes[index]
        let second: UInt8 = index + 1 < count ? bytes[index + 1] : 0
        if Self.isIdentifierByte(first) {
            let wordStart = index
            while index < count, Self.isIdentifierByte(bytes[index]) || Self.isDigit(bytes[index]) {
                guard bytes[index] < 0x80 else { return nil }
                index += 1
            }
            guard let keyword = Keyword(ascii: UnsafeBufferPointer(rebasing: bytes[wordStart..<index])) else {
                return nil
            }
            if keyword == .empty || keyword == .notEmpty {
                (op, emptiness) = (.equal, keyword == .empty)
            } else {
                guard let (found, level) = Self.binaryOperator(keyword), level == Self.comparisonLevel else {
                    return nil
                }
                op = found
            }
        } else {
            guard let (symbol, length) = Self.symbol(first, second),
                let (found, level) = Self.binaryOperator(symbol), level == Self.comparisonLevel
            else { return nil }
            op = found
            index += length
        }
        skipSpaces()
        // A quoted text without escapes, or digits with points.
        func scalar() -> JSONValue? {
            guard index < count else { return nil }
            let quote = bytes[index]
            if quote == UInt8(ascii: "'") || quote == UInt8(ascii: "\"") {
                index += 1
                let textStart = index
                while index < count, bytes[index] != quote {
                    guard bytes[index] != UInt8(ascii: "\\") else { return nil }
                    index += 1
                }
                guard index < count else { return nil }
                defer { index += 1 }
                return .string(text(from: textStart, to: index))
            }
            guard Self.isDigit(quote) else { return nil }
            let numberStart = index
            var whole = 0
            var isWhole = true
            while index < count, Self.isDigit(bytes[index]) || bytes[index] == UInt8(ascii: ".") {
                if bytes[index] == UInt8(ascii: ".") {
                    isWhole = false
                } else {
                    whole = whole &* 10 &+ Int(bytes[index] - 48)
                }
                index += 1
            }
            guard index == count || !(bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E")) else {
                return nil
            }
            // A whole number of up to 15 digits is exact as a Double: no text to make and parse.
            if isWhole, index - numberStart <= 15 { return .number(Double(whole)) }
            guard let value = Double(text(from: numberStart, to: index)) else { return nil }
            return .number(value)
        }
        var literal = JSONValue.null
        if emptiness == nil {
            if index < count, bytes[index] == UInt8(ascii: "[") {
                // A list of such values, which the general parser folds into one literal.
                index += 1
                skipSpaces()
                var elements: [JSONValue] = []
                if index < count, bytes[index] == UInt8(ascii: "]") {
                    index += 1
                } else {
                    while true {
                        guard let element = scalar() else { return nil }
                        elements.append(element)
                        skipSpaces()
                        guard index < count else { return nil }
                        if bytes[index] == UInt8(ascii: ",") {
                            index += 1
                            skipSpaces()
                            continue
                        }
                        guard bytes[index] == UInt8(ascii: "]") else { return nil }
                        index += 1
                        break
                    }
                }
                // A list equal to an answer may have to compare in order (a ranking's: see
                // ``makeComparison(_:_:_:)``), which only the full parser knows.
                if op == .equal || op == .notEqual { return nil }
                literal = .array(elements)
            } else {
                guard let value = scalar() else { return nil }
                literal = value
            }
            skipSpaces()
        }
        guard index == count else { return nil }
        let name = text(from: nameStart, to: nameEnd)
        guard let slot = resolve(name), otherChoices[slot] == nil else { return nil }
        if let wantsEmpty = emptiness { return (.isEmpty(.variable(slot), wantsEmpty), name, slot) }
        return (.makeBinary(op, .variable(slot), .literal(literal)), name, slot)
    }

    func describe(_ token: Token) -> String {
        switch token {
        case .number(let value): return "number \(JSONValue.format(number: value))"
        case .string(let text): return "string '\(text)'"
        case .variable(let name): return "{\(name)}"
        case .identifier(let name, _): return "'\(name)'"
        case .symbol: return "'\(text(from: tokenStart, to: position))'"
        case .end: return "end of expression"
        }
    }

    func text(from start: Int, to end: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<min(end, bytes.count)]), as: UTF8.self)
    }

    // MARK: Grammar

    // Precedence climbing: or (1) < and (2) < not (3) < comparison (4) < + - (5) < * / % (6) < ^ (7).
    // One loop instead of a function per level keeps compiling a million conditions cheap.
    static let orLevel = 1
    static let powerLevel = 7
    static let notLevel = 3
    static let comparisonLevel = 4

    mutating func parseOr() throws(ExpressionCompileError) -> ExpressionNode {
        try parseExpression(Self.orLevel)
    }

    /// The binary operator at the current token and its level, if any.
    func binaryOperator() -> (BinaryOperator, Int)? {
        switch token {
        case .symbol(let symbol): return Self.binaryOperator(symbol)
        case .identifier(_, let keyword?): return Self.binaryOperator(keyword)
        default: return nil
        }
    }

    /// The binary operator a symbol stands for, and its level.
    static func binaryOperator(_ symbol: Symbol) -> (BinaryOperator, Int)? {
        switch symbol {
        case .or: return (.or, 1)
        case .and: return (.and, 2)
        case .equal: return (.equal, 4)
        case .notEqual: return (.notEqual, 4)
        case .less: return (.less, 4)
        case .lessOrEqual: return (.lessOrEqual, 4)
        case .greater: return (.greater, 4)
        case .greaterOrEqual: return (.greaterOrEqual, 4)
        case .plus: return (.add, 5)
        case .minus: return (.subtract, 5)
        case .star: return (.multiply, 6)
        case .slash: return (.divide, 6)
        case .percent: return (.remainder, 6)
        case .caret: return (.power, Self.powerLevel)
        case .starEqual: return (.contains, 4)
        default: return nil
        }
    }

    /// The binary operator a keyword stands for, and its level.
    static func binaryOperator(_ keyword: Keyword) -> (BinaryOperator, Int)? {
        switch keyword {
        case .or: return (.or, 1)
        case .and: return (.and, 2)
        case .contains: return (.contains, 4)
        case .power: return (.power, Self.powerLevel)
        case .notContains: return (.notContains, 4)
        case .anyOf: return (.anyOf, 4)
        case .allOf: return (.allOf, 4)
        case .noneOf: return (.noneOf, 4)
        case .equal: return (.equal, 4)
        case .notEqual: return (.notEqual, 4)
        case .greater: return (.greater, 4)
        case .less: return (.less, 4)
        case .greaterOrEqual: return (.greaterOrEqual, 4)
        case .lessOrEqual: return (.lessOrEqual, 4)
        default: return nil
        }
    }

    /// Enters one more level of nesting at the current token.
    /// - Throws: a syntax error past ``Expression/maximumNesting``.
    mutating func enterNesting() throws(ExpressionCompileError) {
        nesting += 1
        if nesting > Expression.maximumNesting { throw nestingError() }
    }

    func nestingError() -> ExpressionCompileError {
        error("the expression nests deeper than \(Expression.maximumNesting) levels")
    }

    mutating func parseExpression(_ minimumLevel: Int) throws(ExpressionCompileError) -> ExpressionNode {
        var node: ExpressionNode
        if minimumLevel <= Self.notLevel, isKeyword(.not) || token == .symbol(.bang) {
            try enterNesting()
            try advance()
            node = .not(try parseExpression(Self.notLevel))
            nesting -= 1
        } else {
            node = try parseUnary()
        }
        // Comparisons in the current run: each past the first nests the tree one level deeper, so it
        // counts against the nesting limit until the run ends (one counter, not two: this function's
        // frame is on the stack once per level of nesting).
        var comparisons = 0
        // A run of operators of one level (`a + b - c`, `a and b and c`) becomes one flat
        // ``ExpressionNode/chain(_:_:)`` instead of a left-deep tree: `node` is then the run's first
        // operand and `run` the rest, folded together when the run ends.
        var runLevel = -1
        var run: [(BinaryOperator, ExpressionNode)] = []
        while true {
            if minimumLevel <= Self.comparisonLevel, comparisons == 0, isKeyword(.empty) || isKeyword(.notEmpty) {
                let wantsEmpty = isKeyword(.empty)
                try advance()
                node = .isEmpty(.makeChain(node, run), wantsEmpty)
                run = []
                runLevel = -1
                comparisons = 1
                continue
            }
            guard let (op, level) = binaryOperator(), level >= minimumLevel else { break }
            // Comparisons chain from the left, as in SurveyJS (`{a} > 3 = true`): each further one nests
            // the tree one level deeper, so it counts against the nesting limit.
            if level == Self.comparisonLevel {
                try chainComparison(&comparisons)
            } else if level < Self.comparisonLevel {
                endComparisons(&comparisons)
            }
            try advance()
            // SurveyJS: `{q} contains` with nothing after it looks for no value (see parsePrimary).
            operandMayBeMissing = op.isMembership
            if token == .end, !operandMayBeMissing { throw error("expected a value after the operator") }
            let rhs = try parseExpression(level + 1)
            if level == Self.comparisonLevel {
                node = makeComparison(op, .makeChain(node, run), rhs)
                run = []
                runLevel = -1
            } else if level == runLevel {
                if run.isEmpty, case .binary(let firstOperator, let first, let second) = node {
                    node = first
                    run = [(firstOperator, second)]
                }
                run.append((op, rhs))
            } else {
                node = .binary(op, .makeChain(node, run), rhs)
                run = []
                runLevel = level
            }
        }
        endComparisons(&comparisons)
        return .makeChain(node, run)
    }

    /// `lhs op rhs`, a comparison: `=` and `<>` with a ranking's answer (a question whose type
    /// ``QuestionType/comparesAnswersInOrder``) on either side compare lists in order, as survey-core
    /// does for a ranking; anything else is ``ExpressionNode/makeBinary(_:_:_:)``. Kept out of
    /// ``parseExpression(_:)``, whose frame is on the stack once per level, and `mutating` so that a
    /// debug build does not copy the parser into that frame to call it.
    @inline(never)
    mutating func makeComparison(_ op: BinaryOperator, _ lhs: ExpressionNode, _ rhs: ExpressionNode) -> ExpressionNode {
        guard op == .equal || op == .notEqual, let displayQuestion else { return .makeBinary(op, lhs, rhs) }
        func isRanking(_ node: ExpressionNode) -> Bool {
            guard case .variable(let slot) = node else { return false }
            return displayQuestion(slot)?.comparesAnswersInOrder ?? false
        }
        guard isRanking(lhs) || isRanking(rhs) else { return .makeBinary(op, lhs, rhs) }
        let equal = ExpressionNode.call(StandardFunctions.equalsInOrder, [lhs, rhs])
        return op == .equal ? equal : .not(equal)
    }

    /// One more comparison in a run: past the first, one more level of nesting. Kept out of
    /// ``parseExpression(_:)``, whose frame is on the stack once per level.
    @inline(never)
    mutating func chainComparison(_ comparisons: inout Int) throws(ExpressionCompileError) {
        if comparisons > 0 { try enterNesting() }
        comparisons += 1
    }

    /// The end of a run of comparisons: the levels its chaining took are given back.
    @inline(never)
    mutating func endComparisons(_ comparisons: inout Int) {
        if comparisons > 1 { nesting -= comparisons - 1 }
        comparisons = 0
    }

    mutating func parseUnary() throws(ExpressionCompileError) -> ExpressionNode {
        if token == .symbol(.minus) {
            try enterNesting()
            try advance()
            let operand = try parseUnary()
            nesting -= 1
            if case .literal(.number(let value)) = operand { return .literal(.number(-value)) }
            return .negate(operand)
        }
        if token == .symbol(.bang) {
            try enterNesting()
            try advance()
            let operand = try parseUnary()
            nesting -= 1
            return .not(operand)
        }
        return try parsePrimary()
    }

    /// SurveyJS's `{q[0]}` (and `{rows[1].price}`) as members (`q.0`, `rows.1.price`), or `nil` when
    /// `name` has no index. Expressions and piped texts read names alike.
    static func indexesAsMembers(_ name: String) -> String? {
        guard name.contains("["), name.hasSuffix("]") || name.contains("]."), !name.hasPrefix("[") else { return nil }
        let dotted = String(name.compactMap { $0 == "[" ? "." : ($0 == "]" ? nil : $0) })
        return dotted != name && !dotted.contains("..") ? dotted : nil
    }

    mutating func reference(_ name: String, at offset: Int) throws(ExpressionCompileError) -> ExpressionNode {
        if name.hasPrefix("$"), let resolveProperty, resolve(name) == nil {
            return try propertyReference(name, at: offset, resolveProperty)
        }
        if let slot = resolve(name) {
            if !referencedSlots.contains(slot) {
                referencedSlots.append(slot)
                referencedNames.append(name)
            }
            if let choices = otherChoices[slot] { return .otherValue(slot, choices) }
            return .variable(slot)
        }
        // SurveyJS's `{name-Comment}`: the text of an Other answer.
        if name.hasSuffix("-Comment"), let slot = resolve(String(name.dropLast(8))) {
            guard let choices = otherChoices[slot] else {
                throw error(
                    "{\(name)} is the text of an Other answer or a comment, but '\(name.dropLast(8))' has no Other choice and no showCommentArea",
                    at: offset, kind: .unknownReference(name))
            }
            if !referencedSlots.contains(slot) {
                referencedSlots.append(slot)
                referencedNames.append(String(name.dropLast(8)))
            }
            return .otherText(slot, choices)
        }
        if let dotted = Self.indexesAsMembers(name) { return try reference(dotted, at: offset) }
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

    /// SurveyJS's `{$name.property}`: a property of a question, page, panel or of the survey, as
    /// ``resolveProperty`` gives it. A condition it reads is embedded, with the names it reads, so
    /// that what reads `{$q.isVisible}` is evaluated again whenever `q`'s visibility may change.
    mutating func propertyReference(
        _ name: String, at offset: Int, _ resolveProperty: ElementPropertyResolver
    ) throws(ExpressionCompileError) -> ExpressionNode {
        let path = name.dropFirst()
        guard let dot = path.firstIndex(of: "."), dot != path.startIndex, path.index(after: dot) != path.endIndex
        else {
            throw error(
                "{\(name)} names no property: write {$name.property}, such as {$q1.isVisible}", at: offset,
                kind: .unknownReference(name))
        }
        let element = String(path[..<dot])
        let property = String(path[path.index(after: dot)...])
        switch resolveProperty(element, property, context?.owner) {
        case .constant(let value):
            return .literal(value)
        case .condition(let expression, let negated):
            for (slot, referenced) in zip(expression.slots, expression.referencedNames)
            where !referencedSlots.contains(slot) {
                referencedSlots.append(slot)
                referencedNames.append(referenced)
            }
            if expression.callsImpureFunction { callsImpureFunction = true }
            // `!!x` is `x` read as a condition: a Boolean, as survey-core's property is.
            return negated ? .not(expression.root) : .not(.not(expression.root))
        case .sessionValue(let function):
            callsImpureFunction = true
            return .call(function, [])
        case .unknownElement:
            throw error(
                "unknown reference {\(name)}: no step, page or panel '\(element)' (nor $survey)", at: offset,
                kind: .unknownReference(name))
        case .unknownProperty(let known):
            throw error(
                "{\(name)}: '\(property)' is not a property this engine reads of '\(element)' (it reads "
                    + known.joined(separator: ", ") + ")", at: offset, kind: .unknownReference(name))
        case .tooDeep:
            throw error(
                "{\(name)} reads a condition that reads properties more than \(ElementPropertyValue.maximumDepth) deep (or itself)",
                at: offset, kind: .unknownReference(name))
        }
    }

    // Each nesting construct is parsed in its own function: parsePrimary's frame is on the stack
    // once per level, so it stays small.
    mutating func parsePrimary() throws(ExpressionCompileError) -> ExpressionNode {
        let start = tokenStart
        if operandMayBeMissing {
            operandMayBeMissing = false
            if token == .end || token == .symbol(.closeParen) || token == .symbol(.comma) { return .literal(.null) }
        }
        switch token {
        case .number(let value):
            try advance()
            return .literal(.number(value))
        case .string(let text):
            try advance()
            return .literal(.string(text))
        case .variable(let name):
            try advance()
            // `{"key": 1}`: survey-core reads a name that is the inside of a JSON object as that object.
            if name.hasPrefix("\""), name.contains(":"), case .object(let members)? = try? JSONParser.parse("{\(name)}")
            {
                return .literal(.object(members))
            }
            return try reference(name, at: start)
        case .symbol(.openParen):
            return try parseParenthesized()
        case .symbol(.openBracket):
            return try parseList()
        case .identifier(let word, let keyword):
            switch keyword {
            case .true?:
                try advance()
                return .literal(.bool(true))
            case .false?:
                try advance()
                return .literal(.bool(false))
            case .null?:
                try advance()
                return .literal(.null)
            default:
                return try parseCall(word)
            }
        case .end:
            throw error("unexpected end of expression, expected a value")
        default:
            throw error("unexpected \(describe(token)), expected a value")
        }
    }

    /// `( expression )`, at the `(`.
    mutating func parseParenthesized() throws(ExpressionCompileError) -> ExpressionNode {
        let start = tokenStart
        try enterNesting()
        try advance()
        let node = try parseOr()
        // SurveyJS tolerates a missing `)` at the end of the expression.
        guard token == .symbol(.closeParen) || token == .end else {
            throw error("expected ')' to close '(' at column \(column(ofByte: start))")
        }
        try advance()
        nesting -= 1
        return node
    }

    /// `[a, b, …]`, at the `[`.
    mutating func parseList() throws(ExpressionCompileError) -> ExpressionNode {
        try enterNesting()
        try advance()
        var elements: [ExpressionNode] = []
        if token != .symbol(.closeBracket) {
            while true {
                elements.append(try parseOr())
                if token == .symbol(.comma) {
                    try advance()
                    continue
                }
                guard token == .symbol(.closeBracket) else { throw error("expected ',' or ']' in a list") }
                break
            }
        }
        try advance()
        nesting -= 1
        if elements.allSatisfy({ if case .literal = $0 { return true } else { return false } }) {
            return .literal(
                .array(elements.map { if case .literal(let value) = $0 { return value } else { return .null } }))
        }
        return .array(elements)
    }

    /// `name(arguments…)`, at the name.
    mutating func parseCall(_ word: String) throws(ExpressionCompileError) -> ExpressionNode {
        let start = tokenStart
        try advance()
        // SurveyJS reads a word that calls nothing as a text constant: `{a} = abc` is `{a} = 'abc'`.
        guard token == .symbol(.openParen) else {
            textWords?.append((word, start))
            return .literal(.string(word))
        }
        guard let function = functions.function(named: word) else {
            var message = "unknown function '\(word)()'"
            if let suggestion = closestMatch(to: word, in: functions.names) {
                message += " (did you mean '\(suggestion)'?)"
            }
            throw error(message, at: start, kind: .unknownFunction(word))
        }
        try enterNesting()
        try advance()
        var arguments: [ExpressionNode] = []
        let readsRows = function.origin == "built-in" && Self.inArrayFunctions.contains(function.name)
        var rowFields: [String] = []
        if token != .symbol(.closeParen) {
            while true {
                if readsRows, arguments.count >= 2 {
                    arguments.append(try parseRowCondition(fields: &rowFields))
                } else {
                    arguments.append(try parseOr())
                }
                if token == .symbol(.comma) {
                    try advance()
                    continue
                }
                // A missing `)` at the end of the expression is tolerated, as in SurveyJS.
                guard token == .symbol(.closeParen) || token == .end else {
                    throw error("expected ',' or ')' in the arguments of \(word)()")
                }
                break
            }
        }
        try advance()
        nesting -= 1
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
        if readsRows, arguments.count > 2 {
            return try inArrayCall(function.name, arguments, fields: rowFields)
        }
        if function.name == "displayValue" || function.name == "displayValues", function.origin == "built-in" {
            return try displayValueCall(arguments, at: start, listing: function.name == "displayValues")
        }
        return .call(function, arguments)
    }

    static let inArrayFunctions: Set<String> = ["sumInArray", "countInArray", "avgInArray", "minInArray", "maxInArray"]

    /// An argument of an …InArray function after the field: its `{names}` are fields of a row, given
    /// slots in `fields` (not the survey's names).
    mutating func parseRowCondition(fields: inout [String]) throws(ExpressionCompileError) -> ExpressionNode {
        let saved = (resolve, referencedNames, referencedSlots, otherChoices)
        let box = RowFields(fields)
        resolve = { name in box.slot(of: name) }
        otherChoices = [:]
        defer {
            (resolve, referencedNames, referencedSlots, otherChoices) = saved
            fields = box.names
        }
        return try parseOr()
    }

    /// `sumInArray(rows, 'field', …)` with more arguments: a quoted field name (no braces or comparison
    /// signs) right after the field is the field to return (min and max); then a condition on each row,
    /// written as an expression or as a quoted one (`'{active} = true'`), as SurveyJS reads them.
    mutating func inArrayCall(_ name: String, _ arguments: [ExpressionNode], fields: [String])
        throws(ExpressionCompileError) -> ExpressionNode
    {
        var rest = arguments.dropFirst(2)
        var returnField: String?
        if case .literal(.string(let text))? = rest.first,
            !text.utf8.contains(where: { "{}><=!".utf8.contains($0) })
        {
            returnField = text
            rest = rest.dropFirst()
        }
        var condition: RowCondition?
        if let node = rest.first {
            if case .literal(.string(let text)) = node {
                let box = RowFields([])
                let compiled = try Expression(text, functions: functions) { box.slot(of: $0) }
                condition = RowCondition(root: compiled.root, fields: box.names)
            } else {
                condition = RowCondition(root: node, fields: fields)
            }
        }
        return .call(
            StandardFunctions.inArray(name, condition: condition, returning: returnField), Array(arguments.prefix(2)))
    }

    /// `displayValue('name')` (SurveyJS's): the answer to question `name` as the respondent reads it
    /// (choice labels, yes/no labels, in their language); `displayValue('name', value)` shows `value`
    /// the way that question would. `displayValues` (with `listing`) gives a list answer's labels
    /// as a list, one per entry.
    mutating func displayValueCall(_ arguments: [ExpressionNode], at start: Int, listing: Bool = false)
        throws(ExpressionCompileError) -> ExpressionNode
    {
        let called = listing ? "displayValues" : "displayValue"
        guard case .literal(.string(let name)) = arguments[0] else {
            throw error(
                "\(called)() takes the question's name as a quoted string, such as \(called)('color')", at: start)
        }
        guard let slot = resolve(name) else {
            throw error(
                "\(called)('\(name)'): no question or calculated value is called '\(name)'", at: start,
                kind: .unknownReference(name))
        }
        if !referencedSlots.contains(slot) {
            referencedSlots.append(slot)
            referencedNames.append(name)
        }
        let question = displayQuestion?(slot)
        // It reads the session's locale, as impure functions read its date.
        callsImpureFunction = true
        let display = ExpressionFunction(name: called, arity: 1...1, isPure: false) { arguments, context in
            guard listing else { return DisplayText.of(arguments[0], question: question, context: context) }
            if arguments[0].isNull { return .null }
            return .array(
                (arguments[0].arrayValue ?? [arguments[0]]).map {
                    DisplayText.of($0, question: question, context: context)
                })
        }
        return .call(display, [arguments.count > 1 ? arguments[1] : .variable(slot)])
    }
}

/// How `displayValue()` reads a value.
enum DisplayText {
    static func of(_ value: JSONValue, question: ConfiguredQuestion?, context: FunctionContext) -> JSONValue {
        // No answer reads as null, as in SurveyJS.
        if value.isNull { return .null }
        guard let question else { return .string(value.displayText) }
        let input = question.input(
            in: PresentationContext(locale: context.locale, defaultLocale: context.defaultLocale))
        if case .boolean(let labels) = input, let flag = value.boolValue {
            return .string(flag ? labels.trueLabel : labels.falseLabel)
        }
        guard let choices = input.choiceInput else { return .string(value.displayText) }
        func label(_ element: JSONValue) -> String {
            element.choiceKey.flatMap { key in choices.choices.first { $0.value == key }?.label } ?? element.displayText
        }
        if case .array(let elements) = value { return .string(elements.map(label).joined(separator: ", ")) }
        return .string(label(value))
    }
}

extension String {
    func trimmingWhitespace() -> String {
        if let first = utf8.first, let last = utf8.last, first > 32, first < 128, last > 32, last < 128 { return self }
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}

/// The fields an …InArray condition reads, in slot order.
private final class RowFields {
    var names: [String]

    init(_ names: [String]) {
        self.names = names
    }

    func slot(of name: String) -> Int {
        if let index = names.firstIndex(of: name) { return index }
        names.append(name)
        return names.count - 1
    }
}

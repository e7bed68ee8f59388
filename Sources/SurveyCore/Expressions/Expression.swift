/// A compiled expression: parsed once, with every `{reference}` resolved to a slot.
///
/// The syntax is SurveyJS's: `{q1} = 'yes' and {age} >= 18`, `{colors} contains 'red'`,
/// `{q} anyof ['a', 'b']`, `{q} notempty`, `iif({x} > 1, 'a', 'b')`, `{contact.email}`.
public struct Expression: Sendable {
    /// Everything compiled, behind one reference: copying an expression (out of an array of them, as
    /// the session reads a step's condition) retains one object, and evaluating it reads the tree
    /// from that object's constant fields without copying it.
    fileprivate let code: ExpressionCode

    /// The tree evaluation walks.
    var root: ExpressionNode { code.root }
    /// The expression as written.
    public var source: String { code.source }
    /// The names it references (step ids and calculated values), deduplicated, in order of appearance.
    public var referencedNames: [String] { code.referencedNames }
    /// The slots of ``referencedNames``.
    var slots: [Int] { code.slots }
    /// Whether it calls a function whose result depends on more than its arguments (the date).
    var callsImpureFunction: Bool { code.callsImpureFunction }

    /// The deepest nesting of parentheses, lists, function calls and prefix operators (`not`, `!`,
    /// unary `-`) an expression may have; deeper is a syntax error. Parsing and evaluation recurse
    /// once per level, so the bound keeps hostile input from overflowing the stack. Chains of binary
    /// operators (`1 + 1 + …`, `{a} and {b} and …`) do not nest and have no limit.
    public static let maximumNesting = 256

    /// Parses and compiles `source`.
    /// - Parameters:
    ///   - source: the expression's text.
    ///   - resolve: maps a referenced name to its slot, or `nil` when the name is unknown.
    ///   - functions: the callable functions.
    /// - Throws: ``ExpressionCompileError`` with a 1-based column.
    public init(
        _ source: String, functions: ExpressionFunctionRegistry, resolve: @escaping (String) -> Int?
    ) throws(ExpressionCompileError) {
        try self.init(source, functions: functions, resolve: resolve, otherChoices: [:])
    }

    /// Parses and compiles `source`; references to the slots in `otherChoices` (choice questions with
    /// an Other choice) read `'other'` for an Other answer, and `{name-Comment}` its text.
    init(
        _ source: String, functions: ExpressionFunctionRegistry, resolve: @escaping (String) -> Int?,
        otherChoices: [Int: OtherChoices], context: ExpressionCompileContext? = nil
    ) throws(ExpressionCompileError) {
        var text = source
        // Compiled in place (a `Result` of the parts was copied out of the closure, then destroyed).
        var compiled: ExpressionCode?
        var failure: ExpressionCompileError?
        text.withUTF8 { bytes in
            var parser = ExpressionParser(bytes: bytes, functions: functions, resolve: resolve)
            parser.otherChoices = otherChoices
            parser.context = context
            // Most conditions of a large survey: one name, no arrays.
            if parser.readsSimpleComparisons, let simple = parser.readSimpleComparison() {
                if let slot = Int32(exactly: simple.slot) {
                    compiled = ExpressionCode(simpleComparison: simple.node, source: source, slot: slot)
                } else {
                    compiled = ExpressionCode.make(
                        root: simple.node, source: source, referencedNames: [simple.name], slots: [simple.slot],
                        callsImpureFunction: false)
                }
                return
            }
            parser.readsSimpleComparisons = false  // tried just now
            do throws(ExpressionCompileError) {
                let root = try parser.parse()
                compiled = ExpressionCode.make(
                    root: root, source: source, referencedNames: parser.referencedNames,
                    slots: parser.referencedSlots, callsImpureFunction: parser.callsImpureFunction)
            } catch {
                failure = error
            }
        }
        guard let compiled else {
            throw failure ?? ExpressionCompileError(kind: .syntax, message: "the expression did not parse", column: 1)
        }
        code = compiled
    }

    fileprivate init(code: ExpressionCode) {
        self.code = code
    }

    /// The expression of a host variable: the value the host gave it, else its default. It depends on
    /// the session, not on answers, like the date (so the analysis treats it as unknown).
    init(hostVariable name: String, default value: JSONValue) {
        let function = ExpressionFunction(name: "variable", arity: 0...0, isPure: false) { _, context in
            context.variables[name] ?? value
        }
        code = ExpressionCode.make(
            root: .call(function, []), source: "{\(name)}", referencedNames: [], slots: [], callsImpureFunction: true)
    }

    /// The slots read only through members (`{m.r1}`, `{m.r2.c}`), with the key paths read of each;
    /// a slot also read whole (`{m}`, `{m} notempty`, a function of it) is not among them.
    var memberOnlyReads: [Int: [[String]]] {
        var members: [Int: [[String]]] = [:]
        var whole: Set<Int> = []
        func visit(_ node: ExpressionNode) {
            switch node {
            case .literal: break
            case .variable(let slot), .otherValue(let slot, _), .otherText(let slot, _): whole.insert(slot)
            case .compareSlot(_, let slot, _): whole.insert(Int(slot))
            case .member(.variable(let slot), let keys): members[slot, default: []].append(keys)
            case .member(let base, _): visit(base)
            case .array(let elements): elements.forEach(visit)
            case .not(let operand), .negate(let operand), .isEmpty(let operand, _): visit(operand)
            case .binary(_, let lhs, let rhs):
                visit(lhs)
                visit(rhs)
            case .chain(let first, let rest):
                visit(first)
                for (_, operand) in rest { visit(operand) }
            case .call(_, let arguments): arguments.forEach(visit)
            }
        }
        visit(root)
        for slot in whole { members[slot] = nil }
        return members
    }

    /// Whether it calls a function anywhere.
    var callsFunction: Bool {
        func visit(_ node: ExpressionNode) -> Bool {
            switch node {
            case .literal, .variable, .otherValue, .otherText, .compareSlot: false
            case .call: true
            case .member(let base, _): visit(base)
            case .array(let elements): elements.contains(where: visit)
            case .not(let operand), .negate(let operand), .isEmpty(let operand, _): visit(operand)
            case .binary(_, let lhs, let rhs): visit(lhs) || visit(rhs)
            case .chain(let first, let rest): visit(first) || rest.contains { visit($0.1) }
            }
        }
        return visit(root)
    }

    /// Calls `body` with each of ``slots``, without building the array.
    func forEachSlot(_ body: (Int) -> Void) {
        code.forEachSlot(body)
    }

    /// Evaluates against `values` (indexed by slot).
    public func evaluate(_ values: [JSONValue], context: FunctionContext) -> JSONValue {
        let code = code
        return values.withUnsafeBufferPointer { Evaluator(values: $0, context: context).evaluate(code.root) }
    }

    /// Evaluates as a condition.
    public func isTrue(_ values: [JSONValue], context: FunctionContext) -> Bool {
        let code = code
        return values.withUnsafeBufferPointer { Evaluator(values: $0, context: context).isTrue(code.root) }
    }
}

/// A reference to an ``Expression``'s code that does not keep the code alive (``Unretained``), for
/// a table that also holds the expression itself (which does). Evaluating through it neither retains nor releases the
/// code, where reading an ``Expression`` out of an array does both: sessions on several threads
/// evaluating one survey's conditions would otherwise update the same reference counts, an atomic
/// operation on a cache line the cores take from each other.
struct ExpressionHandle: Sendable {
    private let code: Unretained<ExpressionCode>

    /// A handle on `expression`'s code, valid while `expression` (or a copy of it) is alive.
    init(_ expression: Expression) {
        code = Unretained(expression.code)
    }

    /// The expression (a counted reference again, for code that keeps it).
    var expression: Expression {
        Expression(code: code.object)
    }

    /// ``Expression/isTrue(_:context:)`` of the expression.
    @inline(__always)
    func isTrue(_ values: [JSONValue], context: FunctionContext) -> Bool {
        code.read { code in
            values.withUnsafeBufferPointer { Evaluator(values: $0, context: context).isTrue(code.root) }
        }
    }

    /// Calls `body` with each slot the expression reads.
    func forEachSlot(_ body: (Int) -> Void) {
        code.read { $0.forEachSlot(body) }
    }
}

extension Expression {
    /// The parts of a simple comparison, `{name} op constant` (the operator, the name's slot, the
    /// constant); `nil` for any other expression. ``init(comparison:slot:literal:source:)`` makes the
    /// expression again from them.
    var comparisonParts: (op: BinaryOperator, slot: Int32, literal: JSONValue)? {
        guard code.isSimpleComparison, case .compareSlot(let op, let slot, let literal) = code.root else { return nil }
        return (op, slot, literal)
    }

    /// What ``comparisonParts`` gives for `source` compiled, read straight from its text with no
    /// expression made; `nil` when `source` is not a simple comparison of a known name (compile it
    /// then: that also reports its errors).
    static func comparisonParts(
        of source: String, resolve: (String) -> Int?, otherChoices: [Int: OtherChoices]
    ) -> (op: BinaryOperator, slot: Int32, literal: JSONValue)? {
        var text = source
        return text.withUTF8 { bytes in
            guard
                let simple = ExpressionParser.readSimpleComparison(
                    bytes, resolve: resolve, otherChoices: otherChoices),
                case .compareSlot(let op, let slot, let literal) = simple.node
            else { return nil }
            return (op, slot, literal)
        }
    }

    /// The simple comparison `source`, from the parts ``comparisonParts`` gave.
    init(comparison op: BinaryOperator, slot: Int32, literal: JSONValue, source: String) {
        self.init(code: ExpressionCode(simpleComparison: .compareSlot(op, slot, literal), source: source, slot: slot))
    }
}

extension Evaluator {
    /// A simple comparison of value `slot` of `values` (empty past the end) with `literal`: what
    /// ``isTrue(_:)`` does for ``ExpressionNode/compareSlot(_:_:_:)``.
    ///
    /// Both values are read where they are (`literal` in its step's condition cell), not copied: a copy
    /// of each, and its release, cost more than the comparison itself.
    @inline(__always)
    static func compare(
        _ op: BinaryOperator, slot: Int32, of values: UnsafeBufferPointer<JSONValue>,
        with literal: UnsafePointer<JSONValue>
    ) -> Bool {
        let slot = Int(slot)
        guard slot < values.count else { return compare(op, .null, literal.pointee) }
        return compare(op, values.baseAddress.unsafelyUnwrapped + slot, literal)
    }

    /// ``compare(_:_:_:)`` of two values read in place. The comparisons conditions make most (a choice
    /// list containing a text, a text equal to a text, two numbers) read the payloads without copying
    /// the values; the others take the general path.
    static func compare(_ op: BinaryOperator, _ a: UnsafePointer<JSONValue>, _ b: UnsafePointer<JSONValue>) -> Bool {
        switch op {
        case .contains, .notContains:
            if case .array(let elements) = a.pointee, case .string(let wanted) = b.pointee {
                return ExpressionValue.containsElement(elements, equalToText: wanted) == (op == .contains)
            }
        case .equal, .notEqual:
            if case .string(let x) = a.pointee, case .string(let y) = b.pointee {
                return ExpressionValue.equalTexts(x, y) == (op == .equal)
            }
            if case .number(let x) = a.pointee, case .number(let y) = b.pointee { return (x == y) == (op == .equal) }
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            if case .number(let x) = a.pointee, case .number(let y) = b.pointee {
                let order = x < y ? -1 : (x > y ? 1 : 0)
                switch op {
                case .less: return order < 0
                case .lessOrEqual: return order <= 0
                case .greater: return order > 0
                default: return order >= 0
                }
            }
        default:
            break
        }
        return compare(op, a.pointee, b.pointee)
    }
}

/// The parts of a compiled ``Expression``, immutable, shared between threads.
///
/// Most expressions of a large survey are one comparison of one name with a constant
/// (`{q1} = 'yes'`): this class holds those, with the name's slot, and re-reads the name from the
/// source when analysis asks for it, so that such an expression is one 80-byte allocation. Others
/// are a ``ListedExpressionCode``, which lists the names they read.
private class ExpressionCode: @unchecked Sendable {
    struct Reference: Sendable {
        let name: String
        let slot: Int
    }

    /// The tree evaluation walks: a constant field, which evaluation reads in place.
    final let root: ExpressionNode
    final let source: String
    final let callsImpureFunction: Bool
    /// The slot of the one name a simple comparison reads.
    private final let simpleSlot: Int32

    /// Whether this is a simple comparison's code (``init(simpleComparison:source:slot:)``).
    final var isSimpleComparison: Bool { simpleSlot >= 0 }

    /// A simple comparison, `{name} op constant`, reading `slot`.
    init(simpleComparison root: ExpressionNode, source: String, slot: Int32) {
        self.root = root
        self.source = source
        callsImpureFunction = false
        simpleSlot = slot
    }

    fileprivate init(root: ExpressionNode, source: String, callsImpureFunction: Bool) {
        self.root = root
        self.source = source
        self.callsImpureFunction = callsImpureFunction
        simpleSlot = -1
    }

    /// The code of `root`, which reads `names` (at `slots`).
    static func make(
        root: ExpressionNode, source: String, referencedNames names: [String], slots: [Int], callsImpureFunction: Bool
    ) -> ExpressionCode {
        let count = min(names.count, slots.count)
        return ListedExpressionCode(
            root: root, source: source, references: (0..<count).map { Reference(name: names[$0], slot: slots[$0]) },
            callsImpureFunction: callsImpureFunction)
    }

    var referencedNames: [String] {
        Self.nameOfSimpleComparison(source).map { [$0] } ?? []
    }

    var slots: [Int] { [Int(simpleSlot)] }

    func forEachSlot(_ body: (Int) -> Void) {
        body(Int(simpleSlot))
    }

    /// The name a simple comparison reads, read again by the parser's own simple-comparison reader
    /// (which needs no slots or functions to find it: any name resolves here).
    static func nameOfSimpleComparison(_ source: String) -> String? {
        var text = source
        return text.withUTF8 { bytes in
            ExpressionParser(bytes: bytes, functions: .standard) { _ in 0 }.readSimpleComparison()?.name
        }
    }
}

/// An expression's code with the list of names it reads (every expression but a simple comparison).
private final class ListedExpressionCode: ExpressionCode, @unchecked Sendable {
    let references: [Reference]

    init(root: ExpressionNode, source: String, references: [Reference], callsImpureFunction: Bool) {
        self.references = references
        super.init(root: root, source: source, callsImpureFunction: callsImpureFunction)
    }

    override var referencedNames: [String] { references.map(\.name) }
    override var slots: [Int] { references.map(\.slot) }

    override func forEachSlot(_ body: (Int) -> Void) {
        for reference in references { body(reference.slot) }
    }
}

/// Why an expression does not compile.
public struct ExpressionCompileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of problem.
    public enum Kind: Sendable, Hashable {
        case syntax
        case unknownReference(String)
        case unknownFunction(String)
        case wrongArgumentCount(String)
    }

    public var kind: Kind
    public var message: String
    /// 1-based column in the expression (in characters).
    public var column: Int

    public var description: String { "column \(column): \(message)" }
}

package enum BinaryOperator: Sendable {
    case and, or
    case equal, notEqual, less, lessOrEqual, greater, greaterOrEqual
    case contains, notContains, anyOf, allOf, noneOf
    case add, subtract, multiply, divide, remainder, power
}

/// The choice values of a question with an Other choice, apart from Other itself.
package final class OtherChoices: Sendable {
    package let regular: Set<String>

    init(regular: Set<String>) {
        self.regular = regular
    }

    /// The answer as SurveyJS's expressions see it: an Other text reads `'other'` (in a list too).
    func value(_ answer: JSONValue) -> JSONValue {
        switch answer {
        case .string(let text): return regular.contains(text) ? answer : .string("other")
        case .array(let elements):
            return .array(
                elements.map { element in
                    guard case .string(let text) = element, !regular.contains(text) else { return element }
                    return .string("other")
                })
        default: return answer
        }
    }

    /// `{name-Comment}`: the Other text of the answer, or empty.
    func text(_ answer: JSONValue) -> JSONValue {
        switch answer {
        case .string(let text): return regular.contains(text) ? .null : answer
        case .array(let elements):
            return elements.first { element in element.stringValue.map { !regular.contains($0) } ?? false } ?? .null
        default: return .null
        }
    }
}

/// Only the cases that hold a node (or a large payload) are boxed: leaves, and `{slot} op literal`
/// (most conditions of a large survey), sit inline in their ``Expression``, with no allocation of
/// their own and no pointer to follow when they are evaluated.
enum ExpressionNode: Sendable {
    case literal(JSONValue)
    case variable(Int)
    /// `{name}` of a question with an Other choice: an Other answer reads `'other'`.
    case otherValue(Int, OtherChoices)
    /// `{name-Comment}`: the Other text of the answer to a question with an Other choice.
    case otherText(Int, OtherChoices)
    indirect case member(ExpressionNode, [String])
    case array([ExpressionNode])
    indirect case not(ExpressionNode)
    indirect case negate(ExpressionNode)
    indirect case isEmpty(ExpressionNode, Bool)
    indirect case binary(BinaryOperator, ExpressionNode, ExpressionNode)
    /// `first op₁ x₁ op₂ x₂ …`, two or more operators of one precedence level applied left to right
    /// (`a + b - c`, `a and b and c`): long chains stay one level deep.
    indirect case chain(ExpressionNode, [(BinaryOperator, ExpressionNode)])
    /// `{slot} op literal`, the most common condition, evaluated without recursion. The slot is 32
    /// bits wide so that the case fits in 24 bytes, inline in its expression.
    case compareSlot(BinaryOperator, Int32, JSONValue)
    indirect case call(ExpressionFunction, [ExpressionNode])

    /// Folds `{x} op literal` into ``compareSlot``.
    static func makeBinary(_ op: BinaryOperator, _ lhs: ExpressionNode, _ rhs: ExpressionNode) -> ExpressionNode {
        if case .variable(let slot) = lhs, case .literal(let value) = rhs, op.isComparison,
            let narrow = Int32(exactly: slot)
        {
            return .compareSlot(op, narrow, value)
        }
        return .binary(op, lhs, rhs)
    }

    /// `first` followed by `rest` (empty, or at least two operators of one level).
    static func makeChain(_ first: ExpressionNode, _ rest: [(BinaryOperator, ExpressionNode)]) -> ExpressionNode {
        rest.isEmpty ? first : .chain(first, rest)
    }
}

extension BinaryOperator {
    /// `contains`, `notcontains`, `anyof`, `allof`, `noneof`.
    var isMembership: Bool {
        switch self {
        case .contains, .notContains, .anyOf, .allOf, .noneOf: return true
        default: return false
        }
    }

    var isComparison: Bool {
        switch self {
        case .and, .or, .add, .subtract, .multiply, .divide, .remainder, .power: return false
        default: return true
        }
    }
}

/// Evaluates expression trees against the current values without copying or retaining the
/// value array at every node.
struct Evaluator {
    let values: UnsafeBufferPointer<JSONValue>
    let context: FunctionContext

    @inline(__always)
    func value(_ slot: Int) -> JSONValue {
        slot < values.count ? values[slot] : .null
    }

    func isTrue(_ node: ExpressionNode) -> Bool {
        switch node {
        case .compareSlot(let op, let slot, let literal):
            // The value is read in place (a copy out of the buffer retains and releases its payload).
            let slot = Int(slot)
            guard slot < values.count else { return Self.compare(op, .null, literal) }
            return Self.compare(op, values[slot], literal)
        case .binary(.and, let lhs, let rhs):
            return isTrue(lhs) && isTrue(rhs)
        case .binary(.or, let lhs, let rhs):
            return isTrue(lhs) || isTrue(rhs)
        case .chain(let first, let rest) where rest[0].0 == .and:
            guard isTrue(first) else { return false }
            for (_, operand) in rest where !isTrue(operand) { return false }
            return true
        case .chain(let first, let rest) where rest[0].0 == .or:
            if isTrue(first) { return true }
            for (_, operand) in rest where isTrue(operand) { return true }
            return false
        case .not(let operand):
            return !isTrue(operand)
        case .isEmpty(let operand, let wantsEmpty):
            return evaluate(operand).isEmptyAnswer == wantsEmpty
        default:
            return ExpressionValue.isTruthy(evaluate(node))
        }
    }

    /// `a op b`. Pure, and marked so (see ``ExpressionValue``): callers pass values read in place.
    @_effects(readonly)
    static func compare(_ op: BinaryOperator, _ a: JSONValue, _ b: JSONValue) -> Bool {
        switch op {
        case .equal: return ExpressionValue.equals(a, b)
        case .notEqual: return !ExpressionValue.equals(a, b)
        case .less: return (ExpressionValue.compare(a, b) ?? 0) < 0
        case .lessOrEqual: return ExpressionValue.compare(a, b).map { $0 <= 0 } ?? false
        case .greater: return (ExpressionValue.compare(a, b) ?? 0) > 0
        case .greaterOrEqual: return ExpressionValue.compare(a, b).map { $0 >= 0 } ?? false
        case .contains: return ExpressionValue.contains(a, b)
        case .notContains: return !ExpressionValue.contains(a, b)
        case .anyOf: return ExpressionValue.anyOf(a, b)
        case .allOf: return ExpressionValue.allOf(a, b)
        case .noneOf: return !ExpressionValue.anyOf(a, b)
        case .and, .or, .add, .subtract, .multiply, .divide, .remainder, .power: return false
        }
    }

    func evaluate(_ node: ExpressionNode) -> JSONValue {
        switch node {
        case .literal(let value):
            return value
        case .variable(let slot):
            return value(slot)
        case .otherValue(let slot, let choices):
            return choices.value(value(slot))
        case .otherText(let slot, let choices):
            return choices.text(value(slot))
        case .compareSlot(let op, let slot, let literal):
            return .bool(Self.compare(op, value(Int(slot)), literal))
        case .member(let base, let keys):
            var value = evaluate(base)
            var position = keys.startIndex
            while position < keys.endIndex {
                let key = keys[position]
                position += 1
                switch value {
                case .object(let members):
                    if key == "length", members["length"] == nil { return .number(0) }
                    guard let (member, used) = value.member(keys, at: position - 1) else { return .null }
                    value = member
                    position += used - 1
                case .string(let text) where key == "length":
                    // As in SurveyJS, `{q.length}` is the length of a text or a list (here in characters:
                    // JavaScript counts UTF-16 units, so an emoji counts 2 there).
                    value = .number(Double(text.count))
                case .array(let elements) where key == "length":
                    value = .number(Double(elements.count))
                case .null, .number, .bool:
                    return key == "length" ? .number(0) : .null
                case .array(let elements):
                    // A negative index counts from the end (`{q[-1]}` is the last element), as in SurveyJS.
                    if let index = Int(key).map({ $0 < 0 ? elements.count + $0 : $0 }), index >= 0,
                        index < elements.count
                    {
                        value = elements[index]
                    } else {
                        return .null
                    }
                default: return .null
                }
            }
            return value
        case .array(let elements):
            return .array(elements.map { evaluate($0) })
        case .not, .isEmpty:
            return .bool(isTrue(node))
        case .negate(let operand):
            guard let number = ExpressionValue.number(evaluate(operand)) else { return .null }
            return .number(-number)
        case .binary(let op, let lhs, let rhs):
            switch op {
            case .and, .or:
                return .bool(isTrue(node))
            case .add:
                return ExpressionValue.add(evaluate(lhs), evaluate(rhs))
            case .subtract, .multiply, .divide, .remainder, .power:
                return ExpressionValue.arithmetic(op, evaluate(lhs), evaluate(rhs))
            default:
                return .bool(Self.compare(op, evaluate(lhs), evaluate(rhs)))
            }
        case .chain(let first, let rest):
            if rest[0].0 == .and || rest[0].0 == .or { return .bool(isTrue(node)) }
            var result = evaluate(first)
            for (op, operand) in rest {
                result =
                    op == .add
                    ? ExpressionValue.add(result, evaluate(operand))
                    : ExpressionValue.arithmetic(op, result, evaluate(operand))
            }
            return result
        case .call(let function, let arguments):
            switch function.evaluation {
            case .lazyConditional where arguments.count == 3:  // iif(condition, a, b)
                return evaluate(isTrue(arguments[0]) ? arguments[1] : arguments[2])
            case .equalsInOrder where arguments.count == 2:  // no array of the two values
                return .bool(ExpressionValue.equalsInOrder(evaluate(arguments[0]), evaluate(arguments[1])))
            default:
                break
            }
            let evaluated = arguments.map { evaluate($0) }
            do {
                return try function.call(evaluated, context: context)
            } catch {
                return .null
            }
        }
    }
}

extension JSONValue {
    /// The member of this object that `keys[index...]` names, as survey-core finds it when no key is
    /// exactly `keys[index]`: that key whatever its case, else it joined with the keys after it by
    /// dots, shortest first (a matrix row named "Pay (base, etc.)" is read by
    /// `{grid.Pay (base, etc.).score}`); with how many keys it took. `nil` when none names a member.
    func member(_ keys: [String], at index: Int) -> (value: JSONValue, used: Int)? {
        guard case .object(let members) = self, keys.indices.contains(index) else { return nil }
        var joined = keys[index]
        var used = 1
        while true {
            if let value = members[joined] { return (value, used) }
            let lowered = joined.lowercased()
            if let match = members.first(where: { $0.key.lowercased() == lowered }) { return (match.value, used) }
            guard index + used < keys.count else { return nil }
            joined += "." + keys[index + used]
            used += 1
        }
    }
}

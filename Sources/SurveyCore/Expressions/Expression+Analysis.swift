/// A read-only view of one node of a compiled expression, for the static analysis: its shape (with
/// references already resolved to slots) and evaluation of the node alone with the engine's own
/// evaluator, so that an analysis never re-implements the expression semantics.
package struct ExpressionNodeView: Sendable {
    let node: ExpressionNode

    init(_ node: ExpressionNode) {
        self.node = node
    }

    /// What a node is.
    package enum Shape: Sendable {
        case literal(JSONValue)
        /// `{name}`, resolved to a slot (a step index, or `stepCount + i` for calculated value `i`).
        case variable(Int)
        /// `{name.key…}`: a member or array index of a value.
        case member(ExpressionNodeView, [String])
        /// `[a, b]` with at least one element that is not a literal.
        case array([ExpressionNodeView])
        /// `not x`, `!x`.
        case not(ExpressionNodeView)
        /// `-x`.
        case negate(ExpressionNodeView)
        /// `x empty` (`isEmpty: true`) or `x notempty`.
        case emptiness(ExpressionNodeView, isEmpty: Bool)
        /// A binary operator (comparisons, `and`/`or`, arithmetic).
        case binary(BinaryOperator, ExpressionNodeView, ExpressionNodeView)
        /// A function call.
        case call(ExpressionFunction, [ExpressionNodeView])
    }

    /// The node's shape; the engine's folded `{slot} op literal` appears as a binary operator.
    package var shape: Shape {
        switch node {
        case .literal(let value): return .literal(value)
        case .variable(let slot): return .variable(slot)
        // An Other answer reads 'other': to the analysis, the question's value (its representatives
        // are evaluated through this very node); `{q-Comment}` a member of it.
        case .otherValue(let slot, _): return .variable(slot)
        case .otherText(let slot, _): return .member(ExpressionNodeView(.variable(slot)), ["-Comment"])
        case .member(let base, let keys): return .member(ExpressionNodeView(base), keys)
        case .array(let elements): return .array(elements.map(ExpressionNodeView.init))
        case .not(let operand): return .not(ExpressionNodeView(operand))
        case .negate(let operand): return .negate(ExpressionNodeView(operand))
        case .isEmpty(let operand, let wantsEmpty): return .emptiness(ExpressionNodeView(operand), isEmpty: wantsEmpty)
        case .binary(let op, let lhs, let rhs): return .binary(op, ExpressionNodeView(lhs), ExpressionNodeView(rhs))
        case .compareSlot(let op, let slot, let literal):
            return .binary(op, ExpressionNodeView(.variable(Int(slot))), ExpressionNodeView(.literal(literal)))
        case .call(let function, let arguments): return .call(function, arguments.map(ExpressionNodeView.init))
        case .chain(let first, let rest):
            // A flat chain reads as nested binary operators: `and`/`or` chains as a balanced tree (the
            // same meaning, and shallow however long), others left to right as they evaluate.
            if let op = rest.first?.0, op == .and || op == .or, rest.allSatisfy({ $0.0 == op }) {
                return ExpressionNodeView(Self.balanced(op, [first] + rest.map(\.1))).shape
            }
            var node = first
            for (op, operand) in rest { node = .binary(op, node, operand) }
            return ExpressionNodeView(node).shape
        }
    }

    static func balanced(_ op: BinaryOperator, _ operands: [ExpressionNode]) -> ExpressionNode {
        if operands.count == 1 { return operands[0] }
        let middle = operands.count / 2
        return .binary(op, balanced(op, Array(operands[..<middle])), balanced(op, Array(operands[middle...])))
    }

    /// Evaluates this node as a condition against `values` (indexed by slot), as a session would.
    package func isTrue(_ values: UnsafeBufferPointer<JSONValue>, context: FunctionContext) -> Bool {
        Evaluator(values: values, context: context).isTrue(node)
    }

    /// Evaluates this node against `values` (indexed by slot), as a session would.
    package func evaluate(_ values: UnsafeBufferPointer<JSONValue>, context: FunctionContext) -> JSONValue {
        Evaluator(values: values, context: context).evaluate(node)
    }
}

extension Expression {
    /// The root of the compiled tree.
    package var rootNode: ExpressionNodeView { ExpressionNodeView(root) }

    /// The slots the expression reads directly (calculated values count as their own slot).
    package var referencedSlots: [Int] { slots }

    /// Whether the expression calls a function whose result depends on the date (`today()`, `age()`).
    package var dependsOnDate: Bool { callsImpureFunction }
}

extension Expression {
    /// The words `source` reads as text constants, as SurveyJS does (`abc` in `{a} = abc`, which is
    /// `{a} = 'abc'`), with their 1-based columns; none when it does not parse.
    package static func textConstants(in source: String, functions: ExpressionFunctionRegistry) -> [(
        word: String, column: Int
    )] {
        var text = source
        return text.withUTF8 { bytes in
            var parser = ExpressionParser(bytes: bytes, functions: functions) { _ in 0 }
            parser.readsSimpleComparisons = false
            parser.textWords = []
            guard (try? parser.parse()) != nil else { return [] }
            return (parser.textWords ?? []).map { ($0.word, parser.column(ofByte: $0.offset)) }
        }
    }
}

extension Survey {
    /// The `{name}` references in a user-facing text (piping), as the loader checks them.
    package static func pipedReferences(in text: String) -> [String] {
        PipedText.references(in: text)
    }
}

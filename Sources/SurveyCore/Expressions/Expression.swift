/// A compiled expression: parsed once, with every `{reference}` resolved to a slot.
///
/// The syntax is SurveyJS's: `{q1} = 'yes' and {age} >= 18`, `{colors} contains 'red'`,
/// `{q} anyof ['a', 'b']`, `{q} notempty`, `iif({x} > 1, 'a', 'b')`, `{contact.email}`.
public struct Expression: Sendable {
    /// The expression as written.
    public let source: String
    /// The names it references (step ids and calculated values), deduplicated, in order of appearance.
    public let referencedNames: [String]
    let root: ExpressionNode
    /// The slots of ``referencedNames``.
    let slots: [Int]
    /// Whether it calls a function whose result depends on more than its arguments (the date).
    let callsImpureFunction: Bool

    /// Parses and compiles `source`.
    /// - Parameters:
    ///   - resolve: maps a referenced name to its slot, or `nil` when the name is unknown.
    ///   - functions: the callable functions.
    /// - Throws: ``ExpressionCompileError`` with a 1-based column.
    public init(
        _ source: String, functions: ExpressionFunctionRegistry, resolve: @escaping (String) -> Int?
    ) throws(ExpressionCompileError) {
        var parser = ExpressionParser(source: source, functions: functions, resolve: resolve)
        root = try parser.parse()
        self.source = source
        referencedNames = parser.referencedNames
        slots = parser.referencedSlots
        callsImpureFunction = parser.callsImpureFunction
    }

    /// Evaluates against `values` (indexed by slot).
    public func evaluate(_ values: [JSONValue], context: FunctionContext) -> JSONValue {
        root.evaluate(values, context)
    }

    /// Evaluates as a condition.
    public func isTrue(_ values: [JSONValue], context: FunctionContext) -> Bool {
        ExpressionValue.isTruthy(root.evaluate(values, context))
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
    case add, subtract, multiply, divide, remainder
}

indirect enum ExpressionNode: Sendable {
    case literal(JSONValue)
    case variable(Int)
    case member(ExpressionNode, [String])
    case array([ExpressionNode])
    case not(ExpressionNode)
    case negate(ExpressionNode)
    case isEmpty(ExpressionNode, Bool)
    case binary(BinaryOperator, ExpressionNode, ExpressionNode)
    case call(ExpressionFunction, [ExpressionNode])

    func evaluate(_ values: [JSONValue], _ context: FunctionContext) -> JSONValue {
        switch self {
        case .literal(let value):
            return value
        case .variable(let slot):
            return slot < values.count ? values[slot] : .null
        case .member(let base, let keys):
            var value = base.evaluate(values, context)
            for key in keys {
                switch value {
                case .object(let members): value = members[key] ?? .null
                case .array(let elements):
                    if let index = Int(key), index >= 0, index < elements.count {
                        value = elements[index]
                    } else {
                        return .null
                    }
                default: return .null
                }
            }
            return value
        case .array(let elements):
            return .array(elements.map { $0.evaluate(values, context) })
        case .not(let operand):
            return .bool(!ExpressionValue.isTruthy(operand.evaluate(values, context)))
        case .negate(let operand):
            guard let number = ExpressionValue.number(operand.evaluate(values, context)) else { return .null }
            return .number(-number)
        case .isEmpty(let operand, let wantsEmpty):
            return .bool(operand.evaluate(values, context).isEmptyAnswer == wantsEmpty)
        case .binary(let op, let lhs, let rhs):
            switch op {
            case .and:
                return .bool(
                    ExpressionValue.isTruthy(lhs.evaluate(values, context))
                        && ExpressionValue.isTruthy(rhs.evaluate(values, context)))
            case .or:
                return .bool(
                    ExpressionValue.isTruthy(lhs.evaluate(values, context))
                        || ExpressionValue.isTruthy(rhs.evaluate(values, context)))
            default:
                break
            }
            let a = lhs.evaluate(values, context)
            let b = rhs.evaluate(values, context)
            switch op {
            case .equal: return .bool(ExpressionValue.equals(a, b))
            case .notEqual: return .bool(!ExpressionValue.equals(a, b))
            case .less: return .bool((ExpressionValue.compare(a, b) ?? 0) < 0)
            case .lessOrEqual: return .bool(ExpressionValue.compare(a, b).map { $0 <= 0 } ?? false)
            case .greater: return .bool((ExpressionValue.compare(a, b) ?? 0) > 0)
            case .greaterOrEqual: return .bool(ExpressionValue.compare(a, b).map { $0 >= 0 } ?? false)
            case .contains: return .bool(ExpressionValue.contains(a, b))
            case .notContains: return .bool(!ExpressionValue.contains(a, b))
            case .anyOf: return .bool(ExpressionValue.anyOf(a, b))
            case .allOf: return .bool(ExpressionValue.allOf(a, b))
            case .noneOf: return .bool(!ExpressionValue.anyOf(a, b))
            case .add: return ExpressionValue.add(a, b)
            case .subtract, .multiply, .divide, .remainder: return ExpressionValue.arithmetic(op, a, b)
            case .and, .or: return .null
            }
        case .call(let function, let arguments):
            let evaluated = arguments.map { $0.evaluate(values, context) }
            do {
                return try function.call(evaluated, context: context)
            } catch {
                return .null
            }
        }
    }
}

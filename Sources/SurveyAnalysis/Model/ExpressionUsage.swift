import Foundation
import SurveyCore

/// How an expression uses a value, which decides whether a handful of representative answers stand
/// for every answer (see ``AnswerDomain/covers(_:)``).
package enum ValueUsage: Sendable, Hashable {
    /// `{q} op literal` (or `literal op {q}`, stored with the operator mirrored).
    case comparison(BinaryOperator, JSONValue)
    /// `{q} empty`, `{q} notempty`, `isEmpty({q})`.
    case emptiness
    /// `count({q})`.
    case count
    /// `length({q})`, `len({q})`.
    case length
    /// A member of the value: `{q.field}` used as `usage`.
    indirect case member(String, ValueUsage)
    /// Anything else: arithmetic, other functions, comparisons with other values, truthiness.
    case opaque
}

/// One comparison of a value with a literal, where it is written.
package struct LiteralComparison: Sendable {
    /// The step or calculated slot compared.
    package let slot: Int
    /// `{q.field}`: the member compared, or `nil` for the whole value.
    package let member: String?
    package let op: BinaryOperator
    package let literal: JSONValue
    /// The comparison node (for messages and evaluation).
    package let node: ExpressionNodeView
}

package enum ExpressionUsage {
    /// Every direct use of a slot in `node`, with how it is used.
    package static func usages(in node: ExpressionNodeView) -> [(slot: Int, usage: ValueUsage)] {
        var result: [(Int, ValueUsage)] = []
        collect(node, into: &result)
        return result
    }

    /// Every `{q} op literal` comparison in `node`.
    package static func comparisons(in node: ExpressionNodeView) -> [LiteralComparison] {
        var result: [LiteralComparison] = []
        walk(node) { current in
            if let comparison = literalComparison(current) { result.append(comparison) }
        }
        return result
    }

    /// Calls `body` for `node` and every node below it.
    package static func walk(_ node: ExpressionNodeView, _ body: (ExpressionNodeView) -> Void) {
        var stack = [node]
        while let current = stack.popLast() {
            body(current)
            switch current.shape {
            case .literal, .variable: break
            case .member(let base, _): stack.append(base)
            case .array(let elements): stack.append(contentsOf: elements.reversed())
            case .not(let operand), .negate(let operand), .emptiness(let operand, _): stack.append(operand)
            case .binary(_, let lhs, let rhs): stack.append(contentsOf: [rhs, lhs])
            case .call(_, let arguments): stack.append(contentsOf: arguments.reversed())
            }
        }
    }

    /// `{q} op literal`, `{q.field} op literal` or `literal op {q}` (mirrored), else `nil`.
    package static func literalComparison(_ node: ExpressionNodeView) -> LiteralComparison? {
        guard case .binary(let op, let lhs, let rhs) = node.shape, op.isComparisonOperator else { return nil }
        // `{q.length} > 3` compares the answer's length, not the answer: a `length` use (see `collect`).
        for side in [lhs, rhs] {
            if let (_, member) = reference(side), member == "length" { return nil }
        }
        if let (slot, member) = reference(lhs), let literal = literalValue(rhs) {
            return LiteralComparison(slot: slot, member: member, op: op, literal: literal, node: node)
        }
        if let (slot, member) = reference(rhs), let literal = literalValue(lhs), let mirrored = op.mirrored {
            return LiteralComparison(slot: slot, member: member, op: mirrored, literal: literal, node: node)
        }
        return nil
    }

    /// `{q}` → (slot, nil); `{q.field}` → (slot, field).
    static func reference(_ node: ExpressionNodeView) -> (Int, String?)? {
        switch node.shape {
        case .variable(let slot): return (slot, nil)
        case .member(let base, let keys):
            if keys.count == 1, case .variable(let slot) = base.shape { return (slot, keys[0]) }
            return nil
        default: return nil
        }
    }

    static func literalValue(_ node: ExpressionNodeView) -> JSONValue? {
        if case .literal(let value) = node.shape { return value }
        return nil
    }

    private static func collect(_ node: ExpressionNodeView, into result: inout [(Int, ValueUsage)]) {
        if let comparison = literalComparison(node) {
            let usage = ValueUsage.comparison(comparison.op, comparison.literal)
            result.append((comparison.slot, comparison.member.map { .member($0, usage) } ?? usage))
            return
        }
        switch node.shape {
        case .literal:
            return
        case .variable(let slot):
            result.append((slot, .opaque))
        case .member(let base, let keys):
            if keys.count == 1, keys[0] == "length", case .variable(let slot) = base.shape {
                // `{q.length}`: a text's characters or a list's entries, as `length({q})`.
                result.append((slot, .length))
            } else if keys.count == 1, case .variable(let slot) = base.shape {
                result.append((slot, .member(keys[0], .opaque)))
            } else {
                collect(base, into: &result)
            }
        case .emptiness(let operand, _):
            if let (slot, member) = reference(operand) {
                result.append((slot, member.map { .member($0, .emptiness) } ?? .emptiness))
            } else {
                collect(operand, into: &result)
            }
        case .call(let function, let arguments):
            let name = function.name.lowercased()
            if arguments.count == 1, let (slot, member) = reference(arguments[0]),
                ["isempty", "count", "length", "len"].contains(name)
            {
                let usage: ValueUsage = name == "isempty" ? .emptiness : (name == "count" ? .count : .length)
                result.append((slot, member.map { .member($0, usage) } ?? usage))
                return
            }
            for argument in arguments { collect(argument, into: &result) }
        case .array(let elements):
            for element in elements { collect(element, into: &result) }
        case .not(let operand), .negate(let operand):
            collect(operand, into: &result)
        case .binary(_, let lhs, let rhs):
            collect(lhs, into: &result)
            collect(rhs, into: &result)
        }
    }

    /// The node written back as an expression, with slot names from `model` (`{q} = 'a'`).
    package static func text(of node: ExpressionNodeView, in model: FlowModel) -> String {
        text(of: node, names: model.name(ofSlot:), parenthesize: false)
    }

    static func text(of node: ExpressionNodeView, names: (Int) -> String, parenthesize: Bool) -> String {
        switch node.shape {
        case .literal(let value): return literalText(value)
        case .variable(let slot): return "{\(names(slot))}"
        case .member(let base, let keys):
            if case .variable(let slot) = base.shape {
                if keys == ["-Comment"] { return "{\(names(slot))-Comment}" }
                return "{\(([names(slot)] + keys).joined(separator: "."))}"
            }
            return text(of: base, names: names, parenthesize: true) + "." + keys.joined(separator: ".")
        case .array(let elements):
            return "[" + elements.map { text(of: $0, names: names, parenthesize: false) }.joined(separator: ", ") + "]"
        case .not(let operand): return "not " + text(of: operand, names: names, parenthesize: true)
        case .negate(let operand): return "-" + text(of: operand, names: names, parenthesize: true)
        case .emptiness(let operand, let isEmpty):
            return text(of: operand, names: names, parenthesize: true) + (isEmpty ? " empty" : " notempty")
        case .binary(let op, let lhs, let rhs):
            let body =
                text(of: lhs, names: names, parenthesize: true) + " \(op.symbol) "
                + text(of: rhs, names: names, parenthesize: true)
            return parenthesize ? "(" + body + ")" : body
        case .call(let function, let arguments):
            return function.name + "("
                + arguments.map { text(of: $0, names: names, parenthesize: false) }.joined(separator: ", ") + ")"
        }
    }

    /// A literal as it would be written in an expression.
    package static func literalText(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): return "'" + text.replacingOccurrences(of: "'", with: "\\'") + "'"
        case .number(let number): return JSONValue.format(number: number)
        case .bool(let flag): return flag ? "true" : "false"
        case .null: return "null"
        case .array(let elements): return "[" + elements.map(literalText).joined(separator: ", ") + "]"
        case .object: return value.description
        }
    }
}

extension BinaryOperator {
    /// Whether this is a comparison (`=`, `<`, `contains`, `anyof`, …) rather than logic or arithmetic.
    package var isComparisonOperator: Bool {
        switch self {
        case .and, .or, .add, .subtract, .multiply, .divide, .remainder, .power: return false
        default: return true
        }
    }

    /// Whether the comparison tests equality with the literal (or membership of it).
    package var isEqualityLike: Bool {
        switch self {
        case .equal, .notEqual, .anyOf, .allOf, .noneOf: return true
        default: return false
        }
    }

    /// Whether the comparison orders values.
    package var isOrdering: Bool {
        switch self {
        case .less, .lessOrEqual, .greater, .greaterOrEqual: return true
        default: return false
        }
    }

    /// `a op b` as `b op' a`, for comparisons that have a mirror image.
    var mirrored: BinaryOperator? {
        switch self {
        case .equal, .notEqual: return self
        case .less: return .greater
        case .lessOrEqual: return .greaterOrEqual
        case .greater: return .less
        case .greaterOrEqual: return .lessOrEqual
        default: return nil
        }
    }

    /// The operator as written in expressions.
    package var symbol: String {
        switch self {
        case .and: return "and"
        case .or: return "or"
        case .equal: return "="
        case .notEqual: return "<>"
        case .less: return "<"
        case .lessOrEqual: return "<="
        case .greater: return ">"
        case .greaterOrEqual: return ">="
        case .contains: return "contains"
        case .notContains: return "notcontains"
        case .anyOf: return "anyof"
        case .allOf: return "allof"
        case .noneOf: return "noneof"
        case .add: return "+"
        case .subtract: return "-"
        case .multiply: return "*"
        case .divide: return "/"
        case .remainder: return "%"
        case .power: return "^"
        }
    }
}

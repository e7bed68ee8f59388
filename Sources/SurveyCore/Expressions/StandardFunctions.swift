import Foundation

enum StandardFunctions {
    static func numbers(_ arguments: [JSONValue]) -> [Double] {
        var result: [Double] = []
        for argument in arguments {
            switch argument {
            case .array(let elements): result.append(contentsOf: numbers(elements))
            default: if let number = ExpressionValue.number(argument) { result.append(number) }
            }
        }
        return result
    }

    static let all: [ExpressionFunction] = [
        ExpressionFunction(name: "iif", arity: 3...3) { arguments, _ in
            ExpressionValue.isTruthy(arguments[0]) ? arguments[1] : arguments[2]
        },
        ExpressionFunction(name: "isEmpty", arity: 1...1) { arguments, _ in .bool(arguments[0].isEmptyAnswer) },
        ExpressionFunction(name: "age", arity: 1...1, isPure: false) { arguments, context in
            guard let text = arguments[0].stringValue, let birth = CivilDate(text), let today = CivilDate(context.today)
            else { return .null }
            return .number(Double(birth.years(until: today)))
        },
        ExpressionFunction(name: "today", arity: 0...0, isPure: false) { _, context in .string(context.today) },
        ExpressionFunction(name: "count", arity: 1...1) { arguments, _ in
            switch arguments[0] {
            case .array(let elements): return .number(Double(elements.filter { !$0.isEmptyAnswer }.count))
            case .object(let members): return .number(Double(members.values.filter { !$0.isEmptyAnswer }.count))
            case .null: return .number(0)
            default: return .number(arguments[0].isEmptyAnswer ? 0 : 1)
            }
        },
        ExpressionFunction(name: "sum", arity: 0...Int.max) { arguments, _ in
            .number(numbers(arguments).reduce(0, +))
        },
        ExpressionFunction(name: "min", arity: 0...Int.max) { arguments, _ in
            numbers(arguments).min().map(JSONValue.number) ?? .null
        },
        ExpressionFunction(name: "max", arity: 0...Int.max) { arguments, _ in
            numbers(arguments).max().map(JSONValue.number) ?? .null
        },
        ExpressionFunction(name: "avg", arity: 0...Int.max) { arguments, _ in
            let values = numbers(arguments)
            return values.isEmpty ? .number(0) : .number(values.reduce(0, +) / Double(values.count))
        },
        ExpressionFunction(name: "round", arity: 1...2) { arguments, _ in
            guard let value = ExpressionValue.number(arguments[0]) else { return .null }
            // The digits may come from an answer: clamp to 0…15 before making it whole (NaN counts as 0).
            let requested = arguments.count > 1 ? ExpressionValue.number(arguments[1]) ?? 0 : 0
            let digits = requested.isNaN ? 0 : max(0, min(requested, 15)).rounded(.towardZero)
            let scale = pow(10.0, digits)
            let scaled = value * scale
            // Too large to have a fractional part at this scale: already rounded.
            guard scaled.isFinite else { return .number(value) }
            return .number(scaled.rounded(.toNearestOrAwayFromZero) / scale)
        },
        ExpressionFunction(name: "length", arity: 1...1) { arguments, _ in length(arguments[0]) },
        ExpressionFunction(name: "len", arity: 1...1) { arguments, _ in length(arguments[0]) },
        ExpressionFunction(name: "contains", arity: 2...2) { arguments, _ in
            .bool(ExpressionValue.contains(arguments[0], arguments[1]))
        },
        ExpressionFunction(name: "abs", arity: 1...1) { arguments, _ in
            ExpressionValue.number(arguments[0]).map { .number(Swift.abs($0)) } ?? .null
        },
        ExpressionFunction(name: "floor", arity: 1...1) { arguments, _ in
            ExpressionValue.number(arguments[0]).map { .number($0.rounded(.down)) } ?? .null
        },
        ExpressionFunction(name: "ceil", arity: 1...1) { arguments, _ in
            ExpressionValue.number(arguments[0]).map { .number($0.rounded(.up)) } ?? .null
        },
        ExpressionFunction(name: "concat", arity: 0...Int.max) { arguments, _ in
            .string(arguments.map(\.displayText).joined())
        },
        ExpressionFunction(name: "lower", arity: 1...1) { arguments, _ in .string(arguments[0].displayText.lowercased())
        },
        ExpressionFunction(name: "upper", arity: 1...1) { arguments, _ in .string(arguments[0].displayText.uppercased())
        },
    ]

    static func length(_ value: JSONValue) -> JSONValue {
        switch value {
        case .string(let text): return .number(Double(text.count))
        case .array(let elements): return .number(Double(elements.count))
        case .object(let members): return .number(Double(members.count))
        case .null: return .number(0)
        default: return .number(Double(value.displayText.count))
        }
    }
}

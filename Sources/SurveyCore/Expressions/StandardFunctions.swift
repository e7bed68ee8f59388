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

    /// A date argument: `YYYY-MM-DD` or an ISO timestamp's date; `nil` otherwise.
    static func date(_ value: JSONValue) -> CivilDate? {
        value.stringValue.flatMap { CivilDate($0) }
    }

    /// The whole number of an argument (toward zero), or `nil`.
    static func whole(_ value: JSONValue) -> Int? {
        guard let number = ExpressionValue.number(value), number.isFinite, abs(number) < 1e9 else { return nil }
        return Int(number.rounded(.towardZero))
    }

    /// What the `…InArray` functions report of one field over an array of objects (a matrix's rows,
    /// a repeat's instances), gathered in one pass without allocating.
    struct Column {
        /// Rows where the field is not empty.
        var count = 0
        /// Of those, the rows whose field is a number (or a decimal string), and their sum, min and max.
        var numbers = 0
        var sum = 0.0
        var minimum = Double.infinity
        var maximum = -Double.infinity

        mutating func add(_ number: Double) {
            numbers += 1
            sum += number
            if number < minimum { minimum = number }
            if number > maximum { maximum = number }
        }
    }

    /// The ``Column`` of `field` (the second argument) over the first argument's rows.
    static func column(_ arguments: [JSONValue]) -> Column {
        var result = Column()
        guard case .array(let rows) = arguments[0], case .string(let field) = arguments[1] else { return result }
        for row in rows {
            guard case .object(let members) = row, let value = members[field] else { continue }
            switch value {
            case .number(let number):
                result.count += 1
                result.add(number)
            case .null: continue
            case .bool:
                result.count += 1
            default:
                guard !value.isEmptyAnswer else { continue }
                result.count += 1
                if let number = ExpressionValue.number(value) { result.add(number) }
            }
        }
        return result
    }

    /// `name(d)`: a part of date `d` (of today without an argument), empty when `d` is no date.
    static func datePart(_ name: String, _ part: @escaping @Sendable (CivilDate) -> Int) -> ExpressionFunction {
        ExpressionFunction(name: name, arity: 0...1, isPure: false) { arguments, context in
            (arguments.isEmpty ? CivilDate(context.today) : date(arguments[0])).map { .number(Double(part($0))) }
                ?? .null
        }
    }

    static var iif: ExpressionFunction {
        var function = ExpressionFunction(name: "iif", arity: 3...3) { arguments, _ in
            ExpressionValue.isTruthy(arguments[0]) ? arguments[1] : arguments[2]
        }
        function.isLazyConditional = true
        return function
    }

    static let all: [ExpressionFunction] = [
        iif,
        ExpressionFunction(name: "isEmpty", arity: 1...1) { arguments, _ in .bool(arguments[0].isEmptyAnswer) },
        ExpressionFunction(name: "age", arity: 1...1, isPure: false) { arguments, context in
            guard let text = arguments[0].stringValue, let birth = CivilDate(text), let today = CivilDate(context.today)
            else { return .null }
            return .number(Double(birth.years(until: today)))
        },
        // today(), or today(n): n days from today.
        ExpressionFunction(name: "today", arity: 0...1, isPure: false) { arguments, context in
            guard let offset = arguments.first else { return .string(context.today) }
            guard let days = whole(offset), let today = CivilDate(context.today) else { return .null }
            return .string(today.adding(days, unit: .days).description)
        },
        ExpressionFunction(name: "currentYear", arity: 0...0, isPure: false) { _, context in
            CivilDate(context.today).map { .number(Double($0.year)) } ?? .null
        },
        // year(d), month(d), day(d), weekday(d) (0 = Sunday); of today without an argument.
        datePart("year") { $0.year }, datePart("getYear") { $0.year }, datePart("month") { $0.month },
        datePart("day") { $0.day }, datePart("weekday") { $0.weekday },
        // displayValue('q'[, value]): compiled specially (the parser gives it the question's labels);
        // this is what it does with a value and no question.
        ExpressionFunction(name: "displayValue", arity: 1...2) { arguments, _ in
            guard let value = arguments.last, !value.isNull else { return .null }
            return .string(value.displayText)
        },
        // displayValues('q'[, value]): the same, one label per entry of a list answer.
        ExpressionFunction(name: "displayValues", arity: 1...2) { arguments, _ in
            guard let value = arguments.last, !value.isNull else { return .null }
            return .array((value.arrayValue ?? [value]).map { .string($0.displayText) })
        },
        ExpressionFunction(name: "getDate", arity: 1...1) { arguments, _ in
            date(arguments[0]).map { .string($0.description) } ?? .null
        },
        // The days between two dates, whichever comes first.
        ExpressionFunction(name: "diffDays", arity: 2...2) { arguments, _ in
            guard let a = date(arguments[0]), let b = date(arguments[1]) else { return .null }
            return .number(Double(abs(b.daysSinceEpoch - a.daysSinceEpoch)))
        },
        // dateDiff(a, b, unit): whole days (default), months, years, hours, minutes or seconds between.
        ExpressionFunction(name: "dateDiff", arity: 2...3) { arguments, _ in
            guard let a = date(arguments[0]), let b = date(arguments[1]) else { return .null }
            let (from, to) = a < b ? (a, b) : (b, a)
            let days = Double(to.daysSinceEpoch - from.daysSinceEpoch)
            let months = (to.year - from.year) * 12 + (to.month - from.month) - (to.day < from.day ? 1 : 0)
            switch (arguments.count > 2 ? arguments[2].stringValue ?? "" : "days").lowercased() {
            case "days", "day": return .number(days)
            case "months", "month": return .number(Double(months))
            case "years", "year": return .number(Double(months / 12))
            case "hours", "hour": return .number(days * 24)
            case "minutes", "minute": return .number(days * 1440)
            case "seconds", "second": return .number(days * 86400)
            default: return .null
            }
        },
        // dateAdd(d, n, unit): n days (default), months or years after d.
        ExpressionFunction(name: "dateAdd", arity: 2...3) { arguments, _ in
            guard let start = date(arguments[0]), let amount = whole(arguments[1]) else { return .null }
            let unit: CivilDate.Unit
            switch (arguments.count > 2 ? arguments[2].stringValue ?? "" : "days").lowercased() {
            case "days", "day": unit = .days
            case "months", "month": unit = .months
            case "years", "year": unit = .years
            default: return .null
            }
            return .string(start.adding(amount, unit: unit).description)
        },
        ExpressionFunction(name: "sumInArray", arity: 2...2) { arguments, _ in
            .number(column(arguments).sum)
        },
        ExpressionFunction(name: "countInArray", arity: 2...2) { arguments, _ in
            .number(Double(column(arguments).count))
        },
        ExpressionFunction(name: "avgInArray", arity: 2...2) { arguments, _ in
            let column = column(arguments)
            return .number(column.numbers == 0 ? 0 : column.sum / Double(column.numbers))
        },
        ExpressionFunction(name: "minInArray", arity: 2...2) { arguments, _ in
            let column = column(arguments)
            return column.numbers == 0 ? .null : .number(column.minimum)
        },
        ExpressionFunction(name: "maxInArray", arity: 2...2) { arguments, _ in
            let column = column(arguments)
            return column.numbers == 0 ? .null : .number(column.maximum)
        },
        // substring(text, start, end): characters start..<end (JavaScript's substring: clamped, swapped).
        ExpressionFunction(name: "substring", arity: 2...3) { arguments, _ in
            guard !arguments[0].isNull, let first = whole(arguments[1]) else { return .null }
            let characters = Array(arguments[0].displayText)
            let last = arguments.count > 2 ? whole(arguments[2]) ?? characters.count : characters.count
            let (low, high) = (min(first, last), max(first, last))
            let start = max(0, min(low, characters.count))
            let end = max(0, min(high, characters.count))
            return .string(String(characters[start..<end]))
        },
        ExpressionFunction(name: "trunc", arity: 1...2) { arguments, _ in
            guard let value = ExpressionValue.number(arguments[0]) else { return .null }
            let requested = arguments.count > 1 ? ExpressionValue.number(arguments[1]) ?? 0 : 0
            let digits = requested.isNaN ? 0 : Int(max(-15, min(requested, 15)).rounded(.towardZero))
            return .number(ExpressionValue.roundDecimal(value, digits: digits, rule: .towardZero))
        },
        // SurveyJS: every argument counts, an array by its elements; empty values do not count.
        ExpressionFunction(name: "count", arity: 1...Int.max) { arguments, _ in
            var total = 0
            for argument in arguments {
                switch argument {
                case .array(let elements): total += elements.filter { !$0.isEmptyAnswer }.count
                case .object(let members): total += members.values.filter { !$0.isEmptyAnswer }.count
                default: total += argument.isEmptyAnswer ? 0 : 1
                }
            }
            return .number(Double(total))
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
            // The digits may come from an answer: clamp to -15…15 before making it whole (NaN counts as 0).
            let requested = arguments.count > 1 ? ExpressionValue.number(arguments[1]) ?? 0 : 0
            let digits = requested.isNaN ? 0 : Int(max(-15, min(requested, 15)).rounded(.towardZero))
            return .number(ExpressionValue.roundDecimal(value, digits: digits))
        },
        ExpressionFunction(name: "length", arity: 1...1) { arguments, _ in length(arguments[0]) },
        ExpressionFunction(name: "len", arity: 1...1) { arguments, _ in length(arguments[0]) },
        ExpressionFunction(name: "contains", arity: 2...2) { arguments, _ in
            .bool(ExpressionValue.contains(arguments[0], arguments[1]))
        },
        // Ours: the comparisons SurveyJS has no operator for, letter case and spaces included.
        ExpressionFunction(name: "strictEquals", arity: 2...2) { arguments, _ in .bool(arguments[0] == arguments[1]) },
        ExpressionFunction(name: "strictContains", arity: 2...2) { arguments, _ in
            guard let text = arguments[0].stringValue, let part = arguments[1].stringValue, !part.isEmpty else {
                return .bool(false)
            }
            return .bool(text.contains(part))
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

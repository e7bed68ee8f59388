import Foundation

enum StandardFunctions {
    /// `=` on a ranking's answer (``ExpressionParser/makeComparison(_:_:_:)``): lists equal in order.
    static let equalsInOrder: ExpressionFunction = {
        var function = ExpressionFunction(name: "equalsInOrder", arity: 2...2) { arguments, _ in
            .bool(ExpressionValue.equalsInOrder(arguments[0], arguments[1]))
        }
        function.evaluation = .equalsInOrder
        return function
    }()

    /// `a ^ b` (Foundation's `pow`, kept out of ExpressionValue.swift: importing Foundation there
    /// would make its `String.contains` Foundation's, which finds `"\r"` inside `"\r\n"`).
    static func power(_ a: Double, _ b: Double) -> Double {
        pow(a, b)
    }

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

    /// A date or date-time argument as seconds since 1970-01-01 00:00 (no time zone): `YYYY-MM-DD`,
    /// optionally followed by `THH:MM` or `THH:MM:SS` (a space for the `T`, and anything after the
    /// seconds, are accepted too); `nil` otherwise.
    static func moment(_ value: JSONValue) -> Int? {
        guard let text = value.stringValue, let day = CivilDate(text) else { return nil }
        var seconds = day.daysSinceEpoch * 86_400
        let bytes = Array(text.utf8)
        guard bytes.count >= 16, bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: " ") else {
            return seconds
        }
        func field(_ at: Int) -> Int? {
            guard at + 1 < bytes.count, ExpressionParser.isDigit(bytes[at]), ExpressionParser.isDigit(bytes[at + 1])
            else { return nil }
            return Int(bytes[at] - 48) * 10 + Int(bytes[at + 1] - 48)
        }
        guard let hours = field(11), bytes[13] == UInt8(ascii: ":"), let minutes = field(14) else { return seconds }
        seconds += hours * 3600 + minutes * 60
        if bytes.count >= 19, bytes[16] == UInt8(ascii: ":"), let extra = field(17) { seconds += extra }
        return seconds
    }

    /// A moment as expressions show it: `YYYY-MM-DD` at midnight, else `YYYY-MM-DDTHH:MM:SS`.
    static func text(ofMoment seconds: Int) -> JSONValue {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let time = seconds - days * 86_400
        let date = CivilDate(daysSinceEpoch: days).description
        guard time != 0 else { return .string(date) }
        func pad(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return .string("\(date)T\(pad(time / 3600)):\(pad(time / 60 % 60)):\(pad(time % 60))")
    }

    /// Months from `a` to `b` as SurveyJS counts them (negative when `b` is earlier, one less when
    /// `b`'s day of the month is before `a`'s).
    static func months(from a: CivilDate, to b: CivilDate) -> Int {
        (b.year - a.year) * 12 + (b.month - a.month) - (b.day < a.day ? 1 : 0)
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
            sum = ExpressionValue.sum(sum, number)
            if number < minimum { minimum = number }
            if number > maximum { maximum = number }
        }
    }

    /// The ``Column`` of `field` (the second argument) over the first argument's rows: a list of
    /// objects, or an object of objects keyed by row name (a matrix's value); with `condition`, only the
    /// rows it holds for.
    static func column(
        _ arguments: [JSONValue], condition: RowCondition? = nil, context: FunctionContext? = nil
    ) -> Column {
        var result = Column()
        guard arguments.count >= 2, case .string(let field) = arguments[1] else { return result }
        let rows: [JSONValue]
        switch arguments[0] {
        case .array(let list): rows = list
        case .object(let members): rows = Array(members.values)
        default: return result
        }
        for row in rows {
            guard case .object(let members) = row, let value = members[field] else { continue }
            if let condition, let context, !value.isEmptyAnswer, !condition.holds(for: members, context: context) {
                continue
            }
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

    /// `iif(condition, a, b)`; as in SurveyJS, with fewer than two arguments it is empty, and with two
    /// it is empty when the condition does not hold.
    static var iif: ExpressionFunction {
        var function = ExpressionFunction(name: "iif", arity: 0...3) { arguments, _ in
            guard arguments.count >= 2 else { return .null }
            return ExpressionValue.isTruthy(arguments[0]) ? arguments[1] : (arguments.count > 2 ? arguments[2] : .null)
        }
        function.evaluation = .lazyConditional
        return function
    }

    static let all: [ExpressionFunction] = [
        iif,
        ExpressionFunction(name: "isEmpty", arity: 1...1) { arguments, _ in .bool(arguments[0].isEmptyAnswer) },
        // age(date), age(date, unit): whole years (or months, days) from date to today.
        ExpressionFunction(name: "age", arity: 0...2, isPure: false) { arguments, context in
            guard let first = arguments.first, let birth = date(first), let today = CivilDate(context.today)
            else { return .null }
            let months = months(from: birth, to: today)
            switch (arguments.count > 1 ? arguments[1].stringValue ?? "" : "").lowercased() {
            case "months", "month": return .number(Double(months))
            case "days", "day": return .number(Double(today.daysSinceEpoch - birth.daysSinceEpoch))
            default: return .number(Double(months / 12))
            }
        },
        // currentDate(): the session's date (its time of day is not kept: midnight).
        ExpressionFunction(name: "currentDate", arity: 0...0, isPure: false) { _, context in .string(context.today) },
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
        datePart("year") { $0.year }, datePart("month") { $0.month },
        // getYear(d): the year of d; unlike year(), empty without a date.
        ExpressionFunction(name: "getYear", arity: 0...1) { arguments, _ in
            (arguments.first.flatMap(date)).map { .number(Double($0.year)) } ?? .null
        },
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
        // getDate(x): x as a date (or date-time); empty without one.
        ExpressionFunction(name: "getDate", arity: 0...1) { arguments, _ in
            (arguments.first.flatMap(moment)).map(text(ofMoment:)) ?? .null
        },
        // The days between two dates, whichever comes first (0 when one is missing, as in SurveyJS).
        ExpressionFunction(name: "diffDays", arity: 2...2) { arguments, _ in
            guard let a = date(arguments[0]), let b = date(arguments[1]) else { return .number(0) }
            return .number(Double(abs(b.daysSinceEpoch - a.daysSinceEpoch)))
        },
        // dateDiff(a, b, unit): whole days (default), months, years, hours, minutes or seconds between.
        // Days and hours, minutes, seconds (rounded up, of the date-times) are counted whichever date
        // comes first; months and years from the first argument to the second, as SurveyJS does
        // (negative when the second is earlier).
        ExpressionFunction(name: "dateDiff", arity: 2...3) { arguments, _ in
            guard let a = date(arguments[0]), let b = date(arguments[1]),
                let start = moment(arguments[0]), let end = moment(arguments[1])
            else { return .null }
            let seconds = Double(abs(end - start))
            switch (arguments.count > 2 ? arguments[2].stringValue ?? "" : "days").lowercased() {
            case "days", "day", "": return .number(Double(abs(b.daysSinceEpoch - a.daysSinceEpoch)))
            case "months", "month": return .number(Double(months(from: a, to: b)))
            case "hours", "hour": return .number((seconds / 3600).rounded(.up))
            case "minutes", "minute": return .number((seconds / 60).rounded(.up))
            case "seconds", "second": return .number(seconds)
            default: return .number(Double(months(from: a, to: b) / 12))
            }
        },
        // dateAdd(d, n, unit): n days (default), months or years after d.
        // A date-time keeps its time of day; hours, minutes and seconds move it.
        ExpressionFunction(name: "dateAdd", arity: 2...3) { arguments, _ in
            guard let start = date(arguments[0]), let instant = moment(arguments[0]), let amount = whole(arguments[1])
            else { return .null }
            let time = instant - start.daysSinceEpoch * 86_400
            let unit: CivilDate.Unit
            switch (arguments.count > 2 ? arguments[2].stringValue ?? "" : "days").lowercased() {
            case "days", "day": unit = .days
            case "months", "month": unit = .months
            case "years", "year": unit = .years
            case "hours", "hour": return text(ofMoment: instant + amount * 3600)
            case "minutes", "minute": return text(ofMoment: instant + amount * 60)
            case "seconds", "second": return text(ofMoment: instant + amount)
            default: return .null
            }
            return text(ofMoment: start.adding(amount, unit: unit).daysSinceEpoch * 86_400 + time)
        },
        // The …InArray functions: (rows, 'field'), then optionally (min and max) a field to return
        // from the row found, and a condition on each row; the parser compiles those (inArray(_:)).
        inArray("sumInArray", condition: nil, returning: nil),
        inArray("countInArray", condition: nil, returning: nil),
        inArray("avgInArray", condition: nil, returning: nil),
        inArray("minInArray", condition: nil, returning: nil),
        inArray("maxInArray", condition: nil, returning: nil),
        // substring(text, start, end): characters start..<end (JavaScript's substring: clamped, swapped).
        // Empty text for anything but a text and a start, as in SurveyJS.
        ExpressionFunction(name: "substring", arity: 1...3) { arguments, _ in
            guard case .string(let text) = arguments[0], arguments.count > 1, let first = whole(arguments[1]) else {
                return .string("")
            }
            let characters = Array(text)
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
        // Sums are rounded to the decimals their terms have, step by step (0.3 + 0.6 is 0.9).
        ExpressionFunction(name: "sum", arity: 0...Int.max) { arguments, _ in
            .number(numbers(arguments).reduce(0, ExpressionValue.sum))
        },
        ExpressionFunction(name: "min", arity: 0...Int.max) { arguments, _ in
            numbers(arguments).min().map(JSONValue.number) ?? .null
        },
        ExpressionFunction(name: "max", arity: 0...Int.max) { arguments, _ in
            numbers(arguments).max().map(JSONValue.number) ?? .null
        },
        ExpressionFunction(name: "avg", arity: 0...Int.max) { arguments, _ in
            let values = numbers(arguments)
            return values.isEmpty ? .number(0) : .number(values.reduce(0, ExpressionValue.sum) / Double(values.count))
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

    /// The …InArray function `name`, with a row condition and a field to return (min and max) when
    /// the expression gave them. Without them, the arguments past the field are read as SurveyJS
    /// reads them at run time: nothing (the parser compiles what it can see).
    static func inArray(_ name: String, condition: RowCondition?, returning returnField: String?) -> ExpressionFunction
    {
        ExpressionFunction(name: name, arity: 1...4) { arguments, context in
            let column = column(arguments, condition: condition, context: context)
            switch name {
            case "sumInArray": return .number(column.sum)
            case "countInArray": return .number(Double(column.count))
            case "avgInArray": return .number(column.count == 0 ? 0 : column.sum / Double(column.count))
            default:
                guard column.numbers > 0 else { return .null }
                let best = name == "minInArray" ? column.minimum : column.maximum
                guard let returnField, arguments.count >= 2, case .string(let field) = arguments[1],
                    returnField != field
                else { return .number(best) }
                // The other field of the first row that has the best value.
                let rows = arguments[0].arrayValue ?? arguments[0].objectValue.map { Array($0.values) } ?? []
                for case .object(let members) in rows {
                    guard let value = members[field], ExpressionValue.number(value) == best else { continue }
                    if let condition, !condition.holds(for: members, context: context) { continue }
                    return members[returnField] ?? .null
                }
                return .null
            }
        }
    }
}

/// A condition of an …InArray function, evaluated on each row: its `{names}` are the row's fields.
struct RowCondition: Sendable {
    let root: ExpressionNode
    /// The fields the condition reads, by slot.
    let fields: [String]

    func holds(for row: [String: JSONValue], context: FunctionContext) -> Bool {
        let values = fields.map { row[$0] ?? .null }
        return values.withUnsafeBufferPointer { Evaluator(values: $0, context: context).isTrue(root) }
    }
}

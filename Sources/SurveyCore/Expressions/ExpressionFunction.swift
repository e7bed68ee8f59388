import Foundation

/// A function callable from expressions, such as `iif()`, `age()` or a plugin's `bmi()`.
///
/// ```swift
/// var functions = ExpressionFunctionRegistry.standard
/// try functions.register(ExpressionFunction(name: "double", arity: 1...1) { arguments, _ in
///     .number((arguments[0].numberValue ?? 0) * 2)
/// })
/// ```
public struct ExpressionFunction: Sendable {
    /// The signature of an implementation: evaluated arguments in, a value out.
    public typealias Implementation =
        @Sendable ([JSONValue], FunctionContext) throws(ExpressionError) -> JSONValue

    /// The name used in expressions (matched case-insensitively).
    public let name: String
    /// How many arguments it takes; `upperBound == Int.max` for variadic functions.
    public let arity: ClosedRange<Int>
    /// Who provides it ("built-in" or a plugin's path).
    public let origin: String
    /// Whether the result depends only on the arguments (not on the date).
    public let isPure: Bool
    let implementation: Implementation
    /// Built-ins the evaluator runs itself, without an array of arguments.
    enum Evaluation: Sendable {
        case call
        /// `iif`: only the branch the condition picks is evaluated.
        case lazyConditional
        /// `=` on a ranking's answer (``StandardFunctions/equalsInOrder``).
        case equalsInOrder
    }
    var evaluation = Evaluation.call

    public init(
        name: String, arity: ClosedRange<Int>, origin: String = "built-in", isPure: Bool = true,
        implementation: @escaping Implementation
    ) {
        self.name = name
        self.arity = arity
        self.origin = origin
        self.isPure = isPure
        self.implementation = implementation
    }

    /// Calls the function.
    public func call(_ arguments: [JSONValue], context: FunctionContext) throws(ExpressionError) -> JSONValue {
        try implementation(arguments, context)
    }
}

/// What a function may know besides its arguments.
public struct FunctionContext: Sendable {
    /// Today's date as `YYYY-MM-DD` (fixed per session so runs replay identically).
    public var today: String
    /// The values the host gave the survey's declared `variables` (`--var name=value`).
    public var variables: [String: JSONValue]
    /// The respondent's locale and the survey's default one, for `displayValue()`.
    public var locale = "en"
    public var defaultLocale = "en"

    public init(today: String, variables: [String: JSONValue] = [:]) {
        self.today = today
        self.variables = variables
    }

    /// Today in UTC.
    public static func current() -> FunctionContext {
        let seconds = Int(Date().timeIntervalSince1970)
        return FunctionContext(today: CivilDate(daysSinceEpoch: seconds / 86_400).description)
    }
}

/// An error raised while evaluating an expression (a function's own failure).
public struct ExpressionError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}

/// The functions expressions may call, by name.
public struct ExpressionFunctionRegistry: Sendable {
    private var functions: [String: ExpressionFunction] = [:]

    /// An empty registry (not even `iif`); most callers want ``standard``.
    public init() {}

    /// Adds a function.
    /// - Throws: ``RegistryError/duplicateFunction(_:existingOrigin:newOrigin:)`` when the name is taken.
    public mutating func register(_ function: ExpressionFunction) throws(RegistryError) {
        let key = function.name.lowercased()
        guard !key.isEmpty, key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
            throw RegistryError.invalidTypeID(function.name, origin: function.origin)
        }
        if let existing = functions[key] {
            throw RegistryError.duplicateFunction(
                function.name, existingOrigin: existing.origin, newOrigin: function.origin)
        }
        functions[key] = function
    }

    /// The function named `name` (case-insensitive).
    public func function(named name: String) -> ExpressionFunction? {
        functions[name.lowercased()]
    }

    /// Every function name, sorted.
    public var names: [String] { functions.values.map(\.name).sorted() }

    /// The standard functions: `iif`, `isEmpty`, `age`, `today`, `count`, `sum`, `min`, `max`, `avg`,
    /// `round`, `length`, `len`, `contains`, `abs`, `floor`, `ceil`, `concat`, `lower`, `upper`.
    public static let standard: ExpressionFunctionRegistry = {
        var registry = ExpressionFunctionRegistry()
        for function in StandardFunctions.all {
            do { try registry.register(function) } catch { assertionFailure("duplicate standard function") }
        }
        return registry
    }()
}

/// A proleptic Gregorian calendar date, independent of time zones and locales.
package struct CivilDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    package var year: Int
    package var month: Int
    package var day: Int

    package init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses `YYYY-MM-DD` (a leading date of an ISO timestamp is accepted); `nil` if it is not a real date.
    package init?(_ text: String) {
        let parts = text.prefix(10).split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            (1...12).contains(month), day >= 1, day <= CivilDate.daysIn(month: month, year: year)
        else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// Parses exactly `YYYY-MM-DD` (ASCII digits naming a real day, nothing before or after);
    /// `nil` otherwise (`2026-02-30`, `2026-2-3`, `2026-02-03T10:00`).
    package init?(exactly text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 10 else { return nil }
        for (offset, byte) in bytes.enumerated() {
            let isDash = offset == 4 || offset == 7
            guard isDash ? byte == UInt8(ascii: "-") : (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else {
                return nil
            }
        }
        self.init(text)
    }

    package static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 (negative before).
    package var daysSinceEpoch: Int {
        // Howard Hinnant's days_from_civil.
        let y = year - (month <= 2 ? 1 : 0)
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The day of the week, 0 for Sunday to 6 for Saturday (as JavaScript's `getDay()`).
    package var weekday: Int {
        let days = daysSinceEpoch
        return ((days % 7) + 11) % 7  // 1970-01-01 was a Thursday (4)
    }

    /// `self` moved by whole days, months or years; a day past the end of the month rolls over into
    /// the next (January 31 + 1 month = March 2 or 3), as JavaScript dates do.
    package func adding(_ amount: Int, unit: CivilDate.Unit) -> CivilDate {
        switch unit {
        case .days:
            return CivilDate(daysSinceEpoch: daysSinceEpoch + amount)
        case .months, .years:
            let months = (year * 12 + (month - 1)) + (unit == .months ? amount : amount * 12)
            let newYear = months >= 0 ? months / 12 : (months - 11) / 12
            let newMonth = months - newYear * 12 + 1
            let first = CivilDate(year: newYear, month: newMonth, day: 1)
            return CivilDate(daysSinceEpoch: first.daysSinceEpoch + day - 1)
        }
    }

    /// A calendar unit of ``adding(_:unit:)``.
    package enum Unit {
        case days, months, years
    }

    package init(daysSinceEpoch days: Int) {
        // Howard Hinnant's civil_from_days.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        self.init(year: yoe + era * 400 + (month <= 2 ? 1 : 0), month: month, day: day)
    }

    package var description: String {
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }

    package static func < (lhs: CivilDate, rhs: CivilDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    /// Whole years from `self` to `other` (an age).
    package func years(until other: CivilDate) -> Int {
        var years = other.year - year
        if (other.month, other.day) < (month, day) { years -= 1 }
        return years
    }
}

import Foundation
import SurveyCore

/// A read-only value computed from other answers, shown to the respondent and stored with the
/// results (SurveyJS's `expression` question).
///
/// | Option | Type | Default | Meaning |
/// |---|---|---|---|
/// | `expression` | expression, required | — | Its value is the answer, re-evaluated whenever what it reads changes. |
/// | `displayStyle` | `"none"`, `"decimal"`, `"percent"`, `"currency"` | `"none"` | How front ends show a number (the presentation hint says it: `"expression/percent"`, `"expression/currency/EUR"`). |
/// | `currency` | ISO 4217 code | `"USD"` | With `displayStyle` `"currency"`. |
/// | `maximumFractionDigits` | integer 0–20 | none | Rounds a number result to this many decimals before storing it. |
///
/// **Answer:** never given by the respondent (an answer is refused with `readOnly`); the stored value
/// is the expression's, a number, a text, a Boolean or a list (a number rounded with
/// `maximumFractionDigits`). It is never required. The input is a free text shown read-only with
/// the value; the summary counts the answered and, for numbers, the mean, median, minimum and maximum.
///
/// ```json
/// { "id": "total", "type": "expression", "title": "Total",
///   "options": { "expression": "{price} * {quantity}", "displayStyle": "currency", "currency": "EUR" } }
/// ```
public struct ExpressionType: SummarizesTallies {
    /// The decoded options of an expression question.
    public struct Options: Sendable {
        var expression: String
        var displayStyle: String
        var currency: String
        var maximumFractionDigits: Int?
    }

    static let displayStyles = ["none", "decimal", "percent", "currency"]

    /// Creates the type (its configuration comes from each question's options).
    public init() {}

    public var typeID: String { "expression" }
    public var summary: String {
        "A read-only value computed from other answers by an expression, stored with the results"
    }

    public func makeOptions(from reader: inout OptionsReader) throws(SurveyError) -> Options {
        let expression = try reader.string("expression")
        guard !expression.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw reader.error("expression", "'expression' must not be empty", kind: .invalidOptions)
        }
        let style = try reader.string("displayStyle", default: "none")
        guard Self.displayStyles.contains(style) else {
            throw reader.error(
                "displayStyle", Suggestion.unknown("displayStyle", style, validValues: Self.displayStyles),
                kind: .invalidOptions)
        }
        let currency = try reader.string("currency", default: "USD")
        guard currency.count == 3, currency.allSatisfy({ $0.isASCII && $0.isLetter }) else {
            throw reader.error(
                "currency", "'currency' must be a three-letter ISO 4217 code such as \"EUR\", got '\(currency)'",
                kind: .invalidOptions)
        }
        let digits = try reader.optionalInt("maximumFractionDigits", in: 0...20)
        return Options(
            expression: expression, displayStyle: style, currency: currency.uppercased(),
            maximumFractionDigits: digits)
    }

    public func computedValue(for options: Options) -> String? { options.expression }

    public func input(for options: Options, in context: PresentationContext) -> InputPrimitive {
        // The presentation hint carries the display style: "expression", "expression/decimal",
        // "expression/percent" or "expression/currency/EUR".
        var hint = "expression"
        if options.displayStyle != "none" { hint += "/" + options.displayStyle }
        if options.displayStyle == "currency" { hint += "/" + options.currency }
        return .freeText(TextInput(presentation: hint))
    }

    public func normalize(_ answer: JSONValue, options: Options) throws(AnswerError) -> JSONValue {
        guard case .number(let number) = answer, let digits = options.maximumFractionDigits, number.isFinite else {
            return answer
        }
        let scale = pow(10, Double(digits))
        let rounded = (number * scale).rounded() / scale
        return .number(rounded.isFinite ? rounded : number)
    }

    public func parse(line: String, options: Options, in context: PresentationContext) throws(AnswerError) -> JSONValue
    {
        throw AnswerError(code: "readOnly", message: "This answer cannot be changed.")
    }

    public func summarize(_ tally: AnswerTally, options: Options, in context: PresentationContext) -> AnswerSummary {
        let numbers = tally.numbers()
        guard numbers.count > 0, numbers.count == tally.answered else { return AnswerSummary(answered: tally.answered) }
        return InputPrimitive.number(NumberInput()).summarize(tally)
    }
}

import SurveyCore

/// A number, optionally whole, in a range and on a step, with an optional unit.
///
/// | Option | Type | Default | Meaning |
/// |---|---|---|---|
/// | `min` | number | none | Smallest allowed value. |
/// | `max` | number | none | Largest allowed value; at least `min`. |
/// | `integer` | Boolean | `false` | Only whole numbers. |
/// | `step` | number > 0 | none | Values must be `min` (or 0 without `min`) plus a whole number of steps. |
/// | `unit` | text | none | Shown next to the field ("kg", "years"). |
/// | `minExpression` | expression | none | The smallest allowed value, from an expression over the survey's names (SurveyJS's `minValueExpression`), checked on Next (as survey-core checks it); an empty value leaves `min`. |
/// | `maxExpression` | expression | none | The largest allowed value, the same way (SurveyJS's `maxValueExpression`). |
///
/// **Answer:** a JSON number; a string holding a decimal number (`" 42 "`, `"2.5"`, `"1e3"`, but
/// not `"0x10"` or `"inf"`) is accepted and normalised to a number. Errors: `notANumber`, `notAnInteger`, `belowMinimum` (`min`),
/// `aboveMaximum` (`max`), `notOnStep` (`step`).
///
/// ```json
/// { "id": "age", "type": "number", "title": "How old are you?",
///   "options": { "min": 0, "max": 130, "integer": true, "unit": "years" } }
/// { "id": "upper", "type": "number", "options": { "minExpression": "{lower} + 1" } }
/// ```
public struct NumberType: SummarizedByInput {
    /// The decoded options of a number question.
    public struct Options: Sendable {
        var minimum: Double?
        var maximum: Double?
        var isInteger: Bool
        var step: Double?
        var unit: LocalizedText?
        var minimumExpression: String?
        var maximumExpression: String?
    }

    /// Creates the type (its configuration comes from each question's options).
    public init() {}

    public var typeID: String { "number" }
    public var summary: String { "A number, optionally whole, with min/max, step and unit" }

    public func makeOptions(from reader: inout OptionsReader) throws(SurveyError) -> Options {
        let minimum = try reader.optionalDouble("min")
        let maximum = try reader.optionalDouble("max")
        if let minimum, let maximum, minimum > maximum {
            throw reader.error(
                "max",
                "'max' (\(JSONValue.format(number: maximum))) must not be less than 'min' (\(JSONValue.format(number: minimum)))",
                kind: .invalidOptions)
        }
        let isInteger = try reader.bool("integer", default: false)
        let step = try reader.optionalDouble("step")
        if let step, step <= 0 {
            throw reader.error("step", "'step' must be greater than 0", kind: .invalidOptions)
        }
        return Options(
            minimum: minimum, maximum: maximum, isInteger: isInteger, step: step, unit: try reader.optionalText("unit"),
            minimumExpression: try reader.optionalString("minExpression"),
            maximumExpression: try reader.optionalString("maxExpression"))
    }

    public func expressions(for options: Options) -> [String: String] {
        var result: [String: String] = [:]
        if let source = options.minimumExpression { result["min"] = source }
        if let source = options.maximumExpression { result["max"] = source }
        return result
    }

    public func checksAgainOnNext(for options: Options) -> Bool {
        options.minimumExpression != nil || options.maximumExpression != nil
    }

    /// The bounds now: an expression's value where it gives a number, else the fixed bound.
    func bounds(_ options: Options, in context: PresentationContext) -> (minimum: Double?, maximum: Double?) {
        func value(_ name: String, _ expression: String?) -> Double? {
            guard expression != nil, let value = context.expressionValues[name] else { return nil }
            return value.numberValue ?? value.stringValue.flatMap { JSONValue.decimalNumber($0) }
        }
        return (
            value("min", options.minimumExpression) ?? options.minimum,
            value("max", options.maximumExpression) ?? options.maximum
        )
    }

    public func input(for options: Options, in context: PresentationContext) -> InputPrimitive {
        let (minimum, maximum) = bounds(options, in: context)
        return .number(
            NumberInput(
                minimum: minimum, maximum: maximum, step: options.step, isInteger: options.isInteger,
                unit: context.text(options.unit)))
    }

    public func normalize(_ answer: JSONValue, options: Options) throws(AnswerError) -> JSONValue {
        let value = try NumberRules.number(from: answer)
        try NumberRules.check(
            value, isInteger: options.isInteger, minimum: options.minimum, maximum: options.maximum,
            step: options.step, stepOrigin: options.minimum ?? 0)
        return .number(value)
    }

    public func normalize(_ answer: JSONValue, options: Options, in context: PresentationContext) throws(AnswerError)
        -> JSONValue
    {
        // survey-core checks bounds from expressions when the page is checked (on Next), with the
        // values then; the answer itself is checked against the fixed bounds only.
        guard options.minimumExpression != nil || options.maximumExpression != nil, context.isFinalCheck else {
            return try normalize(answer, options: options)
        }
        let (minimum, maximum) = bounds(options, in: context)
        let value = try NumberRules.number(from: answer)
        try NumberRules.check(
            value, isInteger: options.isInteger, minimum: minimum, maximum: maximum, step: options.step,
            stepOrigin: options.minimum ?? 0)
        return .number(value)
    }
}

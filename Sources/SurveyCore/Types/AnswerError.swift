/// Why an answer was not accepted, in words a respondent understands.
///
/// `code` and `arguments` let a front end show the message in the respondent's language (the
/// localisation catalogue has a template per code, e.g. `"tooShort": "Enter at least {min} characters."`);
/// `message` is the English text used when no translation exists.
///
/// ```swift
/// throw AnswerError(code: "tooShort", message: "Enter at least 3 characters.", arguments: ["min": "3"])
/// ```
public struct AnswerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable code, such as `required`, `tooShort`, `notAChoice`, `invalidEmail`.
    public var code: String
    /// The English message.
    public var message: String
    /// Values for the placeholders of the localised template.
    public var arguments: [String: String]
    /// The composite field or matrix row the error is about, when it is about one.
    public var field: String?
    /// Whether ``message`` is already in the respondent's language (a plugin's own words): front
    /// ends show it as it is instead of the catalogue's template for ``code``.
    public var isLocalized: Bool

    public init(
        code: String, message: String, arguments: [String: String] = [:], field: String? = nil,
        isLocalized: Bool = false
    ) {
        self.code = code
        self.message = message
        self.arguments = arguments
        self.field = field
        self.isLocalized = isLocalized
    }

    public var description: String { message }

    /// "This question requires an answer."
    public static let required = AnswerError(code: "required", message: "Please answer this question.")
    /// A required panel (``PanelDefinition/isRequired``) none of whose visible questions is answered.
    public static let panelRequired = AnswerError(
        code: "panelRequired", message: "Please answer at least one question in this group.")

    /// The answer has the wrong JSON shape, e.g. a number where text was expected.
    public static func wrongShape(expected: String, got value: JSONValue) -> AnswerError {
        AnswerError(
            code: "wrongShape", message: "Expected \(expected), got \(value.kindDescription).",
            arguments: ["expected": expected, "got": value.kindDescription])
    }
}

/// A summary of many answers to one question, for reports.
public struct AnswerSummary: Sendable, Hashable {
    /// One bar of a distribution.
    public struct Bucket: Sendable, Hashable {
        /// The stored value (a choice value, a number as text, "true"/"false").
        public var value: String
        /// The label shown in reports.
        public var label: String
        public var count: Int
        /// Share of answered responses, 0…100.
        public var percentage: Double
        /// The part of the summary the bucket belongs to, when it is not the main distribution: a
        /// matrix row's value (its buckets are that row's columns), `"nps"` for an NPS question's
        /// promoters, passives and detractors, `"score"` for a headline figure (the NPS score,
        /// in ``percentage``). Reports draw each group as its own chart or table row.
        public var group: String?
        /// The group's label (a matrix row's text).
        public var groupLabel: String?
        /// A mean that belongs to the bucket: a ranking item's average position (1 = first).
        public var mean: Double?

        public init(
            value: String, label: String, count: Int, percentage: Double, group: String? = nil,
            groupLabel: String? = nil, mean: Double? = nil
        ) {
            self.value = value
            self.label = label
            self.count = count
            self.percentage = percentage
            self.group = group
            self.groupLabel = groupLabel
            self.mean = mean
        }
    }

    /// How many responses answered the question.
    public var answered: Int
    /// Counts per value, in a meaningful order (choice order, numeric order).
    public var buckets: [Bucket]
    public var mean: Double?
    public var median: Double?
    public var minimum: Double?
    public var maximum: Double?

    public init(
        answered: Int, buckets: [Bucket] = [], mean: Double? = nil, median: Double? = nil, minimum: Double? = nil,
        maximum: Double? = nil
    ) {
        self.answered = answered
        self.buckets = buckets
        self.mean = mean
        self.median = median
        self.minimum = minimum
        self.maximum = maximum
    }
}

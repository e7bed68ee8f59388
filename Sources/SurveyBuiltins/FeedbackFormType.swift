import SurveyCore

/// A feedback form: a message, with an optional star rating, category and reply email.
///
/// | Option | Type | Default | Meaning |
/// |---|---|---|---|
/// | `categories` | array of choices | none | What the feedback is about; each a string or `{ "value", "label"?, "icon"?, "visibleIf"? }`. Without it there is no category field. |
/// | `includeRating` | Boolean | `true` | Ask for a 1–5 star rating (optional to answer). |
/// | `includeEmail` | Boolean | `true` | Ask for an email to reply to (optional to answer). |
/// | `messageMaxLength` | integer ≥ 1 | `2000` | Most characters in the message. |
///
/// **Answer:** `{ "rating"?: 1…5, "category"?: category value, "message": text, "email"?: text }`.
/// The message is required. Values are trimmed, empty optional fields dropped, a numeric-string
/// rating becomes a number, a category label becomes its value, the email's domain is lower-cased.
/// Errors (with `field`): `wrongShape`, `missingField` (`field`), `tooLong` (`max`), `notANumber`,
/// `notAnInteger`, `belowMinimum` (`min`), `aboveMaximum` (`max`), `notAChoice` (`value`), `invalidEmail`.
///
/// **Summary:** one bucket per category (in authored order; percentages of all answered forms) and
/// the mean, median, minimum and maximum of the ratings given.
///
/// As an input it is a `composite` with presentation `"form"`: `rating` (a number, presentation
/// `"stars"`), `category` (single choice), `message` (multi-line text), `email` (text, presentation `"email"`).
///
/// ```json
/// { "id": "feedback", "type": "feedback-form", "title": "Tell us what you think",
///   "options": { "categories": ["Bug", "Idea", "Praise"], "includeEmail": false } }
/// ```
public struct FeedbackFormType: SummarizesTallies {
    /// The decoded options of a feedback form.
    public struct Options: Sendable {
        var categories: ChoiceSet?
        var includesRating: Bool
        var includesEmail: Bool
        var messageMaximumLength: Int

        var fieldNames: [String] {
            var names: [String] = []
            if includesRating { names.append("rating") }
            if categories != nil { names.append("category") }
            names.append("message")
            if includesEmail { names.append("email") }
            return names
        }
    }

    static let stars = 5

    /// Creates the type (its configuration comes from each question's options).
    public init() {}

    public var typeID: String { "feedback-form" }
    public var summary: String { "Feedback: a message with optional rating, category and reply email" }

    public func makeOptions(from reader: inout OptionsReader) throws(SurveyError) -> Options {
        let categories = try ChoiceList.read("categories", from: &reader, allowsNumbers: true).map {
            ChoiceSet(choices: $0)
        }
        return Options(
            categories: categories, includesRating: try reader.bool("includeRating", default: true),
            includesEmail: try reader.bool("includeEmail", default: true),
            messageMaximumLength: try reader.int("messageMaxLength", default: 2000, in: 1...Int.max))
    }

    public func input(for options: Options, in context: PresentationContext) -> InputPrimitive {
        var fields: [CompositeField] = []
        if options.includesRating {
            fields.append(
                CompositeField(
                    name: "rating", label: BuiltinText.rating.resolved(in: context),
                    input: .number(
                        NumberInput(
                            minimum: 1, maximum: Double(Self.stars), step: 1, isInteger: true, presentation: "stars"))))
        }
        if let categories = options.categories {
            fields.append(
                CompositeField(
                    name: "category", label: BuiltinText.category.resolved(in: context),
                    input: .singleChoice(categories.input(in: context))))
        }
        fields.append(
            CompositeField(
                name: "message", label: BuiltinText.message.resolved(in: context), isRequired: true,
                input: .freeText(TextInput(isMultiline: true, maximumLength: options.messageMaximumLength))))
        if options.includesEmail {
            fields.append(
                CompositeField(
                    name: "email", label: BuiltinText.email.resolved(in: context),
                    input: .freeText(TextInput(presentation: "email"))))
        }
        return .composite(CompositeInput(fields: fields, presentation: "form"))
    }

    public func normalize(_ answer: JSONValue, options: Options) throws(AnswerError) -> JSONValue {
        let form = try FormAnswer(answer, allowed: options.fieldNames, describedAs: "an object with a 'message'")
        var result: [String: JSONValue] = [:]
        if options.includesRating, let rating = form.members["rating"], !rating.isEmptyAnswer {
            let value = try NumberRules.number(from: rating, field: "rating")
            try NumberRules.check(value, isInteger: true, minimum: 1, maximum: Double(Self.stars), field: "rating")
            result["rating"] = .number(value)
        }
        if let categories = options.categories, let category = form.members["category"], !category.isEmptyAnswer {
            result["category"] = try categories.normalized(category, field: "category")
        }
        guard let message = try form.text("message") else {
            throw FormAnswer.missingField("message", label: BuiltinText.message.english)
        }
        guard message.count <= options.messageMaximumLength else {
            throw FormAnswer.tooLong(maximum: options.messageMaximumLength, field: "message")
        }
        result["message"] = .string(message)
        if options.includesEmail, let email = try form.text("email") {
            result["email"] = .string(try ContactRules.email(email, field: "email"))
        }
        return .object(result)
    }

    public func summarize(_ tally: AnswerTally, options: Options, in context: PresentationContext) -> AnswerSummary {
        let answers = tally.answers
        let answered = answers.filter { !$0.isEmptyAnswer }
        let ratings = answered.compactMap { $0["rating"]?.numberValue }.sorted()
        let buckets = (options.categories?.choices ?? []).map { category in
            let count = answered.filter { $0["category"]?.choiceKey == category.value }.count
            return AnswerSummary.Bucket(
                value: category.value, label: category.label.resolved(in: context), count: count,
                percentage: Summaries.percentage(count, of: answered.count))
        }
        return AnswerSummary(
            answered: answered.count, buckets: buckets, mean: InputPrimitive.mean(ratings),
            median: InputPrimitive.median(ratings), minimum: ratings.first, maximum: ratings.last)
    }
}

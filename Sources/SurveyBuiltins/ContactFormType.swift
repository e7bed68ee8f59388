import SurveyCore

/// A contact form: name, email, phone, company and message fields, validated.
///
/// | Option | Type | Default | Meaning |
/// |---|---|---|---|
/// | `fields` | array of field names | `["name", "email", "phone"]` | Which of `name`, `email`, `phone`, `company`, `message` to ask, in order. |
/// | `requiredFields` | array of field names | `["name", "email"]` (those present in `fields`) | Fields that must be filled in; each must be in `fields`. |
///
/// **Answer:** an object with string members for the asked fields. Normalised by trimming every
/// value, dropping empty optional fields and lower-casing the email's domain. Email must be
/// `local@domain.tld` without spaces; phone an optional leading `+` then digits, spaces, dashes,
/// dots and parentheses with 7–15 digits. Errors (with `field`): `wrongShape` (not an object, a
/// member that is not an asked field, or a value that is not text), `missingField` (`field`, the
/// field's English label), `invalidEmail`, `invalidPhone`.
///
/// As an input it is a `composite` with presentation `"form"` whose fields are free text
/// (presentation `"email"` / `"phone"`; the message is multi-line).
///
/// ```json
/// { "id": "contact", "type": "contact-form", "title": "How can we reach you?",
///   "options": { "fields": ["name", "email", "company"], "requiredFields": ["email"] } }
/// ```
public struct ContactFormType: SummarizedByInput {
    /// The decoded options of a contact form.
    public struct Options: Sendable {
        var fields: [Field]
        var requiredFields: Set<Field>
    }

    /// A field of the contact form.
    enum Field: String, Sendable, CaseIterable {
        case name, email, phone, company, message

        var label: BuiltinText {
            switch self {
            case .name: return .name
            case .email: return .email
            case .phone: return .phone
            case .company: return .company
            case .message: return .message
            }
        }

        var textInput: TextInput {
            switch self {
            case .email: return TextInput(presentation: "email")
            case .phone: return TextInput(presentation: "phone")
            case .message: return TextInput(isMultiline: true)
            case .name, .company: return TextInput()
            }
        }
    }

    /// Creates the type (its configuration comes from each question's options).
    public init() {}

    public var typeID: String { "contact-form" }
    public var summary: String { "Contact details: name, email, phone, company and message, with validation" }

    public func makeOptions(from reader: inout OptionsReader) throws(SurveyError) -> Options {
        let fields = try Self.readFields("fields", from: &reader) ?? [.name, .email, .phone]
        guard !fields.isEmpty else {
            throw reader.error("fields", "'fields' must name at least one field", kind: .invalidOptions)
        }
        let required: [Field]
        if let names = try Self.readFields("requiredFields", from: &reader) {
            for (index, field) in names.enumerated() where !fields.contains(field) {
                throw SurveyError(
                    .invalidOptions, "required field '\(field.rawValue)' is not one of 'fields'",
                    path: reader.path.appending("requiredFields").appending(index), stepID: reader.stepID)
            }
            required = names
        } else {
            required = [.name, .email].filter(fields.contains)
        }
        return Options(fields: fields, requiredFields: Set(required))
    }

    /// Reads an array of field names; rejects unknown and repeated names at their element's path.
    static func readFields(_ key: String, from reader: inout OptionsReader) throws(SurveyError) -> [Field]? {
        guard let names = try reader.optionalStringArray(key) else { return nil }
        var fields: [Field] = []
        for (index, name) in names.enumerated() {
            let path = reader.path.appending(key).appending(index)
            guard let field = Field(rawValue: name) else {
                let message = Suggestion.unknown("field", name, validValues: Field.allCases.map(\.rawValue))
                throw SurveyError(.invalidOptions, message, path: path, stepID: reader.stepID)
            }
            guard !fields.contains(field) else {
                throw SurveyError(.invalidOptions, "field '\(name)' is listed twice", path: path, stepID: reader.stepID)
            }
            fields.append(field)
        }
        return fields
    }

    public func input(for options: Options, in context: PresentationContext) -> InputPrimitive {
        .composite(
            CompositeInput(
                fields: options.fields.map {
                    CompositeField(
                        name: $0.rawValue, label: $0.label.resolved(in: context),
                        isRequired: options.requiredFields.contains($0), input: .freeText($0.textInput))
                },
                presentation: "form"))
    }

    public func normalize(_ answer: JSONValue, options: Options) throws(AnswerError) -> JSONValue {
        let form = try FormAnswer(
            answer, allowed: options.fields.map(\.rawValue), describedAs: "an object with the form's fields")
        var result: [String: JSONValue] = [:]
        for field in options.fields {
            guard let text = try form.text(field.rawValue) else {
                if options.requiredFields.contains(field) {
                    throw FormAnswer.missingField(field.rawValue, label: field.label.english)
                }
                continue
            }
            switch field {
            case .email:
                result[field.rawValue] = .string(try ContactRules.email(text, field: field.rawValue))
            case .phone:
                result[field.rawValue] = .string(try ContactRules.phone(text, field: field.rawValue))
            case .name, .company, .message:
                result[field.rawValue] = .string(text)
            }
        }
        return .object(result)
    }
}

import SurveyBuiltins
import SurveyCore
import Testing

struct ContactFormTypeTests {
    static let allFields: JSONValue = ["fields": ["name", "email", "phone", "company", "message"]]

    static let normalForms: [(JSONValue, JSONValue)] = [
        (
            ["name": " Ada Lovelace ", "email": "Ada.L@Example.COM", "phone": "+44 (20) 7946-0958", "company": ""],
            ["name": "Ada Lovelace", "email": "Ada.L@example.com", "phone": "+44 (20) 7946-0958"]
        ),
        (
            ["name": "Ada", "email": "ada@example.org", "message": "Hi\nthere "],
            ["name": "Ada", "email": "ada@example.org", "message": "Hi\nthere"]
        ),
        (["name": "Ada", "email": "a@b.co", "phone": nil], ["name": "Ada", "email": "a@b.co"]),
    ]

    @Test(arguments: normalForms)
    func normalizesFields(answer: JSONValue, expected: JSONValue) throws {
        #expect(try configure(ContactFormType(), Self.allFields).normalize(answer) == expected)
    }

    @Test(arguments: [
        AnswerErrorCase(["email": "ada@example.com"], "missingField", ["field": "Name"], field: "name"),
        AnswerErrorCase(["name": "Ada", "email": "  "], "missingField", ["field": "Email"], field: "email"),
        AnswerErrorCase(["name": "Ada", "email": "ada@example"], "invalidEmail", [:], field: "email"),
        AnswerErrorCase(["name": "Ada", "email": "ada lovelace@example.com"], "invalidEmail", field: "email"),
        AnswerErrorCase(["name": "Ada", "email": "ada@@example.com"], "invalidEmail", field: "email"),
        AnswerErrorCase(["name": "Ada", "email": "@example.com"], "invalidEmail", field: "email"),
        AnswerErrorCase(["name": "Ada", "email": "ada@example.c0m"], "invalidEmail", field: "email"),
        AnswerErrorCase(["name": "Ada", "email": "ada@-example.com"], "invalidEmail", field: "email"),
        AnswerErrorCase(["name": "Ada", "email": "a@b.co", "phone": "12345"], "invalidPhone", [:], field: "phone"),
        AnswerErrorCase(
            ["name": "Ada", "email": "a@b.co", "phone": "1234567890123456"], "invalidPhone", field: "phone"),
        AnswerErrorCase(["name": "Ada", "email": "a@b.co", "phone": "555-CALL-NOW"], "invalidPhone", field: "phone"),
        AnswerErrorCase(["name": "Ada", "email": "a@b.co", "phone": "12+3456789"], "invalidPhone", field: "phone"),
        AnswerErrorCase(["name": "Ada", "email": "a@b.co", "fax": "1"], "wrongShape", field: "fax"),
        AnswerErrorCase(
            ["name": 7, "email": "a@b.co"], "wrongShape", ["expected": "text", "got": "an integer"], field: "name"),
        AnswerErrorCase("Ada", "wrongShape"),
    ])
    func rejectsInvalidAnswers(invalid: AnswerErrorCase) throws {
        invalid.check(try configure(ContactFormType(), Self.allFields))
    }

    @Test(arguments: ["+1 555 123 4567", "555.123.4567", "(030) 1234567", "+81-3-1234-5678"])
    func acceptsPhoneNumbers(phone: String) throws {
        let question = try configure(ContactFormType(), ["requiredFields": []])
        #expect(try question.normalize(["phone": .string(phone)]) == ["phone": .string(phone)])
    }

    @Test func defaultsAskNameEmailPhoneAndRequireNameAndEmail() throws {
        let question = try configure(ContactFormType())
        #expect(
            question.input(in: english)
                == .composite(
                    CompositeInput(
                        fields: [
                            CompositeField(
                                name: "name", label: "Name", isRequired: true, input: .freeText(TextInput())),
                            CompositeField(
                                name: "email", label: "Email", isRequired: true,
                                input: .freeText(TextInput(presentation: "email"))),
                            CompositeField(
                                name: "phone", label: "Phone", input: .freeText(TextInput(presentation: "phone"))),
                        ], presentation: "form")))
        AnswerErrorCase(["name": "Ada", "email": "a@b.co", "company": "X"], "wrongShape", field: "company").check(
            question)
    }

    @Test func fieldsAndRequiredFieldsAreConfigurable() throws {
        let question = try configure(
            ContactFormType(), ["fields": ["message", "email"], "requiredFields": ["message"]])
        guard case .composite(let input) = question.input(in: PresentationContext(locale: "de", defaultLocale: "en"))
        else {
            Issue.record("expected a composite")
            return
        }
        #expect(input.fields.map(\.name) == ["message", "email"])
        #expect(input.fields.map(\.label) == ["Nachricht", "E-Mail"])
        #expect(input.fields.map(\.isRequired) == [true, false])
        #expect(input.fields[0].input == .freeText(TextInput(isMultiline: true)))
        #expect(try question.normalize(["message": "Hello"]) == ["message": "Hello"])
        let withoutName = try configure(ContactFormType(), ["fields": ["email", "phone"]])
        #expect(try withoutName.normalize(["email": "x@y.io"]) == ["email": "x@y.io"])
        AnswerErrorCase(["phone": "5551234567"], "missingField", ["field": "Email"]).check(withoutName)
    }

    @Test(arguments: [
        OptionErrorCase(["fields": ["name", "fax"]], .invalidOptions, "$.options.fields[1]"),
        OptionErrorCase(["fields": ["name", "name"]], .invalidOptions, "$.options.fields[1]"),
        OptionErrorCase(["fields": []], .invalidOptions, "$.options.fields"),
        OptionErrorCase(["fields": "name"], .invalidValue, "$.options.fields"),
        OptionErrorCase(
            ["fields": ["name"], "requiredFields": ["email"]], .invalidOptions, "$.options.requiredFields[0]"),
        OptionErrorCase(["requiredFields": ["emial"]], .invalidOptions, "$.options.requiredFields[0]"),
        OptionErrorCase(["field": ["name"]], .unknownField, "$.options.field"),
    ])
    func rejectsInvalidOptions(invalid: OptionErrorCase) {
        invalid.check(ContactFormType())
    }

    @Test func unknownFieldNamesSuggestTheClosest() {
        #expect(optionError(ContactFormType(), ["fields": ["emial"]])?.message.contains("did you mean 'email'") == true)
        #expect(optionError(ContactFormType(), ["fields": ["zzzzzz"]])?.message.contains("name, email, phone") == true)
    }

    @Test func parseReadsAJSONObject() throws {
        let question = try configure(ContactFormType())
        let parsed = try question.parse(line: #"{"name": "Ada", "email": "ADA@X.IO"}"#, in: english)
        #expect(try question.normalize(parsed) == ["name": "Ada", "email": "ADA@x.io"])
    }

    @Test func summaryCountsAnsweredForms() throws {
        let summary = try configure(ContactFormType()).summarize(
            [["name": "A", "email": "a@b.co"], [:], nil], in: english)
        #expect(summary.answered == 1)
    }

    @Test func normalizeIsIdempotent() throws {
        let question = try configure(ContactFormType(), Self.allFields)
        let once = try question.normalize(["name": " Ada ", "email": "ada@EXAMPLE.com", "phone": " 555 123 4567 "])
        #expect(try question.normalize(once) == once)
    }
}

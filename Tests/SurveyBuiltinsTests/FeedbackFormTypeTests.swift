import SurveyBuiltins
import SurveyCore
import Testing

struct FeedbackFormTypeTests {
    static let options: JSONValue = ["categories": ["bug", ["value": "idea", "label": "Idea"]]]

    static let normalForms: [(JSONValue, JSONValue)] = [
        (["message": "  Great app "], ["message": "Great app"]),
        (
            ["rating": "4", "category": "Idea", "message": "More themes", "email": "Me@Mail.COM"],
            ["rating": 4, "category": "idea", "message": "More themes", "email": "Me@mail.com"]
        ),
        (["rating": nil, "category": "", "message": "x", "email": " "], ["message": "x"]),
    ]

    @Test(arguments: normalForms)
    func normalizesTheForm(answer: JSONValue, expected: JSONValue) throws {
        #expect(try configure(FeedbackFormType(), Self.options).normalize(answer) == expected)
    }

    @Test(arguments: [
        AnswerErrorCase(["rating": 5], "missingField", ["field": "Message"], field: "message"),
        AnswerErrorCase(["message": "   "], "missingField", field: "message"),
        AnswerErrorCase(["message": "x", "rating": 6], "aboveMaximum", ["max": "5"], field: "rating"),
        AnswerErrorCase(["message": "x", "rating": 0], "belowMinimum", ["min": "1"], field: "rating"),
        AnswerErrorCase(["message": "x", "rating": 3.5], "notAnInteger", field: "rating"),
        AnswerErrorCase(["message": "x", "rating": "good"], "notANumber", field: "rating"),
        AnswerErrorCase(["message": "x", "category": "praise"], "notAChoice", ["value": "praise"], field: "category"),
        AnswerErrorCase(["message": "x", "email": "nope"], "invalidEmail", field: "email"),
        AnswerErrorCase(["message": "x", "phone": "555"], "wrongShape", field: "phone"),
        AnswerErrorCase(["message": 42], "wrongShape", field: "message"),
        AnswerErrorCase("Great app", "wrongShape"),
    ])
    func rejectsInvalidAnswers(invalid: AnswerErrorCase) throws {
        invalid.check(try configure(FeedbackFormType(), Self.options))
    }

    @Test func messageLengthIsLimited() throws {
        let question = try configure(FeedbackFormType(), ["messageMaxLength": 5])
        #expect(try question.normalize(["message": " 12345 "]) == ["message": "12345"])
        AnswerErrorCase(["message": "123456"], "tooLong", ["max": "5"], field: "message").check(question)
    }

    @Test func inputListsTheIncludedFields() throws {
        let question = try configure(FeedbackFormType(), Self.options)
        #expect(
            question.input(in: english)
                == .composite(
                    CompositeInput(
                        fields: [
                            CompositeField(
                                name: "rating", label: "Rating",
                                input: .number(
                                    NumberInput(minimum: 1, maximum: 5, step: 1, isInteger: true, presentation: "stars")
                                )),
                            CompositeField(
                                name: "category", label: "Category",
                                input: .singleChoice(
                                    ChoiceInput(choices: [
                                        Choice(value: "bug", label: "bug"), Choice(value: "idea", label: "Idea"),
                                    ]))),
                            CompositeField(
                                name: "message", label: "Message", isRequired: true,
                                input: .freeText(TextInput(isMultiline: true, maximumLength: 2000))),
                            CompositeField(
                                name: "email", label: "Email", input: .freeText(TextInput(presentation: "email"))),
                        ], presentation: "form")))
    }

    @Test func excludedFieldsAreRejectedInAnswers() throws {
        let question = try configure(FeedbackFormType(), ["includeRating": false, "includeEmail": false])
        guard case .composite(let input) = question.input(in: english) else {
            Issue.record("expected a composite")
            return
        }
        #expect(input.fields.map(\.name) == ["message"])
        AnswerErrorCase(["message": "x", "rating": 5], "wrongShape", field: "rating").check(question)
        AnswerErrorCase(["message": "x", "category": "bug"], "wrongShape", field: "category").check(question)
        AnswerErrorCase(["message": "x", "email": "a@b.co"], "wrongShape", field: "email").check(question)
    }

    @Test(arguments: [
        OptionErrorCase(["messageMaxLength": 0], .invalidValue, "$.options.messageMaxLength"),
        OptionErrorCase(["includeRating": "no"], .invalidValue, "$.options.includeRating"),
        OptionErrorCase(["categories": []], .invalidOptions, "$.options.categories"),
        OptionErrorCase(["categories": ["a", "a"]], .invalidOptions, "$.options.categories[1]"),
        OptionErrorCase(["includeEmails": true], .unknownField, "$.options.includeEmails"),
    ])
    func rejectsInvalidOptions(invalid: OptionErrorCase) {
        invalid.check(FeedbackFormType())
    }

    @Test func parseReadsAJSONObject() throws {
        let question = try configure(FeedbackFormType())
        let parsed = try question.parse(line: #"{"message": "hi", "rating": 5}"#, in: english)
        #expect(try question.normalize(parsed) == ["message": "hi", "rating": 5])
    }

    @Test func summaryCountsCategoriesAndRatings() throws {
        let question = try configure(FeedbackFormType(), Self.options)
        let answers: [JSONValue] = [
            ["message": "a", "rating": 5, "category": "bug"], ["message": "b", "rating": 2],
            ["message": "c", "category": "bug", "rating": 3], ["message": ""], nil,
        ]
        let summary = question.summarize(answers, in: english)
        #expect(summary.answered == 3)
        #expect(summary.buckets.map(\.value) == ["bug", "idea"])
        #expect(summary.buckets.map(\.label) == ["bug", "Idea"])
        #expect(summary.buckets.map(\.count) == [2, 0])
        #expect(summary.mean == 10.0 / 3.0 && summary.median == 3 && summary.minimum == 2 && summary.maximum == 5)
        #expect(try configure(FeedbackFormType()).summarize(answers, in: english).buckets.isEmpty)
    }

    @Test func normalizeIsIdempotent() throws {
        let question = try configure(FeedbackFormType(), Self.options)
        let once = try question.normalize(["rating": "2", "category": "BUG", "message": " slow ", "email": "x@Y.io"])
        #expect(try question.normalize(once) == once)
    }
}

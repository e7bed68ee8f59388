import SurveyBuiltins
import SurveyCore
import Testing

/// Choice values written as JSON numbers (SurveyJS's `"choices": [1, 2, 3]`) are stored as numbers.
struct NumericChoiceTests {
    static let options: JSONValue = ["choices": [1, ["value": 2.5, "label": "Two and a half"], "three"]]

    @Test(arguments: [
        (JSONValue.number(1), JSONValue.number(1)), ("1", 1), (2.5, 2.5), ("2.5", 2.5), ("Two and a half", 2.5),
        ("three", "three"),
    ])
    func singleChoiceStoresTheNumber(answer: JSONValue, expected: JSONValue) throws {
        let question = try configure(SingleChoiceType(), Self.options)
        #expect(try question.normalize(answer) == expected)
    }

    @Test func multipleChoiceStoresNumbersInTheRespondentsOrder() throws {
        let question = try configure(MultipleChoiceType(), Self.options)
        #expect(try question.normalize(["three", 2.5, "1"]) == ["three", 2.5, 1])
        #expect(answerError(question, [1, "1"])?.code == "duplicateSelection")
        #expect(answerError(question, [4])?.code == "notAChoice")
    }

    @Test func theInputMarksNumericChoices() throws {
        let question = try configure(SingleChoiceType(), Self.options)
        let choices = question.input(in: english).choiceInput?.choices ?? []
        #expect(choices.map(\.value) == ["1", "2.5", "three"])
        #expect(choices.map(\.isNumeric) == [true, true, false])
        #expect(choices.map(\.answerValue) == [1, 2.5, "three"])
        #expect(choices.map(\.label) == ["1", "Two and a half", "three"])
    }

    @Test func aNumberAndItsTextAreTheSameValue() {
        #expect(
            optionError(SingleChoiceType(), ["choices": [2, "2"]])?.message.contains("duplicate value '2'") == true)
    }

    @Test func conditionsAndPipingSeeTheNumber() throws {
        let survey = try SurveyLoader(registry: .builtins()).load(
            text: """
                {"formatVersion": 1, "id": "n", "title": "N", "steps": [
                  {"id": "p", "type": "page", "steps": [
                    {"id": "q", "type": "single-choice", "options": {"choices": [{"value": 1, "label": "One"}, 2]}},
                    {"id": "r", "type": "text", "title": "You chose {q}", "visibleIf": "{q} = 1 and {q} < 2"}
                  ]}
                ]}
                """)
        var session = SurveySession(survey: survey)
        try session.answer("1", for: "q")
        #expect(session.answer(for: "q") == 1)
        #expect(session.currentStep?.questions.last?.title == "You chose One")
        try session.answer(2, for: "q")
        #expect(session.currentStep?.questions.map(\.id) == ["q"])
    }
}

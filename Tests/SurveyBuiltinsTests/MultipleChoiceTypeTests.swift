import SurveyBuiltins
import SurveyCore
import Testing

struct MultipleChoiceTypeTests {
    static let options: JSONValue = ["choices": ["red", "green", "blue"], "other": true]

    static let normalForms: [(JSONValue, JSONValue)] = [
        (["blue", "red"], ["blue", "red"]),
        (["teal", "green"], ["teal", "green"]),
        (["other", "  teal "], ["teal"]),
        (["Green"], ["green"]),
        ([], .null),
    ]

    /// The respondent's order is kept and an empty selection is no answer, as in SurveyJS.
    @Test(arguments: normalForms)
    func normalizesInTheRespondentsOrder(answer: JSONValue, expected: JSONValue) throws {
        let question = try configure(MultipleChoiceType(), Self.options)
        #expect(try question.normalize(answer) == expected)
    }

    @Test(arguments: [
        AnswerErrorCase(["red", "red"], "duplicateSelection", ["value": "red"]),
        AnswerErrorCase(["red", "RED"], "duplicateSelection", ["value": "red"]),
        AnswerErrorCase(["teal", "pink"], "notAChoice", ["value": "pink"]),
        AnswerErrorCase(["teal", "teal"], "duplicateSelection", ["value": "teal"]),
        AnswerErrorCase(["red", "other"], "otherTextRequired", [:]),
        AnswerErrorCase("red", "wrongShape", ["expected": "a list of choices", "got": "a string"]),
        AnswerErrorCase([["red"]], "wrongShape"),
    ])
    func rejectsInvalidAnswers(invalid: AnswerErrorCase) throws {
        invalid.check(try configure(MultipleChoiceType(), Self.options))
    }

    @Test func enforcesSelectionCounts() throws {
        let question = try configure(
            MultipleChoiceType(), ["choices": ["a", "b", "c", "d"], "minSelections": 2, "maxSelections": 3])
        AnswerErrorCase(["a"], "tooFewSelections", ["min": "2"]).check(question)
        AnswerErrorCase(["a", "b", "c", "d"], "tooManySelections", ["max": "3"]).check(question)
        #expect(try question.normalize(["c", "a"]) == ["c", "a"])
        #expect(
            question.input(in: english).choiceInput?.minimumSelections == 2
                && question.input(in: english).choiceInput?.maximumSelections == 3)
    }

    /// Answers made of exact choice values take a short path (no matching, no set of picks): its
    /// duplicate and limit checks must hold as the general path's do, for choices past the 64th (the
    /// second word of its bit set) and past the 128th (the general path), and for long answers.
    @Test func exactValuesTakeAShortPathWithTheSameChecks() throws {
        let values = (0..<200).map { JSONValue.string("c\($0)") }
        let question = try configure(MultipleChoiceType(), ["choices": .array(values), "maxSelections": 20])
        #expect(try question.normalize(["c70", "c3", "c150"]) == ["c70", "c3", "c150"])
        #expect(try question.normalize(["c3", "c67"]) == ["c3", "c67"])
        AnswerErrorCase(["c70", "c3", "c70"], "duplicateSelection", ["value": "c70"]).check(question)
        AnswerErrorCase(["c150", "c1", "c150"], "duplicateSelection", ["value": "c150"]).check(question)
        AnswerErrorCase(["c1", "C1"], "duplicateSelection", ["value": "c1"]).check(question)
        let long = JSONValue.array(Array(values[40..<58]))
        #expect(try question.normalize(long) == long)
        AnswerErrorCase(.array(Array(values[..<21])), "tooManySelections", ["max": "20"]).check(question)
        AnswerErrorCase(.array(Array(values[..<16]) + [values[3]]), "duplicateSelection", ["value": "c3"])
            .check(question)
        let limited = try configure(MultipleChoiceType(), ["choices": ["a", "b", "c"], "minSelections": 2])
        AnswerErrorCase(["b"], "tooFewSelections", ["min": "2"]).check(limited)
    }

    @Test func withoutOtherUnknownValuesAreRejected() throws {
        let question = try configure(MultipleChoiceType(), ["choices": ["a", "b"]])
        AnswerErrorCase(["a", "z"], "notAChoice", ["value": "z"]).check(question)
    }

    @Test(arguments: [
        OptionErrorCase(
            ["choices": ["a", "b"], "minSelections": 2, "maxSelections": 1], .invalidOptions, "$.options.maxSelections"),
        OptionErrorCase(["choices": ["a", "b"], "maxSelections": 3], .invalidOptions, "$.options.maxSelections"),
        OptionErrorCase(["choices": ["a", "b"], "minSelections": 3], .invalidOptions, "$.options.minSelections"),
        OptionErrorCase(["choices": ["a", "b"], "maxSelections": 0], .invalidValue, "$.options.maxSelections"),
        OptionErrorCase(["choices": ["a", "b"], "minSelections": -1], .invalidValue, "$.options.minSelections"),
        OptionErrorCase(["choices": ["a", "a"]], .invalidOptions, "$.options.choices[1]"),
        OptionErrorCase(["choices": ["a"], "maxSelection": 1], .unknownField, "$.options.maxSelection"),
    ])
    func rejectsInvalidOptions(invalid: OptionErrorCase) {
        invalid.check(MultipleChoiceType())
    }

    @Test func otherCountsTowardsTheMaximumNumberOfChoices() throws {
        let question = try configure(MultipleChoiceType(), ["choices": ["a", "b"], "other": true, "maxSelections": 3])
        #expect(try question.normalize(["b", "mine", "a"]) == ["b", "mine", "a"])
    }

    @Test func parseSplitsOnCommas() throws {
        let question = try configure(MultipleChoiceType(), Self.options)
        let parsed = try question.parse(line: "3, 1", in: english)
        #expect(parsed == ["blue", "red"])
        #expect(try question.normalize(parsed) == ["blue", "red"])
        #expect(try question.parse(line: "", in: english) == [])
    }

    @Test func summaryCountsEachSelection() throws {
        let question = try configure(MultipleChoiceType(), Self.options)
        let summary = question.summarize([["red", "blue"], ["red"], ["teal"], []], in: english)
        #expect(summary.answered == 3)
        #expect(summary.buckets.map(\.value) == ["red", "green", "blue", "other"])
        #expect(summary.buckets.map(\.count) == [2, 0, 1, 1])
    }

    @Test(arguments: [JSONValue.array(["blue", "teal", "red"]), ["other", "x"], ["red"]])
    func normalizeIsIdempotent(answer: JSONValue) throws {
        let question = try configure(MultipleChoiceType(), Self.options)
        let once = try question.normalize(answer)
        #expect(try question.normalize(once) == once)
    }
}

/// `none` ("None of the above", SurveyJS's `showNoneItem`) and `selectAll` (`showSelectAllItem`).
struct MultipleChoiceNoneAndSelectAllTests {
    static let options: JSONValue = ["choices": ["a", "b", "c"], "none": true, "other": true, "selectAll": true]

    @Test func noneIsAnExclusiveChoiceBeforeOther() throws {
        let question = try configure(MultipleChoiceType(), Self.options)
        let input = try #require(question.input(in: english).choiceInput)
        #expect(input.choices.map(\.value) == ["a", "b", "c", "none", "other"])
        #expect(input.choices.map(\.isExclusive) == [false, false, false, true, false])
        #expect(input.choices[3].label == "None of the above")
        let french = try #require(
            question.input(in: PresentationContext(locale: "fr", defaultLocale: "en")).choiceInput)
        #expect(french.choices[3].label == "Aucune de ces réponses")
        #expect(french.selectAllLabel == "Tout sélectionner")
    }

    @Test func noneIsStoredAsAListOfItself() throws {
        let question = try configure(MultipleChoiceType(), Self.options)
        #expect(try question.normalize(["none"]) == ["none"])
        // Typed in a terminal, the label reads as the choice too.
        #expect(try question.parse(line: "None of the above", in: english) == ["none"])
    }

    @Test(arguments: [JSONValue.array(["a", "none"]), ["none", "b"], ["none", "my own"]])
    func noneWithAnythingElseIsRefused(answer: JSONValue) throws {
        let question = try configure(MultipleChoiceType(), Self.options)
        AnswerErrorCase(answer, "exclusiveChoice", ["label": "None of the above", "value": "none"]).check(question)
        do {
            _ = try question.normalize(answer, in: PresentationContext(locale: "de", defaultLocale: "en"))
            Issue.record("accepted \(answer)")
        } catch {
            #expect(error.arguments["label"] == "Nichts davon")
            #expect(
                UIStrings(locale: "de").message(for: error)
                    == "„Nichts davon“ kann nicht mit anderen Antworten kombiniert werden.")
        }
    }

    @Test func noneAloneSatisfiesMinimumSelections() throws {
        let question = try configure(
            MultipleChoiceType(), ["choices": ["a", "b", "c"], "none": true, "minSelections": 2])
        #expect(try question.normalize(["none"]) == ["none"])
        AnswerErrorCase(["a"], "tooFewSelections", ["min": "2"]).check(question)
    }

    @Test func noneTakesALabel() throws {
        let question = try configure(
            MultipleChoiceType(), ["choices": ["a"], "none": ["en": "I use none", "fr": "Aucun"]])
        let choices = try #require(question.input(in: english).choiceInput?.choices)
        #expect(choices.last?.value == "none" && choices.last?.label == "I use none")
        #expect(try question.normalize(["I use none"]) == ["none"])
    }

    @Test(arguments: [
        OptionErrorCase(["choices": ["a", "none"], "none": true], .invalidOptions, "$.options.none"),
        OptionErrorCase(["choices": ["a"], "none": 1], .invalidValue, "$.options.none"),
        OptionErrorCase(["choices": ["a"], "selectAll": []], .invalidValue, "$.options.selectAll"),
        OptionErrorCase(
            ["choices": ["a", "b", "c"], "selectAll": true, "maxSelections": 2], .invalidOptions, "$.options.selectAll"),
        OptionErrorCase(
            ["choices": ["a", "b"], "none": true, "maxSelections": 3], .invalidOptions, "$.options.maxSelections"),
    ])
    func badOptionsAreRejected(invalid: OptionErrorCase) {
        invalid.check(MultipleChoiceType())
    }

    @Test func selectAllIsAPresentationItemNotAChoice() throws {
        let question = try configure(MultipleChoiceType(), Self.options)
        let input = try #require(question.input(in: english).choiceInput)
        #expect(input.selectAllLabel == "Select all")
        #expect(input.selectAllValues == ["a", "b", "c"])
        #expect(!input.choices.contains { $0.label == "Select all" })
        #expect(try question.normalize(.array(input.selectAllValues.map(JSONValue.string))) == ["a", "b", "c"])
        let plain = try configure(MultipleChoiceType(), ["choices": ["a"], "selectAll": false])
        #expect(plain.input(in: english).choiceInput?.selectAllLabel == nil)
        let labelled = try configure(MultipleChoiceType(), ["choices": ["a"], "selectAll": "All of them"])
        #expect(labelled.input(in: english).choiceInput?.selectAllLabel == "All of them")
    }

    @Test func theInputJSONCarriesBothAndReadsBack() throws {
        let question = try configure(MultipleChoiceType(), Self.options)
        let input = question.input(in: english)
        let json = input.jsonValue
        #expect(json["selectAll"] == "Select all")
        let choices = try #require(json["choices"]?.arrayValue)
        #expect(choices[3] == ["value": "none", "label": "None of the above", "isOther": false, "isExclusive": true])
        #expect(choices[0]["isExclusive"] == nil)
        #expect(try InputPrimitive(json: json) == input)
    }
}

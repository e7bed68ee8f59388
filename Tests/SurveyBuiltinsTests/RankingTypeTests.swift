import SurveyBuiltins
import SurveyCore
import Testing

struct RankingTypeTests {
    static let options: JSONValue = ["items": ["price", ["value": "quality", "label": "Quality"], "speed"]]

    static let normalForms: [(JSONValue, JSONValue)] = [
        (["speed", "price", "quality"], ["speed", "price", "quality"]),
        ([" Quality ", "SPEED", "price"], ["quality", "speed", "price"]),
    ]

    @Test(arguments: normalForms)
    func keepsTheOrderAndNormalizesValues(answer: JSONValue, expected: JSONValue) throws {
        #expect(try configure(RankingType(), Self.options).normalize(answer) == expected)
    }

    @Test(arguments: [
        AnswerErrorCase(["price", "speed"], "incompleteRanking", ["count": "3"]),
        AnswerErrorCase([], "incompleteRanking", ["count": "3"]),
        AnswerErrorCase(["price", "price", "speed"], "duplicateSelection", ["value": "price"]),
        AnswerErrorCase(["price", "cost", "speed"], "notAChoice", ["value": "cost"]),
        AnswerErrorCase("price", "wrongShape"),
    ])
    func rejectsInvalidAnswers(invalid: AnswerErrorCase) throws {
        invalid.check(try configure(RankingType(), Self.options))
    }

    @Test func inputIsAnOrderedChoiceOfAllItems() throws {
        let question = try configure(RankingType(), ["items": ["a", "b"], "shuffle": true])
        #expect(
            question.input(in: english)
                == .multipleChoice(
                    ChoiceInput(
                        choices: [Choice(value: "a", label: "a"), Choice(value: "b", label: "b")], minimumSelections: 2,
                        maximumSelections: 2, isShuffled: true, isOrdered: true)))
    }

    @Test(arguments: [
        OptionErrorCase([:], .missingField, "$.options"),
        OptionErrorCase(["items": ["only"]], .invalidOptions, "$.options.items"),
        OptionErrorCase(["items": ["a", "a"]], .invalidOptions, "$.options.items[1]"),
        OptionErrorCase(["items": ["a", "b"], "other": true], .unknownField, "$.options.other"),
        OptionErrorCase(["items": "a,b"], .invalidValue, "$.options.items"),
    ])
    func rejectsInvalidOptions(invalid: OptionErrorCase) {
        invalid.check(RankingType())
    }

    @Test func parseReadsTheOrderAsNumbers() throws {
        let question = try configure(RankingType(), Self.options)
        let parsed = try question.parse(line: "3,1,2", in: english)
        #expect(try question.normalize(parsed) == ["speed", "price", "quality"])
    }

    @Test func summaryCountsFirstPlaces() throws {
        let question = try configure(RankingType(), Self.options)
        let answers: [JSONValue] = [
            ["speed", "price", "quality"], ["speed", "quality", "price"], ["price", "speed", "quality"], nil,
        ]
        let summary = question.summarize(answers, in: english)
        #expect(summary.answered == 3)
        #expect(summary.buckets.map(\.value) == ["price", "quality", "speed"])
        #expect(summary.buckets.map(\.label) == ["price", "Quality", "speed"])
        #expect(summary.buckets.map(\.count) == [1, 0, 2])
        #expect(summary.buckets[2].percentage == 200.0 / 3.0)
        #expect(RankingType.meanRanks(of: answers) == ["speed": 4.0 / 3.0, "price": 2, "quality": 8.0 / 3.0])
        // Each item's average position travels with its bucket, for reports.
        #expect(summary.buckets.map(\.mean) == [2, 8.0 / 3.0, 4.0 / 3.0])
    }

    @Test func normalizeIsIdempotent() throws {
        let question = try configure(RankingType(), Self.options)
        let once = try question.normalize(["QUALITY", "speed", "price"])
        #expect(try question.normalize(once) == once)
    }

    /// `=` and `<>` on a ranking's answer compare the items in order, as survey-core does; `anyof` and
    /// a multiple choice's `=` still ignore the order.
    @Test(arguments: [
        ("{r} = ['b', 'a']", true), ("{r} = ['a', 'b']", false), ("['b', 'a'] = {r}", true),
        ("{r} <> ['a', 'b']", true), ("{r} notequal ['B', 'A']", false), ("{r} allof ['a', 'b']", true),
        ("{m} = ['b', 'a']", true),
    ])
    func equalityOnTheAnswerKeepsTheOrder(condition: String, holds: Bool) throws {
        let text = """
            {"formatVersion": 1, "id": "s", "title": "T", "steps": [
              {"id": "p1", "type": "page", "steps": [
                {"id": "r", "type": "ranking", "options": {"items": ["a", "b"]}},
                {"id": "m", "type": "multiple-choice", "options": {"choices": ["a", "b"]}},
                {"id": "shown", "type": "text", "visibleIf": "\(condition)"}]}]}
            """
        var session = SurveySession(survey: try SurveyLoader(registry: .builtins()).load(text: text, source: "s.json"))
        _ = try session.answer(["b", "a"], for: "r")
        _ = try session.answer(["a", "b"], for: "m")
        #expect(session.currentStepIDs.contains("shown") == holds)
    }
}

import SurveyBuiltins
import SurveyCore
import SurveyRendering
import Testing

/// The text front end's hints come from the UI strings of the session's locale.
@Suite("Text front end hints")
struct TextHintTests {
    static let definition = """
        {
          "formatVersion": 1, "id": "hints", "title": "Hints", "defaultLocale": "en",
          "steps": [
            { "id": "hello", "type": "content", "title": "Hello" },
            { "id": "fruit", "type": "multiple-choice", "title": "Fruit?",
              "options": { "choices": ["Apple", "Pear", "Plum"] } },
            { "id": "order", "type": "ranking", "title": "Order?", "options": { "items": ["Speed", "Price"] } },
            { "id": "story", "type": "text", "title": "Story?", "options": { "multiline": true } }
          ]
        }
        """

    let survey: Survey

    init() throws {
        survey = try SurveyLoader(registry: .builtins()).load(text: Self.definition, source: "hints.json")
    }

    @Test func aScaleOfHugeNumbersShowsAtMostElevenPoints() throws {
        // Adding the step to 1e17 does not change it: listing the points used to loop forever.
        let survey = try SurveyLoader(registry: .builtins()).load(
            text: """
                {"formatVersion": 1, "id": "big", "title": "Big", "steps": [
                  {"id": "n", "type": "number", "title": "N?", "options": {"min": 1e17, "max": 100000000000000016, "step": 2}}
                ]}
                """)
        let (_, text) = runText(survey, ["100000000000000000"])
        let points = try #require(text.split(separator: "\n").first { $0.hasPrefix("  1e+17") })
        #expect(points.split(separator: " ").count == 11)
    }

    @Test func englishHints() {
        let (outcome, text) = runText(survey, ["b", "", "1,3", "2,1", "Once upon", "a time", ""])
        #expect(text.contains("! You are at the first question."))
        #expect(text.contains("[Enter] Continue"))
        #expect(text.contains("Select all that apply · Type numbers separated by commas, e.g. 1,3"))
        #expect(text.contains("Type the numbers in order, e.g. 2,1"))
        #expect(text.contains("Type your answer · Finish with an empty line"))
        #expect(
            outcome.result?.answers == [
                "fruit": ["Apple", "Plum"], "order": ["Price", "Speed"], "story": "Once upon\na time",
            ])
    }

    @Test(arguments: [
        ("fr", "Vous êtes à la première question.", "[Entrée] Continuer", "Saisissez les numéros dans l’ordre"),
        ("de", "Sie sind bei der ersten Frage.", "[Eingabe] Fortfahren", "Nummern in der gewünschten Reihenfolge"),
        ("ja", "最初の質問です。", "[Enter] 続ける", "番号を順番に入力してください（例: 2,1）"),
    ])
    func localisedHints(locale: String, first: String, enter: String, ranking: String) {
        let (_, text) = runText(survey, ["b", "", "1", "1,2", "x", ""], locale: locale)
        let strings = UIStrings(locale: locale)
        #expect(text.contains("! " + first))
        #expect(text.contains(enter))
        #expect(text.contains(ranking))
        #expect(text.contains(strings.format(.multipleChoiceHint, ["example": "1,3"])))
        #expect(text.contains(strings[.multilineHint]))
        #expect(!text.contains("Type the numbers"))
    }
}

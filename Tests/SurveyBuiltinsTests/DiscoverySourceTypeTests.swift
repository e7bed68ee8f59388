import SurveyBuiltins
import SurveyCore
import Testing

struct DiscoverySourceTypeTests {
    static let presetIDs = [
        "app-store", "google", "instagram", "tiktok", "youtube", "facebook", "x", "reddit", "threads", "linkedin",
        "product-hunt", "referral", "podcast", "article", "other",
    ]

    @Test func defaultsToEveryPresetWithIcons() throws {
        let question = try configure(DiscoverySourceType())
        let input = try #require(question.input(in: english).choiceInput)
        #expect(input.choices.map(\.value) == Self.presetIDs)
        #expect(input.choices.map(\.iconName) == Self.presetIDs)
        #expect(input.choices.first { $0.value == "x" }?.label == "X (Twitter)")
        #expect(input.choices.first { $0.value == "referral" }?.label == "Friend or colleague")
        #expect(input.choices.filter(\.isOther).map(\.value) == ["other"])
        #expect(input.choices.last?.label == "Other")
        let korean = try #require(
            question.input(in: PresentationContext(locale: "ko", defaultLocale: "en")).choiceInput)
        #expect(korean.choices.first { $0.value == "podcast" }?.label == "팟캐스트")
        #expect(korean.choices.first { $0.value == "google" }?.label == "Google")
    }

    static let normalForms: [(JSONValue, JSONValue)] = [
        ("google", "google"), ("TikTok", "tiktok"), ("Friend or colleague", "referral"), ("A billboard", "A billboard"),
        (" meetup ", "meetup"),
    ]

    @Test(arguments: normalForms)
    func acceptsSourcesAndOtherText(answer: JSONValue, expected: JSONValue) throws {
        let question = try configure(
            DiscoverySourceType(),
            [
                "sources": [
                    "google", "tiktok", "referral", ["value": "meetup", "label": "A meetup", "icon": "people"], "other",
                ]
            ])
        #expect(try question.normalize(answer) == expected)
    }

    @Test func customSourcesKeepTheirIcon() throws {
        let question = try configure(
            DiscoverySourceType(), ["sources": [["value": "meetup", "label": "A meetup", "icon": "people"], "google"]])
        #expect(
            question.input(in: english)
                == .singleChoice(
                    ChoiceInput(choices: [
                        Choice(value: "meetup", label: "A meetup", iconName: "people"),
                        Choice(value: "google", label: "Google", iconName: "google"),
                    ])))
    }

    @Test(arguments: [
        AnswerErrorCase("other", "otherTextRequired", [:]),
        AnswerErrorCase(true, "wrongShape"),
        AnswerErrorCase(["google"], "wrongShape"),
    ])
    func rejectsInvalidAnswers(invalid: AnswerErrorCase) throws {
        invalid.check(try configure(DiscoverySourceType()))
    }

    @Test func withoutOtherUnknownSourcesAreRejected() throws {
        let question = try configure(DiscoverySourceType(), ["sources": ["google", "reddit"]])
        AnswerErrorCase("bing", "notAChoice", ["value": "bing"]).check(question)
    }

    @Test func shuffleMovesOtherLast() throws {
        let question = try configure(
            DiscoverySourceType(), ["sources": ["other", "google", "reddit"], "shuffle": true])
        let input = try #require(question.input(in: english).choiceInput)
        #expect(input.choices.map(\.value) == ["google", "reddit", "other"])
        #expect(input.isShuffled)
        let unshuffled = try configure(DiscoverySourceType(), ["sources": ["other", "google"]])
        #expect(unshuffled.input(in: english).choiceInput?.choices.map(\.value) == ["other", "google"])
    }

    @Test(arguments: [
        OptionErrorCase(["sources": ["google", "bing"]], .invalidOptions, "$.options.sources[1]"),
        OptionErrorCase(["sources": ["google", "google"]], .invalidOptions, "$.options.sources[1]"),
        OptionErrorCase(
            ["sources": ["google", ["value": "google", "label": "G"]]], .invalidOptions, "$.options.sources[1]"),
        OptionErrorCase(["sources": []], .invalidOptions, "$.options.sources"),
        OptionErrorCase(["sources": [["label": "Bing"]]], .missingField, "$.options.sources[0]"),
        OptionErrorCase(["sources": [1]], .invalidValue, "$.options.sources[0]"),
        OptionErrorCase(["choices": ["google"]], .unknownField, "$.options.choices"),
    ])
    func rejectsInvalidOptions(invalid: OptionErrorCase) {
        invalid.check(DiscoverySourceType())
    }

    @Test func unknownPresetSuggestsOrListsPresets() {
        #expect(
            optionError(DiscoverySourceType(), ["sources": ["tiktock"]])?.message.contains("did you mean 'tiktok'")
                == true)
        let message = optionError(DiscoverySourceType(), ["sources": ["billboard"]])?.message ?? ""
        #expect(message.contains("app-store, google"))
        #expect(message.contains("custom sources"))
    }

    @Test func parseAcceptsNumbersLabelsAndOtherText() throws {
        let question = try configure(DiscoverySourceType())
        #expect(try question.parse(line: "2", in: english) == "google")
        #expect(try question.parse(line: "youtube", in: english) == "youtube")
        #expect(try question.normalize(try question.parse(line: "a billboard", in: english)) == "a billboard")
    }

    @Test func summaryCountsSourcesWithOtherTextsInOther() throws {
        let summary = try configure(DiscoverySourceType(), ["sources": ["google", "reddit", "other"]])
            .summarize(["google", "google", "billboard", "reddit"], in: english)
        #expect(summary.buckets.map(\.value) == ["google", "reddit", "other"])
        #expect(summary.buckets.map(\.count) == [2, 1, 1])
        #expect(summary.buckets.map(\.percentage) == [50, 25, 25])
    }

    @Test(arguments: ["Google", "friend or colleague", "radio"])
    func normalizeIsIdempotent(answer: String) throws {
        let question = try configure(DiscoverySourceType())
        let once = try question.normalize(.string(answer))
        #expect(try question.normalize(once) == once)
    }
}

/// A bad condition on a custom source is reported where it is written: `options.sources[i]`.
struct DiscoverySourceConditionPathTests {
    @Test func theErrorNamesTheSourcesElement() {
        let text = """
            {"formatVersion": 1, "id": "d", "title": "D", "steps": [{"id": "a", "type": "text"},
             {"id": "src", "type": "discovery-source",
              "options": {"sources": ["google", {"value": "club", "visibleIf": "{nosuch} = 1"}]}}]}
            """
        do {
            _ = try SurveyLoader(registry: .builtins()).load(text: text, source: "d.json")
            Issue.record("loaded")
        } catch {
            #expect(error.errors.first?.path?.description == "$.steps[1].options.sources[1].visibleIf", "\(error)")
        }
    }
}

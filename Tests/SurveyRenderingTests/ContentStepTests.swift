import SurveyBuiltins
import SurveyCore
import SurveyRendering
import Testing

/// Content steps show their body text and media in every front end.
@Suite("Content steps")
struct ContentStepTests {
    static let definition = """
        {
          "formatVersion": 1, "id": "content-demo", "title": "Content", "defaultLocale": "en",
          "steps": [
            { "id": "name", "type": "text", "title": { "en": "Your name?", "fr": "Votre nom ?" }, "required": true },
            { "id": "hello", "type": "content", "title": { "en": "Hello, {name}!", "fr": "Bonjour, {name} !" },
              "options": {
                "body": { "en": "Nice to meet you, {name}.", "fr": "Enchanté, {name}." },
                "media": { "url": "https://example.com/wave.png", "kind": "image",
                           "alt": { "en": "A wave", "fr": "Un signe de la main" } } } },
            { "id": "clip", "type": "content", "title": "Listen",
              "options": { "media": { "file": "media/clip.m4a", "kind": "audio" } } },
            { "id": "plain", "type": "content", "title": "The end" }
          ]
        }
        """

    let survey: Survey

    init() throws {
        survey = try SurveyLoader(registry: .builtins()).load(text: Self.definition, source: "content-demo.json")
    }

    @Test func textShowsBodyAndMediaUnderTheTitle() {
        let (outcome, text) = runText(survey, ["Ada", "", "", ""])
        #expect(outcome.result?.path == ["name", "hello", "clip", "plain"])
        #expect(
            text.contains(
                """
                Hello, Ada!
                Nice to meet you, Ada.
                [image: https://example.com/wave.png] A wave

                """))
        #expect(text.contains("Listen\n[audio: media/clip.m4a]\n"))
        #expect(text.contains("The end\n[Enter]"))
    }

    @Test func textShowsContentInTheSessionsLocale() {
        let (_, text) = runText(survey, ["Ada", ""], locale: "fr")
        #expect(
            text.contains("Bonjour, Ada !\nEnchanté, Ada.\n[image: https://example.com/wave.png] Un signe de la main\n")
        )
    }

    @Test func stepEventCarriesTheContent() throws {
        let (_, events) = runJSON(
            survey, [#"{"command":"answer","stepId":"name","value":"Ada"}"#, "\"next\"", "\"next\"", "\"next\""])
        let steps = events.filter { $0.event == "step" }.compactMap { $0["step"]?["questions"]?.arrayValue?.first }
        #expect(steps.count == 4)
        #expect(steps[0]["content"] == nil)
        #expect(
            steps[1]["content"]
                == [
                    "body": "Nice to meet you, Ada.",
                    "media": [
                        "reference": "https://example.com/wave.png", "isURL": true, "kind": "image", "alt": "A wave",
                    ],
                ])
        #expect(steps[2]["content"] == ["media": ["reference": "media/clip.m4a", "isURL": false, "kind": "audio"]])
        #expect(steps[3]["content"] == nil)
    }

    @Test func headlessTranscriptCarriesTheContent() {
        let run = HeadlessRun(survey: survey, script: .answers(["name": "Grace"]))
        #expect(run.isCompleted)
        #expect(
            run.eventLines.contains {
                $0.contains(#""content":{"body":"Nice to meet you, Grace.","media":{"alt":"A wave""#)
            })
    }
}

import SurveyBuiltins
import SurveyCore
import Testing

struct VoiceTypeTests {
    static let normalForms: [(JSONValue, JSONValue)] = [
        ("/tmp/answer.m4a", ["file": "/tmp/answer.m4a", "format": "m4a"]),
        (" rec.WAV ", ["file": "rec.WAV", "format": "wav"]),
        (
            ["file": "https://cdn.example.com/a/voice.mp3?sig=abc.def#t=1", "durationSeconds": 42.5],
            ["file": "https://cdn.example.com/a/voice.mp3?sig=abc.def#t=1", "format": "mp3", "durationSeconds": 42.5]
        ),
        (["file": "s3://bucket/recording", "format": ".OPUS"], ["file": "s3://bucket/recording", "format": "opus"]),
        (
            ["file": "take.ogg", "durationSeconds": "120"],
            ["file": "take.ogg", "format": "ogg", "durationSeconds": 120]
        ),
    ]

    @Test(arguments: normalForms)
    func normalizesReferences(answer: JSONValue, expected: JSONValue) throws {
        #expect(try configure(VoiceType()).normalize(answer) == expected)
    }

    @Test(arguments: [
        AnswerErrorCase(
            ["file": "a.m4a", "durationSeconds": 120.5], "tooLongRecording", ["max": "120"], field: "durationSeconds"),
        AnswerErrorCase(
            ["file": "a.m4a", "durationSeconds": -1], "belowMinimum", ["min": "0"], field: "durationSeconds"),
        AnswerErrorCase(["file": "a.m4a", "durationSeconds": "long"], "notANumber", field: "durationSeconds"),
        AnswerErrorCase("clip.flac", "unsupportedFormat", ["formats": "m4a, wav, mp3, ogg, opus"]),
        AnswerErrorCase("recording", "unsupportedFormat"),
        AnswerErrorCase(".m4a", "unsupportedFormat"),
        AnswerErrorCase(["file": "a.m4a", "format": "aac"], "unsupportedFormat"),
        AnswerErrorCase(
            ["file": "a.m4a", "data": "AAAA"], "wrongShape",
            ["expected": "a file path or URI", "got": "inline audio data"]),
        AnswerErrorCase(
            ["file": "a.m4a", "base64": "AAAA"], "wrongShape",
            ["expected": "a file path or URI", "got": "inline audio data"]),
        AnswerErrorCase(
            "data:audio/mp4;base64,AAAA", "wrongShape", ["expected": "a file path or URI", "got": "inline audio data"]),
        AnswerErrorCase(
            ["file": "DATA:audio/wav;base64,AAAA"], "wrongShape",
            ["expected": "a file path or URI", "got": "inline audio data"]),
        AnswerErrorCase(["durationSeconds": 3], "wrongShape", field: "file"),
        AnswerErrorCase(["file": "a.m4a", "size": 3], "wrongShape", field: "size"),
        AnswerErrorCase("  ", "wrongShape"),
        AnswerErrorCase(42, "wrongShape"),
    ])
    func rejectsInvalidAnswers(invalid: AnswerErrorCase) throws {
        invalid.check(try configure(VoiceType()))
    }

    @Test func inlineDataMessageSaysToStoreAReference() throws {
        let error = answerError(try configure(VoiceType()), "data:audio/mp4;base64,AAAA")
        #expect(error?.message.contains("not the audio bytes") == true)
    }

    @Test func optionsSetFormatsAndDuration() throws {
        let question = try configure(VoiceType(), ["maxDurationSeconds": 30, "formats": [".M4A", "wav"]])
        #expect(
            question.input(in: english)
                == .fileReference(
                    FileInput(allowedFormats: ["m4a", "wav"], maximumDurationSeconds: 30, presentation: "audio")))
        AnswerErrorCase("a.mp3", "unsupportedFormat", ["formats": "m4a, wav"]).check(question)
        AnswerErrorCase(["file": "a.wav", "durationSeconds": 31], "tooLongRecording", ["max": "30"]).check(question)
    }

    @Test(arguments: [
        OptionErrorCase(["maxDurationSeconds": 0], .invalidOptions, "$.options.maxDurationSeconds"),
        OptionErrorCase(["maxDurationSeconds": "60"], .invalidValue, "$.options.maxDurationSeconds"),
        OptionErrorCase(["formats": []], .invalidOptions, "$.options.formats"),
        OptionErrorCase(["formats": ["m4a", "M4A"]], .invalidOptions, "$.options.formats[1]"),
        OptionErrorCase(["formats": ["m4a", ""]], .invalidOptions, "$.options.formats[1]"),
        OptionErrorCase(["formats": ["audio/mp4"]], .invalidOptions, "$.options.formats[0]"),
        OptionErrorCase(["formats": [3]], .invalidValue, "$.options.formats[0]"),
        OptionErrorCase(["maxDuration": 60], .unknownField, "$.options.maxDuration"),
    ])
    func rejectsInvalidOptions(invalid: OptionErrorCase) {
        invalid.check(VoiceType())
    }

    @Test func parseTakesAPath() throws {
        let question = try configure(VoiceType())
        let parsed = try question.parse(line: " ~/voice.wav ", in: english)
        #expect(try question.normalize(parsed) == ["file": "~/voice.wav", "format": "wav"])
    }

    @Test func summaryCountsFormatsAndDurations() throws {
        let question = try configure(VoiceType())
        let answers: [JSONValue] = [
            ["file": "a.m4a", "format": "m4a", "durationSeconds": 10],
            ["file": "b.m4a", "format": "m4a", "durationSeconds": 30], ["file": "c.wav", "format": "wav"], nil,
        ]
        let summary = question.summarize(answers, in: english)
        #expect(summary.answered == 3)
        #expect(summary.buckets.map(\.value) == ["m4a", "wav", "mp3", "ogg", "opus"])
        #expect(summary.buckets.map(\.count) == [2, 1, 0, 0, 0])
        #expect(summary.mean == 20 && summary.median == 20 && summary.minimum == 10 && summary.maximum == 30)
    }

    @Test(arguments: normalForms.map(\.0))
    func normalizeIsIdempotent(answer: JSONValue) throws {
        let question = try configure(VoiceType())
        let once = try question.normalize(answer)
        #expect(try question.normalize(once) == once)
    }
}

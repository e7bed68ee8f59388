import Foundation
import Testing

/// `survey test` refuses scripts with typos instead of passing them silently.
@Suite struct StrictScriptTests {
    static let feedback = Fixtures.directory.deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Examples/feedback.json").path

    func test(_ script: String, _ extra: [String] = []) throws -> SurveyBinary.Result {
        let directory = try Fixtures.temporaryDirectory()
        let path = directory.appendingPathComponent("script.json").path
        try Data(script.utf8).write(to: URL(fileURLWithPath: path))
        return try SurveyBinary.run(["test", Self.feedback, "--answers", path, "--quiet"] + extra)
    }

    @Test func anUnknownStepIDFailsWithASuggestion() throws {
        let result = try test(#"{"export-rating": 4, "export-ratin": 5}"#)
        #expect(result.status == 1)
        #expect(
            result.stderr.contains("the script answers 'export-ratin', which is not a step of this survey")
                && result.stderr.contains("did you mean 'export-rating'?"), "\(result.stderr)")
        #expect(try test(#"{"export-rating": 4, "export-ratin": 5}"#, ["--allow-extra"]).status == 0)
    }

    @Test func actionsAfterCompletionFail() throws {
        let script = #"{"actions": [{"command": "answer", "stepId": "export-rating", "value": 4}, "next", "back"]}"#
        let result = try test(script)
        #expect(result.status == 1)
        #expect(result.stderr.contains("the script has 1 action after the survey ended"), "\(result.stderr)")
        #expect(try test(script, ["--allow-extra"]).status == 0)
    }

    @Test func actionsOfTheWrongShapeAreNamedAsSuch() throws {
        let result = try test(#"{"actions": "next"}"#)
        #expect(result.status == 1)
        #expect(result.stderr.contains("'actions' must be an array of commands"), "\(result.stderr)")
    }
}

/// Inputs that are not plain files are read or refused with a clear line.
@Suite struct InputStreamTests {
    @Test func directoriesEmptyInputsAndBadUTF8AreNamed() throws {
        let directory = try Fixtures.temporaryDirectory()
        let folder = try SurveyBinary.run(["validate", directory.path])
        #expect(folder.status == 1)
        #expect(folder.stderr == "\(directory.path): is a directory, not a file\n")
        let empty = try SurveyBinary.run(["validate", "/dev/null"])
        #expect(empty.stderr == "/dev/null: the file is empty\n")
        let bad = directory.appendingPathComponent("bad.json")
        try Data([0x7B, 0x0A, 0x22, 0x61, 0xFF, 0x22]).write(to: bad)
        let invalid = try SurveyBinary.run(["validate", bad.path])
        #expect(invalid.stderr == "\(bad.path):2:3: the file is not UTF-8 text\n")
    }

    /// A file of 16 MiB or more is read in pieces on several threads: the text arrives whole (a survey
    /// padded past that size is valid), and a byte that is not UTF-8 at its very end is placed by
    /// counting every line before it.
    @Test func aLargeFileIsReadWhole() throws {
        let directory = try Fixtures.temporaryDirectory()
        var bytes = Array(try String(contentsOfFile: StrictScriptTests.feedback, encoding: .utf8).utf8)
        bytes.reserveCapacity(17 << 20 + 200)
        // Lines of spaces after the survey (JSON allows them), past the size read in pieces.
        let line = Array(String(repeating: " ", count: 99).utf8) + [10]
        while bytes.count < 17 << 20 { bytes += line }
        let large = directory.appendingPathComponent("large.json")
        try Data(bytes).write(to: large)
        let valid = try SurveyBinary.run(["validate", large.path])
        #expect(valid.status == 0, "\(valid.stderr)")
        #expect(valid.stdout == "\(large.path): valid\n")
        let lines = bytes.reduce(0) { $0 + ($1 == 10 ? 1 : 0) }
        bytes += Array("   ".utf8) + [0xFF]
        try Data(bytes).write(to: large)
        let invalid = try SurveyBinary.run(["validate", large.path])
        #expect(invalid.stderr == "\(large.path):\(lines + 1):4: the file is not UTF-8 text\n")
    }

    @Test func aPipeIsReadLikeAFile() throws {
        let result = try SurveyBinary.run(
            ["-c", "\"$0\" validate <(cat \"$1\")", SurveyBinary.url.path, StrictScriptTests.feedback],
            shell: true)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasSuffix(": valid\n"))
    }
}

@Suite struct ProtocolInputTests {
    @Test func aLineThatIsNotUTF8IsAnErrorEventNotAReplacedAnswer() throws {
        var input = Data(#"{"command":"answer","stepId":"export-rating","value":""#.utf8)
        input.append(0xFF)
        input.append(contentsOf: Array("\"}\n".utf8))
        input.append(contentsOf: Array((#"{"command":"answer","stepId":"export-rating","value":4}"# + "\n").utf8))
        let result = try SurveyBinary.run(
            ["run", StrictScriptTests.feedback, "--renderer", "json", "--no-store"],
            stdinData: input, directory: try Fixtures.temporaryDirectory())
        #expect(result.stdout.contains(#""code":"invalidUTF8""#), "\(result.stdout)")
        #expect(result.stdout.contains("the first bad byte is at offset 54"))
        #expect(!result.stdout.contains("\u{FFFD}"))
        #expect(result.stdout.contains(#"{"event":"answered","stepId":"export-rating","value":4}"#))
    }
}

/// Long protocol lines: read in linear time up to the documented limit, refused past it.
@Suite struct LongLineTests {
    static let survey =
        #"{"formatVersion":1,"id":"long","version":"1","title":"Long","steps":[{"id":"t","type":"text","title":"Say","required":true}]}"#

    @Test func aFiftyMegabyteAnswerLineIsReadAndKept() throws {
        let directory = try Fixtures.temporaryDirectory()
        let surveyFile = directory.appendingPathComponent("long.json")
        try Data(Self.survey.utf8).write(to: surveyFile)
        let length = 50_000_000
        var input = Data(#"{"command":"answer","stepId":"t","value":""#.utf8)
        input.append(Data(repeating: UInt8(ascii: "a"), count: length - 1))
        input.append(Data("z\"}\n{\"command\":\"next\"}\n".utf8))
        let inputFile = directory.appendingPathComponent("input.jsonl")
        try input.write(to: inputFile)
        let resultFile = directory.appendingPathComponent("result.json")
        let result = try SurveyBinary.run(
            ["run", surveyFile.path, "--renderer", "json", "--no-store", "--result", resultFile.path],
            stdinFile: inputFile, directory: directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stdout.contains(#""event":"error""#))
        let last = try #require(result.stdout.split(separator: "\n").last)
        #expect(last.hasPrefix(#"{"answers":{"t":"aaaa"#) && last.contains(#"z"},"event":"completed""#))
        let saved = try Data(contentsOf: resultFile)
        #expect(saved.count > length)
    }

    @Test func aLinePastTheLimitIsAnErrorEventNamingTheLimit() throws {
        let directory = try Fixtures.temporaryDirectory()
        let surveyFile = directory.appendingPathComponent("long.json")
        try Data(Self.survey.utf8).write(to: surveyFile)
        var input = Data(repeating: UInt8(ascii: " "), count: (64 << 20) + 1)
        input.append(Data("\n{\"command\":\"answer\",\"stepId\":\"t\",\"value\":\"short\"}\n\"next\"\n".utf8))
        let inputFile = directory.appendingPathComponent("input.jsonl")
        try input.write(to: inputFile)
        let result = try SurveyBinary.run(
            ["run", surveyFile.path, "--renderer", "json", "--no-store"], stdinFile: inputFile, directory: directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.contains(
                #"{"code":"lineTooLong","event":"error","message":"the line is 67108865 bytes, longer than the limit of 64 MiB (67108864 bytes) per line; it was ignored"}"#
            ), "\(result.stdout.prefix(2000))")
        #expect(result.stdout.contains(#""answers":{"t":"short"},"event":"completed""#))
    }

    @Test func aTerminalLinePastTheLimitIsAskedAgain() throws {
        let directory = try Fixtures.temporaryDirectory()
        let surveyFile = directory.appendingPathComponent("long.json")
        try Data(Self.survey.utf8).write(to: surveyFile)
        var input = Data(repeating: UInt8(ascii: "x"), count: (64 << 20) + 10)
        input.append(Data("\nshort\n".utf8))
        let inputFile = directory.appendingPathComponent("input.txt")
        try input.write(to: inputFile)
        let resultFile = directory.appendingPathComponent("result.json")
        let result = try SurveyBinary.run(
            ["run", surveyFile.path, "--no-store", "--result", resultFile.path], stdinFile: inputFile,
            directory: directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("! That input is longer than 64 MiB; it was ignored."), "\(result.stdout)")
        #expect(try String(contentsOf: resultFile, encoding: .utf8).contains(#""t": "short""#))
    }
}

@Suite struct TextInputTests {
    @Test func bytesThatAreNotUTF8AreAskedAgainNotTakenAsAnAnswer() throws {
        var input = Data([0x34, 0xFF, 0x0A])  // "4\xFF"
        input.append(contentsOf: Array("4\n".utf8))
        let result = try SurveyBinary.run(
            ["run", StrictScriptTests.feedback, "--no-store"], stdinData: input,
            directory: try Fixtures.temporaryDirectory())
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("! That input is not valid text; please type it again."))
        #expect(result.stdout.contains("The survey is complete."))
    }
}

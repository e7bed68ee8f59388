import Foundation
import Testing

/// `survey audit` on the built binary: the formats it reads and writes, the exit codes, `--fix` and
/// `--store`.
@Suite struct AuditCommandTests {
    let directory: URL
    let environment: [String: String]
    let file: String

    static let survey = """
        {"formatVersion": 1, "id": "audit", "title": "Audit",
         "calculatedValues": [{"name": "double", "expression": "{age} * 2", "includeIntoResult": true}],
         "steps": [
          {"id": "p1", "type": "page", "steps": [
            {"id": "age", "type": "number", "required": true},
            {"id": "pets", "type": "multiple-choice", "visibleIf": "{age} > 30", "options": {"choices": ["cat", "dog"]}}
          ]}
         ]}
        """

    init() throws {
        directory = try Fixtures.temporaryDirectory()
        environment = ["XDG_DATA_HOME": directory.appendingPathComponent("xdg").path]
        file = directory.appendingPathComponent("audit.json").path
        try Self.survey.write(toFile: file, atomically: true, encoding: .utf8)
    }

    func survey(_ arguments: [String], stdin: String = "") throws -> SurveyBinary.Result {
        try SurveyBinary.run(arguments, stdin: stdin, environment: environment, directory: directory)
    }

    static let responses = """
        {"age": 40, "pets": ["cat"], "double": 80}
        {"age": 20, "pets": ["dog"], "double": 40}

        {"surveyId": "audit", "path": ["p1"], "answers": {"double": 3, "shoe": 42}}
        """

    @Test func oneLinePerProblemASummaryAndExit1() throws {
        let result = try survey(["audit", file, "--responses", "-"], stdin: Self.responses)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(
            result.stdout == """
                <stdin>:2: hidden-answer $.pets (pets): 'pets' is hidden for these answers, so no respondent could answer it
                <stdin>:4: required-missing $.answers.age (age): required and shown for these answers, but not answered (Please answer this question.)
                <stdin>:4: calculated-mismatch $.answers.double (double): is 0 for these answers, the response says 3
                <stdin>:4: unknown-name $.answers.shoe: the survey has no 'shoe'
                3 responses audited: 1 clean, 2 with problems (calculated-mismatch 1, hidden-answer 1, required-missing 1, unknown-name 1)

                """)
    }

    @Test func aCleanArrayExits0AndJSONAndSARIFSayTheSame() throws {
        let path = directory.appendingPathComponent("clean.json").path
        try #"[{"age": 40, "pets": ["cat"], "double": 80}, {"age": 18, "double": 36}]"#.write(
            toFile: path, atomically: true, encoding: .utf8)
        let clean = try survey(["audit", file, "--responses", path])
        #expect(clean.status == 0, "\(clean.stdout)\(clean.stderr)")
        #expect(clean.stdout == "2 responses audited: 2 clean, 0 with problems\n")

        let json = try survey(["audit", file, "--responses", "-", "--format", "json"], stdin: Self.responses)
        #expect(json.status == 1)
        #expect(json.stdout.contains(#""failed": 2"#) && json.stdout.contains(#""code": "hidden-answer""#))
        let sarif = try survey(["audit", file, "--responses", "-", "--format", "sarif"], stdin: Self.responses)
        #expect(sarif.status == 1)
        #expect(sarif.stdout.contains(#""version": "2.1.0""#) && sarif.stdout.contains(#""ruleId": "unknown-name""#))
    }

    @Test func fixWritesCleanedResponsesNextToTheInputNeverOverIt() throws {
        let input = directory.appendingPathComponent("in.jsonl").path
        try Self.responses.write(toFile: input, atomically: true, encoding: .utf8)
        let out = directory.appendingPathComponent("fixed.jsonl").path
        let result = try survey(["audit", file, "--responses", input, "--fix", out])
        #expect(result.status == 1)
        let fixed = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(fixed.count == 3)
        #expect(fixed[1] == #"{"age":20,"double":40}"#, "the hidden answer dropped")
        #expect(
            fixed[2].contains(#""answers":{"double":0}"#), "the unknown name dropped, the calculated value recomputed")
        let again = try survey(["audit", file, "--responses", out])
        #expect(again.stdout.contains("required-missing"), "a missing answer cannot be made up: \(again.stdout)")
        #expect(
            !again.stdout.contains("hidden-answer") && !again.stdout.contains("calculated-mismatch"), "\(again.stdout)")

        let inPlace = try survey(["audit", file, "--responses", input, "--fix", input])
        #expect(inPlace.status == 2)
        #expect(try String(contentsOfFile: input, encoding: .utf8) == Self.responses)
    }

    @Test func usageErrorsExit2() throws {
        #expect(try survey(["audit", file]).status == 2)
        #expect(try survey(["audit", file, "--responses", "-", "--format", "xml"]).status == 2)
        #expect(try survey(["audit", file, "--responses", "-", "--data-shape", "csv"]).status == 2)
        // Every option at once, read as declared (a misread stops a debug build).
        let every = try survey(
            [
                "audit", file, "--responses", "-", "--format", "json", "--data-shape", "ours", "--fix",
                directory.appendingPathComponent("every.jsonl").path, "--parallel", "2", "--seed", "1", "--today",
                "2026-01-01", "--locale", "en", "--lenient-expressions", "--isolate-plugins", "--plugin-timeout", "5",
            ], stdin: Self.responses)
        #expect(every.status == 1 && !every.stderr.contains("Fatal error"), "\(every.stderr)")
        let help = try survey(["audit", "--help"])
        #expect(help.status == 0 && help.stdout.contains("--responses PATH|-"))
    }

    @Test func theResponsesAStoreHoldsAuditClean() throws {
        let feedback = RunEndingTests.feedback
        let run = try survey(["run", feedback, "--respondent", "ada"], stdin: "4\n")
        #expect(run.status == 0, "\(run.stderr)")
        let store = directory.appendingPathComponent("xdg/survey/responses.sqlite").path
        let audit = try survey(["audit", feedback, "--store", store])
        #expect(audit.status == 0, "\(audit.stdout)\(audit.stderr)")
        #expect(audit.stdout.hasPrefix("1 response audited: 1 clean"), "\(audit.stdout)")
    }

    /// docs/audit.md's example: its survey and responses, run with the command it shows, print what it shows.
    @Test func theDocumentedExamplePrintsWhatTheDocumentationShows() throws {
        let doc = try String(
            contentsOf: Fixtures.directory.deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("docs/audit.md"), encoding: .utf8)
        var blocks: [String: String] = [:]
        for (index, block) in doc.components(separatedBy: "```").enumerated() where index % 2 == 1 {
            let language = String(block.prefix { $0 != "\n" })
            if blocks[language] == nil { blocks[language] = String(block.drop { $0 != "\n" }.dropFirst()) }
        }
        let survey = try #require(blocks["json"])
        let responses = try #require(blocks["jsonl"])
        let output = try #require(blocks["text"])
        try survey.write(to: directory.appendingPathComponent("signup.json"), atomically: true, encoding: .utf8)
        try responses.write(to: directory.appendingPathComponent("responses.jsonl"), atomically: true, encoding: .utf8)
        let command = try #require(
            doc.components(separatedBy: "\n").first { $0.hasPrefix("`survey audit ") && $0.hasSuffix("` prints:") })
        let arguments = command.dropFirst("`survey ".count).dropLast("` prints:".count).split(separator: " ").map(
            String.init)
        let result = try self.survey(arguments)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stdout == output)
    }
}

import Foundation
import SurveyBuiltins
import SurveyCore
import SurveyRendering
import Testing

/// `file` and `signature` questions through the terminal and the JSON-event protocol.
@Suite struct FileFrontEndTests {
    static let text = """
        {"formatVersion": 1, "id": "f", "title": "Files", "steps": [
          {"id": "docs", "type": "file", "title": "Your documents",
           "options": {"formats": ["txt", "pdf"], "maxSizeBytes": 64, "multiple": true, "maxFiles": 2}},
          {"id": "sig", "type": "signature", "title": "Sign here", "required": true}
        ]}
        """

    static func load() throws -> Survey {
        try SurveyLoader(registry: .builtins()).load(text: text, source: "f.json")
    }

    /// A directory with `small.txt` (5 bytes) and `big.txt` (100 bytes).
    static func files() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("files-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data("hello".utf8).write(to: directory.appendingPathComponent("small.txt"))
        try Data(repeating: 65, count: 100).write(to: directory.appendingPathComponent("big.txt"))
        return directory
    }

    @Test func theTerminalFillsInLocalSizesAndChecksThem() throws {
        let directory = try Self.files()
        defer { try? FileManager.default.removeItem(at: directory) }
        let small = directory.appendingPathComponent("small.txt").path
        let big = directory.appendingPathComponent("big.txt").path
        let missing = directory.appendingPathComponent("none.txt").path
        let (outcome, output) = runText(
            try Self.load(), [missing, big, "\(small), https://cdn.example/b.pdf", "sig.png"])
        #expect(output.contains("txt, pdf  ≤ 64 bytes  · ≤ 2 path, path, …"))
        #expect(output.contains("No file at \(missing)."))
        #expect(output.contains("The file may be at most 64 bytes."))
        let answers = try #require(outcome.result?.answers)
        // The local file is measured; the URI cannot be, and is kept without a size.
        #expect(
            answers["docs"] == [
                ["file": .string(small), "name": "small.txt", "format": "txt", "size": 5],
                ["file": "https://cdn.example/b.pdf", "name": "b.pdf", "format": "pdf"],
            ])
    }

    @Test func theTerminalTakesSeveralFilesAndASignature() throws {
        let directory = try Self.files()
        defer { try? FileManager.default.removeItem(at: directory) }
        let small = directory.appendingPathComponent("small.txt").path
        let (outcome, _) = runText(try Self.load(), ["\(small),\(small)", "sig.png"])
        let answers = try #require(outcome.result?.answers)
        let file: JSONValue = ["file": .string(small), "name": "small.txt", "format": "txt", "size": 5]
        #expect(answers["docs"] == [file, file])
        #expect(answers["sig"] == ["file": "sig.png", "format": "png"])
    }

    @Test func theProtocolDescribesTheInputsAndRefusesBytes() throws {
        let (outcome, events) = runJSON(
            try Self.load(),
            [
                #"{"command":"answer","stepId":"docs","value":[{"file":"a.pdf","size":65}]}"#,
                #"{"command":"answer","stepId":"docs","value":[{"file":"a.pdf","size":64,"type":"application/pdf"}]}"#,
                #"{"command":"next"}"#,
                #"{"command":"answer","stepId":"sig","value":"data:image/png;base64,iVBORw0KGgo="}"#,
                #"{"command":"answer","stepId":"sig","value":{"file":"s/1.svg"}}"#,
                #"{"command":"next"}"#,
            ])
        let first = try #require(
            events.first { $0.event == "step" }?["step"]?["questions"]?.arrayValue?.first?["input"])
        #expect(first["kind"] == "file-reference" && first["presentation"] == "file")
        #expect(first["maxSizeBytes"] == 64 && first["maxFiles"] == 2 && first["formats"] == ["txt", "pdf"])
        let errors = events.filter { $0.event == "validation-error" }
        #expect(
            errors.compactMap { $0["errors"]?.arrayValue?.first?["code"]?.stringValue } == [
                "fileTooLarge", "wrongShape",
            ])
        #expect(errors.first?["errors"]?.arrayValue?.first?["field"] == "files[0].size")
        let answers = try #require(outcome.result?.answers)
        #expect(
            answers["docs"] == [
                ["file": "a.pdf", "name": "a.pdf", "format": "pdf", "size": 64, "type": "application/pdf"]
            ])
        #expect(answers["sig"] == ["file": "s/1.svg", "format": "svg"])
    }
}

/// `matrix-dropdown` through the terminal (a row at a time, "row › column") and the protocol.
@Suite struct MatrixDropdownFrontEndTests {
    static let text = """
        {"formatVersion": 1, "id": "md", "title": "Tools", "steps": [
          {"id": "usage", "type": "matrix-dropdown", "title": "How do you use them?",
           "options": {"rows": ["Email", "Chat"], "choices": ["daily", "weekly", "never"],
             "columns": [{"name": "often", "title": "How often"},
                         {"name": "hours", "title": "Hours", "cellType": "number", "options": {"max": 80}}]}},
          {"id": "why", "type": "text", "visibleIf": "{usage.Email.often} = 'daily'"}
        ]}
        """

    static func load() throws -> Survey {
        try SurveyLoader(registry: .builtins()).load(text: text, source: "md.json")
    }

    @Test func theTerminalAsksEachCellAndReAsksTheRowAtFault() throws {
        let (outcome, output) = runText(try Self.load(), ["1", "100", "/wee", "2", "", "", "50", "because"])
        #expect(output.contains("Email › How often › "))
        #expect(output.contains("Chat › Hours › "))
        #expect(output.contains("Enter a value of at most 80."))
        #expect(output.contains("  2) weekly"))
        let answers = try #require(outcome.result?.answers)
        #expect(answers["usage"] == ["Email": ["often": "daily", "hours": 50], "Chat": ["often": "weekly"]])
        #expect(answers["why"] == "because")
    }

    @Test func theProtocolSendsRowsOfCells() throws {
        let (outcome, events) = runJSON(
            try Self.load(),
            [
                #"{"command":"answer","stepId":"usage","value":{"Chat":{"often":"never","hours":1}}}"#,
                #"{"command":"next"}"#,
            ])
        let input = try #require(
            events.first { $0.event == "step" }?["step"]?["questions"]?.arrayValue?.first?["input"])
        #expect(input["kind"] == "composite" && input["presentation"] == "matrix-dropdown")
        let row = try #require(input["fields"]?.arrayValue?.first)
        #expect(row["name"] == "Email" && row["input"]?["kind"] == "composite")
        #expect(row["input"]?["fields"]?.arrayValue?.map { $0["name"] ?? .null } == ["often", "hours"])
        #expect(outcome.result?.answers["usage"] == ["Chat": ["often": "never", "hours": 1]])
    }
}

/// A ranking ranks the items offered: hidden ones (a carried-forward selection) are left out.
@Suite struct RankingOfOfferedItemsTests {
    @Test func aCarriedForwardRankingRanksOnlyTheSelectedItems() throws {
        let survey = try SurveyLoader(registry: .builtins()).load(
            text: """
                {"formatVersion": 1, "id": "rk", "title": "R", "steps": [
                  {"id": "habits", "type": "multiple-choice", "options": {"choices": ["run", "read", "sleep", "cook"]}},
                  {"id": "order", "type": "ranking", "choicesFromQuestion": "habits", "choicesFromQuestionMode": "selected"}]}
                """, source: "rk.json")
        var session = SurveySession(survey: survey)
        try session.answer(["read", "cook"], for: "habits")
        session.next()
        let input = try #require(session.currentStep?.questions.first?.input.choiceInput)
        #expect(input.choices.map(\.value) == ["read", "cook"])
        #expect(input.minimumSelections == 2 && input.maximumSelections == 2)
        #expect(throws: SessionError.self) { try session.answer(["cook"], for: "order") }
        #expect(throws: SessionError.self) { try session.answer(["cook", "read", "run"], for: "order") }
        #expect(try session.answer(["cook", "read"], for: "order") == ["cook", "read"])
    }
}

import Foundation
import SurveyBuiltins
import SurveyCore
import SurveyImport
import Testing

/// Remote content kept in memory: `mem://NAME` documents, a question table `{"table": NAME}`, and
/// `"remoteChoices": true` options filled in with `choices`.
final class InMemoryRemote: RemoteSurveyContent {
    var documents: [String: String] = [:]
    var tables: [String: String] = [:]
    var choices: [JSONValue] = ["red", "green"]
    var refusals: [String] = []

    func isRemote(_ location: String) -> Bool { location.hasPrefix("mem://") }

    func fetch(_ location: String, accept: (Data) throws -> Void) throws(TextReadError) -> (
        body: Data, warning: String?
    ) {
        guard let text = documents[location] else { throw TextReadError(location, "no such document") }
        do {
            try accept(Data(text.utf8))
        } catch {
            refusals.append("\(error)")
            throw TextReadError(location, "the server's copy was refused: \(error)")
        }
        return (Data(text.utf8), "\(location) was fetched")
    }

    var questionTableMarker: String { "\"table\"" }

    func questionTable(_ json: JSONValue, file: String, accept: (String) throws -> Void) throws -> (
        text: String, warning: String?
    )? {
        guard let name = json["table"]?.stringValue else { return nil }
        guard let survey = tables[name] else {
            throw SurveyLoadError(errors: [SurveyError(.invalidValue, "no table '\(name)'", file: file)])
        }
        try accept(survey)
        return (survey, "table \(name) was read")
    }

    var remoteChoicesMarker: String { "\"remoteChoices\"" }

    func resolveRemoteChoices(in survey: JSONValue, offUnreachable: Bool) throws(SurveyLoadError) -> RemoteChoices {
        guard case .object(var members) = survey, case .array(var steps) = members["steps"] else {
            return RemoteChoices(survey: survey, warnings: [], resolved: 0)
        }
        var resolved = 0
        for index in steps.indices {
            guard case .object(var step) = steps[index], case .object(var options) = step["options"],
                options["remoteChoices"] == .bool(true)
            else { continue }
            options["remoteChoices"] = nil
            options["choices"] = .array(choices)
            step["options"] = .object(options)
            steps[index] = .object(step)
            resolved += 1
        }
        members["steps"] = .array(steps)
        return RemoteChoices(survey: .object(members), warnings: ["\(resolved) list(s) fetched"], resolved: resolved)
    }
}

@Suite struct SurveySourceTests {
    static let own = """
        {"formatVersion": 1, "id": "own", "title": "Own",
         "steps": [{"id": "name", "type": "text", "title": "Name"}]}
        """

    /// A SurveyJS survey whose conversion does not load: `kids` (a third-party widget) is not converted,
    /// so the condition on line 3 names a step that does not exist.
    static let brokenSurveyJS = """
        {"pages": [{"name": "p", "elements": [
          {"type": "bootstrapslider", "name": "kids"},
          {"type": "text", "name": "n", "validators": [{"type": "regex", "regex": "(unclosed"}]}]}]}
        """

    final class Warnings {
        var lines: [String] = []
    }

    static func source(remote: (any RemoteSurveyContent)? = nil, warnings: Warnings = Warnings()) -> SurveySource {
        SurveySource(loader: SurveyLoader(registry: .builtins()), remote: remote) { warnings.lines.append($0) }
    }

    static func temporaryFile(_ text: String, name: String = "survey.json") throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("source-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test(arguments: [
        ("surveys/intake.json", "intake"), ("intake.surveyjs.json", "intake"), ("plain", "plain"), (".json", "survey"),
    ])
    func theDefaultIDIsTheFileName(file: String, id: String) {
        #expect(SurveySource.defaultID(for: file) == id)
    }

    @Test func aSurveyInThisFormatLoadsAsItIs() throws {
        let prepared = try Self.source().prepare(Self.own, file: "own.json")
        #expect(prepared.isOriginal)
        #expect(prepared.text == Self.own)
        #expect(try Self.source().load(Self.own, file: "own.json").id == "own")
    }

    @Test func aSurveyJSSurveyIsConvertedAndItsIDIsTheFileName() throws {
        let text = #"{"pages": [{"name": "p", "elements": [{"type": "text", "name": "age"}]}]}"#
        let warnings = Warnings()
        let survey = try Self.source(warnings: warnings).load(text, file: "dir/intake.json")
        #expect(survey.id == "intake")
        #expect(survey.stepDefinition("age") != nil)
        #expect(warnings.lines.isEmpty)
    }

    @Test func loadErrorsOfAConvertedSurveyArePlacedAtTheSurveyJSElement() throws {
        let warnings = Warnings()
        let source = Self.source(warnings: warnings)
        do {
            _ = try source.load(Self.brokenSurveyJS, file: "in.json")
            Issue.record("expected the converted survey not to load")
        } catch {
            #expect(error.errors.count == 1)
            let problem = try #require(error.errors.first)
            #expect(problem.file == "in.json")
            #expect(problem.position?.line == 3)
            #expect(problem.position?.column == 3)
            #expect(problem.message.contains("(in the converted survey at "))
        }
        #expect(warnings.lines.first?.hasPrefix("in.json:2:12: not converted: type 'bootstrapslider'") == true)
        #expect(
            warnings.lines.last
                == "in.json is a SurveyJS survey; 1 item was not converted (see 'survey import surveyjs in.json')")
        let conversion = try SurveyJSImporter.convert(text: Self.brokenSurveyJS, source: "in.json", id: "in")
        let problems = source.problems(of: conversion, original: Self.brokenSurveyJS, file: "in.json")
        #expect(problems.map(\.position?.line) == [3])
    }

    @Test func errorsInTheFileItselfKeepTheirPositions() throws {
        let text = """
            {"formatVersion": 1, "id": "own", "title": "Own",
             "steps": [{"id": "name", "type": "no-such-kind", "title": "Name"}]}
            """
        do {
            _ = try Self.source().load(text, file: "own.json")
            Issue.record("expected an unknown kind to fail")
        } catch {
            #expect(error.errors.first?.file == "own.json")
            #expect(error.errors.first?.position?.line == 2)
        }
    }

    @Test func remoteChoiceListsAreFilledInAndTheirPathsAreTheFiles() throws {
        let text = """
            {"formatVersion": 1, "id": "colour", "title": "Colour",
             "steps": [{"id": "colour", "type": "single-choice", "title": "Colour",
                        "options": {"remoteChoices": true}}]}
            """
        let warnings = Warnings()
        let source = Self.source(remote: InMemoryRemote(), warnings: warnings)
        let prepared = try source.prepare(text, file: "colour.json")
        #expect(!prepared.isOriginal)
        #expect(
            prepared.originalPath(JSONPath().appending("steps").appending(0))
                == JSONPath().appending("steps").appending(0))
        let survey = try source.load(text, file: "colour.json")
        #expect(survey.stepDefinition("colour") != nil)
        #expect(warnings.lines == ["1 list(s) fetched", "1 list(s) fetched"])
        // Without remote content the marker is only an unknown option.
        #expect(try Self.source().prepare(text, file: "colour.json").isOriginal)
    }

    @Test func aQuestionTableMakesTheSurveyAndItsErrorsNameTheFile() throws {
        let remote = InMemoryRemote()
        remote.tables["good"] = Self.own
        let warnings = Warnings()
        let source = Self.source(remote: remote, warnings: warnings)
        let prepared = try source.prepare(#"{"table": "good"}"#, file: "table.json")
        #expect(prepared.isGenerated)
        #expect(prepared.text == Self.own)
        #expect(prepared.originalPath(JSONPath().appending("steps")) == nil)
        #expect(warnings.lines == ["table good was read"])
        #expect(try source.load(#"{"table": "good"}"#, file: "table.json").id == "own")

        remote.tables["bad"] = #"{"formatVersion": 1, "id": "bad", "title": "Bad", "steps": [{"id": "x"}]}"#
        do {
            _ = try source.prepare(#"{"table": "bad"}"#, file: "table.json")
            Issue.record("expected a table that does not load to be refused")
        } catch {
            #expect(error.errors.map(\.file) == ["table.json"])
            #expect(error.errors.first?.position == nil)
        }
        do {
            _ = try source.prepare(#"{"table": "missing"}"#, file: "table.json")
            Issue.record("expected a missing table to fail")
        } catch {
            #expect(error.errors.map(\.message) == ["no table 'missing'"])
        }
    }

    @Test func aRemoteSurveyIsFetchedAndACopyThatDoesNotLoadIsRefused() throws {
        let remote = InMemoryRemote()
        remote.documents["mem://own"] = Self.own
        remote.documents["mem://broken"] = #"{"formatVersion": 1, "id": "b", "steps": []}"#
        let warnings = Warnings()
        let source = Self.source(remote: remote, warnings: warnings)
        #expect(try source.read("mem://own") == Self.own)
        #expect(warnings.lines == ["mem://own was fetched"])
        #expect(throws: TextReadError.self) { try source.read("mem://broken") }
        #expect(remote.refusals.count == 1)
        #expect(remote.refusals.first?.hasPrefix("mem://broken") == true)
    }

    @Test func withoutRemoteContentEveryLocationIsAFile() throws {
        let path = try Self.temporaryFile(Self.own)
        #expect(try Self.source().read(path) == Self.own)
        #expect(throws: TextReadError.self) { try Self.source().read("mem://own") }
    }
}

@Suite struct TextFileTests {
    @Test func aFileIsReadAsText() throws {
        let path = try SurveySourceTests.temporaryFile("héllo\n")
        #expect(try TextFile.read(path) == "héllo\n")
        #expect(try TextFile.readBytes(path) == Array("héllo\n".utf8))
    }

    @Test func problemsSayWhatIsWrongAndWhere() throws {
        let empty = try SurveySourceTests.temporaryFile("")
        #expect(throws: TextReadError(empty, "the file is empty")) { try TextFile.read(empty) }
        let directory = (empty as NSString).deletingLastPathComponent
        #expect(throws: TextReadError(directory, "is a directory, not a file")) { try TextFile.read(directory) }
        let missing = directory + "/missing.json"
        #expect(throws: TextReadError(missing, "cannot read the file (No such file or directory)")) {
            try TextFile.read(missing)
        }
        let large = try SurveySourceTests.temporaryFile("0123456789")
        #expect(throws: TextReadError(large, "the input is larger than 0 MiB")) {
            try TextFile.read(large, maximumSize: 4)
        }
        let bad = directory + "/bad.json"
        try Data([0x61, 0x0A, 0x62, 0xC3, 0xA9, 0xFF]).write(to: URL(fileURLWithPath: bad))
        let error = TextReadError(bad, "the file is not UTF-8 text", line: 2, column: 3)
        #expect(error.description == "\(bad):2:3: the file is not UTF-8 text")
        #expect(throws: error) { try TextFile.read(bad) }
    }

    /// A file of 16 MiB or more is read in pieces on several threads: every piece lands in its place,
    /// and a bad byte at the very end is found and placed.
    @Test func aLargeFileIsReadWhole() throws {
        let size = TextFile.parallelReadSize + 1_000_003
        var bytes = [UInt8](repeating: 0x61, count: size)
        for index in stride(from: 4095, to: size, by: 4096) { bytes[index] = 0x0A }
        let path = try SurveySourceTests.temporaryFile("")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let text = try TextFile.read(path)
        #expect(text.utf8.count == size)
        #expect(text.utf8.elementsEqual(bytes))
        #expect(try TextFile.readBytes(path) == bytes)
        bytes[size - 1] = 0xFF
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let lines = bytes.lazy.filter { $0 == 0x0A }.count
        let column = size - 1 - (bytes.lastIndex(of: 0x0A) ?? 0)
        #expect(throws: TextReadError(path, "the file is not UTF-8 text", line: lines + 1, column: column)) {
            try TextFile.read(path)
        }
    }
}

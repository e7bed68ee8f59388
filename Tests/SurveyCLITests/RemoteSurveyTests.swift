import Foundation
import SurveyTestFixtures
import Testing

/// `survey validate|test|lint|run https://…` and `choicesByUrl`, against a real HTTP server on
/// 127.0.0.1: fetched into the cache, offline from the cache with a warning, a broken copy never
/// replacing the good one.
@Suite struct RemoteSurveyTests {
    static func survey(choicesURL: String) -> String {
        """
        {"formatVersion": 1, "id": "where", "version": "3", "title": "Where", "steps": [
          {"id": "country", "type": "dropdown", "title": "Country", "required": true,
           "options": {"choicesByUrl": {"url": "\(choicesURL)", "path": "data;items", "valueName": "code", "titleName": "name"}}}]}
        """
    }

    @Test func aRemoteSurveyWithRemoteChoicesRunsAndOfflineRunsFromTheCache() throws {
        let server = try TestServer(files: [
            "countries.json":
                #"{"data": {"items": [{"code": "fr", "name": "France"}, {"code": "de", "name": "Germany"}]}}"#
        ])
        try server.control(["put": "survey.json", "body": Self.survey(choicesURL: server.url("countries.json"))])
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("remote-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let environment = ["SURVEY_CACHE_DIR": directory.appendingPathComponent("cache").path]
        let answers = directory.appendingPathComponent("answers.json")
        try Data(#"{"country": "de"}"#.utf8).write(to: answers)
        let url = server.url("survey.json")
        let valid = try SurveyBinary.run(["validate", url], environment: environment)
        #expect(valid.status == 0 && valid.stdout.contains("\(url): valid"), "\(valid.stderr)")
        let test = try SurveyBinary.run(
            ["test", url, "--answers", answers.path, "--expect-path", "country"], environment: environment)
        #expect(test.status == 0, "\(test.stderr)")
        // One request per URL per run, and the second run's were conditional.
        #expect(try server.requests("survey.json") == 2 && server.requests("countries.json") == 2)
        // Offline: the cached survey and choices, with a warning each.
        try server.control(["down": true])
        let offline = try SurveyBinary.run(
            ["test", url, "--answers", answers.path, "--expect-path", "country"], environment: environment)
        #expect(offline.status == 0, "\(offline.stderr)")
        #expect(offline.stderr.components(separatedBy: "using the copy cached").count == 3, "\(offline.stderr)")
        // A broken copy on the server: refused, the cached one runs.
        try server.control(["down": false, "put": "survey.json", "body": #"{"formatVersion": 1, "id": "where"}"#])
        let broken = try SurveyBinary.run(["validate", url], environment: environment)
        #expect(broken.status == 0 && broken.stderr.contains("the server's copy was refused"), "\(broken.stderr)")
        // Never fetched, nothing cached: exit 1 naming the URL.
        let missing = try SurveyBinary.run(["validate", server.url("nothing.json")], environment: environment)
        #expect(missing.status == 1 && missing.stderr.contains("nothing.json: the server answered 404"))
    }

    @Test func aChoicesByUrlErrorNamesTheFileLineAndStep() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("remote-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("s.json")
        try Data(Self.survey(choicesURL: "ftp://example.com/c.json").utf8).write(to: file)
        let result = try SurveyBinary.run(["validate", file.path], environment: ["SURVEY_CACHE_DIR": directory.path])
        #expect(result.status == 1)
        #expect(
            result.stderr.contains("s.json:3:") && result.stderr.contains("must start with http:// or https://"),
            "\(result.stderr)")
        #expect(result.stderr.contains("country"))
    }
}

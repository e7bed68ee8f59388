import Foundation
import SurveyTestFixtures
import Testing

/// A survey kept in an AirTable-compatible question table (the seed's design): switching a question
/// off in the served table hides it on the next run with no local change; offline, the cached survey runs.
@Suite struct QuestionTableTests {
    static func rows(showRating: Bool) -> [[String: Any]] {
        var rating: [String: Any] = [
            "id": "rate", "questionText": "How likely are you to recommend us?", "questionType": "rating",
            "numberOfRatingChoices": 5,
        ]
        // AirTable leaves an unchecked checkbox out of the record's fields.
        if showRating { rating["shouldDisplayQuestion"] = true }
        return [
            [
                "id": "rec1",
                "fields": [
                    "id": "source", "shouldDisplayQuestion": true, "questionText": "How did you find us?",
                    "questionType": "multipleChoice", "possibleAnswers": ["Search", "Friend", "Ad"],
                ],
            ],
            ["id": "rec2", "fields": rating],
            [
                "id": "rec3",
                "fields": [
                    "id": "more", "shouldDisplayQuestion": true, "questionText": "Anything else?",
                    "questionType": "fillInTheBlank",
                ],
            ],
        ]
    }

    @Test func aQuestionSwitchedOffRemotelyIsNotShownAndOfflineTheCachedSurveyRuns() throws {
        let server = try TestServer(files: [:])
        try server.control([
            "token": "airtable-secret-1", "table": "v0/appSeed/Questions", "records": Self.rows(showRating: true),
        ])
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("table-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let spec = directory.appendingPathComponent("in-app.json")
        try Data(
            """
            {"airtable": {"url": "\(server.url("v0/appSeed/Questions"))", "tokenEnv": "AIRTABLE_TOKEN",
                          "surveyId": "in-app", "title": "Quick question"}}
            """.utf8
        ).write(to: spec)
        let answers = directory.appendingPathComponent("answers.json")
        try Data(#"{"source": "Friend", "rate": 4, "more": "no"}"#.utf8).write(to: answers)
        let environment = [
            "AIRTABLE_TOKEN": "airtable-secret-1", "SURVEY_CACHE_DIR": directory.appendingPathComponent("cache").path,
        ]
        let first = try SurveyBinary.run(
            ["test", spec.path, "--answers", answers.path, "--expect-path", "source,rate,more", "--allow-extra"],
            environment: environment)
        #expect(first.status == 0, "\(first.stderr)")
        // Switched off in the table: the next run does not show it, with no local change.
        try server.control(["table": "v0/appSeed/Questions", "records": Self.rows(showRating: false)])
        let second = try SurveyBinary.run(
            ["test", spec.path, "--answers", answers.path, "--expect-path", "source,more", "--allow-extra"],
            environment: environment)
        #expect(second.status == 0, "\(second.stderr)")
        // Offline: the cached survey (as last fetched) runs, with a warning saying its age.
        try server.control(["down": true])
        let offline = try SurveyBinary.run(
            ["test", spec.path, "--answers", answers.path, "--expect-path", "source,more", "--allow-extra"],
            environment: environment)
        #expect(offline.status == 0, "\(offline.stderr)")
        #expect(offline.stderr.contains("using the survey cached"), "\(offline.stderr)")
        // A table that does not make a survey names the record and column, and the cached one runs.
        var broken = Self.rows(showRating: true)
        broken[2]["fields"] = ["id": "more", "questionType": "essay"]
        try server.control(["down": false, "table": "v0/appSeed/Questions", "records": broken])
        let bad = try SurveyBinary.run(["validate", spec.path], environment: environment)
        #expect(bad.status == 0 && bad.stderr.contains("record rec3, column 'questionType': 'essay'"), "\(bad.stderr)")
        // Without the token: refused by the server, and the token is never printed anywhere.
        let noToken = try SurveyBinary.run(
            ["validate", spec.path], environment: ["SURVEY_CACHE_DIR": directory.appendingPathComponent("empty").path])
        #expect(noToken.status == 1 && noToken.stderr.contains("AIRTABLE_TOKEN"), "\(noToken.stderr)")
        for output in [first.stdout, first.stderr, second.stderr, offline.stderr, bad.stderr] {
            #expect(!output.contains("airtable-secret-1"))
        }
    }
}

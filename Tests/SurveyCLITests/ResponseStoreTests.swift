import Foundation
import Testing

/// `survey run` with the response store, and `survey responses`, on the built binary.
@Suite("survey run records responses; survey responses reads them")
struct ResponseStoreCLITests {
    let directory: URL
    let environment: [String: String]
    var storePath: String { directory.appendingPathComponent("xdg/survey/responses.sqlite").path }

    init() throws {
        directory = try Fixtures.temporaryDirectory()
        environment = ["XDG_DATA_HOME": directory.appendingPathComponent("xdg").path]
    }

    func survey(_ arguments: [String], stdin: String = "") throws -> SurveyBinary.Result {
        try SurveyBinary.run(arguments, stdin: stdin, environment: environment, directory: directory)
    }

    static let feedback = Fixtures.directory.deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Examples/feedback.json").path
    static let onboarding = Fixtures.path("onboarding.json")

    @Test func aRunIsRecordedInTheDefaultStoreAndListed() throws {
        let run = try survey(["run", Self.feedback], stdin: "4\n")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("responses are kept in \(storePath)"))
        #expect(FileManager.default.fileExists(atPath: storePath))

        let list = try survey(["responses", "list"])
        #expect(list.status == 0, "\(list.stderr)")
        let rows = list.stdout.split(separator: "\n").dropFirst()
        #expect(rows.count == 1)
        #expect(rows.first?.contains("in-app-feedback@7\tcompleted") == true)

        let export = try survey(["responses", "export", Self.feedback, "--format", "csv"])
        #expect(export.status == 0, "\(export.stderr)")
        let lines = export.stdout.components(separatedBy: "\r\n")
        #expect(lines.first?.hasSuffix(",completed_at,export-rating") == true, "switched-off questions are no columns")
        #expect(lines.dropFirst().first?.hasSuffix(",4") == true)

        let jsonl = try survey(["responses", "export", "--format", "jsonl"])
        let record = try #require(jsonl.stdout.split(separator: "\n").first)
        #expect(record.contains(#""answers":{"export-rating":4}"#))

        let funnel = try survey(["responses", "funnel", Self.feedback, "--format", "json"])
        #expect(funnel.status == 0, "\(funnel.stderr)")
        #expect(funnel.stdout.contains(#""completed" : 1"#) || funnel.stdout.contains(#""completed": 1"#))

        // The store's path is printed only when the store is created.
        let again = try survey(["run", Self.feedback, "--respondent", "someone-else"], stdin: "5\n")
        #expect(!again.stderr.contains("responses are kept in"))
    }

    /// An unfinished response shows its answers so far, replayed from its actions, when the export or
    /// list is given the survey; without it, as stored.
    @Test func unfinishedResponsesAreExportedWithTheirAnswersSoFar() throws {
        let run = try survey(["run", Self.onboarding, "--respondent", "half"], stdin: "\ngoogle\n")
        #expect(run.status == 0, "\(run.stderr)")
        let export = try survey(["responses", "export", Self.onboarding, "--format", "jsonl"])
        #expect(export.status == 0, "\(export.stderr)")
        #expect(export.stdout.contains(#""answers":{"source":"google"}"#), "\(export.stdout)")
        #expect(export.stdout.contains(#""partial":true,"path":["welcome","source","goals"]"#))
        let list = try survey(["responses", "list", Self.onboarding, "--format", "jsonl"])
        #expect(list.stdout == export.stdout)
        let csv = try survey(["responses", "export", Self.onboarding, "--format", "csv"])
        #expect(csv.stdout.contains(",in-progress,") && csv.stdout.contains(",google,"), "\(csv.stdout)")
        let plain = try survey(["responses", "export", "--format", "jsonl"])
        #expect(plain.stdout.contains(#""answers":{}"#) && !plain.stdout.contains("partial"))
        // Without the survey, replay is not possible: stderr says so and what to give.
        #expect(
            plain.stderr.contains(
                "survey responses export: 1 unfinished response is shown as stored, without the answers so far "
                    + "(give the survey file, survey responses export FILE, to replay them)"), "\(plain.stderr)")
        #expect(!export.stderr.contains("unfinished"), "\(export.stderr)")
        let plainList = try survey(["responses", "list", "--format", "jsonl"])
        #expect(plainList.stderr.contains("survey responses list: 1 unfinished response is shown as stored"))
        // A new version of the survey replays it too, by step id, as it would be carried over.
        let directory = try Fixtures.temporaryDirectory()
        let changed = directory.appendingPathComponent("onboarding-2.json")
        try Data(
            try String(contentsOfFile: Self.onboarding, encoding: .utf8)
                .replacingOccurrences(of: #""version": "1""#, with: #""version": "2""#).utf8
        ).write(to: changed)
        let other = try survey(["responses", "export", changed.path, "--format", "jsonl"])
        #expect(other.stdout.contains(#""answers":{"source":"google"}"#), "\(other.stdout)")
        #expect(other.stdout.contains(#""partial":true"#), "\(other.stdout)")
        #expect(other.stdout.contains(#""surveyVersion":"1""#), "shown, not carried over: \(other.stdout)")
        #expect(!other.stderr.contains("unfinished"), "\(other.stderr)")
    }

    @Test func aRespondentWhoCompletedIsNotAskedAgain() throws {
        #expect(try survey(["run", Self.feedback], stdin: "4\n").status == 0)
        let second = try survey(["run", Self.feedback], stdin: "5\n")
        #expect(second.status == 0)
        #expect(second.stdout.isEmpty, "nothing is asked")
        #expect(second.stderr.contains("already completed 'in-app-feedback'"))
        #expect(second.stderr.contains("--ask-again"))
        let forced = try survey(["run", Self.feedback, "--ask-again"], stdin: "5\n")
        #expect(forced.stdout.contains("How useful is the new PDF export?"))
        let list = try survey(["responses", "list", "--status", "completed"])
        #expect(list.stdout.split(separator: "\n").count == 3, "two completed responses and the header")
    }

    @Test func dismissingIsRecordedAndEndsTheAsking() throws {
        let run = try survey(["run", Self.feedback], stdin: "d\n")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("Survey dismissed."))
        let list = try survey(["responses", "list", "--format", "jsonl"])
        #expect(list.stdout.contains(#""status":"dismissed""#))
        let again = try survey(["run", Self.feedback])
        #expect(again.stderr.contains("already dismissed"))
    }

    @Test func anUnfinishedResponseContinuesWhereItStopped() throws {
        let first = try survey(
            ["run", Self.onboarding, "--renderer", "json", "--respondent", "kim"],
            stdin: #"{"command":"next"}"# + "\n" + #"{"command":"answer","stepId":"source","value":"google"}"# + "\n")
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains(#""event":"answered""#))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("onboarding.state.json").path))
        let second = try survey(
            ["run", Self.onboarding, "--renderer", "json", "--respondent", "kim"], stdin: #"{"command":"next"}"# + "\n")
        #expect(second.stderr.contains("continuing response"))
        let started = try #require(second.stdout.split(separator: "\n").first)
        #expect(started.contains(#""resumed":true"#))
        let firstStep = try #require(second.stdout.split(separator: "\n").dropFirst().first)
        #expect(firstStep.contains(#""answer":"google""#), "the answer given before is shown: \(firstStep)")
        let show = try survey(["responses", "list", "--respondent", "kim", "--format", "jsonl"])
        #expect(show.stdout.split(separator: "\n").count == 1, "one response, continued, not two")
        #expect(show.stdout.contains(#""actionCount":3"#))
    }

    /// The survey file is edited under an unfinished response (a new version, a step removed): the
    /// response continues on the new file alone, and the removed step's answer is shown as orphaned.
    @Test func anEditedSurveyKeepsTheUnfinishedResponse() throws {
        let file = directory.appendingPathComponent("live.json")
        let first = """
            {"formatVersion": 1, "id": "live", "version": "1", "title": "Live", "steps": [
              {"id": "p1", "type": "page", "steps": [
                {"id": "name", "type": "text", "title": "Name"}, {"id": "notes", "type": "text", "title": "Notes"}]},
              {"id": "p2", "type": "page", "steps": [{"id": "last", "type": "text", "title": "Last"}]}]}
            """
        try first.write(to: file, atomically: true, encoding: .utf8)
        let answers =
            #"{"command":"answer","stepId":"name","value":"Ada"}"# + "\n"
            + #"{"command":"answer","stepId":"notes","value":"fine"}"# + "\n" + #"{"command":"next"}"# + "\n"
        let run = try survey(["run", file.path, "--renderer", "json", "--respondent", "kim"], stdin: answers)
        #expect(run.status == 0, "\(run.stderr)")
        let second = first.replacingOccurrences(of: #""version": "1""#, with: #""version": "2""#)
            .replacingOccurrences(of: #", {"id": "notes", "type": "text", "title": "Notes"}"#, with: "")
        #expect(!second.contains("notes"))
        try second.write(to: file, atomically: true, encoding: .utf8)
        let again = try survey(["run", file.path, "--renderer", "json", "--respondent", "kim"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.contains("continuing response"), "\(again.stderr)")
        #expect(
            again.stderr.contains(
                "the survey changed from version '1' to '2' since the response was started: 1 answer kept, "
                    + "1 set aside as orphaned (notes: removed-step)"), "\(again.stderr)")
        #expect(again.stdout.contains(#""id":"last""#) || again.stdout.contains(#""stepId":"last""#), "\(again.stdout)")
        let list = try survey(["responses", "list", "--respondent", "kim", "--format", "jsonl"])
        #expect(list.stdout.split(separator: "\n").count == 1, "one response, carried over")
        #expect(list.stdout.contains(#""surveyVersion":"2""#), "\(list.stdout)")
        #expect(
            list.stdout.contains(#""orphaned":[{"message":"version '2' has no step 'notes'","orphanedOn":"2","#)
                && list.stdout.contains(
                    #""reason":"removed-step","stepId":"notes","surveyVersion":"1","value":"fine"}]"#),
            "\(list.stdout)")
        let export = try survey(["responses", "export", file.path, "--format", "jsonl"])
        #expect(export.stdout.contains(#""answers":{"name":"Ada"}"#), "\(export.stdout)")
        #expect(export.stdout.contains(#""stepId":"notes""#), "\(export.stdout)")
    }

    @Test func erasingARespondentRemovesTheirResponses() throws {
        #expect(try survey(["run", Self.feedback, "--respondent", "leaver"], stdin: "4\n").status == 0)
        #expect(try survey(["run", Self.feedback, "--respondent", "stayer"], stdin: "2\n").status == 0)
        let deleted = try survey(["responses", "delete", "--respondent", "leaver"])
        #expect(deleted.status == 0)
        #expect(deleted.stdout == "deleted 1 response of respondent 'leaver'\n")
        let list = try survey(["responses", "list", "--format", "jsonl"])
        #expect(!list.stdout.contains("leaver") && list.stdout.contains("stayer"))
        let funnel = try survey(["responses", "funnel", Self.feedback])
        #expect(funnel.stdout.hasPrefix("Survey in-app-feedback: 1 invited, 1 started, 1 completed (100%)"))
    }

    @Test func compactingTheStoreKeepsEveryResponse() throws {
        #expect(try survey(["run", Self.feedback, "--respondent", "a"], stdin: "4\n").status == 0)
        #expect(try survey(["run", Self.feedback, "--respondent", "b"], stdin: "2\n").status == 0)
        let before = try survey(["responses", "list", "--format", "jsonl"])
        let compacted = try survey(["responses", "compact"])
        #expect(compacted.status == 0, "\(compacted.stderr)")
        #expect(compacted.stdout.hasPrefix("compacted "), "\(compacted.stdout)")
        #expect(compacted.stdout.contains(" MB -> ") && compacted.stdout.hasSuffix(" s\n"))
        #expect(try survey(["responses", "list", "--format", "jsonl"]).stdout == before.stdout)
        let extra = try survey(["responses", "compact", "now"])
        #expect(extra.status == 2 && extra.stderr.contains("compact takes no argument"))
    }

    @Test func surveyTestLeavesNothingBehindUnlessAskedTo() throws {
        let answers = directory.appendingPathComponent("answers.json").path
        try Data(#"{"export-rating": 3}"#.utf8).write(to: URL(fileURLWithPath: answers))
        let plain = try survey(["test", Self.feedback, "--answers", answers, "--quiet"])
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("xdg").path))
        let store = directory.appendingPathComponent("ci.sqlite").path
        let recorded = try survey(["test", Self.feedback, "--answers", answers, "--quiet", "--store", store])
        #expect(recorded.status == 0, "\(recorded.stderr)")
        let list = try survey(["responses", "list", "--store", store, "--format", "jsonl"])
        #expect(list.stdout.contains(#""respondentId":"survey-test""#))
        #expect(list.stdout.contains(#""status":"completed""#))
    }

    @Test func badStoresAndRespondentsGetOneClearLine() throws {
        let garbage = directory.appendingPathComponent("garbage.sqlite").path
        try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: garbage))
        let corrupt = try survey(["run", Self.feedback, "--store", garbage], stdin: "4\n")
        #expect(corrupt.status == 1)
        #expect(corrupt.stderr.hasPrefix("\(garbage): the file is not a usable response store"), "\(corrupt.stderr)")
        #expect(corrupt.stdout.isEmpty)

        let folder = try survey(["run", Self.feedback, "--store", directory.path])
        #expect(folder.status == 1)
        #expect(folder.stderr.hasPrefix("\(directory.path): is not a regular file"))

        let missing = try survey(["run", Self.feedback, "--store", "/nonexistent/dir/r.sqlite"])
        #expect(missing.status == 1)
        #expect(missing.stderr.hasPrefix("/nonexistent/dir/r.sqlite: cannot open the response store"))

        let empty = try survey(["run", Self.feedback, "--respondent", " "])
        #expect(empty.status == 2)
        #expect(empty.stderr.contains("--respondent must not be empty"))

        let both = try survey(["run", Self.feedback, "--store", garbage, "--no-store"])
        #expect(both.status == 2)

        let unknownScheme = try survey(["run", Self.feedback, "--store", "mysql://host/db"])
        #expect(unknownScheme.status == 1)
        #expect(unknownScheme.stderr.contains("'mysql://' is not a store this program knows"))

        let noStore = try survey(["responses", "list"])
        #expect(noStore.status == 1)
        #expect(noStore.stderr.contains("no responses are stored yet"))

        let unknownID = try survey(["run", Self.feedback, "--respondent", "x"], stdin: "4\n")
        #expect(unknownID.status == 0)
        let show = try survey(["responses", "show", "not-an-id"])
        #expect(show.status == 1)
        #expect(show.stderr.contains("no response has the id 'not-an-id'"))
    }

    @Test func aStoreOfANewerSchemaOrAnotherProgramIsRefused() throws {
        guard let python = CLITests.python3 else {
            Issue.record("python3 is needed to write foreign SQLite files for this test")
            return
        }
        let newer = directory.appendingPathComponent("newer.sqlite").path
        let foreign = directory.appendingPathComponent("foreign.sqlite").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [
            "-c",
            """
            import sqlite3, sys
            a = sqlite3.connect(sys.argv[1]); a.execute('PRAGMA user_version=99'); a.commit(); a.close()
            b = sqlite3.connect(sys.argv[2]); b.execute('CREATE TABLE notes (x)'); b.commit(); b.close()
            """, newer, foreign,
        ]
        try process.run()
        process.waitUntilExit()
        let newerRun = try survey(["responses", "list", "--store", newer])
        #expect(newerRun.status == 1)
        #expect(newerRun.stderr.contains("schema version 99, newer than this program's 8"), "\(newerRun.stderr)")
        let foreignRun = try survey(["run", Self.feedback, "--store", foreign])
        #expect(foreignRun.status == 1)
        #expect(foreignRun.stderr.contains("is a SQLite database of another program"), "\(foreignRun.stderr)")
    }
}

/// The same commands against PostgreSQL, when `SURVEY_TEST_POSTGRES_URL` names a server (`.ci/run` and
/// `scripts/with-postgres.sh` start a throwaway one; without it these tests are disabled).
@Suite(.enabled(if: ProcessInfo.processInfo.environment["SURVEY_TEST_POSTGRES_URL"] != nil))
struct PostgresCLITests {
    let url = ProcessInfo.processInfo.environment["SURVEY_TEST_POSTGRES_URL"] ?? ""

    @Test func runListFunnelAndDeleteWorkOnPostgreSQL() throws {
        let respondent = "pg-cli-\(UUID().uuidString)"
        let run = try SurveyBinary.run(
            ["run", ResponseStoreCLITests.feedback, "--store", url, "--respondent", respondent], stdin: "3\n")
        #expect(run.status == 0, "\(run.stderr)")
        let list = try SurveyBinary.run(
            ["responses", "list", "--store", url, "--respondent", respondent, "--format", "jsonl"])
        #expect(list.stdout.contains(#""status":"completed""#), "\(list.stderr)")
        let again = try SurveyBinary.run(
            ["run", ResponseStoreCLITests.feedback, "--store", url, "--respondent", respondent], stdin: "3\n")
        #expect(again.stderr.contains("already completed"))
        let funnel = try SurveyBinary.run(["responses", "funnel", ResponseStoreCLITests.feedback, "--store", url])
        #expect(funnel.status == 0, "\(funnel.stderr)")
        let deleted = try SurveyBinary.run(["responses", "delete", "--store", url, "--respondent", respondent])
        #expect(deleted.stdout == "deleted 1 response of respondent '\(respondent)'\n")
    }

    @Test func aRefusedServerIsOneLineWithoutThePassword() throws {
        let result = try SurveyBinary.run(
            ["run", ResponseStoreCLITests.feedback, "--store", "postgresql://ada:s3cret-pw@127.0.0.1:1/responses"])
        #expect(result.status == 1)
        #expect(!result.stderr.contains("s3cret-pw"), "\(result.stderr)")
        #expect(result.stderr.hasPrefix("postgresql://ada:***@127.0.0.1:1/responses: "), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    }
}

/// SIGTERM, SIGINT and SIGHUP end `survey run` at once with 128 + the signal, and every answer that
/// was acknowledged before is in the store.
@Suite struct SignalTests {
    static let cases: [(signal: Int32, status: Int32)] = [(SIGTERM, 143), (SIGINT, 130), (SIGHUP, 129)]

    @Test(arguments: SignalTests.cases)
    func aSignalEndsTheRunAndKeepsWhatWasAcknowledged(signal: Int32, status: Int32) throws {
        let directory = try Fixtures.temporaryDirectory()
        let store = directory.appendingPathComponent("r.sqlite").path
        let (process, input, output, errors) = try SurveyBinary.start(
            ["run", ResponseStoreCLITests.feedback, "--renderer", "json", "--store", store, "--respondent", "sig"],
            killAfter: 30)
        input.fileHandleForWriting.write(
            Data((#"{"command":"answer","stepId":"export-rating","value":3}"# + "\n").utf8))
        // Wait for the acknowledgement, then signal.
        var received = ""
        let reader = output.fileHandleForReading
        while !received.contains(#""event":"answered""#) {
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            received += String(decoding: chunk, as: UTF8.self)
        }
        #expect(received.contains(#""event":"answered""#))
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        #expect(process.terminationStatus == status)
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(message.contains("stopped by a signal; every acknowledged answer is in the response store"))
        // The JSON run ends with an event too.
        received += String(decoding: reader.readDataToEndOfFile(), as: UTF8.self)
        let last = try #require(received.split(separator: "\n").last)
        let event = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
        #expect(event["event"] as? String == "failed")
        #expect(event["code"] as? String == "stoppedBySignal")
        #expect(event["exitCode"] as? Int == Int(status))
        #expect((event["message"] as? String)?.hasSuffix("every acknowledged answer is in the response store") == true)
        let shown = try SurveyBinary.run(["responses", "list", "--store", store, "--format", "jsonl"])
        #expect(shown.stdout.contains(#""actionCount":1"#), "\(shown.stdout)")
    }
}

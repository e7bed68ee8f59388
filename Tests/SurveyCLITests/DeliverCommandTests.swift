import Foundation
import SurveyCore
import SurveyResponses
import SurveyStoreSQLite
import SurveyTestFixtures
import Testing

/// `survey deliver` and `survey run --delivery` against the fault-injecting test server, with the
/// deliverer killed (kill -9) at random moments: nothing lost, nothing duplicated, no token shown.
@Suite(.serialized) struct DeliverCommandTests {
    static let token = "tok-9f8e7d6c5b4a"

    static func workspace() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("deliver-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    static func configuration(_ server: TestServer, in directory: URL) throws -> String {
        let file = directory.appendingPathComponent("delivery.json")
        try Data(
            """
            {"targets": [{"name": "hook", "type": "webhook", "url": "\(server.url("hook"))", "tokenEnv": "HOOK_TOKEN",
              "maxAttempts": 100, "timeoutSeconds": 1}],
             "backoff": {"initialSeconds": 0.02, "maximumSeconds": 0.3}}
            """.utf8
        ).write(to: file)
        return file.path
    }

    @Test func killedAtRandomMomentsTheDelivererLosesAndDuplicatesNothing() throws {
        let server = try TestServer(files: [:])
        try server.control(["faults": ["rate": 0.3, "seed": 5, "stall": 1.5]])
        let directory = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: directory) }
        let storePath = directory.appendingPathComponent("responses.sqlite").path
        // SURVEY_DELIVERY_FAULT_COUNT=2000 for the documented full run (docs/delivery.md).
        let count = ProcessInfo.processInfo.environment["SURVEY_DELIVERY_FAULT_COUNT"].flatMap { Int($0) } ?? 150
        do {
            let store = try SQLiteResponseStore(path: storePath)
            let now = Date()
            try store.write(
                batch: (0..<count).map { index in
                    ResponseWrite(
                        response: Response(
                            id: .make(at: now), respondentID: "r\(index)", surveyID: "kill", surveyVersion: nil,
                            locale: "en", seed: 0, today: "2026-12-02", status: .completed, createdAt: now,
                            completedAt: now, answers: ["n": .number(Double(index))]),
                        deliveries: ["hook"])
                })
        }
        let config = try Self.configuration(server, in: directory)
        let environment = ["HOOK_TOKEN": Self.token]
        var kills = 0
        for _ in 0..<(count > 500 ? 200 : 40) {
            let process = Process()
            process.executableURL = SurveyBinary.url
            process.arguments = ["deliver", "--store", storePath, "--delivery", config, "--wait", "30"]
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            Thread.sleep(forTimeInterval: Double.random(in: 0.05...0.5))
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                kills += 1
            }
            process.waitUntilExit()
            let status = try SurveyBinary.run(["deliver", "--status", "--store", storePath])
            if status.stdout.hasPrefix("pending 0,") { break }
        }
        let finish = try SurveyBinary.run(
            ["deliver", "--store", storePath, "--delivery", config, "--wait", "60"], environment: environment)
        #expect(finish.status == 0, "\(finish.stderr)")
        let status = try SurveyBinary.run(["deliver", "--status", "--store", storePath])
        #expect(status.stdout.hasPrefix("pending 0, delivered \(count), failed 0"), "\(status.stdout)")
        let stored = try server.stored()
        let lost = count - stored.records.count
        let duplicated = stored.records.values.filter { $0 > 1 }.count
        print("[kill -9 ×\(kills)] delivered \(stored.records.count), lost \(lost), duplicated \(duplicated)")
        #expect(lost == 0 && duplicated == 0 && kills > 0)
        for output in [finish.stdout, finish.stderr, status.stdout, status.stderr] {
            #expect(!output.contains(Self.token))
        }
    }

    @Test func aCompletedRunIsQueuedInItsWriteAndSentInTheBackground() throws {
        let server = try TestServer(files: [:])
        let directory = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: directory) }
        let survey = directory.appendingPathComponent("s.json")
        try Data(
            #"{"formatVersion": 1, "id": "tiny", "version": "2", "title": "Tiny", "steps": [{"id": "q", "type": "text", "title": "Name?"}]}"#
                .utf8
        ).write(to: survey)
        let storePath = directory.appendingPathComponent("responses.sqlite").path
        let config = try Self.configuration(server, in: directory)
        let run = try SurveyBinary.run(
            ["run", survey.path, "--store", storePath, "--respondent", "ada", "--delivery", config], stdin: "Ada\n",
            environment: ["HOOK_TOKEN": Self.token])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.stdout.contains(Self.token) && !run.stderr.contains(Self.token))
        // The detached deliverer sends it within a few seconds.
        var records: [String: Int] = [:]
        for _ in 0..<100 {
            records = try server.stored().records
            if !records.isEmpty { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        #expect(records.count == 1 && records.values.first == 1)
        let store = try SQLiteResponseStore(path: storePath)
        var delivered: [DeliveryJob] = []
        for _ in 0..<50 {
            delivered = try store.deliveries(status: .delivered)
            if !delivered.isEmpty { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        #expect(delivered.map(\.target) == ["hook"])
        // Without a store there is no outbox.
        let refused = try SurveyBinary.run(["run", survey.path, "--no-store", "--delivery", config], stdin: "x\n")
        #expect(refused.status == 2 && refused.stderr.contains("--delivery needs a response store"))
    }

    @Test func aConfigurationWithACredentialInItIsRefused() throws {
        let directory = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("delivery.json")
        try Data(#"{"targets": [{"name": "h", "type": "webhook", "url": "https://x.example/h", "token": "abc"}]}"#.utf8)
            .write(to: file)
        let store = directory.appendingPathComponent("s.sqlite").path
        _ = try SQLiteResponseStore(path: store)
        let result = try SurveyBinary.run(["deliver", "--store", store, "--delivery", file.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("$.targets[0].token") && result.stderr.contains("tokenEnv"))
        #expect(!result.stderr.contains("abc"))
    }
}

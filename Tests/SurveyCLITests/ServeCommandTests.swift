import Foundation
import SurveyTestFixtures
import Testing

/// `survey serve` end to end on the built binary: it prints its URL, answers on 127.0.0.1, and stops
/// on SIGTERM and SIGINT with status 0.
@Suite struct ServeCommandTests {
    /// A GET over one connection, `Connection: close`; the status line and body.
    static func get(port: UInt16, path: String) throws -> (status: Int, body: String) {
        let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
        let received = try LoopbackExchange.send(request, port: port)
        let text = String(decoding: received, as: UTF8.self)
        let status = text.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        let body = text.range(of: "\r\n\r\n").map { String(text[$0.upperBound...]) } ?? ""
        return (status, body)
    }

    /// Starts `survey serve` on a free port; returns the process and the port it printed.
    static func start(_ arguments: [String]) throws -> (Process, Pipe, Pipe, UInt16) {
        let process = Process()
        process.executableURL = SurveyBinary.url
        process.arguments = ["serve"] + arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // The first line says where it listens.
        var line: [UInt8] = []
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            let byte = output.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty || byte.first == UInt8(ascii: "\n") { break }
            line += byte
        }
        let text = String(decoding: line, as: UTF8.self)
        guard let range = text.range(of: #"http://127\.0\.0\.1:[0-9]+"#, options: .regularExpression),
            let port = UInt16(text[range].split(separator: ":").last ?? "")
        else {
            process.terminate()
            throw CLIServeError("no URL in the first line: \(text)")
        }
        return (process, output, errors, port)
    }

    /// Waits for `process` to end by itself, killing it (it only) after 15 seconds.
    static func waitForExit(_ process: Process) -> Bool {
        let deadline = Date().addingTimeInterval(15)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return false
        }
        return true
    }

    @Test(arguments: [SIGTERM, SIGINT])
    func servesOnLoopbackPrintsItsURLAndStopsOnASignal(signal: Int32) throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let examples = Fixtures.directory.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Examples")
        let (process, _, errors, port) = try Self.start([
            examples.appendingPathComponent("onboarding.json").path, "--listen", "127.0.0.1:0",
            "--store", directory.appendingPathComponent("responses.sqlite").path, "--threads", "2",
        ])
        let health = try Self.get(port: port, path: "/v1/health")
        #expect(health.status == 200)
        #expect(health.body.contains(#""status":"ok""#))
        let ready = try Self.get(port: port, path: "/v1/ready")
        #expect(ready.body.contains("habitly-onboarding"))
        kill(process.processIdentifier, signal)
        #expect(Self.waitForExit(process))
        #expect(process.terminationStatus == 0)
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(stderr.contains("stopped by \(signal == SIGTERM ? "SIGTERM" : "SIGINT")"), "\(stderr)")
    }

    @Test func wrongUsageIsStatus2() throws {
        let help = try SurveyBinary.run(["serve", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("Usage: survey serve FILE|URL..."))
        let noFile = try SurveyBinary.run(["serve"])
        #expect(noFile.status == 2)
        let badListen = try SurveyBinary.run(["serve", Fixtures.path("onboarding.json"), "--listen", "localhost"])
        #expect(badListen.status == 2)
        #expect(badListen.stderr.contains("--listen"))
        let badThreads = try SurveyBinary.run(["serve", Fixtures.path("onboarding.json"), "--threads", "0"])
        #expect(badThreads.status == 2)
    }

    @Test func aSecretOrTokenTooShortIsRefusedWithoutBeingPrinted() throws {
        let survey = Fixtures.path("onboarding.json")
        for (name, value) in [
            ("SURVEY_SERVE_RESPONDENT_SECRET", "short-secret-value-1"),
            ("SURVEY_SERVE_SESSION_SECRET", "short-secret-value-2"), ("SURVEY_SERVE_API_TOKENS", "tiny-token,x"),
        ] {
            let result = try SurveyBinary.run(
                ["serve", survey, "--listen", "127.0.0.1:0", "--no-store"], environment: [name: value])
            #expect(result.status == 2, "\(name): \(result.stderr)")
            #expect(result.stderr.contains("$" + name), "\(result.stderr)")
            #expect(!result.stderr.contains(value) && !result.stdout.contains(value))
        }
        let missing = try SurveyBinary.run([
            "serve", survey, "--listen", "127.0.0.1:0", "--api-token-file", "/nonexistent/tokens",
        ])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("--api-token-file"))
    }

    @Test func aSurveyThatDoesNotLoadIsStatus1() throws {
        let result = try SurveyBinary.run(["serve", "/nonexistent/survey.json", "--listen", "127.0.0.1:0"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("/nonexistent/survey.json"))
    }
}

struct CLIServeError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

import Foundation
import SurveyTestFixtures
import Testing

/// Runs the built `survey` binary.
enum SurveyBinary {
    /// The build directory: where the test bundle and `survey` both are.
    static let buildDirectory: URL = {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var directory = executable.deletingLastPathComponent()
        // On macOS the bundle is a directory: .../debug/X.xctest/Contents/MacOS/X.
        while directory.pathComponents.count > 1, directory.lastPathComponent != "debug",
            !FileManager.default.fileExists(atPath: directory.appendingPathComponent("survey").path)
        {
            directory = directory.deletingLastPathComponent()
        }
        return directory
    }()

    static var url: URL { buildDirectory.appendingPathComponent("survey") }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Starts `survey` with `arguments` (in `directory`, with `environment` added to this process's),
    /// its standard input, output and error piped, for a test that talks to it while it runs. No run
    /// may hang a test: one still there after `killAfter` seconds is killed (and the test fails).
    static func start(
        _ arguments: [String], directory: URL? = nil, environment: [String: String] = [:], killAfter seconds: Double
    ) throws -> (process: Process, input: Pipe, output: Pipe, errors: Pipe) {
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        process.currentDirectoryURL = directory
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let (input, output, errors) = (Pipe(), Pipe(), Pipe())
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let child = process.processIdentifier
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { kill(child, SIGKILL) }
        return (process, input, output, errors)
    }

    /// Runs `survey` with `arguments`; with `shell`, runs `bash` with them instead (for process substitution).
    static func run(
        _ arguments: [String], stdin: String = "", stdinData: Data? = nil, stdinFile: URL? = nil,
        environment: [String: String] = [:], directory: URL? = nil, shell: Bool = false
    ) throws -> Result {
        let process = Process()
        process.executableURL = shell ? URL(fileURLWithPath: "/bin/bash") : url
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = "1"
        env.removeValue(forKey: "SURVEY_PLUGIN_PATH")
        for key in ["LC_ALL", "LC_MESSAGES", "LANG"] { env.removeValue(forKey: key) }
        // Each run gets its own data directory (default store, respondent id) unless the test shares one.
        env["XDG_DATA_HOME"] =
            Scratch.file("survey-xdg").path
        for (key, value) in environment { env[key] = value }
        process.environment = env
        process.currentDirectoryURL =
            directory ?? Fixtures.directory.deletingLastPathComponent().deletingLastPathComponent()
        let input = Pipe()
        let output = Pipe()
        let error = Pipe()
        process.standardInput = try stdinFile.map { try FileHandle(forReadingFrom: $0) } ?? input
        process.standardOutput = output
        process.standardError = error
        try process.run()
        // No run may hang a test: one still running after two minutes is ended (its output so far kept).
        let watchdog = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 120, execute: watchdog)
        defer { watchdog.cancel() }
        if stdinFile == nil { input.fileHandleForWriting.write(stdinData ?? Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        let outData = output.fileHandleForReading.readDataToEndOfFile()
        let errData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }
}

enum Fixtures {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    static func text(_ name: String) throws -> String {
        try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
    }

    static func temporaryDirectory() throws -> URL {
        try Scratch.directory("survey-cli")
    }
}

import Foundation
import Testing

/// `survey plugin new`: the C folder is generated, built with its Makefile (`cc` only) and passes
/// `survey test` with the built library, through the built binary. (The Swift folder needs a
/// SwiftPM build of the engine's libraries: `.ci/run` builds and tests it.)
@Suite("survey plugin new")
struct PluginNewTests {
    /// Runs `executable` (a path, or `survey`) and kills it after `timeout` seconds.
    static func run(
        _ executable: String, _ arguments: [String], in directory: URL? = nil, timeout: TimeInterval = 120
    ) throws -> SurveyBinary.Result {
        let process = Process()
        process.executableURL =
            executable == "survey" ? SurveyBinary.url : URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = executable == "survey" ? arguments : [executable] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "SURVEY_PLUGIN_PATH")
        environment["NO_COLOR"] = "1"
        environment["XDG_DATA_HOME"] =
            FileManager.default.temporaryDirectory
            .appendingPathComponent("survey-xdg-\(UUID().uuidString)").path
        process.environment = environment
        if let directory { process.currentDirectoryURL = directory }
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let killer = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: killer)
        let outData = output.fileHandleForReading.readDataToEndOfFile()
        let errData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        killer.cancel()
        return SurveyBinary.Result(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }

    @Test func aNewCPluginBuildsWithMakeAndPassesItsScripts() throws {
        let root = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = root.appendingPathComponent("demo")
        let made = try Self.run("survey", ["plugin", "new", "demo", "--lang", "c", "--out", folder.path])
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stdout.contains("make"))

        let build = try Self.run("make", ["-C", folder.path])
        try #require(build.status == 0, "\(build.stdout)\(build.stderr)")
        #expect(build.stdout.contains("cc -shared -fPIC"))
        let library = folder.appendingPathComponent("libdemo.so").path
        #expect(FileManager.default.fileExists(atPath: library))

        let test = try Self.run(
            "survey",
            ["test", "survey.json", "--plugin", "./libdemo.so", "--answers", "tests"], in: folder)
        #expect(test.status == 0, "\(test.stdout)\(test.stderr)")
        #expect(test.stdout.contains("2 passed"), "\(test.stdout)")

        // The kind refuses what its normalize refuses, with its own message: the scripts test real behaviour.
        try #"{"answers": {"level": 7}}"#.write(
            to: folder.appendingPathComponent("seven.json"), atomically: true, encoding: .utf8)
        let seven = try Self.run(
            "survey", ["test", "survey.json", "--plugin", "./libdemo.so", "--answers", "seven.json"], in: folder)
        #expect(seven.status == 1)
        #expect(seven.stderr.contains("Choose a whole number from 1 to 5."), "\(seven.stderr)")
    }

    /// The commands of docs/plugin-abi.md, "Start a plugin", run as written (with this `survey` first on the PATH).
    @Test func theStartAPluginStepsOfTheGuideRunAsWritten() throws {
        let guide = try String(
            contentsOf: Fixtures.directory.deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("docs/plugin-abi.md"), encoding: .utf8)
        let section = try #require(guide.range(of: "## Start a plugin"))
        let rest = guide[section.upperBound...]
        let start = try #require(rest.range(of: "```sh\n"))
        let end = try #require(rest[start.upperBound...].range(of: "```"))
        let commands = String(rest[start.upperBound..<end.lowerBound])
        #expect(commands.contains("survey plugin new demo --lang c"))
        let root = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let path =
            SurveyBinary.buildDirectory.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let result = try Self.run("bash", ["-euc", "export PATH=\"$1\"\n" + commands, "guide", path], in: root)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("2 scripts: 2 passed, 0 failed"), "\(result.stdout)")
    }

    /// docs/plugin-abi.md, "Distribute a plugin": the install steps run as written (with `HOME` a
    /// temporary folder), then the stale-manifest example gives the documented line.
    @Test func theDistributeAPluginStepsOfTheGuideRunAsWritten() throws {
        let guide = try String(
            contentsOf: Fixtures.directory.deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("docs/plugin-abi.md"), encoding: .utf8)
        let section = try #require(guide.range(of: "## Distribute a plugin"))
        let rest = guide[section.upperBound...]
        let start = try #require(rest.range(of: "```sh\n"))
        let end = try #require(rest[start.upperBound...].range(of: "```"))
        let commands = String(rest[start.upperBound..<end.lowerBound])
        #expect(commands.contains("make install"))
        #expect(commands.contains("--plugin demo "))
        let root = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let path =
            SurveyBinary.buildDirectory.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let prelude = "export PATH=\"$1\" HOME=\"$2\"\n"
        let result = try Self.run("bash", ["-euc", prelude + commands, "guide", path, root.path], in: root)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("2 scripts: 2 passed, 0 failed"), "\(result.stdout)")
        let installed = root.appendingPathComponent(".survey/plugins")
        #expect(FileManager.default.fileExists(atPath: installed.appendingPathComponent("libdemo.so").path))

        // The stale manifest: the example's command and the line it prints.
        let output = try #require(rest[end.upperBound...].range(of: "```\n$ "))
        let block = rest[output.upperBound...].prefix { $0 != "`" }
        let lines = block.split(separator: "\n")
        try #require(lines.count == 2)
        let manifest = installed.appendingPathComponent("libdemo.plugin.json")
        let text = try String(contentsOf: manifest, encoding: .utf8)
        #expect(text.contains(#""version": "0.1.0""#))
        try text.replacingOccurrences(of: #""version": "0.1.0""#, with: #""version": "0.2.0""#)
            .write(to: manifest, atomically: true, encoding: .utf8)
        let stale = try Self.run(
            "bash",
            [
                "-euc", prelude + "export SURVEY_PLUGIN_PATH=$HOME/.survey/plugins\n" + lines[0], "guide", path,
                root.path,
            ],
            in: root)
        #expect(stale.status == 1)
        #expect(stale.stdout.isEmpty)
        #expect(stale.stderr == lines[1].replacingOccurrences(of: "~", with: root.path) + "\n", "\(stale.stderr)")
    }

    @Test func theMakefileRunsTheTestsAndTheCheckWithTheSurveyItIsGiven() throws {
        let root = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = root.appendingPathComponent("star-meter")
        let made = try Self.run("survey", ["plugin", "new", "star-meter", "--lang", "c"], in: root)
        #expect(made.status == 0, "\(made.stderr)")
        let test = try Self.run("make", ["-C", folder.path, "test", "check", "SURVEY=\(SurveyBinary.url.path)"])
        #expect(test.status == 0, "\(test.stdout)\(test.stderr)")
        #expect(test.stdout.contains("2 passed"), "\(test.stdout)")
        #expect(test.stderr.contains("1 kind, 1 function, "), "\(test.stderr)")
        #expect(test.stderr.contains("calls: passed"), "\(test.stderr)")
    }

    @Test func wrongUsageExitsTwoAndAFolderInTheWayExitsOne() throws {
        let root = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let missingLanguage = try Self.run("survey", ["plugin", "new", "demo"], in: root)
        #expect(missingLanguage.status == 2)
        #expect(missingLanguage.stderr.contains("missing --lang c|swift"))
        let wrongLanguage = try Self.run("survey", ["plugin", "new", "demo", "--lang", "rust"], in: root)
        #expect(wrongLanguage.status == 2)
        let builtIn = try Self.run("survey", ["plugin", "new", "rating", "--lang", "c"], in: root)
        #expect(builtIn.status == 2)
        #expect(builtIn.stderr.contains("'rating' is a built-in question kind"))
        let badName = try Self.run("survey", ["plugin", "new", "Demo", "--lang", "c"], in: root)
        #expect(badName.status == 2)
        let noSubcommand = try Self.run("survey", ["plugin"], in: root)
        #expect(noSubcommand.status == 2)
        #expect(noSubcommand.stderr.contains("plugin new"))

        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("taken"), withIntermediateDirectories: true)
        try "x".write(to: root.appendingPathComponent("taken/keep.txt"), atomically: true, encoding: .utf8)
        let taken = try Self.run("survey", ["plugin", "new", "demo", "--lang", "c", "--out", "taken"], in: root)
        #expect(taken.status == 1)
        #expect(taken.stderr.contains("taken: exists and is not an empty folder"))

        let help = try Self.run("survey", ["plugin", "new", "--help"], in: root)
        #expect(help.status == 0)
        #expect(help.stdout.contains("Usage: survey plugin new NAME --lang c|swift"))
    }
}

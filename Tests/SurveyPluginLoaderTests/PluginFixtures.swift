import Foundation
import SurveyCore
import SurveyPluginLoader
import SurveyTestFixtures

/// Where the plugins built by `swift build` are: next to the test binary.
enum PluginFixtures {
    static let binDirectory: String = {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
        return (executable as NSString).deletingLastPathComponent
    }()

    /// The repository root, from this file's path.
    static let repositoryRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// The directory of the installed ABI header.
    static var headerDirectory: String { repositoryRoot + "/Sources/CSurveyPluginABI/include" }

    /// `lib<name>.so`: an example plugin from the bin directory, or a broken fixture compiled for the tests.
    static func library(_ name: String) -> String {
        name.hasPrefix("Broken")
            ? BrokenPlugins.library(name, repositoryRoot: repositoryRoot) : binDirectory + "/lib\(name).so"
    }

    static func load(_ name: String) throws(PluginError) -> LoadedPlugin {
        try PluginLoader().load(path: library(name))
    }

    /// A fresh temporary directory.
    static func temporaryDirectory() throws -> String {
        try Scratch.directory("survey-plugin-tests").path
    }

    /// Compiles C `source` into `directory/name.so` with `cc -shared -fPIC`, using only the installed header.
    static func compile(_ source: String, name: String, in directory: String, includeDirectory: String? = nil)
        throws -> String
    {
        let sourcePath = directory + "/\(name).c"
        let output = directory + "/\(name).so"
        try source.write(toFile: sourcePath, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "cc", "-shared", "-fPIC", "-Wall", "-Werror", "-I", includeDirectory ?? headerDirectory, "-o", output,
            sourcePath,
        ]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CompileError(status: process.terminationStatus) }
        return output
    }

    struct CompileError: Error {
        var status: Int32
    }

    /// Configures a question of a loaded type with `options`, as the survey loader would at `$.steps[0].options`.
    static func configure(_ type: AnyQuestionType, _ options: JSONValue) throws(SurveyError) -> ConfiguredQuestion {
        try type.configure(
            options: options, path: JSONPath.root.appending("steps").appending(0).appending("options"), stepID: "q1")
    }

    /// The error `body` throws, or `nil`.
    static func error<E: Error>(_ body: () throws(E) -> Void) -> E? {
        do {
            try body()
            return nil
        } catch {
            return error
        }
    }
}

/// Collects the loader's diagnostics lines.
final class DiagnosticsLog: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []

    var lines: [String] { lock.withLock { stored } }

    @Sendable func append(_ line: String) { lock.withLock { stored.append(line) } }
}

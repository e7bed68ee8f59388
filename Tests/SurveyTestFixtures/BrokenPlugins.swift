import Foundation

/// The deliberately broken plugins of `Tests/PluginFixtures/<Name>/plugin.c`, compiled with `cc` on
/// first use, once per test process. They are not products of the package, so a downstream package
/// never sees them; this target is linked by the test targets only.
public enum BrokenPlugins {
    static let lock = NSLock()
    nonisolated(unsafe) static var built: [String: String] = [:]
    static let directory = NSTemporaryDirectory() + "survey-fixture-plugins-\(getpid())-\(UUID().uuidString)"

    /// The path of `lib<name>.so`, compiled from the fixture's source against the ABI header.
    public static func library(_ name: String, repositoryRoot: String) -> String {
        lock.withLock {
            if let path = built[name] { return path }
            let output = directory + "/lib\(name).so"
            try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [
                "cc", "-shared", "-fPIC", "-Wall", "-Werror", "-I",
                repositoryRoot + "/Sources/CSurveyPluginABI/include", "-o", output,
                repositoryRoot + "/Tests/PluginFixtures/\(name)/plugin.c",
            ]
            try? process.run()
            process.waitUntilExit()
            built[name] = output
            return output
        }
    }
}

import Foundation

/// Temporary folders for tests, all inside one folder per test process that is removed when the
/// process exits, so a test run leaves nothing behind in the system's temporary directory however
/// many tests forget to clean up (some write files of 50 MB). A run that was killed leaves its
/// folder; the next run removes the folders of processes that no longer exist.
public enum Scratch {
    /// The folder of this process: `$TMPDIR/survey-tests-<pid>/`, created (and its removal at
    /// exit registered) on first use.
    public static let root: URL = {
        let base = FileManager.default.temporaryDirectory
        removeFoldersOfEndedProcesses(in: base)
        let url = base.appendingPathComponent("survey-tests-\(getpid())", isDirectory: true)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: Scratch.root) }
        return url
    }()

    /// A new, empty folder named `prefix-<UUID>` inside ``root``.
    public static func directory(_ prefix: String) throws -> URL {
        let url = root.appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A path inside ``root`` for a file named `prefix-<UUID>suffix` (not created).
    public static func file(_ prefix: String, suffix: String = "") -> URL {
        root.appendingPathComponent("\(prefix)-\(UUID().uuidString)\(suffix)")
    }

    /// Removes `survey-tests-<pid>` folders whose process has ended (a run stopped by a signal).
    private static func removeFoldersOfEndedProcesses(in base: URL) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: base.path)) ?? []
        for name in names where name.hasPrefix("survey-tests-") {
            guard let pid = Int32(name.dropFirst("survey-tests-".count)), pid != getpid() else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH {
                try? FileManager.default.removeItem(at: base.appendingPathComponent(name))
            }
        }
    }
}

import Foundation
import SurveyDelivery
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct DetachedProcessTests {
    /// The started program leads a session of its own (so the terminal's signals do not reach it)
    /// and has /dev/null for standard input and output.
    @Test func theProgramRunsInItsOwnSessionWithoutTheTerminal() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("detached-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = directory.appendingPathComponent("report").path
        // Field 6 of /proc/PID/stat is the session id; the report appears whole (written, then renamed).
        let script = """
            read pid comm state ppid group session rest < /proc/$$/stat
            echo "$$ $session $(readlink /proc/$$/fd/0) $(readlink /proc/$$/fd/1)" > "$1.tmp" && mv "$1.tmp" "$1"
            """
        let pid = try DetachedProcess.start("/bin/sh", arguments: ["-c", script, "sh", report])
        var status: Int32 = 0
        #expect(waitpid(pid, &status, 0) == pid)
        #expect(status == 0)
        let fields = try String(contentsOfFile: report, encoding: .utf8).split(separator: " ").map {
            $0.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(fields == ["\(pid)", "\(pid)", "/dev/null", "/dev/null"])
        #expect(getsid(0) != pid)
    }

    @Test func aProgramThatCannotBeStartedIsAnError() {
        #expect(throws: DetachedProcessError.self) {
            try DetachedProcess.start("/nonexistent/survey", arguments: ["deliver"])
        }
    }
}

import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Starts a program that outlives its parent and the terminal: a detached delivery (`survey deliver`
/// after `survey run --delivery`), so that a respondent never waits for the network.
///
/// The program runs in a session of its own (`setsid`: no controlling terminal, so closing the
/// terminal or Ctrl-C in it does not reach it), with standard input, output and error on
/// `/dev/null` (what it could not send stays pending in the outbox for the next run), and this
/// process's environment. It is not waited for: when the parent exits first, `init` reaps it.
///
/// ```swift
/// let pid = try DetachedProcess.start(
///     "/usr/local/bin/survey", arguments: ["deliver", "--store", "responses.sqlite", "--delivery", "targets.json"])
/// ```
public enum DetachedProcess {
    /// `POSIX_SPAWN_SETSID` (glibc 2.26 and later; macOS 10.15 and later): the child calls `setsid`
    /// before it runs the program. Glibc's Swift module does not export the constant.
    static let newSessionFlag: Int16 = 0x80

    /// Starts `executable` with `arguments` (without the program's name, which is `executable`)
    /// detached, as described above.
    /// - Returns: the process id of the started program.
    /// - Throws: ``DetachedProcessError`` when the program cannot be started (no such file, not
    ///   executable, no process left).
    @discardableResult
    public static func start(_ executable: String, arguments: [String]) throws(DetachedProcessError) -> Int32 {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, newSessionFlag)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for descriptor: Int32 in [0, 1, 2] {
            posix_spawn_file_actions_addopen(
                &actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        var argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid = pid_t()
        let status = posix_spawn(&pid, executable, &actions, &attributes, &argv, environ)
        guard status == 0 else {
            throw DetachedProcessError(executable: executable, reason: String(cString: strerror(status)))
        }
        return pid
    }
}

/// A program that could not be started.
public struct DetachedProcessError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The program's path.
    public var executable: String
    /// Why, as the system says it.
    public var reason: String

    public init(executable: String, reason: String) {
        self.executable = executable
        self.reason = reason
    }

    public var description: String { "\(executable): cannot start the program (\(reason))" }
}

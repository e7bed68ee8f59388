import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A screen that did not show what a test waited for.
struct TerminalTimeout: Error, CustomStringConvertible {
    var description: String
}

/// A terminal a person would use, played by tmux: a session of its own server (its own socket, so
/// tests never share a server), keys sent with `send-keys`, the screen read with `capture-pane`.
/// Nothing sleeps for a fixed time: every wait polls the screen (or a file) until what it waits for
/// is there, up to a bound, so a slow machine makes a test slower, not red. Keys sent before the
/// survey has drawn what they answer wait in the terminal's input, in order, as a fast typist's do.
/// Every tmux call is bounded, the survey is killed after 150 s, and the server is killed when the
/// test ends.
final class TmuxTerminal {
    static let executable: String? = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/bin/tmux"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// How long a wait for the screen may take: generous, since the tests run beside other suites
    /// on busy cores, and a passing wait ends as soon as the screen shows what it waits for.
    static let patience: Double = 60

    let socket = "survey-tty-\(UUID().uuidString.prefix(12))"
    let directory: URL

    /// Starts `survey arguments` in a `width`×`height` terminal (`{dir}` in an argument is a
    /// directory of the test's own; with `throughCat`, the output goes through `| cat`). When the
    /// survey has ended, the shell in the pane writes the terminal's settings (`stty -a`, run on the
    /// pane's terminal) to the file `stty`, then the exit status to the file `exit`.
    init(
        _ arguments: [String], width: Int = 100, height: Int = 30, environment: [String: String] = [:],
        throughCat: Bool = false
    ) throws {
        let directory = try Fixtures.temporaryDirectory()
        self.directory = directory
        let arguments = arguments.map { $0.replacingOccurrences(of: "{dir}", with: directory.path) }
        var variables = [
            "NO_COLOR": "1", "XDG_DATA_HOME": directory.appendingPathComponent("data").path, "TERM": "xterm-256color",
            "SWIFT_BACKTRACE": "interactive=no", "LANG": "C.UTF-8",
        ]
        for (key, value) in environment { variables[key] = value }
        let assignments = variables.sorted { $0.key < $1.key }.map { "\($0.key)=\(Self.quoted($0.value))" }
        let survey = ([SurveyBinary.url.path] + arguments).map(Self.quoted).joined(separator: " ")
        let pidFile = directory.appendingPathComponent("pid").path
        // The shell execs the survey (so the pid written is the survey's), in the foreground, or the
        // survey would be stopped (SIGTTIN/SIGTTOU) as soon as it touches the terminal. A watchdog in
        // the background kills it after 150 s: not `timeout`, which would pass a Ctrl-C's SIGINT on
        // as a second one (and a second signal ends the survey at once, without saving).
        let run = "env -u SURVEY_PLUGIN_PATH \(assignments.joined(separator: " ")) \(survey)"
        let inner = "echo $$ > \(Self.quoted(pidFile)); " + (throughCat ? run + " | cat" : "exec " + run)
        let exitFile = Self.quoted(directory.appendingPathComponent("exit").path)
        let command =
            "cd \(Self.quoted(ExamplesTests.root.path)) || exit 1; "
            + "(trap '' INT; sleep 150 && kill -KILL $(cat \(Self.quoted(pidFile)))) >/dev/null 2>&1 & watchdog=$!; "
            + "sh -c \(Self.quoted(inner)); status=$?; kill $watchdog 2>/dev/null; "
            + "stty -a > \(Self.quoted(directory.appendingPathComponent("stty").path)); "
            + "echo $status > \(exitFile).part && mv \(exitFile).part \(exitFile); echo EXIT=$status; sleep 120"
        try tmux(["new-session", "-d", "-s", "t", "-x", String(width), "-y", String(height), command])
    }

    deinit {
        _ = try? tmux(["kill-server"])
        try? FileManager.default.removeItem(at: directory)
    }

    static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// Runs tmux with `arguments` on this terminal's server, for at most 10 seconds, and returns its
    /// output (read only when `reads`).
    ///
    /// Spawned with `posix_spawn` and an empty signal mask, all signals at their default action: a
    /// test runs on a thread that blocks most signals, and a child inherits that mask (Foundation's
    /// `Process` keeps it): the tmux server, and through it the shell and the survey, would then never
    /// see SIGALRM, SIGINT from Ctrl-C or SIGHUP.
    @discardableResult
    func tmux(_ arguments: [String], reads: Bool = false) throws -> String {
        let all = [Self.executable ?? "/usr/bin/tmux", "-u", "-L", socket, "-f", "/dev/null"] + arguments
        var pipeEnds: [Int32] = [-1, -1]
        guard pipe(&pipeEnds) == 0 else { throw TerminalTimeout(description: "pipe failed: errno \(errno)") }
        defer { close(pipeEnds[0]) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if reads {
            posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
        posix_spawn_file_actions_addclose(&actions, pipeEnds[1])
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var everySignal = sigset_t()
        sigfillset(&everySignal)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &everySignal)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var argv: [UnsafeMutablePointer<CChar>?] = all.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, all[0], &actions, &attributes, &argv, environ)
        close(pipeEnds[1])
        guard spawned == 0 else { throw TerminalTimeout(description: "tmux could not start: error \(spawned)") }
        // Read until the output closes, then reap; both bounded by 10 s (then the call is killed).
        let deadline = Date().addingTimeInterval(10)
        var output: [UInt8] = []
        if reads {
            var chunk = [UInt8](repeating: 0, count: 65_536)
            var watched = pollfd(fd: pipeEnds[0], events: Int16(POLLIN), revents: 0)
            while Date() < deadline, poll(&watched, 1, 100) >= 0 {
                if watched.revents == 0 { continue }
                let count = read(pipeEnds[0], &chunk, chunk.count)
                if count <= 0 { break }
                output += chunk[..<count]
            }
        }
        var status: Int32 = 0
        while waitpid(child, &status, WNOHANG) == 0 {
            if Date() >= deadline {
                kill(child, SIGKILL)
                _ = waitpid(child, &status, 0)
                throw TerminalTimeout(description: "tmux \(arguments.first ?? "") did not end in 10 s")
            }
            usleep(5_000)
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Sends keys by tmux's names (`Down`, `Enter`, `Space`, `C-c`), each on its own (so each
    /// reaches the survey as one key, as a person's would).
    func send(_ keys: String...) throws {
        for key in keys { try tmux(["send-keys", "-t", "t", key]) }
    }

    /// Types `text` literally.
    func type(_ text: String) throws {
        try tmux(["send-keys", "-t", "t", "-l", text])
    }

    /// The screen, trailing spaces and empty last lines cut.
    func screen() throws -> String {
        let lines = try tmux(["capture-pane", "-p", "-t", "t"], reads: true).split(
            separator: "\n", omittingEmptySubsequences: false
        )
        .map { String($0.reversed().drop { $0 == " " }.reversed()) }
        return lines.reversed().drop { $0.isEmpty }.reversed().joined(separator: "\n")
    }

    /// Polls the screen until `isDone` holds for it (at most `seconds`); the screen then.
    @discardableResult
    func wait(
        seconds: Double = patience, until isDone: (String) -> Bool, describing: @autoclosure () -> String
    ) throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        var shown = ""
        let exitFile = directory.appendingPathComponent("exit").path
        repeat {
            let ended = FileManager.default.fileExists(atPath: exitFile)
            shown = try screen()
            if isDone(shown) { return shown }
            // The survey ended and the screen will not change any more.
            if ended { break }
            usleep(20_000)
        } while Date() < deadline
        throw TerminalTimeout(description: "waited up to \(seconds) s for \(describing()); the screen:\n\(shown)")
    }

    /// Waits until the screen contains `text`; the screen then.
    @discardableResult
    func wait(for text: String, seconds: Double = patience) throws -> String {
        try wait(seconds: seconds, until: { $0.contains(text) }, describing: text.debugDescription)
    }

    /// Waits until the screen is exactly `expected` (a redraw seen half done is waited out); the
    /// last screen seen, to compare with `expected`, when it never is.
    func waitForScreen(_ expected: String) throws -> String {
        do {
            return try wait(seconds: 15, until: { $0 == expected }, describing: "the expected screen")
        } catch {
            return try screen()
        }
    }

    /// The survey's process id.
    func surveyProcess() throws -> pid_t {
        let text = try wait(forFile: "pid")
        return pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    /// The contents of the test directory's file `name` once it exists and is not empty (polled, at
    /// most `patience` seconds).
    func wait(forFile name: String) throws -> String {
        let url = directory.appendingPathComponent(name)
        let deadline = Date().addingTimeInterval(Self.patience)
        repeat {
            if let text = try? String(contentsOf: url, encoding: .utf8), !text.isEmpty { return text }
            usleep(20_000)
        } while Date() < deadline
        throw TerminalTimeout(
            description: "waited \(Self.patience) s for the file \(name); the screen:\n\(try screen())")
    }

    /// After the survey ended: its exit status, and whether the terminal is back in its usual
    /// (cooked) mode: line editing, echo and CR→NL on (`stty -a` in the pane: `icanon`, not `-icanon`).
    func ending() throws -> (status: Int?, cooked: Bool) {
        let status = Int(try wait(forFile: "exit").trimmingCharacters(in: .whitespacesAndNewlines))
        let settings = try wait(forFile: "stty")
        let words = settings.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == ";" })
        let cooked = words.contains("icanon") && words.contains("echo") && words.contains("icrnl")
        return (status, cooked)
    }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
}

/// The interactive mode as a person uses it: keys typed into a real terminal (tmux), screens
/// compared. Skipped, with a message, only where tmux is not installed.
@Suite(
    "survey run on a terminal (tmux)", .serialized,
    .enabled(if: TmuxTerminal.executable != nil, "skipped: tmux is not installed (apt-get install tmux)"))
struct InteractiveTerminalTests {
    func answers(_ path: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let result = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try #require(result["answers"] as? [String: Any])
    }

    @Test func onboardingCompletedWithTheArrowKeys() throws {
        let terminal = try TmuxTerminal([
            "run", "Examples/onboarding.json", "--no-store", "--state-file", "{dir}/s.json", "--result",
            "{dir}/result.json",
        ])
        try terminal.wait(for: "[Enter] Continue")
        try terminal.send("Enter")
        try terminal.wait(for: "How did you hear about us?")
        try terminal.send("Down")
        try terminal.send("Down")
        let expected = """
            Getting started

            Question 1 of 6  [███░░░░░░░░░░░░░░░░░]

            How did you hear about us? *
              App Store
              Google
            ❯ Instagram
              TikTok
              YouTube
              Reddit
              Friend or colleague
              Podcast
              A newsletter
              Other …
            ↑/↓ move · enter choose · ? help
            """
        #expect(try terminal.waitForScreen(expected) == expected)
        try terminal.send("Enter")
        try terminal.wait(for: "Where on Instagram did you see us?")
        try terminal.send("j")
        try terminal.send("j")
        try terminal.send("Enter")  // a reel
        try terminal.wait(for: "What would you like to keep track of?")
        try terminal.send("Space")
        try terminal.send("Down")
        try terminal.send("Down")
        try terminal.send("Space")
        try terminal.wait(for: "  ◉ Fitness\n  ○ Sleep\n❯ ◉ Reading\n")
        try terminal.send("Enter")
        try terminal.wait(for: "Have you used a habit tracker before?")
        try terminal.send("Down")
        try terminal.send("Enter")  // a few times
        try terminal.wait(for: "Would you like a weekly tip by email?")
        try terminal.send("Enter")  // yes
        try terminal.wait(for: "Your email address")
        // A typo mended with the editing keys: ← to it, Backspace, the right letter, End.
        try terminal.type("me@exmaple.com")
        for _ in 0..<7 { try terminal.send("Left") }
        try terminal.send("BSpace")
        try terminal.send("BSpace")
        try terminal.type("am")
        try terminal.send("End")
        try terminal.wait(for: "› me@example.com\n")
        try terminal.send("Enter")
        try terminal.wait(for: "You're all set!")
        try terminal.send("Enter")
        try terminal.wait(for: "Thank you! The survey is complete.")
        let ending = try terminal.ending()
        #expect(ending.status == 0)
        #expect(ending.cooked, "the terminal was left in raw mode")
        let given = try answers(terminal.path("result.json"))
        #expect(given["discovery"] as? String == "instagram")
        #expect(given["instagram-follow-up"] as? String == "reel")
        #expect(given["goals"] as? [String] == ["fitness", "reading"])
        #expect(given["experience"] as? String == "sometimes")
        #expect(given["tips-opt-in"] as? Bool == true)
        #expect(given["tips-email"] as? String == "me@example.com")
    }

    /// Every built-in kind, in the interactive mode, gives the answers the line mode gives for the
    /// same choices (the line-mode run reads the golden test's input).
    @Test func kitchenSinkCompletedWithTheArrowKeysAsInLineMode() throws {
        let lineResult = try Fixtures.temporaryDirectory().appendingPathComponent("line.json").path
        let line = try SurveyBinary.run(
            [
                "run", "Examples/kitchen-sink.json", "--today", "2026-01-15", "--no-store", "--state-file", "/dev/null",
                "--result", lineResult,
            ],
            stdin: try Fixtures.text("examples-stdin/kitchen-sink.txt"), directory: ExamplesTests.root)
        #expect(line.status == 0, "\(line.stderr)")
        // 24 rows: the 15 sources of "heard" are more than the list may show, so typing filters it.
        let terminal = try TmuxTerminal(
            [
                "run", "Examples/kitchen-sink.json", "--today", "2026-01-15", "--no-store", "--state-file",
                "{dir}/s.json",
                "--result", "{dir}/r.json",
            ],
            height: 24)
        func step(_ waited: String, _ keys: [String], typing text: String? = nil) throws {
            try terminal.wait(for: waited)
            if let text { try terminal.type(text) }
            for key in keys { try terminal.send(key) }
        }
        try step("[Enter] Continue", ["Enter"])
        try step("What should we call you?", ["Enter"], typing: "Robin")
        try step("When is your birthday?", ["Enter"], typing: "1990-04-15")
        try step("How many people live in your household?", ["Enter"], typing: "3")
        try step("Pick a fruit", ["Down", "Enter"])  // banana
        try step("Choose up to three pizza toppings", ["Space", "Down", "Down", "Down", "Down", "Space", "Enter"])
        try step("Are you vegetarian?", ["Enter"])
        try step("Rate this survey", ["End", "Up", "Up", "Enter"])  // 8 stars
        try step("How spicy do you like your food?", ["Down", "Down", "Down", "Enter"])  // 6
        try step("How likely are you to recommend", ["Down", "Down", "Down", "Down", "Down", "Enter"])  // 5
        try step("Price *", ["End", "Enter"])
        try step("Speed *", ["Down", "Enter"])
        try step("Support *", ["End", "Enter"])
        // Delivery picked up and moved to the top, then back to the bottom.
        try step("Order these by importance", ["End", "Space", "Up", "Up"])
        try terminal.wait(for: "❯ 1. ↕ delivery\n  2. price\n  3. quality")
        for key in ["Space", "Space", "Down", "Down", "Space", "Enter"] { try terminal.send(key) }
        try step("Name ›", ["Enter"])
        try step("Email * ›", ["Enter"], typing: "robin@example.com")
        try step("Company ›", ["Enter"])
        try step("Message", ["Enter"], typing: "Call me maybe.")
        try step("Rating", ["Down", "Down", "Down", "Enter"])  // 4
        try step("Category", ["j", "Enter"])  // idea
        try step("Message *", ["Enter"], typing: "Add a colour question.")
        try step("type to filter", [], typing: "pod")
        try terminal.wait(for: "🔎 pod\n❯ Podcast\n")
        try terminal.send("Enter")
        try step("Say hello in a voice note", ["Enter"], typing: "recordings/a.m4a")
        try step("That's every type.", ["Enter"])
        try terminal.wait(for: "Thank you! The survey is complete.")
        let ending = try terminal.ending()
        #expect(ending.status == 0)
        #expect(ending.cooked)
        let keyed = try answers(terminal.path("r.json"))
        let typed = try answers(lineResult)
        #expect(keyed.count == 15)
        #expect(NSDictionary(dictionary: keyed) == NSDictionary(dictionary: typed))
    }

    /// `survey run … | cat`: the output is no terminal, so the run is the line mode's, and a person
    /// completes it line by line (each line typed once its question is shown), with the answers the
    /// arrow keys give in `onboardingCompletedWithTheArrowKeys`.
    @Test func throughCatItIsTheLineModeLineByLine() throws {
        let terminal = try TmuxTerminal(
            [
                "run", "Examples/onboarding.json", "--no-store", "--state-file", "{dir}/s.json", "--result",
                "{dir}/result.json",
            ],
            throughCat: true)
        func line(after shown: String, _ text: String) throws {
            try terminal.wait(for: shown)
            if !text.isEmpty { try terminal.type(text) }
            try terminal.send("Enter")
        }
        try line(after: "[Enter] Continue ›", "")
        try terminal.wait(for: "  1) App Store\n  2) Google\n  3) Instagram")
        try line(after: "Choose one\n›", "3")
        try line(after: "  3) A reel", "3")
        try line(after: "e.g. 1,3\n›", "1,3")
        try line(after: "  2) A few times", "2")
        try line(after: "[y] Yes   [n] No", "y")
        try line(after: "Your email address *", "me@example.com")
        try line(after: "You're all set!", "")
        try terminal.wait(for: "Thank you! The survey is complete.")
        let ending = try terminal.ending()
        #expect(ending.status == 0)
        #expect(ending.cooked)
        let given = try answers(terminal.path("result.json"))
        #expect(given["discovery"] as? String == "instagram")
        #expect(given["instagram-follow-up"] as? String == "reel")
        #expect(given["goals"] as? [String] == ["fitness", "reading"])
        #expect(given["experience"] as? String == "sometimes")
        #expect(given["tips-opt-in"] as? Bool == true)
        #expect(given["tips-email"] as? String == "me@example.com")
    }

    /// The README's capture is the screen a person gets after its keys.
    @Test func theReadmesCaptureIsTheRealScreen() throws {
        let capture = try #require(ReadmeTests.blocks("text").first).joined(separator: "\n")
        let terminal = try TmuxTerminal(["run", "Examples/onboarding.json", "--no-store", "--state-file", "/dev/null"])
        try terminal.wait(for: "[Enter] Continue")
        try terminal.send("Enter")
        try terminal.wait(for: "How did you hear about us?")
        try terminal.send("Down")
        try terminal.send("Enter")
        try terminal.wait(for: "What would you like to keep track of?")
        for key in ["Space", "Down", "Down", "Space"] { try terminal.send(key) }
        try terminal.wait(for: "❯ ◉ Reading")
        #expect(try terminal.waitForScreen(capture) == capture)
        try terminal.send("q")
        #expect(try terminal.ending().cooked)
    }

    /// Ctrl-C (SIGINT) in the interactive mode: the session is saved as at q, and the terminal is
    /// back in its usual mode.
    @Test func ctrlCPutsTheTerminalBack() throws {
        let terminal = try TmuxTerminal(
            ["run", "Examples/onboarding.json", "--no-store", "--state-file", "{dir}/s.json"])
        try terminal.wait(for: "[Enter] Continue")
        try terminal.send("Enter")
        try terminal.wait(for: "How did you hear about us?")
        try terminal.send("C-c")
        let ending = try terminal.ending()
        #expect(ending.status == 130)
        #expect(ending.cooked, "the terminal was left in raw mode")
        #expect(FileManager.default.fileExists(atPath: terminal.path("s.json")))
    }

    /// SIGTERM with a response store ends the run at once (from the signal handler): the terminal's
    /// mode is put back there too.
    @Test func sigtermPutsTheTerminalBack() throws {
        let terminal = try TmuxTerminal(["run", "Examples/onboarding.json", "--store", "{dir}/store.sqlite"])
        try terminal.wait(for: "[Enter] Continue")
        try terminal.send("Enter")
        try terminal.wait(for: "How did you hear about us?")
        let process = try terminal.surveyProcess()
        #expect(process > 0)
        if process > 0 { kill(process, SIGTERM) }
        let ending = try terminal.ending()
        #expect(ending.status == 143)
        #expect(ending.cooked, "the terminal was left in raw mode")
    }

    /// A question type that crashes the process (a plugin's segmentation fault): the terminal's
    /// mode is put back before the process ends.
    @Test func aCrashPutsTheTerminalBack() throws {
        let directory = try Fixtures.temporaryDirectory()
        let file = directory.appendingPathComponent("crashy.json").path
        let survey = #"""
            {"formatVersion": 1, "id": "crashy", "version": "1", "title": "Crashy", "defaultLocale": "en",
             "steps": [{"id": "c", "type": "crashy", "title": "Say something"}]}
            """#
        try survey.write(toFile: file, atomically: true, encoding: .utf8)
        let terminal = try TmuxTerminal(["run", file, "--no-store", "--plugin", PluginTests.library("BrokenCrashing")])
        try terminal.wait(for: "Say something")
        try terminal.type("crash")
        try terminal.send("Enter")
        let ending = try terminal.ending()
        #expect(ending.status == 128 + Int(SIGSEGV))
        #expect(ending.cooked, "the terminal was left in raw mode")
    }
}

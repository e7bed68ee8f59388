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

/// A terminal a person would use, played by tmux: a session of its own server (its own socket),
/// keys sent with `send-keys`, the screen read with `capture-pane`. Every tmux call is bounded, the
/// survey runs under `timeout`, and the server is killed when the test ends.
final class TmuxTerminal {
    static let executable: String? = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/bin/tmux"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    let socket = "survey-tty-\(UUID().uuidString.prefix(8))"
    let directory: URL

    /// Starts `survey arguments` in a `width`×`height` terminal (`{dir}` in an argument is a
    /// directory of the test's own; with `throughCat`, the output goes through `| cat`); after it
    /// ends the pane shows `EXIT=<status>` and the terminal's settings (`stty -a`).
    init(
        _ arguments: [String], width: Int = 100, height: Int = 30, environment: [String: String] = [:],
        throughCat: Bool = false
    ) throws {
        let directory = try Fixtures.temporaryDirectory()
        self.directory = directory
        let arguments = arguments.map { $0.replacingOccurrences(of: "{dir}", with: directory.path) }
        var variables = [
            "NO_COLOR": "1", "XDG_DATA_HOME": directory.appendingPathComponent("data").path, "TERM": "xterm-256color",
            "SWIFT_BACKTRACE": "interactive=no",
        ]
        for (key, value) in environment { variables[key] = value }
        let assignments = variables.sorted { $0.key < $1.key }.map { "\($0.key)=\(Self.quoted($0.value))" }
        let survey = ([SurveyBinary.url.path] + arguments).map(Self.quoted).joined(separator: " ")
        let pidFile = directory.appendingPathComponent("pid").path
        // The shell execs the survey (so the pid written is the survey's), bounded by `timeout`; in the
        // foreground, or the survey would be stopped (SIGTTIN/SIGTTOU) as soon as it touches the terminal.
        let run = "env \(assignments.joined(separator: " ")) \(survey)"
        let inner = "echo $$ > \(Self.quoted(pidFile)); " + (throughCat ? run + " | cat" : "exec " + run)
        let command =
            "cd \(Self.quoted(ExamplesTests.root.path)) && timeout --foreground -s KILL 120 sh -c \(Self.quoted(inner)); "
            + "echo EXIT=$?; stty -a; sleep 60"
        try tmux(["new-session", "-d", "-s", "t", "-x", String(width), "-y", String(height), command])
    }

    deinit {
        _ = try? tmux(["kill-server"])
        try? FileManager.default.removeItem(at: directory)
    }

    static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// Runs tmux with `arguments` on this terminal's server, for at most 10 seconds; its output only
    /// when `reads` (the first call starts the server, which would hold a pipe open for its life).
    @discardableResult
    func tmux(_ arguments: [String], reads: Bool = false) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.executable ?? "/usr/bin/tmux")
        process.arguments = ["-L", socket, "-f", "/dev/null"] + arguments
        let output = Pipe()
        process.standardOutput = reads ? output : FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Bounded: a tmux call that has not ended in 10 s is stopped.
        DispatchQueue.global().asyncAfter(deadline: .now() + 10) { if process.isRunning { process.terminate() } }
        process.waitUntilExit()
        guard reads else { return "" }
        return String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }

    /// Sends keys by tmux's names (`Down`, `Enter`, `Space`, `C-c`) or as literal text.
    func send(_ keys: String...) throws {
        try tmux(["send-keys", "-t", "t"] + keys)
        usleep(150_000)
    }

    /// Types `text` literally.
    func type(_ text: String) throws {
        try tmux(["send-keys", "-t", "t", "-l", text])
        usleep(100_000)
    }

    /// The screen, trailing spaces and empty last lines cut.
    func screen() throws -> String {
        let lines = try tmux(["capture-pane", "-p", "-t", "t"], reads: true).split(
            separator: "\n", omittingEmptySubsequences: false
        )
        .map { String($0.reversed().drop { $0 == " " }.reversed()) }
        return lines.reversed().drop { $0.isEmpty }.reversed().joined(separator: "\n")
    }

    /// Waits (at most `seconds`) until the screen contains `text`; the screen then.
    @discardableResult
    func wait(for text: String, seconds: Double = 15) throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        var shown = ""
        while Date() < deadline {
            shown = try screen()
            if shown.contains(text) { return shown }
            usleep(50_000)
        }
        throw TerminalTimeout(description: "waited \(seconds) s for \(text.debugDescription); the screen:\n\(shown)")
    }

    /// The survey's process id.
    func surveyProcess() throws -> pid_t {
        let text = try wait(forFile: directory.appendingPathComponent("pid"))
        return pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    func wait(forFile url: URL) throws -> String {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if let text = try? String(contentsOf: url, encoding: .utf8), !text.isEmpty { return text }
            usleep(50_000)
        }
        return ""
    }

    /// After the survey ended: its exit status, and whether the terminal is back in its usual
    /// (cooked) mode: line editing and echo on.
    func ending() throws -> (status: Int?, cooked: Bool) {
        let shown = try wait(for: "EXIT=")
        let status = shown.split(separator: "\n").last { $0.hasPrefix("EXIT=") }.flatMap { Int($0.dropFirst(5)) }
        let words = shown.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == ";" })
        let cooked = words.contains("icanon") && words.contains("echo") && words.contains("icrnl")
        return (status, cooked)
    }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
}

/// The interactive mode as a person uses it: keys typed into a real terminal (tmux), screens
/// compared. Skipped, with a message, only where tmux is not installed.
@Suite(
    "survey run on a terminal (tmux)", .serialized,
    .enabled(
        if: TmuxTerminal.executable != nil && ProcessInfo.processInfo.environment["SURVEY_TMUX_TESTS"] != nil,
        "skipped: needs tmux and SURVEY_TMUX_TESTS=1 (not yet verified green in CI)"))
struct InteractiveTerminalTests {
    func answers(_ path: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let result = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try #require(result["answers"] as? [String: Any])
    }

    @Test func onboardingCompletedWithTheArrowKeys() throws {
        let terminal = try TmuxTerminal([
            "run", "Examples/onboarding.json", "--no-store", "--result", "{dir}/result.json",
        ])
        try terminal.wait(for: "[Enter] Continue")
        try terminal.send("Enter")
        try terminal.wait(for: "How did you hear about us?")
        try terminal.send("Down")
        try terminal.send("Down")
        let screen = try terminal.wait(for: "❯ Instagram")
        #expect(
            screen == """
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
                """)
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
        let goals = try terminal.wait(for: "◉ Reading")
        #expect(goals.contains("  ◉ Fitness\n  ○ Sleep\n❯ ◉ Reading\n"))
        try terminal.send("Enter")
        try terminal.wait(for: "Have you used a habit tracker before?")
        try terminal.send("Down")
        try terminal.send("Enter")  // a few times
        try terminal.wait(for: "Would you like a weekly tip by email?")
        try terminal.send("Enter")  // yes
        try terminal.wait(for: "Your email address")
        // A typo mended with the editing keys: ← to it, Backspace, the right letter, End.
        try terminal.type("me@exmaple.com")
        for _ in 0..<9 { try terminal.send("Left") }
        try terminal.send("BSpace")
        try terminal.send("BSpace")
        try terminal.type("am")
        try terminal.send("End")
        let editing = try terminal.wait(for: "› me@example.com")
        #expect(editing.contains("› me@example.com\n"))
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
            ["run", "Examples/kitchen-sink.json", "--today", "2026-01-15", "--no-store", "--result", lineResult],
            stdin: try Fixtures.text("examples-stdin/kitchen-sink.txt"), directory: ExamplesTests.root)
        #expect(line.status == 0, "\(line.stderr)")
        // 24 rows: the 15 sources of "heard" are more than the list may show, so typing filters it.
        let terminal = try TmuxTerminal(
            ["run", "Examples/kitchen-sink.json", "--today", "2026-01-15", "--no-store", "--result", "{dir}/r.json"],
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
        let moving = try terminal.wait(for: "↕ delivery")
        #expect(moving.contains("❯ 1. ↕ delivery\n  2. price\n  3. quality"))
        for key in ["Space", "Space", "Down", "Down", "Space", "Enter"] { try terminal.send(key) }
        try step("Name ›", ["Enter"])
        try step("Email * ›", ["Enter"], typing: "robin@example.com")
        try step("Company ›", ["Enter"])
        try step("Message", ["Enter"], typing: "Call me maybe.")
        try step("Rating", ["Down", "Down", "Down", "Enter"])  // 4
        try step("Category", ["j", "Enter"])  // idea
        try step("Message *", ["Enter"], typing: "Add a colour question.")
        try step("type to filter", [], typing: "pod")
        let filtered = try terminal.wait(for: "❯ Podcast")
        #expect(filtered.contains("🔎 pod\n❯ Podcast\n"))
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

    /// `survey run … | cat`: the output is no terminal, so the run is the line mode's.
    @Test func throughCatItIsTheLineMode() throws {
        let terminal = try TmuxTerminal(["run", "Examples/onboarding.json", "--no-store"], throughCat: true)
        try terminal.wait(for: "[Enter] Continue")
        try terminal.send("Enter")
        let screen = try terminal.wait(for: "3) Instagram")
        #expect(screen.contains("  1) App Store\n  2) Google\n  3) Instagram"))
        try terminal.type("q")
        try terminal.send("Enter")
        #expect(try terminal.ending().cooked)
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
        let screen = try terminal.wait(for: "❯ ◉ Reading")
        #expect(screen == capture)
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

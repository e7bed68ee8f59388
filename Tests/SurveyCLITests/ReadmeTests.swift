import Foundation
import SurveyTestFixtures
import Testing

/// The README: its first screen holds what this is, the two commands and where to go next; every
/// command in it runs; every link in it leads somewhere. (Its capture of the interactive mode is
/// compared with a real terminal in `InteractiveTerminalTests`.)
@Suite struct ReadmeTests {
    static let text =
        (try? String(contentsOf: ExamplesTests.root.appendingPathComponent("README.md"), encoding: .utf8)) ?? ""

    /// The lines of the README's fenced blocks of `language`, each block's lines.
    static func blocks(_ language: String) -> [[String]] {
        var blocks: [[String]] = []
        var current: [String]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if current == nil, line == "```" + language {
                current = []
            } else if current != nil, line == "```" {
                blocks.append(current ?? [])
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    @Test func theFirstScreenSaysWhatThisIsTheTwoCommandsAndWhereNext() {
        let lines = Self.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let top = lines.prefix(12).joined(separator: "\n")
        #expect(top.contains("A survey engine in Swift"))
        #expect(top.contains("swift run survey run Examples/onboarding.json"))
        #expect(top.contains("swift test"))
        #expect(lines.prefix(20).joined().contains("swift run -c release survey"))
        #expect(lines.prefix(60).contains("## Where next"))
        #expect(Self.text.utf8.count < 4000, "the README is \(Self.text.utf8.count) bytes")
    }

    /// Every `swift run … survey …` line runs on the built binary (stdin empty: a run quits at once,
    /// its session kept; `serve` is checked by ``serveLeadsToTheSurvey(_:)``); `swift test` is this
    /// suite itself.
    @Test func everyCommandRuns() throws {
        var commands: [[String]] = []
        for block in Self.blocks("sh") {
            for line in block {
                let command = line.split(separator: "#", maxSplits: 1).first.map(String.init) ?? ""
                let words = command.split(separator: " ").map(String.init)
                guard !words.isEmpty else { continue }
                if words == ["swift", "test"] { continue }
                guard words.starts(with: ["swift", "run"]), let survey = words.firstIndex(of: "survey") else {
                    Issue.record("a README command no test runs: \(line)")
                    continue
                }
                commands.append(Array(words[(survey + 1)...]))
            }
        }
        #expect(commands.count >= 3)
        #expect(commands.contains { $0.first == "serve" })
        for arguments in commands {
            if arguments.first == "serve" {
                try Self.serveLeadsToTheSurvey(arguments)
                continue
            }
            let result = try SurveyBinary.run(arguments, directory: ExamplesTests.root)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            #expect(!result.stdout.isEmpty, "\(arguments)")
        }
    }

    /// `survey serve …` as the README gives it, on a free port instead of 8080 and over a throwaway
    /// store: the URL it prints leads (through its redirect) to the survey's first page, a form; it
    /// stops on SIGTERM with status 0. (Tests/browser-serve-test.py takes a browser through it.)
    static func serveLeadsToTheSurvey(_ arguments: [String]) throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = arguments.dropFirst().map {
            $0.hasSuffix(".json") ? ExamplesTests.root.appendingPathComponent($0).path : $0
        }
        let (process, _, _, port) = try ServeCommandTests.start(
            files + ["--listen", "127.0.0.1:0", "--store", directory.appendingPathComponent("responses.sqlite").path])
        defer {
            if process.isRunning { kill(process.processIdentifier, SIGTERM) }
            _ = ServeCommandTests.waitForExit(process)
        }
        let request = Array("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
        let root = String(decoding: try LoopbackExchange.send(request, port: port), as: UTF8.self)
        let location = root.split(separator: "\r\n").first { $0.lowercased().hasPrefix("location:") }
            .map { $0.dropFirst("location:".count).trimmingCharacters(in: .whitespaces) }
        #expect(root.hasPrefix("HTTP/1.1 303"), "\(root)")
        let page = try ServeCommandTests.get(port: port, path: try #require(location))
        #expect(page.status == 200)
        #expect(page.body.contains("<form method=\"post\""), "\(page.body)")
        #expect(page.body.contains("Welcome to Habitly"))
        kill(process.processIdentifier, SIGTERM)
        #expect(ServeCommandTests.waitForExit(process))
        #expect(process.terminationStatus == 0)
    }

    @Test func everyLinkLeadsToAFile() {
        let pattern = /\]\(([^)#\s]+)(#[^)]*)?\)/
        var count = 0
        for match in Self.text.matches(of: pattern) {
            let target = String(match.output.1)
            guard !target.hasPrefix("http") else { continue }
            count += 1
            let path = ExamplesTests.root.appendingPathComponent(target).path
            #expect(FileManager.default.fileExists(atPath: path), "README links to \(target), which is missing")
        }
        #expect(count > 10)
    }
}

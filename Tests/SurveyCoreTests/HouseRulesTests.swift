import Foundation
import Testing

/// The house plan's rules that a reader of the code relies on (docs/architecture.md), checked on
/// the sources so that a change breaking one fails here rather than in a review.
@Suite struct HouseRulesTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Every Swift file under `folder` (relative to the repository), with its text.
    static func swiftFiles(under folder: String) -> [(path: String, text: String)] {
        let base = root.appendingPathComponent(folder)
        guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else { return [] }
        var files: [(String, String)] = []
        for case let url as URL in walker where url.pathExtension == "swift" {
            let relative = String(url.path.dropFirst(root.path.count + 1))
            files.append((relative, (try? String(contentsOf: url, encoding: .utf8)) ?? ""))
        }
        return files.sorted { $0.0 < $1.0 }
    }

    @Test func noSourceFileIsOver900Lines() {
        let files = Self.swiftFiles(under: "Sources")
        #expect(files.count > 100)
        for file in files {
            let lines = file.text.split(separator: "\n", omittingEmptySubsequences: false).count
            #expect(lines <= 900, "\(file.path) has \(lines) lines")
        }
    }

    /// Unretained reads live in `Unretained.swift`, threads in `Parallelism.swift`: nowhere else in
    /// the core.
    @Test func unsafeTricksOfTheCoreAreInOneFileEach() {
        let core = Self.swiftFiles(under: "Sources/SurveyCore")
        for (pattern, home) in [
            ("_withUnsafeGuaranteedRef", "Unretained.swift"), ("Unmanaged", "Unretained.swift"),
            ("concurrentPerform", "Parallelism.swift"), ("activeProcessorCount", "Parallelism.swift"),
        ] {
            let places = core.filter { $0.text.contains(pattern) }.map(\.path)
            #expect(places.count == 1 && places.allSatisfy { $0.hasSuffix("/" + home) }, "\(pattern): \(places)")
        }
    }

    /// The terminal's mode and its raw keys are one type's (`Terminal`): nothing else sets termios.
    @Test func theTerminalsModeIsOneTypes() {
        let sources = Self.swiftFiles(under: "Sources")
        for pattern in ["tcsetattr", "tcgetattr", "TIOCGWINSZ"] {
            let places = sources.filter { $0.text.contains(pattern) }.map(\.path)
            #expect(places == ["Sources/SurveyRendering/Terminal/Terminal.swift"], "\(pattern): \(places)")
        }
    }

    /// The `survey` command is a thin shell: no process spawning, no file reader, no resume or
    /// ask-again decision of its own (those are library calls: `DetachedProcess`, `TextFile`,
    /// `ResponseStart`).
    @Test func theCommandLineHoldsNoPolicyOrSystemCode() {
        let cli = Self.swiftFiles(under: "Sources/SurveyCLI")
        #expect(cli.count > 10)
        for pattern in [
            "posix_spawn", "pread(", "AskAgainPolicy", "definition.settings.askAgain",
        ] {
            let places = cli.filter { $0.text.contains(pattern) }.map(\.path)
            #expect(places.isEmpty, "\(pattern) in \(places)")
        }
    }

    /// `compile()` reads as the list of its stages.
    @Test func compileIsTheListOfItsStages() throws {
        let text = try #require(
            Self.swiftFiles(under: "Sources/SurveyCore/Flow").first { $0.path.hasSuffix("/SurveyCompiler.swift") }?.text
        )
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex { $0.contains("mutating func compile() throws") })
        let end = try #require(lines[start...].firstIndex { $0 == "    }" })
        #expect(end - start + 1 <= 60, "compile() is \(end - start + 1) lines")
    }

    /// Every link of the contributor's map points at something that exists.
    @Test func theArchitectureMapsLinksResolve() throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        var targets: [String] = []
        var rest = Substring(text)
        while let open = rest.range(of: "](") {
            let after = rest[open.upperBound...]
            guard let close = after.firstIndex(of: ")") else { break }
            let target = String(after[..<close]).split(separator: "#").first.map(String.init) ?? ""
            if !target.hasPrefix("http"), !target.isEmpty { targets.append(target) }
            rest = after[close...]
        }
        #expect(targets.count > 20)
        for target in targets {
            let path = Self.root.appendingPathComponent("docs").appendingPathComponent(target).standardized.path
            #expect(FileManager.default.fileExists(atPath: path), "docs/architecture.md links to \(target)")
        }
    }
}

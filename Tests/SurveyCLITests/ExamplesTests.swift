import Foundation
import Testing

/// The bundled examples, through the built binary: every answer script of
/// `Examples/answers/README.md` passes `survey test --expect-path`, and the text front end's
/// output for scripted stdin matches golden files.
@Suite("Bundled examples")
struct ExamplesTests {
    static let root = Fixtures.directory.deletingLastPathComponent().deletingLastPathComponent()

    /// `(script, survey, path)` rows of the table in Examples/answers/README.md.
    static let scripts: [(String, String, [String])] = {
        let readme =
            (try? String(
                contentsOf: root.appendingPathComponent("Examples/answers/README.md"), encoding: .utf8)) ?? ""
        return readme.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("| `") else { return nil }
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 3 else { return nil }
            let ids = cells[2].split(separator: "`", omittingEmptySubsequences: false).enumerated().filter {
                $0.offset % 2 == 1
            }.map {
                String($0.element)
            }
            return (
                cells[0].replacingOccurrences(of: "`", with: ""), cells[1].replacingOccurrences(of: "`", with: ""), ids
            )
        }
    }()

    @Test func everyExampleScriptFollowsItsExpectedPath() throws {
        #expect(Self.scripts.count >= 3)
        for (script, survey, path) in Self.scripts {
            let result = try SurveyBinary.run(
                [
                    "test", "Examples/\(survey)", "--answers", "Examples/answers/\(script)", "--quiet",
                    "--expect-path", path.joined(separator: ","),
                ], directory: Self.root)
            #expect(result.status == 0, "\(script): \(result.stderr)")
        }
    }

    /// The README's SurveyJS example converts whole and runs, as a file of its own format.
    @Test func theSurveyJSExampleConvertsAndRuns() throws {
        let converted = try SurveyBinary.run(
            ["import", "surveyjs", "Examples/surveyjs/patient-intake.json", "--strict"], directory: Self.root)
        #expect(converted.status == 0, "\(converted.stderr)")
        #expect(converted.stderr.hasSuffix("0 not converted, 2 ignored (layout only); the result is valid\n"))
        let run = try SurveyBinary.run(
            [
                "test", "Examples/surveyjs/patient-intake.json", "--answers",
                "Examples/surveyjs/patient-intake-pain.answers.json", "--quiet", "--today", "2026-12-01",
                "--expect-path", "about,pain-details,history",
            ], directory: Self.root)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.stderr.contains("warning"))
    }

    @Test func aWrongExpectedPathFailsWithADiff() throws {
        let result = try SurveyBinary.run(
            [
                "test", "Examples/feedback.json", "--answers", "Examples/answers/feedback-five-stars.json", "--quiet",
                "--expect-path", "export-rating,thanks",
            ], directory: Self.root)
        #expect(result.status == 1)
        #expect(
            result.stderr == """
                Examples/feedback.json: the path differs from --expect-path:
                  expected: export-rating → thanks
                  actual:   export-rating
                  the run stopped after 'export-rating'; missing: thanks

                """)
    }

    @Test(arguments: ["feedback", "kitchen-sink"])
    func textFrontEndMatchesGoldenFile(example: String) throws {
        let result = try SurveyBinary.run(
            ["run", "Examples/\(example).json", "--today", "2026-01-15", "--state-file", "/dev/null"],
            stdin: try Fixtures.text("examples-stdin/\(example).txt"), directory: Self.root)
        #expect(result.status == 0, "\(result.stderr)")
        let golden = Fixtures.directory.appendingPathComponent("golden/example-\(example).txt")
        if ProcessInfo.processInfo.environment["UPDATE_GOLDEN"] != nil {
            try Data(result.stdout.utf8).write(to: golden)
        }
        let expected = try String(contentsOf: golden, encoding: .utf8)
        #expect(
            result.stdout == expected, "differs from \(golden.lastPathComponent); rerun with UPDATE_GOLDEN=1 to accept")
    }
}

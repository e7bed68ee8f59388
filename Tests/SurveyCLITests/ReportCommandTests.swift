import Foundation
import Testing

/// `survey report` on responses recorded by `survey test --store`: HTML, JSON and a CSV that
/// Python's csv module reads back.
@Suite struct ReportCommandTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func htmlJSONAndCSVOfRecordedResponses() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("report-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let survey = Self.root.appendingPathComponent("Examples/coffee-habits.json").path
        let store = directory.appendingPathComponent("responses.sqlite").path
        for script in ["coffee-habits-heavy", "coffee-habits-light", "coffee-habits-none"] {
            let run = try SurveyBinary.run([
                "test", survey, "--answers", Self.root.appendingPathComponent("Examples/answers/\(script).json").path,
                "--store", store,
            ])
            #expect(run.status == 0, "\(run.stderr)")
        }
        let html = try SurveyBinary.run(["report", survey, "--store", store])
        #expect(html.status == 0, "\(html.stderr)")
        #expect(html.stdout.hasPrefix("<!DOCTYPE html>") && html.stdout.contains("<svg "))
        let json = try SurveyBinary.run(["report", survey, "--store", store, "--format", "json"])
        #expect(json.status == 0 && json.stdout.contains("\"responses\": 3"), "\(json.stdout.prefix(400))")
        let csv = directory.appendingPathComponent("out.csv")
        let export = try SurveyBinary.run([
            "report", survey, "--store", store, "--format", "csv", "--bom", "--out", csv.path,
        ])
        #expect(export.status == 0, "\(export.stderr)")
        let check = Process()
        check.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        check.arguments = [
            "python3", "-c",
            """
            import csv, sys
            rows = list(csv.reader(open(sys.argv[1], encoding='utf-8-sig', newline='')))
            assert len(rows) == 4, rows
            assert all(len(row) == len(rows[0]) for row in rows), rows
            assert 'cups' in rows[0], rows[0]
            print('ok', len(rows) - 1)
            """, csv.path,
        ]
        let output = Pipe()
        check.standardOutput = output
        try check.run()
        check.waitUntilExit()
        #expect(check.terminationStatus == 0)
        #expect(String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) == "ok 3\n")
        #expect(try Data(contentsOf: csv).prefix(3) == Data([0xEF, 0xBB, 0xBF]))
        let wrong = try SurveyBinary.run(["report", survey, "--store", store, "--format", "pdf"])
        #expect(wrong.status == 2 && wrong.stderr.contains("--format must be html, csv or json"))
    }
}

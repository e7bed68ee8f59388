import Foundation
import SurveyCore
import SurveyResponses
import SurveyStoreSQLite
import Testing

/// `ResponseExport.write` reads a split selection on several threads; what it writes must be the
/// same bytes as one pass, in both stores, for CSV and JSON Lines.
/// Serialized: a split export's part files are named by process, so the check that none is left
/// behind would see the parts of another case exporting at the same moment.
@Suite(.serialized) struct ExportStreamTests {
    /// Answers that exercise every CSV rule: quoting, doubled quotes, a CRLF inside a field, formula
    /// prefixes, numbers that start with a minus, choice lists, objects, and a step the columns lack.
    static func answers(_ number: Int) -> [String: JSONValue] {
        var answers: [String: JSONValue] = ["rating": .number(Double(number % 5 + 1))]
        switch number % 6 {
        case 0: answers["notes"] = .string("plain \(number)")
        case 1: answers["notes"] = .string("a, \"quoted\"\r\nsecond line")
        case 2: answers["notes"] = .string("=HYPERLINK(\"x\")")
        case 3: answers["notes"] = .string("-12.5")
        case 4: answers["notes"] = .string("é ✓ 🎉\n")
        default: answers["notes"] = .null
        }
        if number % 2 == 0 { answers["role"] = .array([.string("dev"), .string("pm")]) }
        if number % 3 == 0 { answers["where"] = .object(["city": .string("Oslo"), "n": .number(2)]) }
        if number == 7 { answers["gone"] = .string("an answer to a step the survey no longer has") }
        return answers
    }

    static func fill(_ store: some ResponseStore, count: Int) throws {
        let start = Date(timeIntervalSince1970: 1_780_000_000)
        var generator = SeededGenerator(seed: 9)
        for number in 0..<count {
            // Every third response shares its creation time with the one before (ties are split by id).
            let created = start.addingTimeInterval(Double(number - number / 3))
            let response = Response(
                id: ResponseID.make(at: created, using: &generator), respondentID: "r\(number)", surveyID: "s",
                surveyVersion: number % 4 == 0 ? nil : "1", locale: "en", seed: UInt64(number), today: "2026-06-01",
                status: number % 5 == 0 ? .inProgress : .completed, createdAt: created,
                updatedAt: created.addingTimeInterval(0.125),
                completedAt: number % 5 == 0 ? nil : created.addingTimeInterval(30.5), path: ["p1"],
                answers: answers(number), actionCount: 3)
            try store.write(ResponseWrite(response: response))
        }
    }

    static func export(
        _ store: some ResponseStore, _ format: ResponseExport.Format, parallelism: Int
    ) throws -> (bytes: [UInt8], extra: Set<String>) {
        var bytes: [UInt8] = []
        let extra = try ResponseExport.write(
            format, from: store, matching: ResponseQuery(surveyID: "s"), columns: ["rating", "notes", "role", "where"],
            parallelism: parallelism, minimumPartSize: 10
        ) { bytes += $0 }
        return (bytes, extra.extraSteps)
    }

    @Test(arguments: [ResponseExport.Format.csv, .jsonl])
    func aSplitExportWritesTheSameBytesAsOnePass(format: ResponseExport.Format) throws {
        let memory = InMemoryResponseStore()
        try Self.fill(memory, count: 240)
        let path = temporaryStorePath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let sqlite = try SQLiteResponseStore(path: path)
        try Self.fill(sqlite, count: 240)
        #expect(try sqlite.split(ResponseQuery(surveyID: "s"), into: 4, minimumPartSize: 10).count == 4)
        let single = try Self.export(memory, format, parallelism: 1)
        #expect(!single.bytes.isEmpty)
        for store in [memory, sqlite] as [any ResponseStore] {
            for parallelism in [1, 2, 4] {
                let split = try Self.export(store, format, parallelism: parallelism)
                #expect(split.bytes == single.bytes, "\(store.name), \(parallelism) parts")
                #expect(split.extra == (format == .csv ? ["gone"] : []))
            }
        }
        let lines = String(decoding: single.bytes, as: UTF8.self)
        if format == .jsonl {
            #expect(lines.split(separator: "\n").count == 240)
        } else {
            // 240 rows; one in six has a CRLF inside its quoted notes field.
            #expect(lines.components(separatedBy: "\r\n").count - 1 == 240 + 40)
        }
        // No temporary part file is left behind.
        let left = try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory())
            .filter { $0.hasPrefix("survey-export-\(ProcessInfo.processInfo.processIdentifier)-") }
        #expect(left.isEmpty)
    }

    /// The export finds each answer's column from its step id as it walks the answers (a table of its
    /// own, not a lookup per column): its lines are those of `csvLine(of:stepIDs:)`, which looks each
    /// column up, for many columns (ids alike but for a character or two, so their hashes collide in
    /// places), answers to a few of them, and answers to steps that are not columns.
    @Test func theExportWritesEachAnswerInItsColumn() throws {
        let columns = (0..<300).map { "q\($0)" } + ["q", "Q1", "q1-Comment", "é", ""]
        let store = InMemoryResponseStore()
        var generator = SeededGenerator(seed: 4)
        var expected = ""
        for number in 0..<200 {
            var answers: [String: JSONValue] = [:]
            for _ in 0..<(number % 25) {
                let column = columns[Int.random(in: 0..<columns.count, using: &generator)]
                answers[column] = .string("v\(number)")
            }
            if number % 7 == 0 { answers["not-a-column-\(number % 3)"] = .number(1) }
            let created = Date(timeIntervalSince1970: 1_780_000_000 + Double(number))
            let response = Response(
                id: ResponseID.make(at: created, using: &generator), respondentID: "r\(number)", surveyID: "s",
                surveyVersion: "1", locale: "en", seed: 1, today: "2026-06-01", status: .completed,
                createdAt: created, completedAt: created, path: ["p1"], answers: answers, actionCount: 1)
            try store.write(ResponseWrite(response: response))
            expected += ResponseExport.csvLine(of: response, stepIDs: columns) + "\r\n"
        }
        var bytes: [UInt8] = []
        let summary = try ResponseExport.write(
            .csv, from: store, matching: ResponseQuery(surveyID: "s"), columns: columns, parallelism: 1
        ) { bytes += $0 }
        #expect(String(decoding: bytes, as: UTF8.self) == expected)
        #expect(summary.extraSteps == ["not-a-column-0", "not-a-column-1", "not-a-column-2"])
    }

    /// Timestamps: years of four digits written straight, others (and times before 1970) as before.
    @Test func timestampsOfEveryYear() {
        let cases: [(Double, String)] = [
            (1_780_000_000.0071, "2026-05-28T20:26:40.007Z"), (0, "1970-01-01T00:00:00.000Z"),
            (-0.5, "1969-12-31T23:59:59.500Z"), (-30_610_224_000, "1000-01-01T00:00:00.000Z"),
            (-30_610_224_000.001, "0999-12-31T23:59:59.999Z"), (253_402_300_799.999, "9999-12-31T23:59:59.999Z"),
            (253_402_300_800, "10000-01-01T00:00:00.000Z"), (951_782_400.25, "2000-02-29T00:00:00.250Z"),
        ]
        for (seconds, text) in cases {
            #expect(ResponseExport.timestamp(Date(timeIntervalSince1970: seconds)) == text, "\(seconds)")
        }
    }

    @Test func csvFieldsAreQuotedAndDefusedByteForByte() throws {
        let response = Response(
            id: try #require(ResponseID("id-1")), respondentID: "r,1", surveyID: "s", surveyVersion: nil,
            locale: "en", seed: 1, today: "2026-06-01", status: .completed,
            createdAt: Date(timeIntervalSince1970: 1_780_000_000.0071), completedAt: Date(timeIntervalSince1970: 0),
            answers: [
                "a": .string("x\r\ny"), "b": .string("=1+1"), "c": .string("-3"), "d": .string("@\"q\""),
                "e": .array([.string("dev"), .string("pm")]), "f": .number(2.5), "g": .bool(true),
            ])
        #expect(
            ResponseExport.csvLine(of: response, stepIDs: ["a", "b", "c", "d", "e", "f", "g", "h"])
                == "id-1,\"r,1\",s,,en,completed,2026-05-28T20:26:40.007Z,2026-05-28T20:26:40.007Z,"
                + "1970-01-01T00:00:00.000Z,\"x\r\ny\",'=1+1,-3,\"'@\"\"q\"\"\",dev;pm,2.5,true,")
        #expect(ResponseExport.timestamp(Date(timeIntervalSince1970: -0.5)) == "1969-12-31T23:59:59.500Z")
    }
}

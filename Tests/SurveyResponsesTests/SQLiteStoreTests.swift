import CSQLite
import Foundation
import SurveyCore
import SurveyResponses
import SurveyStoreSQLite
import Testing

@Suite struct SQLiteStoreTests {
    /// Many `survey run` processes starting at once on a store that does not exist yet.
    @Test func aNewStoreOpenedByManyAtOnceOpensForAll() throws {
        for _ in 0..<10 {
            let path = temporaryStorePath()
            let failures = FailureList()
            DispatchQueue.concurrentPerform(iterations: 12) { _ in
                do {
                    let store = try SQLiteResponseStore(path: path)
                    _ = try store.funnelCounts(survey: "x")
                } catch {
                    failures.append("\(error)")
                }
            }
            #expect(failures.values.isEmpty, "\(failures.values)")
        }
    }

    /// A store written by the previous version (schema 1, no outbox) is migrated when opened: its
    /// responses stay, and completing one queues deliveries.
    @Test func aSchemaOneStoreGainsTheOutbox() throws {
        let path = temporaryStorePath()
        let created = Date(timeIntervalSince1970: 1_780_000_000)
        let response = Response(
            id: .make(), respondentID: "old", surveyID: "s", surveyVersion: nil, locale: "en", seed: 1,
            today: "2026-06-01", createdAt: created)
        do {
            let store = try SQLiteResponseStore(path: path)
            try store.write(ResponseWrite(response: response))
        }
        // Back to schema 1, as the previous version left it.
        var handle: OpaquePointer?
        #expect(sqlite3_open(path, &handle) == SQLITE_OK)
        #expect(
            sqlite3_exec(
                handle,
                "DROP TABLE deliveries; DROP TABLE settings; DROP TABLE respondent_attributes; DROP TABLE quota_members; DROP TABLE quota_counts; ALTER TABLE responses DROP COLUMN orphaned; "
                    + "ALTER TABLE responses DROP COLUMN abandoned_reason; ALTER TABLE responses DROP COLUMN quotas; "
                    + "ALTER TABLE responses DROP COLUMN version_offset; PRAGMA user_version=1;", nil, nil, nil)
                == SQLITE_OK)
        sqlite3_close(handle)
        let store = try SQLiteResponseStore(path: path)
        #expect(try store.response(response.id) == response)
        var completed = response
        completed.status = .completed
        completed.actionCount = 1
        try store.write(ResponseWrite(response: completed, deliveries: ["hook"]))
        #expect(try store.deliveries(status: .pending).map(\.target) == ["hook"])
    }

    /// A store of schema 7 (no version offset) is migrated when opened: its responses keep their
    /// version, the action count (a partial delivery's key `<id>.<actionCount>` stays the same), and
    /// a later carry-over's offset is kept.
    @Test func aSchemaSevenStoreKeepsItsVersions() throws {
        let path = temporaryStorePath()
        var response = Response(
            id: .make(), respondentID: "old", surveyID: "s", surveyVersion: "1", locale: "en", seed: 1,
            today: "2026-06-01", createdAt: Date(timeIntervalSince1970: 1_780_000_000), actionCount: 1)
        do {
            let store = try SQLiteResponseStore(path: path)
            try store.write(
                ResponseWrite(
                    response: response,
                    actions: [RecordedAction(sequence: 1, action: .next, recordedAt: response.createdAt)]))
        }
        var handle: OpaquePointer?
        #expect(sqlite3_open(path, &handle) == SQLITE_OK)
        #expect(
            sqlite3_exec(
                handle, "ALTER TABLE responses DROP COLUMN version_offset; PRAGMA user_version=7;", nil, nil, nil)
                == SQLITE_OK)
        sqlite3_close(handle)
        let store = try SQLiteResponseStore(path: path)
        let read = try #require(try store.response(response.id))
        #expect(read.versionOffset == 0 && read.version == 1 && read == response)
        response.versionOffset = 2
        try store.write(ResponseWrite(response: response, removesActionsFrom: 2))
        #expect(try store.response(response.id)?.version == 3)
    }
}

extension SQLiteStoreTests {
    /// The pages of `table`'s B-tree, in file order (SQLite's `dbstat` table).
    static func pages(of table: String, in path: String) throws -> [Int64] {
        var handle: OpaquePointer?
        defer { sqlite3_close(handle) }
        try #require(sqlite3_open(path, &handle) == SQLITE_OK)
        var statement: OpaquePointer?
        defer { sqlite3_finalize(statement) }
        try #require(
            sqlite3_prepare_v2(handle, "SELECT pageno FROM dbstat WHERE name = ? ORDER BY pageno", -1, &statement, nil)
                == SQLITE_OK, "dbstat: \(String(cString: sqlite3_errmsg(handle)))")
        sqlite3_bind_text(statement, 1, table, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
        var pages: [Int64] = []
        while sqlite3_step(statement) == SQLITE_ROW { pages.append(sqlite3_column_int64(statement, 0)) }
        return pages
    }

    /// A store written response by response interleaves its tables page by page; compacting lays
    /// each table out in one run of pages, keeps every row, and gives free pages back.
    @Test func compactingLaysEachTableOutInOneRunOfPages() throws {
        let path = temporaryStorePath()
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let store = try SQLiteResponseStore(path: path)
        let start = Date(timeIntervalSince1970: 1_780_000_000)
        var written: [Response] = []
        for number in 0..<400 {
            let created = start.addingTimeInterval(Double(number))
            let response = Response(
                id: .make(at: created), respondentID: "r\(number)", surveyID: "s", surveyVersion: "1", locale: "en",
                seed: UInt64(number), today: "2026-06-01", status: .completed, createdAt: created,
                completedAt: created, path: ["p"],
                answers: ["notes": .string(String(repeating: "answer \(number) ", count: 20))], actionCount: 30)
            let actions = (1...30).map {
                RecordedAction(
                    sequence: $0, action: .answer(stepID: "notes", value: .string("draft \($0) of \(number)")),
                    recordedAt: created)
            }
            try store.write(ResponseWrite(response: response, actions: actions))
            written.append(response)
        }
        // Half the respondents ask to be forgotten: free pages in the middle.
        for number in stride(from: 0, to: 400, by: 2) { _ = try store.deleteResponses(respondent: "r\(number)") }
        let kept = written.enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
        func runs(_ pages: [Int64]) -> Int { zip(pages, pages.dropFirst()).filter { $1 != $0 + 1 }.count + 1 }
        let before = try Self.pages(of: "responses", in: path)
        #expect(runs(Array(before.dropFirst())) > 10, "the test needs an interleaved store to begin with")
        let sizes = try #require(try store.compact())
        #expect(sizes.after < sizes.before)
        // Each table's pages after its root (which keeps its number) are one run.
        #expect(runs(Array(try Self.pages(of: "responses", in: path).dropFirst())) == 1)
        #expect(runs(Array(try Self.pages(of: "actions", in: path).dropFirst())) == 1)
        #expect(try store.responses(matching: ResponseQuery(surveyID: "s")) == kept)
        #expect(try store.actions(of: kept[0].id).count == 30)
        // The write-ahead log is emptied, and the store keeps working.
        var info = stat()
        #expect(stat(path + "-wal", &info) != 0 || info.st_size == 0)
        try store.write(ResponseWrite(response: written[0]))
        #expect(try store.response(written[0].id) == written[0])
    }
}

final class FailureList: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    var values: [String] { lock.withLock { stored } }
    func append(_ value: String) { lock.withLock { stored.append(value) } }
}

import CSQLite
import Foundation
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
        #expect(sqlite3_exec(handle, "DROP TABLE deliveries; PRAGMA user_version=1;", nil, nil, nil) == SQLITE_OK)
        sqlite3_close(handle)
        let store = try SQLiteResponseStore(path: path)
        #expect(try store.response(response.id) == response)
        var completed = response
        completed.status = .completed
        completed.actionCount = 1
        try store.write(ResponseWrite(response: completed, deliveries: ["hook"]))
        #expect(try store.deliveries(status: .pending).map(\.target) == ["hook"])
    }
}

final class FailureList: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    var values: [String] { lock.withLock { stored } }
    func append(_ value: String) { lock.withLock { stored.append(value) } }
}

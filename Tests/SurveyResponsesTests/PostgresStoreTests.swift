import CLibPQ
import Foundation
import SurveyCore
import SurveyResponses
import SurveyStorePostgres
import Testing

/// What only the PostgreSQL store does: URLs, passwords in messages, the schema table, the cursor.
///
/// Enabled only when `SURVEY_TEST_POSTGRES_URL` names a server (`scripts/with-postgres.sh` starts a
/// throwaway one), like the PostgreSQL conformance run: most of these tests need a server to open,
/// and the others probe a closed TCP port on 127.0.0.1, which a plain `swift test` should not
/// depend on (sandboxes may forbid or delay even that).
@Suite(.enabled(if: ProcessInfo.processInfo.environment["SURVEY_TEST_POSTGRES_URL"] != nil))
struct PostgresStoreTests {
    static let url = ProcessInfo.processInfo.environment["SURVEY_TEST_POSTGRES_URL"]
    var url: String { Self.url ?? "" }

    func storeError(_ body: () throws(StoreError) -> Void) -> StoreError? {
        do {
            try body()
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: [
        ("postgresql://user:s3cret@127.0.0.1:1/db", "postgresql://user:***@127.0.0.1:1/db"),
        ("postgres://127.0.0.1:1/db?user=user&password=s3cret", "postgres://127.0.0.1:1/db?user=user&password=***"),
        (
            "postgresql://user:s3c%72et@127.0.0.1:1/db?connect_timeout=5",
            "postgresql://user:***@127.0.0.1:1/db?connect_timeout=5"
        ),
    ])
    func refusedConnectionIsUnavailableAndHidesThePassword(url: String, name: String) {
        let error = storeError { () throws(StoreError) in _ = try PostgresResponseStore(url: url) }
        #expect(error?.kind == .unavailable)
        #expect(error?.store == name)
        let description = error?.description ?? ""
        #expect(!description.contains("s3cret") && !description.contains("s3c%72et"), "\(description)")
        #expect(!description.contains("\n"), "one line: \(description)")
        #expect(description.contains("127.0.0.1"), "names the server: \(description)")
    }

    @Test(arguments: [
        "mysql://user:s3cret@localhost/db",
        "host=localhost password=s3cret",
        "postgresql://localhost/db?no-such-parameter=1",
        "postgresql://localhost/db?missing-equals",
        "postgresql://user:s3cret@[::1/db",
        "postgresql://user:s3cret%zz@localhost/db",
    ])
    func malformedURLIsAClearError(url: String) {
        let error = storeError { () throws(StoreError) in _ = try PostgresResponseStore(url: url) }
        #expect(error?.kind == .invalidRequest, "\(String(describing: error))")
        let description = error?.description ?? ""
        #expect(description.contains("URL"), "\(description)")
        #expect(!description.contains("s3cret"), "\(description)")
        #expect(!description.contains("\n"), "one line: \(description)")
    }

    @Test func opensAStoreWhoseSchemaIsThere() throws {
        try withFreshSchema { url throws in
            let first = try PostgresResponseStore(url: url)
            let response = Response(
                id: .make(), respondentID: "again", surveyID: "reopen", surveyVersion: nil, locale: "en", seed: 1,
                today: "2026-06-01", createdAt: Date(timeIntervalSince1970: 1_780_000_000))
            try first.write(ResponseWrite(response: response))
            let second = try PostgresResponseStore(url: url)
            #expect(try second.response(response.id) == response)
            #expect(
                try queryValue(url, "SELECT version FROM survey_schema") == String(PostgresResponseStore.schemaVersion))
        }
    }

    @Test func aSchemaOneStoreGainsTheOutbox() throws {
        try withFreshSchema { url throws in
            let response = Response(
                id: .make(), respondentID: "old", surveyID: "migrate", surveyVersion: nil, locale: "en", seed: 1,
                today: "2026-06-01", createdAt: Date(timeIntervalSince1970: 1_780_000_000))
            try PostgresResponseStore(url: url).write(ResponseWrite(response: response))
            // Back to schema 1, as the previous version left it.
            _ = try queryValue(url, "DROP TABLE deliveries")
            _ = try queryValue(url, "DROP TABLE settings")
            _ = try queryValue(url, "DROP TABLE respondent_attributes")
            _ = try queryValue(url, "DROP TABLE quota_members")
            _ = try queryValue(url, "DROP TABLE quota_counts")
            _ = try queryValue(
                url, "ALTER TABLE responses DROP COLUMN orphaned, DROP COLUMN abandoned_reason, DROP COLUMN quotas")
            _ = try queryValue(url, "UPDATE survey_schema SET version = 1")
            let store = try PostgresResponseStore(url: url)
            #expect(
                try queryValue(url, "SELECT version FROM survey_schema") == String(PostgresResponseStore.schemaVersion))
            #expect(try store.response(response.id) == response)
            var completed = response
            completed.status = .completed
            completed.actionCount = 1
            try store.write(ResponseWrite(response: completed, deliveries: ["hook"]))
            #expect(try store.deliveries(status: .pending).map(\.target) == ["hook"])
        }
    }

    @Test func concurrentFirstOpensCreateTheSchemaOnce() throws {
        try withFreshSchema { url throws in
            let errors = Box()
            DispatchQueue.concurrentPerform(iterations: 6) { _ in
                do {
                    _ = try PostgresResponseStore(url: url)
                } catch {
                    errors.append("\(error)")
                }
            }
            #expect(errors.values.isEmpty, "\(errors.values)")
            #expect(try queryValue(url, "SELECT COUNT(*) FROM survey_schema") == "1")
            #expect(
                try queryValue(
                    url,
                    "SELECT COUNT(*) FROM pg_tables WHERE schemaname = current_schema() AND tablename LIKE '%funnel%'")
                    == "2")
        }
    }

    @Test func refusesANewerSchema() throws {
        try withFreshSchema { url throws in
            _ = try PostgresResponseStore(url: url)
            _ = try queryValue(url, "UPDATE survey_schema SET version = 99")
            let error = storeError { () throws(StoreError) in _ = try PostgresResponseStore(url: url) }
            #expect(error?.kind == .newerSchema)
            #expect(error?.message.contains("99") == true, "\(String(describing: error))")
        }
    }

    @Test func refusesTablesOfAnotherProgram() throws {
        try withFreshSchema { url throws in
            _ = try queryValue(url, "CREATE TABLE responses (name TEXT)")
            let error = storeError { () throws(StoreError) in _ = try PostgresResponseStore(url: url) }
            #expect(error?.kind == .corrupt)
            #expect(error?.message.contains("responses") == true, "\(String(describing: error))")
        }
    }

    @Test func streamsMoreResponsesThanOneFetch() throws {
        try withFreshSchema { url throws in
            let store = try PostgresResponseStore(url: url)
            let count = 2_500
            _ = try queryValue(
                url,
                """
                INSERT INTO responses (\(ResponseCodec.responseColumns))
                SELECT 'id-' || lpad(n::text, 5, '0'), 'many', 'bulk', NULL, 'en', '1', '2026-06-01', 'completed',
                    1780000000000 + n / 2, 1780000000000 + n, NULL, NULL, '[]', '{}', 0, '[]', NULL, '[]'
                FROM generate_series(1, \(count)) AS n
                """)
            var seen: [String] = []
            try store.forEachResponse(matching: ResponseQuery(surveyID: "bulk")) { response in
                seen.append(response.id.rawValue)
                // The cursor has a connection of its own: the store stays usable inside the loop.
                if seen.count == 1_500 {
                    let reread = try store.response(response.id)
                    #expect(reread == response)
                }
            }
            #expect(seen.count == count)
            #expect(seen == seen.sorted(), "ordered by creation time, then id")
            #expect(try store.responses(matching: ResponseQuery(surveyID: "bulk", limit: 1_001)).count == 1_001)
        }
    }

    @Test func reconnectsAfterTheServerDroppedTheConnection() throws {
        let application = "survey-reconnect-\(UUID().uuidString.prefix(8))"
        let separator = url.contains("?") ? "&" : "?"
        let store = try PostgresResponseStore(url: url + separator + "application_name=" + application)
        var response = Response(
            id: .make(), respondentID: "dropped", surveyID: "reconnect", surveyVersion: nil, locale: "en", seed: 1,
            today: "2026-06-01", createdAt: Date(timeIntervalSince1970: 1_780_000_000))
        try store.write(ResponseWrite(response: response))
        #expect(try store.response(response.id) == response)
        // Every connection of the store: the one that opened it, a batch writer's, a reader's.
        let terminate = "SELECT COUNT(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = $1"
        #expect(try queryValue(url, terminate, [application]) == "3")
        response.actionCount = 1
        try store.write(
            ResponseWrite(
                response: response, actions: [RecordedAction(sequence: 1, action: .next, recordedAt: Date())]))
        try store.setSetting(named: "reconnect", to: "yes")
        #expect(try queryValue(url, terminate, [application]) == "2")
        #expect(try store.response(response.id)?.actionCount == 1)
        #expect(try store.setting(named: "reconnect") == "yes")
    }

    // MARK: Helpers

    /// Runs `body` with a URL whose `search_path` is a new, empty schema, dropped afterwards.
    func withFreshSchema(_ body: (String) throws -> Void) throws {
        let schema = "survey_test_\(UUID().uuidString.prefix(8).lowercased())"
        _ = try queryValue(url, "CREATE SCHEMA \(schema)")
        defer { _ = try? queryValue(url, "DROP SCHEMA \(schema) CASCADE") }
        let separator = url.contains("?") ? "&" : "?"
        try body(url + separator + "options=-csearch_path%3D" + schema)
    }

    /// Runs SQL directly on the server, with `parameters` bound to `$1`, `$2`, …; returns the first
    /// value, if any. Only schema names (made by ``withFreshSchema(_:)``) are spliced into the SQL.
    @discardableResult
    func queryValue(_ url: String, _ sql: String, _ parameters: [String] = []) throws -> String? {
        guard let connection = PQconnectdb(url) else { throw TestSQLError(message: "out of memory") }
        defer { PQfinish(connection) }
        guard PQstatus(connection) == CONNECTION_OK else {
            throw TestSQLError(message: String(cString: PQerrorMessage(connection)))
        }
        PQsetNoticeProcessor(connection, { _, _ in }, nil)  // "drop cascades to …"
        let copies = parameters.map { strdup($0) }
        defer { for copy in copies { free(copy) } }
        let result = PQexecParams(
            connection, sql, Int32(copies.count), nil, copies.map { UnsafePointer($0) }, nil, nil, 0)
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            throw TestSQLError(message: "\(sql): \(String(cString: PQerrorMessage(connection)))")
        }
        guard PQntuples(result) > 0, PQnfields(result) > 0 else { return nil }
        return String(cString: PQgetvalue(result, 0, 0))
    }

    struct TestSQLError: Error {
        var message: String
    }

    final class Box: @unchecked Sendable {
        let lock = NSLock()
        var stored: [String] = []

        func append(_ value: String) { lock.withLock { stored.append(value) } }
        var values: [String] { lock.withLock { stored } }
    }
}

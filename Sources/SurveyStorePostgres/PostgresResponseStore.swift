import Foundation
import SurveyCore
import SurveyResponses
@_exported import SurveyStoreSQL

/// The response store for many collectors at once: a PostgreSQL database, with the same tables
/// and the same semantics as `SQLiteResponseStore`.
///
/// ```swift
/// let store = try PostgresResponseStore(url: "postgresql://survey@db.example.com/responses")
/// var recorder = try ResponseRecorder(store: store, respondentID: "user-42", session: session)
/// ```
///
/// **Durability.** Every ``write(_:)`` returns only after the server answered `COMMIT` to the
/// transaction holding it, so with the server's default `synchronous_commit = on` an acknowledged
/// write survives a crash of the process, of the server and a power loss. Writes that threads make
/// at once through one store object are committed together (`GroupCommit`): one transaction, one
/// flush of the write-ahead log, for all the writes queued while the previous one committed.
///
/// **Concurrency.** Any number of processes may write at once. A write locks its response's row, so
/// writes of one response run one after the other; a batch locks its responses' rows in one order
/// (by id), so that writers do not deadlock, and sends its statements in one round trip (libpq's
/// pipeline mode). No row is updated by every writer: funnel events are counted when read. A
/// transaction the server aborts as a serialization failure or a deadlock (SQLSTATE 40001, 40P01),
/// or whose connection broke, is run again, a few times; writes are idempotent, so running one twice
/// changes nothing. Group commit's batches go through up to 3 connections (so that one batch's
/// statements run while another waits for its commit), the store's other writes through one; reads
/// go through up to 4 connections of their own (so they do not wait for a batch), and each
/// ``forEachResponse(matching:_:)`` reads on a connection of its own: at most 9 at once.
///
/// **Schema.** The one-row table `survey_schema` holds the schema version (now 7). The first open
/// of a database creates the tables under a transaction-scoped advisory lock, so processes opening
/// it at once do not race; an older schema is migrated forward the same way; a newer one is refused
/// with ``StoreError/Kind/newerSchema``. Only statements with bound parameters touch the data.
///
/// The store's logic is `SQLResponseStore`'s (in `SurveyStoreSQL`), shared with the SQLite store;
/// this class connects, creates and migrates the schema, and reads through a cursor.
public final class PostgresResponseStore: SQLResponseStore, @unchecked Sendable {
    /// The schema version this code writes.
    public static let schemaVersion = SQLSchema.version

    /// The URL, without its password.
    public let name: String
    let url: PostgresURL
    package let connection: PostgresConnection
    package let lock = NSLock()
    /// How many batches of writes commit at once, each on a connection of its own.
    static let batchWriterCount = 3
    package let committer = GroupCommit<ResponseWrite>(committers: batchWriterCount)
    package let batchWriters: ConnectionPool<PostgresConnection>?
    package let readers: ConnectionPool<PostgresConnection>

    /// Opens the store at `url`, creating its tables when the database has none.
    ///
    /// `url` is a libpq connection URI, `postgresql://` or `postgres://`:
    /// `postgresql://user:password@host:5432/database?sslmode=require`, or over a Unix socket
    /// `postgresql:///database?host=/run/postgresql`. What the URL leaves out comes from libpq's
    /// environment variables (`PGHOST`, `PGUSER`, `PGPASSWORD`, …) and `~/.pgpass`.
    /// - Throws: ``StoreError`` named by the URL without its password: ``StoreError/Kind/invalidRequest``
    ///   for a URL that is not one; ``StoreError/Kind/unavailable`` when the server cannot be reached or
    ///   refuses the login; ``StoreError/Kind/corrupt`` when the database has tables of the same names
    ///   that are not a response store's; ``StoreError/Kind/newerSchema`` when a newer version wrote it.
    public init(url: String) throws(StoreError) {
        self.url = try PostgresURL(url)
        name = self.url.name
        connection = try PostgresConnection(url: self.url)
        let parsed = self.url
        readers = ConnectionPool(limit: 4) { () throws(StoreError) in try PostgresConnection(url: parsed) }
        batchWriters = ConnectionPool(limit: Self.batchWriterCount) { () throws(StoreError) in
            try PostgresConnection(url: parsed)
        }
        try migrate()
    }

    // MARK: Schema

    /// The tables of a response store, and the table holding their version.
    static let tables = ["responses", "actions", "funnel_events", "funnel_counts", "deliveries"]
    static let versionTable = "survey_schema"
    /// The advisory lock key that serialises schema changes in a database ("SURVEY" in ASCII).
    static let schemaLockKey: Int64 = 0x5355_5256_4559

    func migrate() throws(StoreError) {
        // Without a lock first: once the schema is there, opening takes no lock.
        if let version = try storedVersion(), version >= Self.schemaVersion {
            try refuseNewer(version)
            return
        }
        try connection.transaction(reconnecting: true) { () throws(StoreError) in
            try connection.run("SELECT pg_advisory_xact_lock($1)", [.integer(Self.schemaLockKey)])
            // Another process may have created or migrated the schema while this one waited for the lock.
            let current = try storedVersion() ?? 0
            try refuseNewer(current)
            guard current < Self.schemaVersion else { return }
            if current == 0 {
                let existing = try existingTables()
                guard existing.isEmpty else {
                    throw StoreError(
                        .corrupt,
                        "has tables named \(existing.sorted().joined(separator: ", ")) but no \(Self.versionTable) "
                            + "table: they belong to another program; use another database or schema", store: name)
                }
            }
            for step in SQLSchema.migrations(PostgresConnection.dialect)[current...] {
                for statement in step { try connection.execute(statement, doing: "create the tables") }
            }
            if current == 0 {
                try connection.execute(
                    """
                    CREATE TABLE survey_schema (
                        singleton BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (singleton),
                        version INTEGER NOT NULL
                    )
                    """, doing: "create the tables")
                try connection.execute(
                    "COMMENT ON TABLE survey_schema IS 'The schema version of the survey response store.'")
                try connection.run(
                    "INSERT INTO survey_schema (version) VALUES ($1)", [.integer(Int64(Self.schemaVersion))])
            } else {
                try connection.run("UPDATE survey_schema SET version = $1", [.integer(Int64(Self.schemaVersion))])
            }
        }
    }

    func refuseNewer(_ version: Int) throws(StoreError) {
        guard version > Self.schemaVersion else { return }
        throw SQLSchema.newer(version, store: name)
    }

    /// The response store tables in the schema new tables go to (the first of `search_path`).
    func existingTables() throws(StoreError) -> Set<String> {
        var names: Set<String> = []
        try rethrowingStoreErrors {
            try connection.query(
                "SELECT tablename FROM pg_catalog.pg_tables WHERE schemaname = current_schema() AND tablename = ANY($1)",
                [.text("{" + (Self.tables + [Self.versionTable]).joined(separator: ",") + "}")]
            ) { row in names.insert(row.text(0) ?? "") }
        }
        return names
    }

    /// The version in `survey_schema`; `nil` when there is no such table.
    func storedVersion() throws(StoreError) -> Int? {
        guard try existingTables().contains(Self.versionTable) else { return nil }
        guard let version = try connection.first("SELECT version FROM survey_schema", [], { row in row.integer(0) })
        else {
            throw StoreError(.corrupt, "the \(Self.versionTable) table holds no version", store: name)
        }
        guard let version else { throw StoreError(.corrupt, "the schema version is unreadable", store: name) }
        return Int(version)
    }

    // MARK: Reading at once

    /// Reads the rows through a cursor, 1000 at a time, in one snapshot, on a connection of its own
    /// (so `body` may use the store).
    package func forEachRow(
        inSnapshot sql: String, _ parameters: [SQLValue], _ body: (PostgresConnection.Row) throws -> Void
    ) throws {
        let reader = try PostgresConnection(url: url)
        defer { reader.rollbackIfNeeded() }
        try reader.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        try reader.run("DECLARE selected_rows NO SCROLL CURSOR FOR " + sql, parameters)
        var fetched = 0
        repeat {
            fetched = 0
            try reader.query("FETCH FORWARD 1000 FROM selected_rows") { row in
                fetched += 1
                try body(row)
            }
        } while fetched == 1000
        try reader.execute("COMMIT")
    }
}

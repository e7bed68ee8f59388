import CSQLite
import Foundation
import SurveyCore
import SurveyResponses
@_exported import SurveyStoreSQL

/// The embedded default response store: one SQLite file in WAL mode.
///
/// **Durability.** Every ``write(_:)`` returns only after the `BEGIN IMMEDIATE … COMMIT`
/// transaction holding it committed; writes that threads make at once through one store object are
/// committed together in one transaction (`GroupCommit`), so one sync of the log serves them all. With the default ``Synchronous/full``, SQLite syncs the write-ahead log
/// to disk at every commit, so an acknowledged write survives a crash of the process *and* a power
/// loss or operating-system crash. With ``Synchronous/normal`` a commit survives a crash of the
/// process, but the last commits before a power loss may be rolled back (the database itself stays
/// consistent); it is faster on slow disks.
///
/// **Concurrency.** Several processes may write one file at once: writes wait for each other up to
/// the busy timeout (10 s by default) instead of failing.
///
/// **Schema.** `PRAGMA user_version` holds the schema version (now 7: version 2 added the delivery
/// outbox, version 3 a response's orphaned answers and abandonment reason, version 4 store settings, version 5 respondent attributes, version 6 quota counts, version 7 the quotas a response reached); opening an older store
/// migrates it forward in a transaction, opening a newer one is refused with
/// ``StoreError/Kind/newerSchema``. Only prepared statements with bound parameters touch the data.
///
/// The store's logic is `SQLResponseStore`'s (in `SurveyStoreSQL`), shared with the PostgreSQL
/// store; this class opens and migrates the file, reads in a snapshot of its own, splits and compacts.
public final class SQLiteResponseStore: SQLResponseStore, @unchecked Sendable {
    /// The schema version this code writes.
    public static let schemaVersion = SQLSchema.version

    /// SQLite's `synchronous` setting for the store.
    public enum Synchronous: String, Sendable {
        /// Sync the log at every commit: survives power loss (the default).
        case full = "FULL"
        /// Sync only at checkpoints: survives a process crash, not always a power loss.
        case normal = "NORMAL"
    }

    public let name: String
    /// The file.
    public let path: String
    package let connection: SQLiteConnection
    package let lock = NSLock()
    package let committer = GroupCommit<ResponseWrite>()
    package let readers: ConnectionPool<SQLiteConnection>
    /// One writer at a time: SQLite's write lock is the file's.
    package var batchWriters: ConnectionPool<SQLiteConnection>? { nil }

    /// Opens (creating it when missing) the store at `path`.
    /// - Parameters:
    ///   - synchronous: ``Synchronous/full`` unless you accept losing the last commits on power loss.
    ///   - busyTimeout: how long a write waits for other writers, in milliseconds.
    /// - Throws: ``StoreError`` naming the file: it cannot be created or read, is not a SQLite database or
    ///   not a response store, or was written by a newer version.
    public init(path: String, synchronous: Synchronous = .full, busyTimeout: Int32 = 10_000) throws(StoreError) {
        self.path = path
        name = path
        var info = stat()
        if stat(path, &info) == 0, (info.st_mode & S_IFMT) != S_IFREG {
            throw StoreError(.unavailable, "is not a regular file", store: path)
        }
        connection = try SQLiteConnection(path: path, name: path)
        sqlite3_busy_timeout(connection.handle, busyTimeout)
        // In WAL mode reads on other connections do not wait for the writer.
        readers = ConnectionPool(limit: 4) { () throws(StoreError) in
            let reader = try SQLiteConnection(path: path, name: path)
            sqlite3_busy_timeout(reader.handle, busyTimeout)
            return reader
        }
        try configure(synchronous: synchronous)
        try migrate()
    }

    func configure(synchronous: Synchronous) throws(StoreError) {
        // The first read of the file: a file that is not a database fails here. Switching a new file
        // to WAL takes an exclusive lock without waiting on the busy handler, so when several
        // processes open a new store at once, the losers wait and try again here.
        var attempt = 0
        while true {
            do throws(StoreError) {
                let mode = try connection.first("PRAGMA journal_mode=WAL") { row throws(StoreError) in row.text(0) }
                guard (mode ?? nil)?.lowercased() == "wal" else {
                    throw StoreError(.unavailable, "cannot switch the store to WAL mode", store: name)
                }
                break
            } catch {
                attempt += 1
                guard error.kind == .failed || error.kind == .unavailable, error.message.contains("locked"),
                    attempt < 1000
                else { throw error }
                usleep(UInt32.random(in: 1_000...10_000))
            }
        }
        try connection.execute("PRAGMA synchronous=\(synchronous.rawValue)")
        try connection.execute("PRAGMA foreign_keys=ON")
        try connection.execute("PRAGMA secure_delete=ON")
    }

    func migrate() throws(StoreError) {
        let version = try userVersion()
        if version == Self.schemaVersion { return }
        guard version < Self.schemaVersion else { throw SQLSchema.newer(version, store: name) }
        try connection.transaction(reconnecting: false) { () throws(StoreError) in
            // Another process may have migrated while this one waited for the lock.
            let current = try userVersion()
            guard current < Self.schemaVersion else { return }
            if current == 0 {
                let tables =
                    try connection.first("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table'") {
                        row throws(StoreError) in row.integer(0)
                    } ?? 0
                guard tables == 0 else {
                    throw StoreError(
                        .corrupt, "is a SQLite database of another program, not a response store", store: name)
                }
            }
            for step in SQLSchema.migrations(SQLiteConnection.dialect)[current...] {
                for statement in step { try connection.execute(statement) }
            }
            try connection.execute("PRAGMA user_version=\(Self.schemaVersion)")
        }
    }

    func userVersion() throws(StoreError) -> Int {
        Int(try connection.first("PRAGMA user_version") { row throws(StoreError) in row.integer(0) ?? 0 } ?? 0)
    }

    // MARK: Reading at once

    /// Streams the rows on a connection of its own in a read transaction, without holding the
    /// write lock of the store's own connection.
    package func forEachRow(
        inSnapshot sql: String, _ parameters: [SQLValue], _ body: (SQLiteConnection.Row) throws -> Void
    ) throws {
        let reader = try openReader()
        defer { try? reader.execute("COMMIT") }
        try reader.query(sql, parameters, body)
    }

    /// A dedicated connection in a read transaction (the caller commits it).
    func openReader() throws(StoreError) -> SQLiteConnection {
        let reader = try SQLiteConnection(path: path, name: name)
        sqlite3_busy_timeout(reader.handle, 10_000)
        try reader.execute("BEGIN")
        return reader
    }

    public func split(_ query: ResponseQuery, into parts: Int, minimumPartSize: Int) throws(StoreError)
        -> [ResponseQuery]
    {
        guard parts > 1, query.limit == nil else { return [query] }
        let (selection, parameters) = Self.selection(query)
        let reader = try openReader()
        defer { try? reader.execute("COMMIT") }
        let total = Int(
            try reader.first("SELECT count(*) FROM responses" + selection, parameters) { row throws(StoreError) in
                row.integer(0) ?? 0
            } ?? 0)
        return try ResponseQuery.split(query, into: parts, minimumPartSize: minimumPartSize, total: total) {
            (offset: Int) throws(StoreError) -> Date? in
            try reader.first(
                "SELECT created_at FROM responses" + selection
                    + " ORDER BY created_at LIMIT 1 OFFSET $\(parameters.count + 1)",
                parameters + [.integer(Int64(offset))]
            ) { row throws(StoreError) in ResponseCodec.date(milliseconds: row.integer(0) ?? 0) }
        }
    }

    // MARK: Compacting

    /// `VACUUM`, then a checkpoint that empties the write-ahead log (in WAL mode the rewrite goes
    /// through the log first).
    public func compact() throws(StoreError) -> (before: Int64, after: Int64)? {
        try locked { () throws(StoreError) in
            let before = diskSize()
            try connection.execute("VACUUM")
            try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            return (before, diskSize())
        }
    }

    /// The database file and its write-ahead log, in bytes.
    func diskSize() -> Int64 {
        [path, path + "-wal"].reduce(0) { total, file in
            var info = stat()
            return total + (stat(file, &info) == 0 ? Int64(info.st_size) : 0)
        }
    }
}

import CSQLite
import SurveyResponses
import SurveyStoreSQL

/// One SQLite connection with a cache of prepared statements. Not thread-safe: the store serialises use.
package final class SQLiteConnection: SQLConnection {
    /// SQLite's SQL where it differs from PostgreSQL's: no row locks (`BEGIN IMMEDIATE` takes the
    /// file's write lock), 64-bit `INTEGER`s, `BINARY` text order, tables without a rowid.
    package static let dialect = SQLDialect(
        rowLock: nil, integer: "INTEGER", key: "TEXT", byteOrder: "COLLATE BINARY", tableOptions: " WITHOUT ROWID")

    let handle: OpaquePointer
    let name: String
    var statements: [String: OpaquePointer] = [:]

    /// `SQLITE_TRANSIENT`: SQLite copies bound text before the call returns.
    static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    init(path: String, name: String) throws(StoreError) {
        self.name = name
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let status = sqlite3_open_v2(path, &handle, flags, nil)
        guard status == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(status))
            if let handle { sqlite3_close_v2(handle) }
            throw StoreError(.unavailable, "cannot open the response store (\(message))", store: name)
        }
        self.handle = handle
        sqlite3_extended_result_codes(handle, 1)
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
    }

    /// The error for the last failed call, classified.
    func error(_ status: Int32, doing what: String) -> StoreError {
        let message = String(cString: sqlite3_errmsg(handle))
        switch status & 0xFF {
        case SQLITE_NOTADB, SQLITE_CORRUPT:
            return StoreError(.corrupt, "the file is not a usable response store (\(message))", store: name)
        case SQLITE_CANTOPEN, SQLITE_PERM, SQLITE_READONLY, SQLITE_IOERR, SQLITE_FULL:
            return StoreError(.unavailable, "cannot \(what) (\(message))", store: name)
        case SQLITE_CONSTRAINT:
            return StoreError(.conflict, "cannot \(what) (\(message))", store: name)
        default:
            return StoreError(.failed, "cannot \(what) (\(message))", store: name)
        }
    }

    /// Runs statements without parameters or results (schema, pragmas, transaction control).
    func execute(_ sql: String) throws(StoreError) {
        let status = sqlite3_exec(handle, sql, nil, nil, nil)
        guard status == SQLITE_OK else { throw error(status, doing: "run '\(sql.prefix(40))'") }
    }

    /// The cached prepared statement for `sql`, reset and with `parameters` bound.
    func statement(_ sql: String, _ parameters: [SQLValue]) throws(StoreError) -> OpaquePointer {
        let statement: OpaquePointer
        if let cached = statements[sql] {
            statement = cached
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        } else {
            var prepared: OpaquePointer?
            let status = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &prepared, nil)
            guard status == SQLITE_OK, let prepared else { throw error(status, doing: "prepare a query") }
            // Parameters are PostgreSQL's `$1`, `$2`, … (see SQLConnection): SQLite numbers such names in
            // the order they first appear, so each must first appear in order to mean its number.
            for number in 1..<(sqlite3_bind_parameter_count(prepared) + 1) {
                let parameter = sqlite3_bind_parameter_name(prepared, number).map { String(cString: $0) }
                guard parameter == "$\(number)" else {
                    sqlite3_finalize(prepared)
                    throw StoreError(
                        .failed, "cannot prepare a query (its parameter \(number) is not named $\(number))", store: name
                    )
                }
            }
            statements[sql] = prepared
            statement = prepared
        }
        for (offset, value) in parameters.enumerated() {
            let index = Int32(offset + 1)
            let status: Int32
            switch value {
            case .integer(let number): status = sqlite3_bind_int64(statement, index, number)
            case .text(let text): status = sqlite3_bind_text(statement, index, text, -1, Self.transient)
            case .null: status = sqlite3_bind_null(statement, index)
            }
            guard status == SQLITE_OK else { throw error(status, doing: "bind a parameter") }
        }
        return statement
    }

    /// Runs a statement that returns no rows.
    /// - Returns: the number of rows changed.
    @discardableResult
    package func run(_ sql: String, _ parameters: [SQLValue] = []) throws(StoreError) -> Int {
        let statement = try statement(sql, parameters)
        defer { sqlite3_reset(statement) }
        let status = sqlite3_step(statement)
        guard status == SQLITE_DONE || status == SQLITE_ROW else { throw error(status, doing: "write") }
        return Int(sqlite3_changes(handle))
    }

    /// Runs a query and calls `body` with each row.
    package func query(_ sql: String, _ parameters: [SQLValue] = [], _ body: (Row) throws -> Void) throws {
        let statement = try statement(sql, parameters)
        defer { sqlite3_reset(statement) }
        while true {
            let status = sqlite3_step(statement)
            if status == SQLITE_DONE { return }
            guard status == SQLITE_ROW else { throw error(status, doing: "read") }
            try body(Row(statement: statement))
        }
    }

    /// The first row's columns, read by `body`; `nil` when there is no row.
    package func first<T>(_ sql: String, _ parameters: [SQLValue] = [], _ body: (Row) throws(StoreError) -> T)
        throws(StoreError) -> T?
    {
        let statement = try statement(sql, parameters)
        defer { sqlite3_reset(statement) }
        let status = sqlite3_step(statement)
        if status == SQLITE_DONE { return nil }
        guard status == SQLITE_ROW else { throw error(status, doing: "read") }
        return try body(Row(statement: statement))
    }

    /// Runs `body` in a `BEGIN IMMEDIATE` transaction, rolling back when it throws. The transaction
    /// waits for the file's write lock up to the busy timeout; it is never run again
    /// (`reconnecting` does not apply to a file).
    package func transaction<T>(reconnecting: Bool, _ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// A file does not disconnect.
    package func reconnectIfNeeded() {}

    package var lostConnection: Bool { false }

    /// One result row.
    package struct Row: SQLRow {
        let statement: OpaquePointer

        package func integer(_ column: Int32) -> Int64? {
            sqlite3_column_type(statement, column) == SQLITE_NULL ? nil : sqlite3_column_int64(statement, column)
        }

        package func text(_ column: Int32) -> String? {
            guard let pointer = sqlite3_column_text(statement, column) else { return nil }
            let count = Int(sqlite3_column_bytes(statement, column))
            return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
        }
    }
}

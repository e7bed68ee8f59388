import SurveyResponses

/// A value bound to a statement parameter.
package enum SQLValue {
    case integer(Int64)
    case text(String)
    case null

    /// `text`, or NULL for `nil`.
    package init(_ text: String?) {
        self = text.map(SQLValue.text) ?? .null
    }

    /// `integer`, or NULL for `nil`.
    package init(_ number: Int64?) {
        self = number.map(SQLValue.integer) ?? .null
    }
}

/// One row of a query's result, read by column (the first is 0).
package protocol SQLRow {
    /// The column as text; `nil` for NULL.
    func text(_ column: Int32) -> String?

    /// The column as an integer; `nil` for NULL, or, where every column comes as text, for text that
    /// is not an integer.
    func integer(_ column: Int32) -> Int64?
}

/// A connection to the database of a ``SQLResponseStore``: what the store's shared logic needs of
/// SQLite's and of PostgreSQL's connection, and what it must leave to each.
///
/// Statements are written once for both databases, in SQL both accept (the rest taken from
/// ``dialect``), with PostgreSQL's numbered parameters: `$1` stands for the first value, `$2` for
/// the second, and so on, and may stand again later in the statement. SQLite reads `$1` as a named
/// parameter and numbers names in the order they first appear, so a statement names `$1` before
/// `$2`, `$2` before `$3`, … (the SQLite connection refuses one that does not). Not thread-safe:
/// the store serialises use with its lock.
package protocol SQLConnection: AnyObject {
    associatedtype Row: SQLRow

    /// How this database's SQL differs where one statement cannot serve both.
    static var dialect: SQLDialect { get }

    /// Runs a statement that returns no rows.
    /// - Returns: the number of rows it inserted, updated or deleted.
    @discardableResult
    func run(_ sql: String, _ parameters: [SQLValue]) throws(StoreError) -> Int

    /// Runs statements that return no rows, in order, stopping at the first that fails; PostgreSQL
    /// sends them all at once (libpq's pipeline mode) and reads their results after, one round trip
    /// for all of them. Inside a transaction, a failure leaves the transaction failed.
    /// - Parameter last: they are the last statements of the transaction
    ///   (``transaction(reconnecting:_:)``) running them: the connection may send its `COMMIT` with
    ///   them (PostgreSQL does), and no statement may follow them in the transaction.
    /// - Returns: the number of rows each inserted, updated or deleted.
    func runAll(_ statements: [SQLStatement], last: Bool) throws(StoreError) -> [Int]

    /// Runs a query and calls `body` with each row.
    func query(_ sql: String, _ parameters: [SQLValue], _ body: (Row) throws -> Void) throws

    /// The first row's columns, read by `body`; `nil` when there is no row.
    func first<T>(_ sql: String, _ parameters: [SQLValue], _ body: (Row) throws(StoreError) -> T)
        throws(StoreError) -> T?

    /// Runs `body` in one write transaction, rolled back when it throws.
    ///
    /// The transaction excludes other writers as the database can: SQLite takes the file's write
    /// lock at the start (`BEGIN IMMEDIATE`, waiting for it up to the busy timeout); PostgreSQL
    /// locks rows as statements reach them (``SQLDialect/rowLock``) and runs `body` again after a
    /// serialization failure or deadlock, and, with `reconnecting`, after the connection broke (only
    /// for work that is idempotent).
    func transaction<T>(reconnecting: Bool, _ body: () throws(StoreError) -> T) throws(StoreError) -> T

    /// Connects again when the connection broke since the last statement (a no-op for a file).
    func reconnectIfNeeded() throws(StoreError)

    /// Whether the last statement failed because the connection broke: reconnecting and reading
    /// again may succeed.
    var lostConnection: Bool { get }
}

/// A statement and the values of its parameters, for ``SQLConnection/runAll(_:last:)``.
package struct SQLStatement {
    package var sql: String
    package var parameters: [SQLValue]

    package init(_ sql: String, _ parameters: [SQLValue]) {
        self.sql = sql
        self.parameters = parameters
    }
}

extension SQLConnection {
    /// One statement after the other, for a database without round trips (SQLite).
    package func runAll(_ statements: [SQLStatement], last: Bool) throws(StoreError) -> [Int] {
        var changed: [Int] = []
        changed.reserveCapacity(statements.count)
        for statement in statements { changed.append(try run(statement.sql, statement.parameters)) }
        return changed
    }
}

/// How one database's SQL differs from the other's, for the statements ``SQLResponseStore`` and
/// its schema write once for both.
package struct SQLDialect: Sendable {
    /// The clause that locks the rows a `SELECT` reads until the transaction ends (`FOR UPDATE`);
    /// `nil` where a write transaction excludes every other writer from its start (SQLite).
    package var rowLock: String?
    /// The type of a 64-bit integer column (`INTEGER`, `BIGINT`).
    package var integer: String
    /// The type of a column holding response ids, which sort byte by byte (`TEXT`, `TEXT COLLATE "C"`).
    package var key: String
    /// The collation that sorts text byte by byte in an `ORDER BY` (`COLLATE BINARY`, `COLLATE "C"`).
    package var byteOrder: String
    /// What follows the closing parenthesis of each `CREATE TABLE` (` WITHOUT ROWID`, or nothing).
    package var tableOptions: String
    /// Whether an `INSERT … RETURNING` may stand in the `WITH` clause of another statement
    /// (PostgreSQL's data-modifying `WITH`).
    package var insertsInWith: Bool

    package init(
        rowLock: String?, integer: String, key: String, byteOrder: String, tableOptions: String,
        insertsInWith: Bool = false
    ) {
        self.rowLock = rowLock
        self.integer = integer
        self.key = key
        self.byteOrder = byteOrder
        self.tableOptions = tableOptions
        self.insertsInWith = insertsInWith
    }
}

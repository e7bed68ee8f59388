import CLibPQ
import Foundation
import SurveyResponses
import SurveyStoreSQL

/// One libpq connection. Not thread-safe: the store serialises use.
///
/// Every statement goes through `PQexecParams`, values as bound text parameters (`$1`, `$2`, …),
/// never spliced into the SQL. Every message is one line with the URL's password scrubbed out.
package final class PostgresConnection: SQLConnection {
    /// PostgreSQL's SQL where it differs from SQLite's: rows locked `FOR UPDATE`, `BIGINT`s, response
    /// ids and text order byte by byte (`COLLATE "C"`), as in SQLite; inserts inside `WITH`.
    package static let dialect = SQLDialect(
        rowLock: "FOR UPDATE", integer: "BIGINT", key: #"TEXT COLLATE "C""#, byteOrder: #"COLLATE "C""#,
        tableOptions: "", insertsInWith: true)

    /// How many times a transaction runs before a serialization failure, deadlock or broken
    /// connection is reported.
    static let attempts = 5

    /// Why the last statement failed, for the store's retry loop; `nil` after a success.
    enum Failure {
        /// A serialization failure or a deadlock (SQLSTATE 40001, 40P01): running the transaction again may succeed.
        case retryable
        /// The connection broke: reconnecting and running the transaction again may succeed.
        case connectionLost
        /// Anything else: the same statement would fail again.
        case other
    }

    let handle: OpaquePointer
    let url: PostgresURL
    var name: String { url.name }
    private(set) var lastFailure: Failure?
    /// Inside ``transaction(reconnecting:_:)``: its `BEGIN` is not sent yet; it goes with the next statement.
    private var beginPending = false
    /// Inside ``transaction(reconnecting:_:)``: `COMMIT` went with the last statements.
    private var committed = false
    /// Whether ``transaction(reconnecting:_:)`` is running its body.
    private var inTransactionBody = false

    /// Connects to `url` with UTF-8 text and a 10 s connect timeout unless the URL sets one.
    /// - Throws: ``StoreError/Kind/invalidRequest`` for a malformed URL, ``StoreError/Kind/unavailable``
    ///   when the server cannot be reached or refuses the login.
    init(url: PostgresURL) throws(StoreError) {
        self.url = url
        var parseError: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(url.text, &parseError) else {
            let message = parseError.map { Self.firstLine(String(cString: $0)) } ?? "out of memory"
            if let parseError { PQfreemem(parseError) }
            throw StoreError(
                .invalidRequest, "is not a valid PostgreSQL URL (\(url.redacting(message)))", store: url.name)
        }
        PQconninfoFree(options)
        // Keywords apply in order: the URL (expanded from `dbname`) overrides the timeout and the
        // application name; the encoding comes last so that text is always UTF-8.
        let keywords = ["connect_timeout", "fallback_application_name", "dbname", "client_encoding"]
        let values = ["10", "survey", url.text, "UTF8"]
        let connection = Self.withCStrings(keywords + [nil]) { keywords in
            Self.withCStrings(values + [nil]) { values in PQconnectdbParams(keywords, values, 1) }
        }
        guard let connection else {
            throw StoreError(.unavailable, "cannot connect (out of memory)", store: url.name)
        }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = url.redacting(Self.firstLine(String(cString: PQerrorMessage(connection))))
            PQfinish(connection)
            throw StoreError(.unavailable, "cannot connect (\(message))", store: url.name)
        }
        handle = connection
        // Notices (such as "there is no transaction in progress") would go to standard error.
        PQsetNoticeProcessor(handle, { _, _ in }, nil)
        guard PQserverVersion(handle) >= 90500 else {
            throw StoreError(.unavailable, "needs PostgreSQL 9.5 or newer (for ON CONFLICT)", store: url.name)
        }
    }

    deinit {
        PQfinish(handle)
    }

    /// Reconnects when the connection broke since the last call.
    package func reconnectIfNeeded() throws(StoreError) {
        guard PQstatus(handle) != CONNECTION_OK else { return }
        PQreset(handle)
        guard PQstatus(handle) == CONNECTION_OK else {
            lastFailure = .connectionLost
            throw StoreError(
                .unavailable, "lost the connection and cannot reconnect (\(lastErrorMessage))", store: name)
        }
    }

    package var lostConnection: Bool { lastFailure == .connectionLost }

    /// Runs `body` in a transaction, rolling back when it throws, and runs it again (up to
    /// ``attempts`` times in all) after a serialization failure or deadlock, or, with `reconnecting`,
    /// after the connection broke (only for work that is idempotent).
    package func transaction<T>(reconnecting: Bool, _ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        var attempt = 1
        while true {
            do {
                try reconnectIfNeeded()
                // `BEGIN` goes with the first statement, `COMMIT` may go with the last (``runAll(_:last:)``).
                beginPending = true
                committed = false
                inTransactionBody = true
                let result = try body()
                inTransactionBody = false
                if !beginPending && !committed { try commit() }
                beginPending = false
                return result
            } catch {
                beginPending = false
                inTransactionBody = false
                let failure = lastFailure
                rollbackIfNeeded()
                let again = failure == .retryable || (reconnecting && failure == .connectionLost)
                guard again, attempt < Self.attempts else {
                    guard attempt > 1 else { throw error }
                    throw StoreError(error.kind, error.message + " after \(attempt) attempts", store: name)
                }
                // Back off a little, more each time, at random so that the writers part.
                usleep(UInt32.random(in: 1_000...10_000) * UInt32(attempt))
                attempt += 1
            }
        }
    }

    /// Whether a transaction is open (possibly failed).
    var isInTransaction: Bool {
        let status = PQtransactionStatus(handle)
        return status == PQTRANS_INTRANS || status == PQTRANS_INERROR || status == PQTRANS_ACTIVE
    }

    /// Rolls back the open transaction, if any; errors are ignored (the server rolls back on disconnect).
    func rollbackIfNeeded() {
        guard PQstatus(handle) == CONNECTION_OK, isInTransaction else { return }
        PQclear(PQexecParams(handle, "ROLLBACK", 0, nil, nil, nil, nil, 0))
    }

    /// Commits, and checks the server did (`COMMIT` of a failed transaction answers `ROLLBACK`).
    func commit() throws(StoreError) {
        let result = try statement("COMMIT", [], doing: "commit")
        guard result.commandStatus == "COMMIT" else {
            lastFailure = .other
            throw StoreError(.failed, "cannot commit (the server rolled the transaction back)", store: name)
        }
    }

    /// Runs a statement without parameters or results (transaction control, schema).
    /// - Parameter what: what it does, for the message (by default its first words).
    func execute(_ sql: String, doing what: String? = nil) throws(StoreError) {
        _ = try statement(sql, [], doing: what ?? "run '\(Self.firstLine(String(sql.prefix(40))))'")
    }

    /// Runs a statement that returns no rows.
    /// - Returns: the number of rows it inserted, updated or deleted.
    @discardableResult
    package func run(_ sql: String, _ parameters: [SQLValue] = []) throws(StoreError) -> Int {
        try statement(sql, parameters, doing: "write").changedRows
    }

    /// Sends the statements at once (``pipeline(_:doing:)``): one round trip for all, with the
    /// transaction's `BEGIN` when none was sent yet and, when `last`, its `COMMIT`.
    /// - Returns: the number of rows each inserted, updated or deleted.
    package func runAll(_ statements: [SQLStatement], last: Bool) throws(StoreError) -> [Int] {
        let begins = beginPending ? 1 : 0
        let commits = last && inTransactionBody ? 1 : 0
        if begins + commits == 0 && statements.count == 1 {
            return [try statement(statements[0].sql, statements[0].parameters, doing: "write").changedRows]
        }
        var all = statements
        if begins == 1 { all.insert(SQLStatement("BEGIN", []), at: 0) }
        if commits == 1 { all.append(SQLStatement("COMMIT", [])) }
        beginPending = false
        let results = try pipeline(all, doing: "write")
        if commits == 1 {
            guard results.last?.commandStatus == "COMMIT" else {
                lastFailure = .other
                throw StoreError(.failed, "cannot commit (the server rolled the transaction back)", store: name)
            }
            committed = true
        }
        return results[begins..<(results.count - commits)].map(\.changedRows)
    }

    /// Sends the statements at once in libpq's pipeline mode and reads their results after: one
    /// round trip for all. After a statement fails, the server skips the rest; the first failure is
    /// thrown (inside a transaction, the transaction is then failed).
    /// - Returns: each statement's result.
    func pipeline(_ statements: [SQLStatement], doing what: String) throws(StoreError) -> [Result] {
        guard PQenterPipelineMode(handle) == 1 else {
            var results: [Result] = []
            for statement in statements {
                results.append(try self.statement(statement.sql, statement.parameters, doing: what))
            }
            return results
        }
        var failure: StoreError?
        for statement in statements {
            let accepted: Int32
            do throws(StoreError) {
                accepted = try withParameters(statement.parameters) { values in
                    PQsendQueryParams(handle, statement.sql, Int32(values.count), nil, values, nil, nil, 0)
                }
            } catch {
                failure = error
                break
            }
            guard accepted == 1 else {
                lastFailure = PQstatus(handle) == CONNECTION_OK ? .other : .connectionLost
                failure = StoreError(.unavailable, "cannot \(what) (\(lastErrorMessage))", store: name)
                break
            }
        }
        var results: [Result] = []
        results.reserveCapacity(statements.count)
        var failed: Result?
        if PQpipelineSync(handle) == 1 {
            // Each statement's result, then a null; the sync's result last.
            var synced = false
            var nulls = 0
            while !synced {
                guard let pointer = PQgetResult(handle) else {
                    // One null ends each statement's results; two in a row: nothing more will come.
                    nulls += 1
                    if PQstatus(handle) != CONNECTION_OK || nulls > 1 { break }
                    continue
                }
                nulls = 0
                let result = Result(pointer)
                switch PQresultStatus(pointer) {
                case PGRES_PIPELINE_SYNC:
                    synced = true
                case PGRES_COMMAND_OK, PGRES_TUPLES_OK:
                    results.append(result)
                case PGRES_PIPELINE_ABORTED:
                    break
                default:
                    if failed == nil { failed = result }
                }
            }
        }
        // Classified once every result was read (a connection the server ends is seen broken then).
        if failure == nil, let failed { failure = error(of: failed, doing: what) }
        if PQexitPipelineMode(handle) != 1 {
            // Results left unread: start again on a new connection.
            failure = failure ?? StoreError(.unavailable, "cannot \(what) (\(lastErrorMessage))", store: name)
            PQreset(handle)
            lastFailure = .connectionLost
        }
        if failure == nil && results.count < statements.count {
            lastFailure = PQstatus(handle) == CONNECTION_OK ? .other : .connectionLost
            failure = StoreError(.unavailable, "cannot \(what) (\(lastErrorMessage))", store: name)
        }
        if let failure { throw failure }
        lastFailure = nil
        return results
    }

    /// Runs a query and calls `body` with each row.
    package func query(_ sql: String, _ parameters: [SQLValue] = [], _ body: (Row) throws -> Void) throws {
        let result = try statement(sql, parameters, doing: "read")
        for index in 0..<result.rowCount { try body(Row(result: result, index: index)) }
    }

    /// The first row's columns, read by `body`; `nil` when there is no row.
    package func first<T>(_ sql: String, _ parameters: [SQLValue] = [], _ body: (Row) throws(StoreError) -> T)
        throws(StoreError) -> T?
    {
        let result = try statement(sql, parameters, doing: "read")
        guard result.rowCount > 0 else { return nil }
        return try body(Row(result: result, index: 0))
    }

    /// Sends one statement with its parameters as text and waits for its result.
    func statement(_ sql: String, _ parameters: [SQLValue], doing what: String) throws(StoreError) -> Result {
        if beginPending {
            beginPending = false
            let results = try pipeline([SQLStatement("BEGIN", []), SQLStatement(sql, parameters)], doing: what)
            guard let result = results.last, results.count == 2 else {
                lastFailure = .other
                throw StoreError(.failed, "cannot \(what) (no result)", store: name)
            }
            return result
        }
        let pointer = try withParameters(parameters) { values in
            PQexecParams(handle, sql, Int32(values.count), nil, values, nil, nil, 0)
        }
        guard let pointer else {
            lastFailure = PQstatus(handle) == CONNECTION_OK ? .other : .connectionLost
            throw StoreError(.unavailable, "cannot \(what) (\(lastErrorMessage))", store: name)
        }
        let result = Result(pointer)
        let status = PQresultStatus(pointer)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            throw error(of: result, doing: what)
        }
        lastFailure = nil
        return result
    }

    /// Calls `body` with each value as a C string (`nil`: NULL), copied for libpq and freed after the call.
    func withParameters<R>(_ parameters: [SQLValue], _ body: ([UnsafePointer<CChar>?]) -> R) throws(StoreError) -> R {
        var values: [UnsafePointer<CChar>?] = []
        values.reserveCapacity(parameters.count)
        defer { for value in values { free(UnsafeMutablePointer(mutating: value)) } }
        for parameter in parameters {
            switch parameter {
            case .integer(let number):
                values.append(UnsafePointer(strdup(String(number))))
            case .text(let text):
                guard !text.utf8.contains(0) else {
                    lastFailure = .other
                    throw StoreError(.invalidRequest, "PostgreSQL text cannot hold a NUL character", store: name)
                }
                values.append(UnsafePointer(strdup(text)))
            case .null:
                values.append(nil)
            }
        }
        return body(values)
    }

    /// The error of a failed statement, classified by its SQLSTATE.
    func error(of result: Result, doing what: String) -> StoreError {
        let state = result.errorField(Int32(UInt8(ascii: "C"))) ?? ""
        let primary = result.errorField(Int32(UInt8(ascii: "M"))).map(Self.firstLine) ?? lastErrorMessage
        let message = "cannot \(what) (\(url.redacting(primary))\(state.isEmpty ? "" : "; SQLSTATE \(state)"))"
        // 57P01, 57P02: the server ended the connection (an administrator's command, a crash).
        if PQstatus(handle) != CONNECTION_OK || state.hasPrefix("08") || state == "57P01" || state == "57P02" {
            lastFailure = .connectionLost
            return StoreError(.unavailable, message, store: name)
        }
        lastFailure = state == "40001" || state == "40P01" ? .retryable : .other
        switch state {
        case _ where state.hasPrefix("23"):
            return StoreError(.conflict, message, store: name)
        // Disk full, too many connections, shutting down, no privilege, a read-only server.
        case _ where state.hasPrefix("53") || state.hasPrefix("57"), "42501", "25006":
            return StoreError(.unavailable, message, store: name)
        case "XX001", "XX002":
            return StoreError(.corrupt, message, store: name)
        default:
            return StoreError(.failed, message, store: name)
        }
    }

    /// The first line of libpq's last message, without the password.
    var lastErrorMessage: String {
        let message = Self.firstLine(String(cString: PQerrorMessage(handle)))
        return url.redacting(message.isEmpty ? "no message from libpq" : message)
    }

    static func firstLine(_ text: String) -> String {
        let line = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        return line.trimmingCharacters(in: .whitespaces)
    }

    /// Calls `body` with C copies of `strings` (`nil` stays a null pointer), freed afterwards.
    static func withCStrings<R>(_ strings: [String?], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
        let copies = strings.map { $0.flatMap { strdup($0) } }
        defer { for copy in copies { free(copy) } }
        return body(copies.map { $0.map { UnsafePointer($0) } })
    }

    /// The result of one statement, cleared when released.
    final class Result {
        let pointer: OpaquePointer

        init(_ pointer: OpaquePointer) { self.pointer = pointer }
        deinit { PQclear(pointer) }

        var rowCount: Int32 { PQntuples(pointer) }
        var commandStatus: String { String(cString: PQcmdStatus(pointer)) }
        var changedRows: Int { Int(String(cString: PQcmdTuples(pointer))) ?? 0 }

        func errorField(_ code: Int32) -> String? {
            PQresultErrorField(pointer, code).map { String(cString: $0) }
        }
    }

    /// One result row; columns are text (the text format of every type).
    package struct Row: SQLRow {
        let result: Result
        let index: Int32

        func isNull(_ column: Int32) -> Bool { PQgetisnull(result.pointer, index, column) != 0 }

        package func text(_ column: Int32) -> String? {
            guard !isNull(column), let value = PQgetvalue(result.pointer, index, column) else { return nil }
            let count = Int(PQgetlength(result.pointer, index, column))
            return value.withMemoryRebound(to: UInt8.self, capacity: count) {
                String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self)
            }
        }

        /// The column as an integer; `nil` for NULL or text that is not one.
        package func integer(_ column: Int32) -> Int64? { text(column).flatMap { Int64($0) } }
    }
}

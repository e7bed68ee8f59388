import Foundation
import SurveyResponses

/// Connections of a ``SQLResponseStore`` apart from the one its other writes use: for its reads, so
/// that a read (the header a server reads before each command) does not wait for a group commit's
/// transaction to finish, and for batches of ``GroupCommit`` committing at once.
///
/// A use takes an idle connection, or opens one while fewer than ``limit`` are open, or waits for
/// one to be given back. A read outside a transaction sees what was committed when each statement
/// began, so a read made after a write returned sees that write.
package final class ConnectionPool<Connection: SQLConnection>: @unchecked Sendable {
    /// The most connections open at once.
    package let limit: Int
    private let open: () throws(StoreError) -> Connection
    /// Guards ``idle`` and ``opened``; readers wait on it for a connection.
    private let condition = NSCondition()
    private var idle: [Connection] = []
    private var opened = 0

    /// A pool of at most `limit` connections, each made by `open` when first needed.
    package init(limit: Int, open: @escaping () throws(StoreError) -> Connection) {
        self.limit = max(1, limit)
        self.open = open
    }

    /// Runs `body` with a connection of its own, reconnected first when it broke.
    package func withConnection<T>(_ body: (Connection) throws(StoreError) -> T) throws(StoreError) -> T {
        let connection = try take()
        defer { give(connection) }
        try connection.reconnectIfNeeded()
        return try body(connection)
    }

    private func take() throws(StoreError) -> Connection {
        condition.lock()
        while idle.isEmpty && opened >= limit { condition.wait() }
        if let connection = idle.popLast() {
            condition.unlock()
            return connection
        }
        opened += 1
        condition.unlock()
        do throws(StoreError) {
            return try open()
        } catch {
            condition.lock()
            opened -= 1
            condition.signal()
            condition.unlock()
            throw error
        }
    }

    private func give(_ connection: Connection) {
        condition.lock()
        idle.append(connection)
        condition.signal()
        condition.unlock()
    }
}

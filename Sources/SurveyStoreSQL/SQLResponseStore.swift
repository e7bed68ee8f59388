import Foundation
import SurveyCore
import SurveyResponses

/// A response store on a SQL database: the logic written once for SQLite and PostgreSQL.
///
/// A conforming store brings its ``connection`` (a ``SQLConnection`` wrapping the database's C
/// library), the ``lock`` that serialises use of it, its schema and how it reads many rows at once
/// (``forEachRow(inSnapshot:_:_:)``); this extension implements ``ResponseStore`` over them: the
/// write path (the owner check, the order of actions, the funnel counters, the delivery outbox),
/// the reads (through ``readers``, not waiting for writes), the deletion of a respondent's responses
/// and the outbox's updates.
///
/// What differs between the databases comes from the connection: how a transaction excludes other
/// writers and whether it runs again (``SQLConnection/transaction(reconnecting:_:)``), whether rows
/// are locked (``SQLDialect/rowLock``), how statements are sent (``SQLConnection/runAll(_:last:)``), and
/// reconnecting. Writes lock responses' rows in one order (by id), then the funnel counters in one
/// order (survey, step, kind), once per batch, so that writers that lock rows do not deadlock.
package protocol SQLResponseStore: ResponseStore {
    associatedtype Connection: SQLConnection

    /// The store's own connection; used only while holding ``lock``.
    var connection: Connection { get }

    /// Serialises use of ``connection``.
    var lock: NSLock { get }

    /// Commits the writes of ``ResponseStore/write(_:)`` from every thread together.
    var committer: GroupCommit<ResponseWrite> { get }

    /// The connections group commit's batches go through, as many as batches may commit at once
    /// (``GroupCommit/committers``); `nil`: they go through ``connection`` (one at a time).
    var batchWriters: ConnectionPool<Connection>? { get }

    /// The connections the reads go through, so that they do not wait for the writes' transactions.
    var readers: ConnectionPool<Connection> { get }

    /// Runs a query on a connection of its own, in one snapshot of the database, and calls `body`
    /// with each row; `body` may use the store meanwhile.
    func forEachRow(inSnapshot sql: String, _ parameters: [SQLValue], _ body: (Connection.Row) throws -> Void) throws
}

/// One row of `funnel_counts`.
private struct CounterKey: Hashable, Comparable {
    var survey: String
    var step: String
    var kind: String

    static func < (lhs: CounterKey, rhs: CounterKey) -> Bool {
        (lhs.survey, lhs.step, lhs.kind) < (rhs.survey, rhs.step, rhs.kind)
    }
}

extension SQLResponseStore {
    // MARK: Using the connection

    /// Runs `body` holding ``lock``, the connection reconnected first when it broke.
    package func locked<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        lock.lock()
        defer { lock.unlock() }
        try connection.reconnectIfNeeded()
        return try body()
    }

    /// Runs the reads in `body` on a connection of ``readers``, once more after reconnecting when
    /// the connection broke.
    package func reading<T>(_ body: (Connection) throws(StoreError) -> T) throws(StoreError) -> T {
        try readers.withConnection { (connection) throws(StoreError) in
            do throws(StoreError) {
                return try body(connection)
            } catch {
                guard connection.lostConnection else { throw error }
                try connection.reconnectIfNeeded()
                return try body(connection)
            }
        }
    }

    /// Runs `body` in one write transaction holding ``lock``
    /// (``SQLConnection/transaction(reconnecting:_:)``).
    package func writing<T>(reconnecting: Bool, _ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        try locked { () throws(StoreError) in try connection.transaction(reconnecting: reconnecting, body) }
    }

    /// Runs `body`, a `query` whose row reader throws only ``StoreError``s, passing those on and
    /// wrapping anything else.
    package func rethrowingStoreErrors(_ body: () throws -> Void) throws(StoreError) {
        do {
            try body()
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(.failed, "\(error)", store: name)
        }
    }

    // MARK: Writing

    /// Group commit (``GroupCommit``): the write waits for the transaction that holds it and the
    /// writes other threads queued meanwhile, and returns once that transaction committed.
    public func write(_ write: ResponseWrite) throws(StoreError) {
        try write.validate(store: name)
        try committer.submit(write) { writes in commitTogether(writes) }
    }

    public func write(batch writes: [ResponseWrite]) throws(StoreError) {
        for write in writes { try write.validate(store: name) }
        try writing(reconnecting: true) { () throws(StoreError) in try apply(writes, on: connection, last: true) }
    }

    /// Writes a batch of ``GroupCommit`` in one transaction and commits it: nothing of the batch is
    /// kept when that fails. When the store is unavailable (unreachable, its disk full), every write
    /// of the batch gets the error; otherwise the failure may be one write's (a conflict, a write the
    /// database refuses), and each write is tried again in a transaction of its own, so that the
    /// error reaches only the writes that cause it.
    package func commitTogether(_ writes: [ResponseWrite]) -> [Result<Void, StoreError>] {
        do {
            try committing(writes)
            return Array(repeating: .success(()), count: writes.count)
        } catch {
            guard writes.count > 1, error.kind != .unavailable else {
                return Array(repeating: .failure(error), count: writes.count)
            }
            return writes.map { write in
                do throws(StoreError) {
                    try committing([write])
                    return .success(())
                } catch {
                    return .failure(error)
                }
            }
        }
    }

    /// Commits `writes` in one transaction: on a connection of ``batchWriters`` when the store has
    /// them, else on ``connection`` holding ``lock``.
    private func committing(_ writes: [ResponseWrite]) throws(StoreError) {
        guard let writers = batchWriters else {
            try writing(reconnecting: true) { () throws(StoreError) in try apply(writes, on: connection, last: true) }
            return
        }
        try writers.withConnection { (connection) throws(StoreError) in
            try connection.transaction(reconnecting: true) { () throws(StoreError) in
                try apply(writes, on: connection, last: true)
            }
        }
    }

    /// Applies `writes` inside the open transaction, in an order every writer keeps: by response
    /// (the writes of one response in the order given), so that writers that lock rows (other
    /// processes' batches) lock them in one order and do not deadlock.
    ///
    /// A batch of writes to distinct responses that only append actions takes a few statements in
    /// all (``applyTogether(_:on:last:)``); otherwise each write takes its own statements.
    package func apply(_ writes: [ResponseWrite], on connection: Connection, last: Bool) throws(StoreError) {
        let ordered =
            writes.count == 1
            ? writes
            : writes.enumerated().sorted {
                ($0.element.response.id.rawValue, $0.offset) < ($1.element.response.id.rawValue, $1.offset)
            }.map(\.element)
        if try applyTogether(ordered, on: connection, last: last) { return }
        var counters: [CounterKey: Int64] = [:]
        for write in ordered { try applyOne(write, on: connection, counting: &counters) }
        try addToCounters(counters, on: connection)
    }

    /// Adds `counters` to their `funnel_counts` rows, one statement per row, in writers' order.
    private func addToCounters(_ counters: [CounterKey: Int64], on connection: Connection) throws(StoreError) {
        for (key, count) in counters.sorted(by: { $0.key < $1.key }) {
            try connection.run(
                """
                INSERT INTO funnel_counts (survey_id, step_id, kind, count) VALUES ($1, $2, $3, $4)
                ON CONFLICT (survey_id, step_id, kind) DO UPDATE SET count = funnel_counts.count + $4
                """, [.text(key.survey), .text(key.step), .text(key.kind), .integer(count)])
        }
    }

    /// The most rows one multi-row statement takes (each row binds up to 5 values).
    private static var rowsPerStatement: Int { 500 }

    /// Applies `writes` (ordered by response) with one read and one round trip of writes
    /// (``SQLConnection/runAll(_:last:)``): the read locks the responses' rows and finds their owners and
    /// last actions; then each response's header is inserted or updated, and the batch's actions
    /// and funnel events are inserted by multi-row statements. Does nothing and returns `false`
    /// when a write needs more (two writes of one response, actions removed or already stored, an
    /// action out of order): ``applyOne(_:on:)`` then applies each, under the locks taken here.
    /// - Throws: a conflict when a response belongs to another respondent or survey.
    private func applyTogether(_ writes: [ResponseWrite], on connection: Connection, last: Bool) throws(StoreError)
        -> Bool
    {
        let ids = writes.map { $0.response.id.rawValue }
        guard Set(ids).count == ids.count, writes.allSatisfy({ $0.removesActionsFrom == nil }) else { return false }
        let rowLock = Connection.dialect.rowLock.map { " " + $0 } ?? ""
        var stored: [String: (respondent: String?, survey: String?, last: Int)] = [:]
        try rethrowingStoreErrors {
            try connection.query(
                """
                SELECT id, respondent_id, survey_id,
                    (SELECT COALESCE(MAX(sequence), 0) FROM actions WHERE actions.response_id = responses.id)
                FROM responses WHERE id IN (\((1...ids.count).map { "$\($0)" }.joined(separator: ", ")))
                ORDER BY id
                """ + rowLock, ids.map(SQLValue.text)
            ) { row in stored[row.text(0) ?? ""] = (row.text(1), row.text(2), Int(row.integer(3) ?? 0)) }
        }
        var statements: [SQLStatement] = []
        var actionRows: [[SQLValue]] = []
        for write in writes {
            let response = write.response
            let lastStored: Int
            if let owner = stored[response.id.rawValue] {
                guard owner.respondent == response.respondentID, owner.survey == response.surveyID else {
                    throw StoreError(
                        .conflict, "response \(response.id) belongs to another respondent or survey", store: name)
                }
                lastStored = owner.last
            } else {
                lastStored = 0
            }
            for (offset, action) in write.actions.enumerated() where action.sequence != lastStored + 1 + offset {
                return false
            }
            if stored[response.id.rawValue] == nil {
                // A new response (a response id another writer inserted meanwhile fails the batch).
                statements.append(
                    SQLStatement(
                        """
                        INSERT INTO responses (\(ResponseCodec.responseColumns))
                        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)
                        """, Self.columns(of: response)))
            } else {
                statements.append(Self.updatingHeader(write))
            }
            for action in write.actions {
                actionRows.append([
                    .text(response.id.rawValue), .integer(Int64(action.sequence)),
                    .text(ResponseCodec.actionJSON(action.action)),
                    .integer(ResponseCodec.milliseconds(action.recordedAt)),
                ])
            }
        }
        var start = 0
        while start < actionRows.count {
            let rows = actionRows[start..<min(start + Self.rowsPerStatement, actionRows.count)]
            statements.append(
                Self.inserting("INSERT INTO actions (response_id, sequence, action, recorded_at) VALUES ", rows))
            start += rows.count
        }
        let withEvents = writes.filter { !$0.funnelEvents.isEmpty }
        if Connection.dialect.insertsInWith {
            // Each statement inserts events and adds what it inserted to the counters.
            start = 0
            while start < withEvents.count {
                // A write has a few events at most; by writes keeps each statement well under the limit.
                let part = Array(withEvents[start..<min(start + Self.rowsPerStatement / 10, withEvents.count)])
                statements.append(Self.insertingAndCountingFunnelEvents(of: part))
                start += part.count
            }
        } else if !withEvents.isEmpty {
            // One statement per event, to count what each inserted (no round trips here), after the
            // responses they belong to.
            _ = try connection.runAll(statements, last: false)
            statements = []
            let events = withEvents.flatMap(Self.eventStatements)
            let inserted = try connection.runAll(events.map(\.statement), last: false)
            var counters: [CounterKey: Int64] = [:]
            for (event, count) in zip(events, inserted) where count > 0 { counters[event.key, default: 0] += 1 }
            if !counters.isEmpty {
                statements.append(
                    Self.inserting(
                        "INSERT INTO funnel_counts (survey_id, step_id, kind, count) VALUES ",
                        counters.sorted { $0.key < $1.key }.map { key, count in
                            [.text(key.survey), .text(key.step), .text(key.kind), .integer(count)]
                        },
                        suffix: " ON CONFLICT (survey_id, step_id, kind) DO UPDATE SET count = funnel_counts.count + "
                            + "excluded.count"))
            }
        }
        for write in writes { statements += Self.deliveryStatements(write) }
        _ = try connection.runAll(statements, last: last)
        return true
    }

    /// `prefix` followed by one parenthesised row of parameters per row: `($1, $2), ($3, $4)`.
    private static func inserting(_ prefix: String, _ rows: some Collection<[SQLValue]>, suffix: String = "")
        -> SQLStatement
    {
        var sql = prefix
        var parameters: [SQLValue] = []
        for (index, row) in rows.enumerated() {
            sql += index == 0 ? "(" : ", ("
            for (column, value) in row.enumerated() {
                parameters.append(value)
                sql += (column == 0 ? "$" : ", $") + String(parameters.count)
            }
            sql += ")"
        }
        return SQLStatement(sql + suffix, parameters)
    }

    /// One statement per funnel event of `write` (an event already stored stays as it is), with its counter.
    private static func eventStatements(_ write: ResponseWrite) -> [(key: CounterKey, statement: SQLStatement)] {
        let response = write.response
        return write.funnelEvents.map { event in
            let key = CounterKey(survey: response.surveyID, step: event.stepID ?? "", kind: event.kind.rawValue)
            return (
                key,
                SQLStatement(
                    """
                    INSERT INTO funnel_events (response_id, kind, step_id, survey_id, recorded_at)
                    VALUES ($1, $2, $3, $4, $5)
                    ON CONFLICT DO NOTHING
                    """,
                    [
                        .text(response.id.rawValue), .text(key.kind), .text(key.step), .text(key.survey),
                        .integer(ResponseCodec.milliseconds(event.recordedAt)),
                    ])
            )
        }
    }

    /// One statement (PostgreSQL's `WITH … INSERT`) inserting the funnel events of `writes` (an event
    /// already stored stays as it is) and adding the events it inserted to their counters, rows
    /// taken in writers' order (survey, step, kind).
    private static func insertingAndCountingFunnelEvents(of writes: [ResponseWrite]) -> SQLStatement {
        var rows: [[SQLValue]] = []
        for write in writes {
            for event in write.funnelEvents {
                rows.append([
                    .text(write.response.id.rawValue), .text(event.kind.rawValue), .text(event.stepID ?? ""),
                    .text(write.response.surveyID), .integer(ResponseCodec.milliseconds(event.recordedAt)),
                ])
            }
        }
        let byteOrder = Connection.dialect.byteOrder
        return inserting(
            "WITH added AS (INSERT INTO funnel_events (response_id, kind, step_id, survey_id, recorded_at) VALUES ",
            rows,
            suffix: """
                 ON CONFLICT DO NOTHING RETURNING survey_id, step_id, kind)
                INSERT INTO funnel_counts (survey_id, step_id, kind, count)
                SELECT survey_id, step_id, kind, COUNT(*) FROM added GROUP BY survey_id, step_id, kind
                ORDER BY survey_id \(byteOrder), step_id \(byteOrder), kind \(byteOrder)
                ON CONFLICT (survey_id, step_id, kind) DO UPDATE SET count = funnel_counts.count + excluded.count
                """)
    }

    /// The statement that updates a stored response's header; a header with fewer actions than the
    /// stored one is stale and changes nothing, unless actions were removed.
    private static func updatingHeader(_ write: ResponseWrite) -> SQLStatement {
        let response = write.response
        return SQLStatement(
            """
            UPDATE responses SET survey_version = $1, locale = $2, status = $3, updated_at = $4, completed_at = $5,
                current_unit = $6, path = $7, answers = $8, action_count = $9, orphaned = $10,
                abandoned_reason = $11, quotas = $12
            WHERE id = $13 AND (action_count <= $9 OR $14 = 1)
            """,
            [
                SQLValue(response.surveyVersion), .text(response.locale), .text(response.status.rawValue),
                .integer(ResponseCodec.milliseconds(response.updatedAt)),
                SQLValue(response.completedAt.map(ResponseCodec.milliseconds)), SQLValue(response.currentUnitID),
                .text(ResponseCodec.pathJSON(response.path)), .text(ResponseCodec.answersJSON(response.answers)),
                .integer(Int64(response.actionCount)), .text(ResponseCodec.orphanedJSON(response.orphaned)),
                SQLValue(response.abandonedReason), .text(ResponseCodec.quotasJSON(response.quotasReached)),
                .text(response.id.rawValue), .integer(write.removesActionsFrom == nil ? 0 : 1),
            ])
    }

    /// Applies one write inside the open transaction, a statement at a time, adding the funnel
    /// events it adds to `counters` (for ``addToCounters(_:on:)``); idempotent.
    private func applyOne(
        _ write: ResponseWrite, on connection: Connection, counting counters: inout [CounterKey: Int64]
    )
        throws(StoreError)
    {
        let response = write.response
        let id = SQLValue.text(response.id.rawValue)
        // Lock the response's row where the database locks rows (inserting it when new), so that
        // writes of one response run one at a time.
        let rowLock = Connection.dialect.rowLock.map { " " + $0 } ?? ""
        var owner: (respondent: String?, survey: String?)?
        var tries = 0
        while true {
            owner = try connection.first(
                "SELECT respondent_id, survey_id FROM responses WHERE id = $1" + rowLock, [id]
            ) { row in (row.text(0), row.text(1)) }
            if owner != nil { break }
            let inserted = try connection.run(
                """
                INSERT INTO responses (\(ResponseCodec.responseColumns))
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)
                ON CONFLICT (id) DO NOTHING
                """, Self.columns(of: response))
            if inserted > 0 { break }
            // Another writer inserted it since (or deleted it again): lock it.
            tries += 1
            guard tries < 3 else {
                throw StoreError(.failed, "response \(response.id) keeps being inserted and deleted", store: name)
            }
        }
        if let owner {
            guard owner.respondent == response.respondentID, owner.survey == response.surveyID else {
                throw StoreError(
                    .conflict, "response \(response.id) belongs to another respondent or survey", store: name)
            }
            if let from = write.removesActionsFrom {
                try connection.run(
                    "DELETE FROM actions WHERE response_id = $1 AND sequence >= $2", [id, .integer(Int64(from))])
            }
            let header = Self.updatingHeader(write)
            try connection.run(header.sql, header.parameters)
        }
        if !write.actions.isEmpty { try appendActions(write, id: id, on: connection) }
        for (key, event) in Self.eventStatements(write) where try connection.run(event.sql, event.parameters) > 0 {
            counters[key, default: 0] += 1
        }
        for delivery in Self.deliveryStatements(write) { try connection.run(delivery.sql, delivery.parameters) }
    }

    /// The statements that queue the write's deliveries.
    private static func deliveryStatements(_ write: ResponseWrite) -> [SQLStatement] {
        let id = SQLValue.text(write.response.id.rawValue)
        let at = SQLValue.integer(ResponseCodec.milliseconds(write.response.updatedAt))
        var statements: [SQLStatement] = []
        for target in write.deliveries {
            statements.append(
                SQLStatement(
                    """
                    INSERT INTO deliveries (response_id, target, status, attempts, next_attempt_at, updated_at)
                    VALUES ($1, $2, 'pending', 0, $3, $3) ON CONFLICT (response_id, target) DO NOTHING
                    """, [id, .text(target), at]))
        }
        for target in write.requeuedDeliveries {
            // A job still pending keeps its attempts and time; its update time always changes, so a
            // deliverer that read it before sees it was queued again.
            statements.append(
                SQLStatement(
                    """
                    INSERT INTO deliveries (response_id, target, status, attempts, next_attempt_at, updated_at)
                    VALUES ($1, $2, 'pending', 0, $3, $3) ON CONFLICT (response_id, target) DO UPDATE SET
                        attempts = CASE WHEN deliveries.status = 'pending' THEN deliveries.attempts ELSE 0 END,
                        next_attempt_at = CASE WHEN deliveries.status = 'pending'
                            THEN deliveries.next_attempt_at ELSE $3 END,
                        status = 'pending',
                        updated_at = CASE WHEN deliveries.updated_at >= $3 THEN deliveries.updated_at + 1 ELSE $3 END
                    """, [id, .text(target), at]))
        }
        return statements
    }

    /// Appends the write's actions after the response's last one: an action already stored must be
    /// the same, a new one must come next.
    private func appendActions(_ write: ResponseWrite, id: SQLValue, on connection: Connection) throws(StoreError) {
        let response = write.response
        var last =
            try connection.first("SELECT COALESCE(MAX(sequence), 0) FROM actions WHERE response_id = $1", [id]) {
                row in Int(row.integer(0) ?? 0)
            } ?? 0
        for action in write.actions {
            if action.sequence <= last {
                let stored = try connection.first(
                    "SELECT action FROM actions WHERE response_id = $1 AND sequence = $2",
                    [id, .integer(Int64(action.sequence))]
                ) { row in row.text(0) }
                guard let stored, let stored,
                    try ResponseCodec.action(fromJSON: stored, store: name) == action.action
                else {
                    throw StoreError(
                        .conflict, "response \(response.id) already has a different action number \(action.sequence)",
                        store: name)
                }
                continue
            }
            guard action.sequence == last + 1 else {
                throw StoreError(
                    .invalidRequest,
                    "action \(action.sequence) of response \(response.id) comes before action \(last + 1)",
                    store: name)
            }
            try connection.run(
                "INSERT INTO actions (response_id, sequence, action, recorded_at) VALUES ($1, $2, $3, $4)",
                [
                    id, .integer(Int64(action.sequence)), .text(ResponseCodec.actionJSON(action.action)),
                    .integer(ResponseCodec.milliseconds(action.recordedAt)),
                ])
            last = action.sequence
        }
    }

    /// The `responses` columns of `response`, in ``ResponseCodec/responseColumns`` order.
    package static func columns(of response: Response) -> [SQLValue] {
        [
            .text(response.id.rawValue), .text(response.respondentID), .text(response.surveyID),
            SQLValue(response.surveyVersion), .text(response.locale), .text(String(response.seed)),
            .text(response.today), .text(response.status.rawValue),
            .integer(ResponseCodec.milliseconds(response.createdAt)),
            .integer(ResponseCodec.milliseconds(response.updatedAt)),
            SQLValue(response.completedAt.map(ResponseCodec.milliseconds)), SQLValue(response.currentUnitID),
            .text(ResponseCodec.pathJSON(response.path)), .text(ResponseCodec.answersJSON(response.answers)),
            .integer(Int64(response.actionCount)), .text(ResponseCodec.orphanedJSON(response.orphaned)),
            SQLValue(response.abandonedReason), .text(ResponseCodec.quotasJSON(response.quotasReached)),
        ]
    }

    public func deleteResponses(respondent respondentID: String) throws(StoreError) -> Int {
        guard !respondentID.isEmpty else {
            throw StoreError(.invalidRequest, "the respondent id is empty", store: name)
        }
        let respondent = SQLValue.text(respondentID)
        // Not run again after a broken connection: the first run may have deleted them, and the
        // second would report 0.
        return try writing(reconnecting: false) { () throws(StoreError) in
            if let rowLock = Connection.dialect.rowLock {
                // Lock the responses first, as writers do, then the counters in writers' order.
                try rethrowingStoreErrors {
                    try connection.query(
                        "SELECT id FROM responses WHERE respondent_id = $1 ORDER BY id " + rowLock, [respondent]
                    ) { _ in }
                }
            }
            var decrements: [(key: CounterKey, count: Int64)] = []
            try rethrowingStoreErrors {
                try connection.query(
                    """
                    SELECT e.survey_id, e.step_id, e.kind, COUNT(*) FROM funnel_events e
                    JOIN responses r ON r.id = e.response_id WHERE r.respondent_id = $1
                    GROUP BY e.survey_id, e.step_id, e.kind
                    """, [respondent]
                ) { row in
                    let key = CounterKey(survey: row.text(0) ?? "", step: row.text(1) ?? "", kind: row.text(2) ?? "")
                    decrements.append((key, row.integer(3) ?? 0))
                }
            }
            for (key, count) in decrements.sorted(by: { $0.key < $1.key }) {
                try connection.run(
                    "UPDATE funnel_counts SET count = count - $1 WHERE survey_id = $2 AND step_id = $3 AND kind = $4",
                    [.integer(count), .text(key.survey), .text(key.step), .text(key.kind)])
            }
            // The quotas the responses counted in count them no more (their member rows go with them).
            var quotaDecrements: [(survey: String, quota: String, count: Int64)] = []
            try rethrowingStoreErrors {
                try connection.query(
                    """
                    SELECT m.survey_id, m.quota_id, COUNT(*) FROM quota_members m
                    JOIN responses r ON r.id = m.response_id WHERE r.respondent_id = $1
                    GROUP BY m.survey_id, m.quota_id
                    """, [respondent]
                ) { row in
                    quotaDecrements.append((row.text(0) ?? "", row.text(1) ?? "", row.integer(2) ?? 0))
                }
            }
            // In writers' order: by survey, then quota.
            for entry in quotaDecrements.sorted(by: { ($0.survey, $0.quota) < ($1.survey, $1.quota) }) {
                try connection.run(
                    "UPDATE quota_counts SET count = count - $1 WHERE survey_id = $2 AND quota_id = $3",
                    [.integer(entry.count), .text(entry.survey), .text(entry.quota)])
            }
            _ = try connection.run("DELETE FROM respondent_attributes WHERE respondent_id = $1", [respondent])
            return try connection.run("DELETE FROM responses WHERE respondent_id = $1", [respondent])
        }
    }

    // MARK: Reading

    /// The response in a row of ``ResponseCodec/responseColumns``.
    package func readResponse(_ row: Connection.Row) throws(StoreError) -> Response {
        var columns = ResponseCodec.ResponseColumns()
        columns.id = row.text(0)
        columns.respondentID = row.text(1)
        columns.surveyID = row.text(2)
        columns.surveyVersion = row.text(3)
        columns.locale = row.text(4)
        columns.seed = row.text(5)
        columns.today = row.text(6)
        columns.status = row.text(7)
        columns.createdAt = row.integer(8)
        columns.updatedAt = row.integer(9)
        columns.completedAt = row.integer(10)
        columns.currentUnit = row.text(11)
        columns.path = row.text(12)
        columns.answers = row.text(13)
        columns.actionCount = row.integer(14)
        columns.orphaned = row.text(15)
        columns.abandonedReason = row.text(16)
        columns.quotas = row.text(17)
        return try ResponseCodec.response(columns: columns, store: name)
    }

    public func response(_ id: ResponseID) throws(StoreError) -> Response? {
        try reading { (connection) throws(StoreError) in
            try connection.first(
                "SELECT \(ResponseCodec.responseColumns) FROM responses WHERE id = $1", [.text(id.rawValue)]
            ) { row throws(StoreError) in try readResponse(row) }
        }
    }

    public func responseVersion(_ id: ResponseID) throws(StoreError) -> ResponseVersion? {
        try reading { (connection) throws(StoreError) in
            try connection.first(
                "SELECT survey_id, status, action_count, updated_at FROM responses WHERE id = $1", [.text(id.rawValue)]
            ) { row throws(StoreError) in
                guard let survey = row.text(0), let status = ResponseStatus(rawValue: row.text(1) ?? ""),
                    let count = row.integer(2), let updated = row.integer(3)
                else { throw StoreError(.corrupt, "response \(id) is unreadable", store: name) }
                return ResponseVersion(
                    surveyID: survey, status: status, actionCount: Int(count), updatedAtMilliseconds: updated)
            }
        }
    }

    public func actions(of id: ResponseID) throws(StoreError) -> [RecordedAction] {
        // The rows are read holding the connection; the actions are decoded after, so that threads
        // reading many responses' actions (exports replaying partial responses) decode at once.
        let rows = try reading { (connection) throws(StoreError) in
            var rows: [(sequence: Int64, action: String, recordedAt: Int64)] = []
            try rethrowingStoreErrors {
                try connection.query(
                    "SELECT sequence, action, recorded_at FROM actions WHERE response_id = $1 ORDER BY sequence",
                    [.text(id.rawValue)]
                ) { row in
                    guard let sequence = row.integer(0), let recordedAt = row.integer(2) else {
                        throw StoreError(.corrupt, "an action of response \(id) is unreadable", store: name)
                    }
                    rows.append((sequence, row.text(1) ?? "", recordedAt))
                }
            }
            return rows
        }
        var result: [RecordedAction] = []
        result.reserveCapacity(rows.count)
        for row in rows {
            result.append(
                RecordedAction(
                    sequence: Int(row.sequence), action: try ResponseCodec.action(fromJSON: row.action, store: name),
                    recordedAt: ResponseCodec.date(milliseconds: row.recordedAt)))
        }
        return result
    }

    public func funnelEvents(of id: ResponseID) throws(StoreError) -> [FunnelEvent] {
        let byteOrder = Connection.dialect.byteOrder
        return try reading { (connection) throws(StoreError) in
            var result: [FunnelEvent] = []
            try rethrowingStoreErrors {
                try connection.query(
                    """
                    SELECT kind, step_id, recorded_at FROM funnel_events WHERE response_id = $1
                    ORDER BY recorded_at, kind \(byteOrder), step_id \(byteOrder)
                    """, [.text(id.rawValue)]
                ) { row in
                    guard let kind = FunnelEventKind(rawValue: row.text(0) ?? ""), let recordedAt = row.integer(2)
                    else {
                        throw StoreError(.corrupt, "a funnel event of response \(id) is unreadable", store: name)
                    }
                    let step = row.text(1) ?? ""
                    result.append(
                        FunnelEvent(
                            kind: kind, stepID: step.isEmpty ? nil : step,
                            recordedAt: ResponseCodec.date(milliseconds: recordedAt)))
                }
            }
            return result
        }
    }

    public func forEachResponse(matching query: ResponseQuery, _ body: (Response) throws -> Void) throws {
        var (sql, parameters) = Self.selection(query)
        sql = "SELECT \(ResponseCodec.responseColumns) FROM responses" + sql + " ORDER BY created_at, id"
        // A negative limit is no limit, as in SQLite.
        if let limit = query.limit, limit >= 0 {
            sql += " LIMIT $\(parameters.count + 1)"
            parameters.append(.integer(Int64(limit)))
        }
        try forEachRow(inSnapshot: sql, parameters) { row in try body(try readResponse(row)) }
    }

    /// The `WHERE` clause (with a leading space, or empty) and its parameters for `query`, without its limit.
    package static func selection(_ query: ResponseQuery) -> (String, [SQLValue]) {
        var conditions: [String] = []
        var parameters: [SQLValue] = []
        /// The next parameter, `$1`, `$2`, …, standing for `value`.
        func parameter(_ value: SQLValue) -> String {
            parameters.append(value)
            return "$\(parameters.count)"
        }
        if let survey = query.surveyID { conditions.append("survey_id = " + parameter(.text(survey))) }
        if let respondent = query.respondentID { conditions.append("respondent_id = " + parameter(.text(respondent))) }
        if let statuses = query.statuses {
            let sorted = statuses.map(\.rawValue).sorted()
            if sorted.isEmpty {
                conditions.append("FALSE")
            } else {
                conditions.append("status IN (" + sorted.map { parameter(.text($0)) }.joined(separator: ", ") + ")")
            }
        }
        if let since = query.since {
            conditions.append("created_at >= " + parameter(.integer(ResponseCodec.milliseconds(since))))
        }
        if let until = query.until {
            conditions.append("created_at < " + parameter(.integer(ResponseCodec.milliseconds(until))))
        }
        if let version = query.surveyVersion { conditions.append("survey_version = " + parameter(.text(version))) }
        if let locale = query.locale { conditions.append("locale = " + parameter(.text(locale))) }
        return (conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND "), parameters)
    }

    public func latestResponse(respondent respondentID: String, survey surveyID: String) throws(StoreError)
        -> Response?
    {
        try reading { (connection) throws(StoreError) in
            try connection.first(
                """
                SELECT \(ResponseCodec.responseColumns) FROM responses WHERE respondent_id = $1 AND survey_id = $2
                ORDER BY created_at DESC, id DESC LIMIT 1
                """, [.text(respondentID), .text(surveyID)]
            ) { row throws(StoreError) in try readResponse(row) }
        }
    }

    public func lastFinished(respondent respondentID: String, survey surveyID: String) throws(StoreError) -> (
        status: ResponseStatus, at: Date
    )? {
        try reading { (connection) throws(StoreError) in
            try connection.first(
                """
                SELECT status, COALESCE(completed_at, updated_at) AS finished_at FROM responses
                WHERE respondent_id = $1 AND survey_id = $2 AND status IN ('completed', 'dismissed')
                ORDER BY finished_at DESC LIMIT 1
                """, [.text(respondentID), .text(surveyID)]
            ) { row throws(StoreError) -> (status: ResponseStatus, at: Date) in
                guard let status = ResponseStatus(rawValue: row.text(0) ?? ""), let at = row.integer(1) else {
                    throw StoreError(.corrupt, "a response has an unknown status", store: name)
                }
                return (status, ResponseCodec.date(milliseconds: at))
            }
        }
    }

    public func setting(named name: String) throws(StoreError) -> String? {
        try reading { (connection) throws(StoreError) in
            try connection.first("SELECT value FROM settings WHERE name = $1", [.text(name)]) { row in row.text(0) }
                ?? nil
        }
    }

    public func setSetting(named name: String, to value: String?) throws(StoreError) {
        try writing(reconnecting: true) { () throws(StoreError) in
            if let value {
                _ = try connection.run(
                    "INSERT INTO settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET value = $2",
                    [.text(name), .text(value)])
            } else {
                _ = try connection.run("DELETE FROM settings WHERE name = $1", [.text(name)])
            }
        }
    }

    public func attributes(of respondentID: String) throws(StoreError) -> [String: JSONValue] {
        try reading { (connection) throws(StoreError) in
            var result: [String: JSONValue] = [:]
            try rethrowingStoreErrors {
                try connection.query(
                    "SELECT name, value FROM respondent_attributes WHERE respondent_id = $1", [.text(respondentID)]
                ) { row in
                    guard let key = row.text(0), let text = row.text(1), let value = try? JSONParser.parse(text) else {
                        throw StoreError(.corrupt, "an attribute of '\(respondentID)' is unreadable", store: self.name)
                    }
                    result[key] = value
                }
            }
            return result
        }
    }

    public func setAttributes(_ attributes: [String: JSONValue], of respondentID: String, at date: Date)
        throws(StoreError)
    {
        guard !respondentID.isEmpty else {
            throw StoreError(.invalidRequest, "the respondent id is empty", store: name)
        }
        try writing(reconnecting: true) { () throws(StoreError) in
            for (key, value) in attributes.sorted(by: { $0.key < $1.key }) {
                if value.isNull {
                    _ = try connection.run(
                        "DELETE FROM respondent_attributes WHERE respondent_id = $1 AND name = $2",
                        [.text(respondentID), .text(key)])
                } else {
                    _ = try connection.run(
                        """
                        INSERT INTO respondent_attributes (respondent_id, name, value, updated_at) VALUES ($1, $2, $3, $4)
                        ON CONFLICT (respondent_id, name) DO UPDATE SET value = $3, updated_at = $4
                        """,
                        [
                            .text(respondentID), .text(key), .text(JSONWriter.string(from: value)),
                            .integer(ResponseCodec.milliseconds(date)),
                        ])
                }
            }
        }
    }

    /// One grouped read of the respondent's rows through `responses_by_respondent`.
    public func history(respondent respondentID: String) throws(StoreError) -> RespondentHistory {
        try reading { (connection) throws(StoreError) in
            var history = RespondentHistory()
            try rethrowingStoreErrors {
                try connection.query(
                    """
                    SELECT survey_id, status, COUNT(*), MAX(created_at), MAX(COALESCE(completed_at, updated_at))
                    FROM responses WHERE respondent_id = $1 GROUP BY survey_id, status
                    """, [.text(respondentID)]
                ) { row in
                    guard let survey = row.text(0), let status = ResponseStatus(rawValue: row.text(1) ?? ""),
                        let count = row.integer(2), let created = row.integer(3), let finished = row.integer(4)
                    else { throw StoreError(.corrupt, "a response of '\(respondentID)' is unreadable", store: name) }
                    history.add(
                        surveyID: survey, status: status, count: Int(count),
                        lastCreatedAt: ResponseCodec.date(milliseconds: created),
                        lastFinishedAt: ResponseCodec.date(milliseconds: finished))
                }
            }
            return history
        }
    }

    public func write(_ write: ResponseWrite, claiming claims: [QuotaClaim]) throws(StoreError) -> Set<String> {
        try write.validate(store: name)
        let survey = SQLValue.text(write.response.surveyID)
        let response = SQLValue.text(write.response.id.rawValue)
        return try writing(reconnecting: true) { () throws(StoreError) in
            try apply([write], on: connection, last: false)
            var granted = Set<String>()
            // Quota rows are taken in one order by every writer, so none deadlock.
            for claim in claims.sorted(by: { $0.quotaID < $1.quotaID }) {
                let quota = SQLValue.text(claim.quotaID)
                let counted = try connection.first(
                    "SELECT 1 FROM quota_members WHERE survey_id = $1 AND quota_id = $2 AND response_id = $3",
                    [survey, quota, response]
                ) { _ in true }
                if counted != nil {
                    granted.insert(claim.quotaID)
                    continue
                }
                guard claim.limit > 0 else { continue }
                // One statement: the row is locked (PostgreSQL) or the database is (SQLite), and the
                // count only grows while below the limit.
                let added = try connection.run(
                    """
                    INSERT INTO quota_counts (survey_id, quota_id, count) VALUES ($1, $2, 1)
                    ON CONFLICT (survey_id, quota_id) DO UPDATE SET count = quota_counts.count + 1
                    WHERE quota_counts.count < $3
                    """, [survey, quota, .integer(Int64(claim.limit))])
                guard added > 0 else { continue }
                _ = try connection.run(
                    "INSERT INTO quota_members (survey_id, quota_id, response_id) VALUES ($1, $2, $3)",
                    [survey, quota, response])
                granted.insert(claim.quotaID)
            }
            return granted
        }
    }

    public func quotaCounts(survey surveyID: String) throws(StoreError) -> [String: Int] {
        try reading { (connection) throws(StoreError) in
            var counts: [String: Int] = [:]
            try rethrowingStoreErrors {
                try connection.query(
                    "SELECT quota_id, count FROM quota_counts WHERE survey_id = $1", [.text(surveyID)]
                ) { row in counts[row.text(0) ?? ""] = Int(row.integer(1) ?? 0) }
            }
            return counts
        }
    }

    /// The `funnel_counts` kind of respondents not asked; the row's step id is the reason.
    package static var notAskedKind: String { "not-asked" }

    public func countNotAsked(survey surveyID: String, reason: String) throws(StoreError) {
        try writing(reconnecting: false) { () throws(StoreError) in
            _ = try connection.run(
                """
                INSERT INTO funnel_counts (survey_id, step_id, kind, count) VALUES ($1, $2, $3, 1)
                ON CONFLICT (survey_id, step_id, kind) DO UPDATE SET count = funnel_counts.count + 1
                """, [.text(surveyID), .text(reason), .text(Self.notAskedKind)])
        }
    }

    public func funnelCounts(survey surveyID: String) throws(StoreError) -> FunnelCounts {
        try reading { (connection) throws(StoreError) in
            var counts = FunnelCounts()
            try rethrowingStoreErrors {
                try connection.query(
                    "SELECT step_id, kind, count FROM funnel_counts WHERE survey_id = $1 AND count > 0",
                    [.text(surveyID)]
                ) { row in
                    if row.text(1) == Self.notAskedKind {
                        counts.notAsked[row.text(0) ?? ""] = Int(row.integer(2) ?? 0)
                        return
                    }
                    guard let kind = FunnelEventKind(rawValue: row.text(1) ?? "") else { return }
                    let step = row.text(0) ?? ""
                    let count = Int(row.integer(2) ?? 0)
                    if step.isEmpty {
                        counts.survey[kind] = count
                    } else {
                        counts.steps[step, default: [:]][kind] = count
                    }
                }
                try connection.query(
                    """
                    SELECT current_unit, COUNT(*) FROM responses
                    WHERE survey_id = $1 AND status IN ('in-progress', 'dismissed', 'abandoned') AND current_unit IS NOT NULL
                    GROUP BY current_unit
                    """, [.text(surveyID)]
                ) { row in counts.stoppedAt[row.text(0) ?? "", default: 0] += Int(row.integer(1) ?? 0) }
            }
            return counts
        }
    }

    // MARK: The delivery outbox

    /// Reads the delivery jobs `sql` selects (``deliveryColumns`` first).
    private func readDeliveries(_ sql: String, _ parameters: [SQLValue], on connection: Connection) throws(StoreError)
        -> [DeliveryJob]
    {
        var jobs: [DeliveryJob] = []
        try rethrowingStoreErrors {
            try connection.query(sql, parameters) { row in
                guard let text = row.text(0), let id = ResponseID(text), let target = row.text(1),
                    let status = row.text(2).flatMap(DeliveryStatus.init), let attempts = row.integer(3),
                    let next = row.integer(4), let updated = row.integer(6)
                else { throw StoreError(.corrupt, "a delivery job is unreadable", store: name) }
                jobs.append(
                    DeliveryJob(
                        responseID: id, target: target, status: status, attempts: Int(attempts),
                        nextAttemptAt: ResponseCodec.date(milliseconds: next), lastError: row.text(5),
                        updatedAt: ResponseCodec.date(milliseconds: updated)))
            }
        }
        return jobs
    }

    /// The columns ``readDeliveries(_:_:on:)`` reads.
    private static var deliveryColumns: String {
        "response_id, target, status, attempts, next_attempt_at, last_error, updated_at"
    }

    public func dueDeliveries(at now: Date, limit: Int) throws(StoreError) -> [DeliveryJob] {
        try reading { (connection) throws(StoreError) in
            try readDeliveries(
                """
                SELECT \(Self.deliveryColumns) FROM deliveries WHERE status = 'pending' AND next_attempt_at <= $1
                ORDER BY next_attempt_at, response_id, target LIMIT $2
                """, [.integer(ResponseCodec.milliseconds(now)), .integer(Int64(max(0, limit)))], on: connection)
        }
    }

    public func updateDelivery(_ job: DeliveryJob) throws(StoreError) {
        try writing(reconnecting: true) { () throws(StoreError) in
            _ = try connection.run(
                """
                UPDATE deliveries SET status = $1, attempts = $2, next_attempt_at = $3, last_error = $4, updated_at = $5
                WHERE response_id = $6 AND target = $7
                """,
                [
                    .text(job.status.rawValue), .integer(Int64(job.attempts)),
                    .integer(ResponseCodec.milliseconds(job.nextAttemptAt)), SQLValue(job.lastError),
                    .integer(ResponseCodec.milliseconds(job.updatedAt)), .text(job.responseID.rawValue),
                    .text(job.target),
                ])
        }
    }

    public func updateDelivery(_ job: DeliveryJob, replacing read: DeliveryJob) throws(StoreError) -> Bool {
        // Not run again after a broken connection: the second run would find its own update.
        try writing(reconnecting: false) { () throws(StoreError) in
            try connection.run(
                """
                UPDATE deliveries SET status = $1, attempts = $2, next_attempt_at = $3, last_error = $4, updated_at = $5
                WHERE response_id = $6 AND target = $7 AND status = $8 AND attempts = $9 AND updated_at = $10
                """,
                [
                    .text(job.status.rawValue), .integer(Int64(job.attempts)),
                    .integer(ResponseCodec.milliseconds(job.nextAttemptAt)), SQLValue(job.lastError),
                    .integer(ResponseCodec.milliseconds(job.updatedAt)), .text(job.responseID.rawValue),
                    .text(job.target), .text(read.status.rawValue), .integer(Int64(read.attempts)),
                    .integer(ResponseCodec.milliseconds(read.updatedAt)),
                ]) > 0
        }
    }

    public func deliveries(status: DeliveryStatus?) throws(StoreError) -> [DeliveryJob] {
        let status = SQLValue(status?.rawValue)
        return try reading { (connection) throws(StoreError) in
            try readDeliveries(
                "SELECT \(Self.deliveryColumns) FROM deliveries WHERE CAST($1 AS TEXT) IS NULL OR status = $1 "
                    + "ORDER BY updated_at, response_id, target", [status], on: connection)
        }
    }

    public func retryFailedDeliveries(at now: Date) throws(StoreError) -> Int {
        let at = SQLValue.integer(ResponseCodec.milliseconds(now))
        // Not run again after a broken connection: the second run would report 0.
        return try writing(reconnecting: false) { () throws(StoreError) in
            try connection.run(
                "UPDATE deliveries SET status = 'pending', attempts = 0, next_attempt_at = $1, updated_at = $1 "
                    + "WHERE status = 'failed'", [at])
        }
    }
}

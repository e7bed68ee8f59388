import Foundation
import SurveyCore
import SurveyResponses

// The write path of SQLResponseStore: group commit, batched statements and the one-at-a-time path.

/// One row of `funnel_counts`.
struct CounterKey: Hashable, Comparable {
    var survey: String
    var step: String
    var kind: String

    static func < (lhs: CounterKey, rhs: CounterKey) -> Bool {
        (lhs.survey, lhs.step, lhs.kind) < (rhs.survey, rhs.step, rhs.kind)
    }
}

extension SQLResponseStore {
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
                        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)
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
                abandoned_reason = $11, quotas = $12, version_offset = $13
            WHERE id = $14 AND (action_count <= $9 OR $15 = 1)
            """,
            [
                SQLValue(response.surveyVersion), .text(response.locale), .text(response.status.rawValue),
                .integer(ResponseCodec.milliseconds(response.updatedAt)),
                SQLValue(response.completedAt.map(ResponseCodec.milliseconds)), SQLValue(response.currentUnitID),
                .text(ResponseCodec.pathJSON(response.path)), .text(ResponseCodec.answersJSON(response.answers)),
                .integer(Int64(response.actionCount)), .text(ResponseCodec.orphanedJSON(response.orphaned)),
                SQLValue(response.abandonedReason), .text(ResponseCodec.quotasJSON(response.quotasReached)),
                .integer(Int64(response.versionOffset)), .text(response.id.rawValue),
                .integer(write.removesActionsFrom == nil ? 0 : 1),
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
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)
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
            .integer(Int64(response.versionOffset)),
        ]
    }
}

import CSQLite
import Foundation
import SurveyCore
import SurveyResponses

/// The embedded default response store: one SQLite file in WAL mode.
///
/// **Durability.** Every ``write(_:)`` is one `BEGIN IMMEDIATE … COMMIT` transaction; it returns
/// only after the commit. With the default ``Synchronous/full``, SQLite syncs the write-ahead log
/// to disk at every commit, so an acknowledged write survives a crash of the process *and* a power
/// loss or operating-system crash. With ``Synchronous/normal`` a commit survives a crash of the
/// process, but the last commits before a power loss may be rolled back (the database itself stays
/// consistent); it is faster on slow disks.
///
/// **Concurrency.** Several processes may write one file at once: writes wait for each other up to
/// the busy timeout (10 s by default) instead of failing.
///
/// **Schema.** `PRAGMA user_version` holds the schema version (now 2: version 2 added the delivery
/// outbox); opening an older store
/// migrates it forward in a transaction, opening a newer one is refused with
/// ``StoreError/Kind/newerSchema``. Only prepared statements with bound parameters touch the data.
public final class SQLiteResponseStore: ResponseStore, @unchecked Sendable {
    /// The schema version this code writes.
    public static let schemaVersion = 2

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
    let connection: SQLiteConnection
    let lock = NSLock()

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
        guard version < Self.schemaVersion else {
            throw StoreError(
                .newerSchema,
                "the store has schema version \(version), newer than this program's \(Self.schemaVersion); "
                    + "use a newer survey, or another store", store: name)
        }
        try transaction { () throws(StoreError) in
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
            for (index, step) in Self.migrations.enumerated() where index >= current {
                try connection.execute(step)
            }
            try connection.execute("PRAGMA user_version=\(Self.schemaVersion)")
        }
    }

    func userVersion() throws(StoreError) -> Int {
        Int(try connection.first("PRAGMA user_version") { row throws(StoreError) in row.integer(0) } ?? 0)
    }

    /// `migrations[n]` takes a store from schema version n to n + 1.
    static let migrations = [
        """
        CREATE TABLE responses (
            id TEXT PRIMARY KEY NOT NULL,
            respondent_id TEXT NOT NULL,
            survey_id TEXT NOT NULL,
            survey_version TEXT,
            locale TEXT NOT NULL,
            seed TEXT NOT NULL,
            today TEXT NOT NULL,
            status TEXT NOT NULL,
            created_at INTEGER NOT NULL,
            updated_at INTEGER NOT NULL,
            completed_at INTEGER,
            current_unit TEXT,
            path TEXT NOT NULL DEFAULT '[]',
            answers TEXT NOT NULL DEFAULT '{}',
            action_count INTEGER NOT NULL DEFAULT 0
        ) WITHOUT ROWID;
        CREATE INDEX responses_by_respondent ON responses (respondent_id, survey_id, created_at);
        CREATE INDEX responses_by_survey ON responses (survey_id, created_at);
        CREATE INDEX responses_by_stop ON responses (survey_id, status, current_unit);
        CREATE TABLE actions (
            response_id TEXT NOT NULL REFERENCES responses (id) ON DELETE CASCADE,
            sequence INTEGER NOT NULL,
            action TEXT NOT NULL,
            recorded_at INTEGER NOT NULL,
            PRIMARY KEY (response_id, sequence)
        ) WITHOUT ROWID;
        CREATE TABLE funnel_events (
            response_id TEXT NOT NULL REFERENCES responses (id) ON DELETE CASCADE,
            kind TEXT NOT NULL,
            step_id TEXT NOT NULL,
            survey_id TEXT NOT NULL,
            recorded_at INTEGER NOT NULL,
            PRIMARY KEY (response_id, kind, step_id)
        ) WITHOUT ROWID;
        CREATE INDEX funnel_events_by_time ON funnel_events (survey_id, recorded_at);
        CREATE TABLE funnel_counts (
            survey_id TEXT NOT NULL,
            step_id TEXT NOT NULL,
            kind TEXT NOT NULL,
            count INTEGER NOT NULL,
            PRIMARY KEY (survey_id, step_id, kind)
        ) WITHOUT ROWID;
        """,
        """
        CREATE TABLE deliveries (
            response_id TEXT NOT NULL REFERENCES responses (id) ON DELETE CASCADE,
            target TEXT NOT NULL,
            status TEXT NOT NULL,
            attempts INTEGER NOT NULL DEFAULT 0,
            next_attempt_at INTEGER NOT NULL,
            last_error TEXT,
            updated_at INTEGER NOT NULL,
            PRIMARY KEY (response_id, target)
        ) WITHOUT ROWID;
        CREATE INDEX deliveries_due ON deliveries (status, next_attempt_at);
        """,
    ]

    /// Runs `body` in a `BEGIN IMMEDIATE` transaction, rolling back when it throws.
    func transaction<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        try connection.execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try connection.execute("COMMIT")
            return result
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    func locked<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    // MARK: Writing

    public func write(_ write: ResponseWrite) throws(StoreError) {
        try write.validate(store: name)
        try locked { () throws(StoreError) in
            try transaction { () throws(StoreError) in try apply(write) }
        }
    }

    public func write(batch writes: [ResponseWrite]) throws(StoreError) {
        for write in writes { try write.validate(store: name) }
        try locked { () throws(StoreError) in
            try transaction { () throws(StoreError) in
                for write in writes { try apply(write) }
            }
        }
    }

    func apply(_ write: ResponseWrite) throws(StoreError) {
        let response = write.response
        let id = SQLiteValue.text(response.id.rawValue)
        let inserted = try connection.run(
            """
            INSERT INTO responses (\(ResponseCodec.responseColumns)) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)
            ON CONFLICT (id) DO NOTHING
            """, Self.columns(of: response))
        if inserted == 0 {
            let owner = try connection.first("SELECT respondent_id, survey_id FROM responses WHERE id = ?", [id]) {
                row throws(StoreError) in (row.text(0), row.text(1))
            }
            guard let owner, owner.0 == response.respondentID, owner.1 == response.surveyID else {
                throw StoreError(
                    .conflict, "response \(response.id) belongs to another respondent or survey", store: name)
            }
            try connection.run(
                """
                UPDATE responses SET survey_version = ?, locale = ?, status = ?, updated_at = ?, completed_at = ?,
                    current_unit = ?, path = ?, answers = ?, action_count = ?
                WHERE id = ? AND action_count <= ?
                """,
                [
                    response.surveyVersion.map(SQLiteValue.text) ?? .null, .text(response.locale),
                    .text(response.status.rawValue), .integer(ResponseCodec.milliseconds(response.updatedAt)),
                    response.completedAt.map { .integer(ResponseCodec.milliseconds($0)) } ?? .null,
                    response.currentUnitID.map(SQLiteValue.text) ?? .null, .text(ResponseCodec.pathJSON(response.path)),
                    .text(ResponseCodec.answersJSON(response.answers)), .integer(Int64(response.actionCount)), id,
                    .integer(Int64(response.actionCount)),
                ])
        }
        if !write.actions.isEmpty {
            var last =
                try connection.first("SELECT COALESCE(MAX(sequence), 0) FROM actions WHERE response_id = ?", [id]) {
                    row throws(StoreError) in Int(row.integer(0))
                } ?? 0
            for action in write.actions {
                let text = ResponseCodec.actionJSON(action.action)
                if action.sequence <= last {
                    let stored = try connection.first(
                        "SELECT action FROM actions WHERE response_id = ? AND sequence = ?",
                        [id, .integer(Int64(action.sequence))]
                    ) { row throws(StoreError) in row.text(0) }
                    guard let stored, let stored,
                        try ResponseCodec.action(fromJSON: stored, store: name) == action.action
                    else {
                        throw StoreError(
                            .conflict,
                            "response \(response.id) already has a different action number \(action.sequence)",
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
                    "INSERT INTO actions (response_id, sequence, action, recorded_at) VALUES (?,?,?,?)",
                    [
                        id, .integer(Int64(action.sequence)), .text(text),
                        .integer(ResponseCodec.milliseconds(action.recordedAt)),
                    ])
                last = action.sequence
            }
        }
        for event in write.funnelEvents {
            let step = SQLiteValue.text(event.stepID ?? "")
            let kind = SQLiteValue.text(event.kind.rawValue)
            let survey = SQLiteValue.text(response.surveyID)
            let added = try connection.run(
                """
                INSERT INTO funnel_events (response_id, kind, step_id, survey_id, recorded_at) VALUES (?,?,?,?,?)
                ON CONFLICT DO NOTHING
                """, [id, kind, step, survey, .integer(ResponseCodec.milliseconds(event.recordedAt))])
            guard added > 0 else { continue }
            try connection.run(
                """
                INSERT INTO funnel_counts (survey_id, step_id, kind, count) VALUES (?,?,?,1)
                ON CONFLICT (survey_id, step_id, kind) DO UPDATE SET count = count + 1
                """, [survey, step, kind])
        }
        for target in write.deliveries {
            let at = SQLiteValue.integer(ResponseCodec.milliseconds(response.updatedAt))
            try connection.run(
                """
                INSERT INTO deliveries (response_id, target, status, attempts, next_attempt_at, updated_at)
                VALUES (?, ?, 'pending', 0, ?, ?) ON CONFLICT (response_id, target) DO NOTHING
                """, [id, .text(target), at, at])
        }
    }

    static func columns(of response: Response) -> [SQLiteValue] {
        [
            .text(response.id.rawValue), .text(response.respondentID), .text(response.surveyID),
            response.surveyVersion.map(SQLiteValue.text) ?? .null, .text(response.locale), .text(String(response.seed)),
            .text(response.today), .text(response.status.rawValue),
            .integer(ResponseCodec.milliseconds(response.createdAt)),
            .integer(ResponseCodec.milliseconds(response.updatedAt)),
            response.completedAt.map { .integer(ResponseCodec.milliseconds($0)) } ?? .null,
            response.currentUnitID.map(SQLiteValue.text) ?? .null, .text(ResponseCodec.pathJSON(response.path)),
            .text(ResponseCodec.answersJSON(response.answers)), .integer(Int64(response.actionCount)),
        ]
    }

    // MARK: Reading

    func readResponse(_ row: SQLiteConnection.Row) throws(StoreError) -> Response {
        var columns = ResponseCodec.ResponseColumns()
        columns.id = row.text(0)
        columns.respondentID = row.text(1)
        columns.surveyID = row.text(2)
        columns.surveyVersion = row.text(3)
        columns.locale = row.text(4)
        columns.seed = row.text(5)
        columns.today = row.text(6)
        columns.status = row.text(7)
        columns.createdAt = row.isNull(8) ? nil : row.integer(8)
        columns.updatedAt = row.isNull(9) ? nil : row.integer(9)
        columns.completedAt = row.isNull(10) ? nil : row.integer(10)
        columns.currentUnit = row.text(11)
        columns.path = row.text(12)
        columns.answers = row.text(13)
        columns.actionCount = row.integer(14)
        return try ResponseCodec.response(columns: columns, store: name)
    }

    public func response(_ id: ResponseID) throws(StoreError) -> Response? {
        try locked { () throws(StoreError) in
            try connection.first(
                "SELECT \(ResponseCodec.responseColumns) FROM responses WHERE id = ?", [.text(id.rawValue)]
            ) { row throws(StoreError) in try readResponse(row) }
        }
    }

    public func actions(of id: ResponseID) throws(StoreError) -> [RecordedAction] {
        try locked { () throws(StoreError) in
            var result: [RecordedAction] = []
            try rethrowingStoreErrors {
                try connection.query(
                    "SELECT sequence, action, recorded_at FROM actions WHERE response_id = ? ORDER BY sequence",
                    [.text(id.rawValue)]
                ) { row in
                    let action = try ResponseCodec.action(fromJSON: row.text(1) ?? "", store: name)
                    result.append(
                        RecordedAction(
                            sequence: Int(row.integer(0)), action: action,
                            recordedAt: ResponseCodec.date(milliseconds: row.integer(2))))
                }
            }
            return result
        }
    }

    public func funnelEvents(of id: ResponseID) throws(StoreError) -> [FunnelEvent] {
        try locked { () throws(StoreError) in
            var result: [FunnelEvent] = []
            try rethrowingStoreErrors {
                try connection.query(
                    "SELECT kind, step_id, recorded_at FROM funnel_events WHERE response_id = ? ORDER BY recorded_at, kind, step_id",
                    [.text(id.rawValue)]
                ) { row in
                    guard let kind = FunnelEventKind(rawValue: row.text(0) ?? "") else {
                        throw StoreError(.corrupt, "a funnel event of response \(id) has an unknown kind", store: name)
                    }
                    let step = row.text(1) ?? ""
                    result.append(
                        FunnelEvent(
                            kind: kind, stepID: step.isEmpty ? nil : step,
                            recordedAt: ResponseCodec.date(milliseconds: row.integer(2))))
                }
            }
            return result
        }
    }

    public func forEachResponse(matching query: ResponseQuery, _ body: (Response) throws -> Void) throws {
        var (sql, parameters) = Self.selection(query)
        sql = "SELECT \(ResponseCodec.responseColumns) FROM responses" + sql + " ORDER BY created_at, id"
        if let limit = query.limit {
            sql += " LIMIT ?"
            parameters.append(.integer(Int64(limit)))
        }
        let reader = try openReader()
        defer { try? reader.execute("COMMIT") }
        try reader.query(sql, parameters) { row in try body(try readResponse(row)) }
    }

    /// A dedicated connection in a read transaction (the caller commits it): it streams rows without
    /// holding the write lock of this store's own connection.
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
                row.integer(0)
            } ?? 0)
        return try ResponseQuery.split(query, into: parts, minimumPartSize: minimumPartSize, total: total) {
            (offset: Int) throws(StoreError) -> Date? in
            try reader.first(
                "SELECT created_at FROM responses" + selection + " ORDER BY created_at LIMIT 1 OFFSET ?",
                parameters + [.integer(Int64(offset))]
            ) { row throws(StoreError) in ResponseCodec.date(milliseconds: row.integer(0)) }
        }
    }

    /// The `WHERE` clause (with a leading space, or empty) and its parameters for `query`, without its limit.
    static func selection(_ query: ResponseQuery) -> (String, [SQLiteValue]) {
        var conditions: [String] = []
        var parameters: [SQLiteValue] = []
        if let survey = query.surveyID {
            conditions.append("survey_id = ?")
            parameters.append(.text(survey))
        }
        if let respondent = query.respondentID {
            conditions.append("respondent_id = ?")
            parameters.append(.text(respondent))
        }
        if let statuses = query.statuses {
            let sorted = statuses.map(\.rawValue).sorted()
            conditions.append("status IN (" + sorted.map { _ in "?" }.joined(separator: ",") + ")")
            parameters += sorted.map(SQLiteValue.text)
            if sorted.isEmpty { conditions.append("0") }
        }
        if let since = query.since {
            conditions.append("created_at >= ?")
            parameters.append(.integer(ResponseCodec.milliseconds(since)))
        }
        if let until = query.until {
            conditions.append("created_at < ?")
            parameters.append(.integer(ResponseCodec.milliseconds(until)))
        }
        if let version = query.surveyVersion {
            conditions.append("survey_version = ?")
            parameters.append(.text(version))
        }
        if let locale = query.locale {
            conditions.append("locale = ?")
            parameters.append(.text(locale))
        }
        return (conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND "), parameters)
    }

    public func latestResponse(respondent respondentID: String, survey surveyID: String) throws(StoreError)
        -> Response?
    {
        try locked { () throws(StoreError) in
            try connection.first(
                """
                SELECT \(ResponseCodec.responseColumns) FROM responses WHERE respondent_id = ? AND survey_id = ?
                ORDER BY created_at DESC, id DESC LIMIT 1
                """, [.text(respondentID), .text(surveyID)]
            ) { row throws(StoreError) in try readResponse(row) }
        }
    }

    public func lastFinished(respondent respondentID: String, survey surveyID: String) throws(StoreError) -> (
        status: ResponseStatus, at: Date
    )? {
        try locked { () throws(StoreError) in
            try connection.first(
                """
                SELECT status, COALESCE(completed_at, updated_at) AS at FROM responses
                WHERE respondent_id = ? AND survey_id = ? AND status IN ('completed', 'dismissed')
                ORDER BY at DESC LIMIT 1
                """, [.text(respondentID), .text(surveyID)]
            ) { row throws(StoreError) -> (status: ResponseStatus, at: Date) in
                guard let status = ResponseStatus(rawValue: row.text(0) ?? "") else {
                    throw StoreError(.corrupt, "a response has an unknown status", store: name)
                }
                return (status, ResponseCodec.date(milliseconds: row.integer(1)))
            }
        }
    }

    public func funnelCounts(survey surveyID: String) throws(StoreError) -> FunnelCounts {
        try locked { () throws(StoreError) in
            var counts = FunnelCounts()
            try rethrowingStoreErrors {
                try connection.query(
                    "SELECT step_id, kind, count FROM funnel_counts WHERE survey_id = ? AND count > 0",
                    [.text(surveyID)]
                ) { row in
                    guard let kind = FunnelEventKind(rawValue: row.text(1) ?? "") else { return }
                    let step = row.text(0) ?? ""
                    if step.isEmpty {
                        counts.survey[kind] = Int(row.integer(2))
                    } else {
                        counts.steps[step, default: [:]][kind] = Int(row.integer(2))
                    }
                }
                try connection.query(
                    """
                    SELECT current_unit, COUNT(*) FROM responses
                    WHERE survey_id = ? AND status IN ('in-progress', 'dismissed', 'abandoned') AND current_unit IS NOT NULL
                    GROUP BY current_unit
                    """, [.text(surveyID)]
                ) { row in counts.stoppedAt[row.text(0) ?? "", default: 0] += Int(row.integer(1)) }
            }
            return counts
        }
    }

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

    public func deleteResponses(respondent respondentID: String) throws(StoreError) -> Int {
        guard !respondentID.isEmpty else {
            throw StoreError(.invalidRequest, "the respondent id is empty", store: name)
        }
        return try locked { () throws(StoreError) in
            try transaction { () throws(StoreError) in
                var decrements: [(String, String, String, Int64)] = []
                try rethrowingStoreErrors {
                    try connection.query(
                        """
                        SELECT e.survey_id, e.step_id, e.kind, COUNT(*) FROM funnel_events e
                        JOIN responses r ON r.id = e.response_id WHERE r.respondent_id = ?
                        GROUP BY e.survey_id, e.step_id, e.kind
                        """, [.text(respondentID)]
                    ) { row in
                        decrements.append((row.text(0) ?? "", row.text(1) ?? "", row.text(2) ?? "", row.integer(3)))
                    }
                }
                for (survey, step, kind, count) in decrements {
                    try connection.run(
                        "UPDATE funnel_counts SET count = count - ? WHERE survey_id = ? AND step_id = ? AND kind = ?",
                        [.integer(count), .text(survey), .text(step), .text(kind)])
                }
                return try connection.run("DELETE FROM responses WHERE respondent_id = ?", [.text(respondentID)])
            }
        }
    }

    // MARK: The delivery outbox

    static let deliveryColumns = "response_id, target, status, attempts, next_attempt_at, last_error, updated_at"

    func readDelivery(_ row: SQLiteConnection.Row) throws(StoreError) -> DeliveryJob {
        guard let id = row.text(0), let responseID = ResponseID(id), let target = row.text(1),
            let status = row.text(2).flatMap(DeliveryStatus.init)
        else { throw StoreError(.corrupt, "a delivery job is unreadable", store: name) }
        return DeliveryJob(
            responseID: responseID, target: target, status: status, attempts: Int(row.integer(3)),
            nextAttemptAt: ResponseCodec.date(milliseconds: row.integer(4)), lastError: row.text(5),
            updatedAt: ResponseCodec.date(milliseconds: row.integer(6)))
    }

    func readDeliveries(_ sql: String, _ parameters: [SQLiteValue]) throws(StoreError) -> [DeliveryJob] {
        var jobs: [DeliveryJob] = []
        try rethrowingStoreErrors {
            try connection.query(sql, parameters) { row in jobs.append(try readDelivery(row)) }
        }
        return jobs
    }

    public func dueDeliveries(at now: Date, limit: Int) throws(StoreError) -> [DeliveryJob] {
        try locked { () throws(StoreError) in
            try readDeliveries(
                """
                SELECT \(Self.deliveryColumns) FROM deliveries WHERE status = 'pending' AND next_attempt_at <= ?
                ORDER BY next_attempt_at, response_id, target LIMIT ?
                """, [.integer(ResponseCodec.milliseconds(now)), .integer(Int64(max(0, limit)))])
        }
    }

    public func updateDelivery(_ job: DeliveryJob) throws(StoreError) {
        try locked { () throws(StoreError) in
            _ = try connection.run(
                """
                UPDATE deliveries SET status = ?, attempts = ?, next_attempt_at = ?, last_error = ?, updated_at = ?
                WHERE response_id = ? AND target = ?
                """,
                [
                    .text(job.status.rawValue), .integer(Int64(job.attempts)),
                    .integer(ResponseCodec.milliseconds(job.nextAttemptAt)),
                    job.lastError.map(SQLiteValue.text) ?? .null,
                    .integer(ResponseCodec.milliseconds(job.updatedAt)), .text(job.responseID.rawValue),
                    .text(job.target),
                ])
        }
    }

    public func deliveries(status: DeliveryStatus?) throws(StoreError) -> [DeliveryJob] {
        try locked { () throws(StoreError) in
            try readDeliveries(
                "SELECT \(Self.deliveryColumns) FROM deliveries WHERE ? IS NULL OR status = ? "
                    + "ORDER BY updated_at, response_id, target",
                [status.map { SQLiteValue.text($0.rawValue) } ?? .null, status.map { .text($0.rawValue) } ?? .null])
        }
    }

    public func retryFailedDeliveries(at now: Date) throws(StoreError) -> Int {
        try locked { () throws(StoreError) in
            let at = SQLiteValue.integer(ResponseCodec.milliseconds(now))
            return try connection.run(
                "UPDATE deliveries SET status = 'pending', attempts = 0, next_attempt_at = ?, updated_at = ? "
                    + "WHERE status = 'failed'", [at, at])
        }
    }

    func rethrowingStoreErrors(_ body: () throws -> Void) throws(StoreError) {
        do {
            try body()
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(.failed, "\(error)", store: name)
        }
    }
}

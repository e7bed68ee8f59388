import Foundation
import SurveyCore
import SurveyResponses

/// The response store for many collectors at once: a PostgreSQL database, with the same tables
/// and the same semantics as `SQLiteResponseStore`.
///
/// ```swift
/// let store = try PostgresResponseStore(url: "postgresql://survey@db.example.com/responses")
/// var recorder = try ResponseRecorder(store: store, respondentID: "user-42", session: session)
/// ```
///
/// **Durability.** Every ``write(_:)`` is one `BEGIN … COMMIT` transaction and returns only after
/// the server answered `COMMIT`, so with the server's default `synchronous_commit = on` an
/// acknowledged write survives a crash of the process, of the server and a power loss.
///
/// **Concurrency.** Any number of processes may write at once. A write locks its response's row, so
/// writes of one response run one after the other; funnel counters are incremented in place
/// (`ON CONFLICT … DO UPDATE SET count = funnel_counts.count + 1`), in a fixed order so that writers
/// do not deadlock. A transaction the server aborts as a serialization failure or a deadlock
/// (SQLSTATE 40001, 40P01), or whose connection broke, is run again, a few times; writes are
/// idempotent, so running one twice changes nothing. Use of the connection is serialised; each
/// ``forEachResponse(matching:_:)`` reads on a connection of its own.
///
/// **Schema.** The one-row table `survey_schema` holds the schema version (now 1). The first open
/// of a database creates the tables under a transaction-scoped advisory lock, so processes opening
/// it at once do not race; an older schema is migrated forward the same way; a newer one is refused
/// with ``StoreError/Kind/newerSchema``. Only statements with bound parameters touch the data.
public final class PostgresResponseStore: ResponseStore, @unchecked Sendable {
    /// The schema version this code writes.
    public static let schemaVersion = 2

    /// The URL, without its password.
    public let name: String
    let url: PostgresURL
    let connection: PostgresConnection
    let lock = NSLock()

    /// How many times a transaction runs before a serialization failure, deadlock or broken
    /// connection is reported.
    static let attempts = 5

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
        try transaction(reconnecting: true) { () throws(StoreError) in
            try connection.run("SELECT pg_advisory_xact_lock($1)", [String(Self.schemaLockKey)])
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
            for step in Self.migrations[current...] {
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
                try connection.run("INSERT INTO survey_schema (version) VALUES ($1)", [String(Self.schemaVersion)])
            } else {
                try connection.run("UPDATE survey_schema SET version = $1", [String(Self.schemaVersion)])
            }
        }
    }

    func refuseNewer(_ version: Int) throws(StoreError) {
        guard version > Self.schemaVersion else { return }
        throw StoreError(
            .newerSchema,
            "the store has schema version \(version), newer than this program's \(Self.schemaVersion); "
                + "use a newer survey, or another store", store: name)
    }

    /// The response store tables in the schema new tables go to (the first of `search_path`).
    func existingTables() throws(StoreError) -> Set<String> {
        var names: Set<String> = []
        try rethrowingStoreErrors {
            try connection.query(
                "SELECT tablename FROM pg_catalog.pg_tables WHERE schemaname = current_schema() AND tablename = ANY($1)",
                ["{" + (Self.tables + [Self.versionTable]).joined(separator: ",") + "}"]
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

    /// `migrations[n]` takes a store from schema version n to n + 1, one statement at a time.
    ///
    /// The same tables, columns and indexes as the SQLite store's; SQLite's 64-bit `INTEGER` is
    /// `BIGINT`, and response ids sort byte by byte (`COLLATE "C"`), as in SQLite.
    static let migrations: [[String]] = [
        [
            """
            CREATE TABLE responses (
                id TEXT COLLATE "C" PRIMARY KEY NOT NULL,
                respondent_id TEXT NOT NULL,
                survey_id TEXT NOT NULL,
                survey_version TEXT,
                locale TEXT NOT NULL,
                seed TEXT NOT NULL,
                today TEXT NOT NULL,
                status TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                updated_at BIGINT NOT NULL,
                completed_at BIGINT,
                current_unit TEXT,
                path TEXT NOT NULL DEFAULT '[]',
                answers TEXT NOT NULL DEFAULT '{}',
                action_count BIGINT NOT NULL DEFAULT 0
            )
            """,
            "CREATE INDEX responses_by_respondent ON responses (respondent_id, survey_id, created_at)",
            "CREATE INDEX responses_by_survey ON responses (survey_id, created_at)",
            "CREATE INDEX responses_by_stop ON responses (survey_id, status, current_unit)",
            """
            CREATE TABLE actions (
                response_id TEXT COLLATE "C" NOT NULL REFERENCES responses (id) ON DELETE CASCADE,
                sequence BIGINT NOT NULL,
                action TEXT NOT NULL,
                recorded_at BIGINT NOT NULL,
                PRIMARY KEY (response_id, sequence)
            )
            """,
            """
            CREATE TABLE funnel_events (
                response_id TEXT COLLATE "C" NOT NULL REFERENCES responses (id) ON DELETE CASCADE,
                kind TEXT NOT NULL,
                step_id TEXT NOT NULL,
                survey_id TEXT NOT NULL,
                recorded_at BIGINT NOT NULL,
                PRIMARY KEY (response_id, kind, step_id)
            )
            """,
            "CREATE INDEX funnel_events_by_time ON funnel_events (survey_id, recorded_at)",
            """
            CREATE TABLE funnel_counts (
                survey_id TEXT NOT NULL,
                step_id TEXT NOT NULL,
                kind TEXT NOT NULL,
                count BIGINT NOT NULL,
                PRIMARY KEY (survey_id, step_id, kind)
            )
            """,
        ],
        [
            """
            CREATE TABLE deliveries (
                response_id TEXT COLLATE "C" NOT NULL REFERENCES responses (id) ON DELETE CASCADE,
                target TEXT NOT NULL,
                status TEXT NOT NULL,
                attempts BIGINT NOT NULL DEFAULT 0,
                next_attempt_at BIGINT NOT NULL,
                last_error TEXT,
                updated_at BIGINT NOT NULL,
                PRIMARY KEY (response_id, target)
            )
            """,
            "CREATE INDEX deliveries_due ON deliveries (status, next_attempt_at)",
        ],
    ]

    // MARK: Transactions

    /// Runs `body` in a transaction, rolling back when it throws, and runs it again (up to
    /// ``attempts`` times in all) after a serialization failure or deadlock, or, with `reconnecting`,
    /// after the connection broke (only for work that is idempotent).
    func transaction<T>(reconnecting: Bool, _ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        var attempt = 1
        while true {
            do {
                try connection.ensureConnected()
                try connection.execute("BEGIN")
                let result = try body()
                try connection.commit()
                return result
            } catch {
                let failure = connection.lastFailure
                connection.rollbackIfNeeded()
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

    func locked<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        lock.lock()
        defer { lock.unlock() }
        try connection.ensureConnected()
        return try body()
    }

    /// Runs the reads in `body`, once more after reconnecting when the connection broke.
    func reading<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        try locked { () throws(StoreError) in
            do throws(StoreError) {
                return try body()
            } catch {
                guard connection.lastFailure == .connectionLost else { throw error }
                try connection.ensureConnected()
                return try body()
            }
        }
    }

    // MARK: Writing

    public func write(_ write: ResponseWrite) throws(StoreError) {
        try write.validate(store: name)
        try locked { () throws(StoreError) in
            try transaction(reconnecting: true) { () throws(StoreError) in try apply(write) }
        }
    }

    public func write(batch writes: [ResponseWrite]) throws(StoreError) {
        for write in writes { try write.validate(store: name) }
        try locked { () throws(StoreError) in
            try transaction(reconnecting: true) { () throws(StoreError) in
                for write in writes { try apply(write) }
            }
        }
    }

    func apply(_ write: ResponseWrite) throws(StoreError) {
        let response = write.response
        let id = response.id.rawValue
        // Lock the response's row (inserting it when new), so that writes of one response run one at a time.
        var owner: (respondent: String?, survey: String?)?
        var tries = 0
        while true {
            owner = try connection.first(
                "SELECT respondent_id, survey_id FROM responses WHERE id = $1 FOR UPDATE", [id]
            ) { row in (row.text(0), row.text(1)) }
            if owner != nil { break }
            let inserted = try connection.run(
                """
                INSERT INTO responses (\(ResponseCodec.responseColumns))
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
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
            try connection.run(
                """
                UPDATE responses SET survey_version = $1, locale = $2, status = $3, updated_at = $4, completed_at = $5,
                    current_unit = $6, path = $7, answers = $8, action_count = $9
                WHERE id = $10 AND action_count <= $9
                """,
                [
                    response.surveyVersion, response.locale, response.status.rawValue,
                    String(ResponseCodec.milliseconds(response.updatedAt)),
                    response.completedAt.map { String(ResponseCodec.milliseconds($0)) }, response.currentUnitID,
                    ResponseCodec.pathJSON(response.path), ResponseCodec.answersJSON(response.answers),
                    String(response.actionCount), id,
                ])
        }
        if !write.actions.isEmpty {
            var last =
                try connection.first("SELECT COALESCE(MAX(sequence), 0) FROM actions WHERE response_id = $1", [id]) {
                    row in Int(row.integer(0) ?? 0)
                } ?? 0
            for action in write.actions {
                if action.sequence <= last {
                    let stored = try connection.first(
                        "SELECT action FROM actions WHERE response_id = $1 AND sequence = $2",
                        [id, String(action.sequence)]
                    ) { row in row.text(0) }
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
                    "INSERT INTO actions (response_id, sequence, action, recorded_at) VALUES ($1, $2, $3, $4)",
                    [
                        id, String(action.sequence), ResponseCodec.actionJSON(action.action),
                        String(ResponseCodec.milliseconds(action.recordedAt)),
                    ])
                last = action.sequence
            }
        }
        var counted: [CounterKey] = []
        for event in write.funnelEvents {
            let key = CounterKey(survey: response.surveyID, step: event.stepID ?? "", kind: event.kind.rawValue)
            let added = try connection.run(
                """
                INSERT INTO funnel_events (response_id, kind, step_id, survey_id, recorded_at)
                VALUES ($1, $2, $3, $4, $5)
                ON CONFLICT DO NOTHING
                """, [id, key.kind, key.step, key.survey, String(ResponseCodec.milliseconds(event.recordedAt))])
            if added > 0 { counted.append(key) }
        }
        // Counter rows are locked in one order by every writer (and by deletions), so none deadlock.
        for key in counted.sorted() {
            try connection.run(
                """
                INSERT INTO funnel_counts (survey_id, step_id, kind, count) VALUES ($1, $2, $3, 1)
                ON CONFLICT (survey_id, step_id, kind) DO UPDATE SET count = funnel_counts.count + 1
                """, [key.survey, key.step, key.kind])
        }
        for target in write.deliveries {
            let at = String(ResponseCodec.milliseconds(response.updatedAt))
            try connection.run(
                """
                INSERT INTO deliveries (response_id, target, status, attempts, next_attempt_at, updated_at)
                VALUES ($1, $2, 'pending', 0, $3, $4) ON CONFLICT (response_id, target) DO NOTHING
                """, [id, target, at, at])
        }
    }

    /// One row of `funnel_counts`.
    struct CounterKey: Comparable {
        var survey: String
        var step: String
        var kind: String

        static func < (lhs: CounterKey, rhs: CounterKey) -> Bool {
            (lhs.survey, lhs.step, lhs.kind) < (rhs.survey, rhs.step, rhs.kind)
        }
    }

    static func columns(of response: Response) -> [String?] {
        [
            response.id.rawValue, response.respondentID, response.surveyID, response.surveyVersion, response.locale,
            String(response.seed), response.today, response.status.rawValue,
            String(ResponseCodec.milliseconds(response.createdAt)),
            String(ResponseCodec.milliseconds(response.updatedAt)),
            response.completedAt.map { String(ResponseCodec.milliseconds($0)) }, response.currentUnitID,
            ResponseCodec.pathJSON(response.path), ResponseCodec.answersJSON(response.answers),
            String(response.actionCount),
        ]
    }

    // MARK: Reading

    func readResponse(_ row: PostgresConnection.Row) throws(StoreError) -> Response {
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
        return try ResponseCodec.response(columns: columns, store: name)
    }

    public func response(_ id: ResponseID) throws(StoreError) -> Response? {
        try reading { () throws(StoreError) in
            try connection.first(
                "SELECT \(ResponseCodec.responseColumns) FROM responses WHERE id = $1", [id.rawValue]
            ) { row throws(StoreError) in try readResponse(row) }
        }
    }

    public func actions(of id: ResponseID) throws(StoreError) -> [RecordedAction] {
        try reading { () throws(StoreError) in
            var result: [RecordedAction] = []
            try rethrowingStoreErrors {
                try connection.query(
                    "SELECT sequence, action, recorded_at FROM actions WHERE response_id = $1 ORDER BY sequence",
                    [id.rawValue]
                ) { row in
                    guard let sequence = row.integer(0), let recordedAt = row.integer(2) else {
                        throw StoreError(.corrupt, "an action of response \(id) is unreadable", store: name)
                    }
                    let action = try ResponseCodec.action(fromJSON: row.text(1) ?? "", store: name)
                    result.append(
                        RecordedAction(
                            sequence: Int(sequence), action: action,
                            recordedAt: ResponseCodec.date(milliseconds: recordedAt)))
                }
            }
            return result
        }
    }

    public func funnelEvents(of id: ResponseID) throws(StoreError) -> [FunnelEvent] {
        try reading { () throws(StoreError) in
            var result: [FunnelEvent] = []
            try rethrowingStoreErrors {
                try connection.query(
                    """
                    SELECT kind, step_id, recorded_at FROM funnel_events WHERE response_id = $1
                    ORDER BY recorded_at, kind COLLATE "C", step_id COLLATE "C"
                    """, [id.rawValue]
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

    /// Reads the selected responses through a cursor, 1000 rows at a time, in one snapshot, on a
    /// connection of its own (so `body` may use the store).
    public func forEachResponse(matching query: ResponseQuery, _ body: (Response) throws -> Void) throws {
        var conditions: [String] = []
        var parameters: [String?] = []
        func parameter(_ value: String) -> String {
            parameters.append(value)
            return "$\(parameters.count)"
        }
        if let survey = query.surveyID { conditions.append("survey_id = \(parameter(survey))") }
        if let respondent = query.respondentID { conditions.append("respondent_id = \(parameter(respondent))") }
        if let statuses = query.statuses {
            let sorted = statuses.map(\.rawValue).sorted()
            if sorted.isEmpty {
                conditions.append("FALSE")
            } else {
                conditions.append("status IN (" + sorted.map(parameter).joined(separator: ", ") + ")")
            }
        }
        if let since = query.since {
            conditions.append("created_at >= \(parameter(String(ResponseCodec.milliseconds(since))))")
        }
        if let until = query.until {
            conditions.append("created_at < \(parameter(String(ResponseCodec.milliseconds(until))))")
        }
        if let version = query.surveyVersion { conditions.append("survey_version = \(parameter(version))") }
        if let locale = query.locale { conditions.append("locale = \(parameter(locale))") }
        var sql = "SELECT \(ResponseCodec.responseColumns) FROM responses"
        if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
        sql += " ORDER BY created_at, id"
        // As in SQLite, a negative limit is no limit.
        if let limit = query.limit, limit >= 0 { sql += " LIMIT \(parameter(String(limit)))" }
        let reader = try PostgresConnection(url: url)
        defer { reader.rollbackIfNeeded() }
        try reader.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        try reader.run("DECLARE selected_responses NO SCROLL CURSOR FOR " + sql, parameters)
        var fetched = 0
        repeat {
            fetched = try reader.query("FETCH FORWARD 1000 FROM selected_responses") { row in
                try body(readResponse(row))
            }
        } while fetched == 1000
        try reader.execute("COMMIT")
    }

    public func latestResponse(respondent respondentID: String, survey surveyID: String) throws(StoreError)
        -> Response?
    {
        try reading { () throws(StoreError) in
            try connection.first(
                """
                SELECT \(ResponseCodec.responseColumns) FROM responses WHERE respondent_id = $1 AND survey_id = $2
                ORDER BY created_at DESC, id DESC LIMIT 1
                """, [respondentID, surveyID]
            ) { row throws(StoreError) in try readResponse(row) }
        }
    }

    public func lastFinished(respondent respondentID: String, survey surveyID: String) throws(StoreError) -> (
        status: ResponseStatus, at: Date
    )? {
        try reading { () throws(StoreError) in
            try connection.first(
                """
                SELECT status, COALESCE(completed_at, updated_at) AS finished_at FROM responses
                WHERE respondent_id = $1 AND survey_id = $2 AND status IN ('completed', 'dismissed')
                ORDER BY finished_at DESC LIMIT 1
                """, [respondentID, surveyID]
            ) { row throws(StoreError) -> (status: ResponseStatus, at: Date) in
                guard let status = ResponseStatus(rawValue: row.text(0) ?? ""), let at = row.integer(1) else {
                    throw StoreError(.corrupt, "a response has an unknown status", store: name)
                }
                return (status, ResponseCodec.date(milliseconds: at))
            }
        }
    }

    public func funnelCounts(survey surveyID: String) throws(StoreError) -> FunnelCounts {
        try reading { () throws(StoreError) in
            var counts = FunnelCounts()
            try rethrowingStoreErrors {
                try connection.query(
                    "SELECT step_id, kind, count FROM funnel_counts WHERE survey_id = $1 AND count > 0", [surveyID]
                ) { row in
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
                    """, [surveyID]
                ) { row in counts.stoppedAt[row.text(0) ?? "", default: 0] += Int(row.integer(1) ?? 0) }
            }
            return counts
        }
    }

    public func deleteResponses(respondent respondentID: String) throws(StoreError) -> Int {
        guard !respondentID.isEmpty else {
            throw StoreError(.invalidRequest, "the respondent id is empty", store: name)
        }
        return try locked { () throws(StoreError) in
            // Not run again after a broken connection: the first run may have deleted them, and the
            // second would report 0.
            try transaction(reconnecting: false) { () throws(StoreError) in
                // Lock the responses first, as writers do, then the counters in writers' order.
                try rethrowingStoreErrors {
                    try connection.query(
                        "SELECT id FROM responses WHERE respondent_id = $1 ORDER BY id FOR UPDATE", [respondentID]
                    ) { _ in }
                }
                var decrements: [(key: CounterKey, count: String)] = []
                try rethrowingStoreErrors {
                    try connection.query(
                        """
                        SELECT e.survey_id, e.step_id, e.kind, COUNT(*) FROM funnel_events e
                        JOIN responses r ON r.id = e.response_id WHERE r.respondent_id = $1
                        GROUP BY e.survey_id, e.step_id, e.kind
                        """, [respondentID]
                    ) { row in
                        let key = CounterKey(
                            survey: row.text(0) ?? "", step: row.text(1) ?? "", kind: row.text(2) ?? "")
                        decrements.append((key, row.text(3) ?? "0"))
                    }
                }
                for (key, count) in decrements.sorted(by: { $0.key < $1.key }) {
                    try connection.run(
                        "UPDATE funnel_counts SET count = count - $1 WHERE survey_id = $2 AND step_id = $3 AND kind = $4",
                        [count, key.survey, key.step, key.kind])
                }
                return try connection.run("DELETE FROM responses WHERE respondent_id = $1", [respondentID])
            }
        }
    }

    // MARK: The delivery outbox

    static let deliveryColumns = "response_id, target, status, attempts, next_attempt_at, last_error, updated_at"

    func readDeliveries(_ sql: String, _ parameters: [String?]) throws(StoreError) -> [DeliveryJob] {
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

    public func dueDeliveries(at now: Date, limit: Int) throws(StoreError) -> [DeliveryJob] {
        try reading { () throws(StoreError) in
            try readDeliveries(
                """
                SELECT \(Self.deliveryColumns) FROM deliveries WHERE status = 'pending' AND next_attempt_at <= $1
                ORDER BY next_attempt_at, response_id, target LIMIT $2
                """, [String(ResponseCodec.milliseconds(now)), String(max(0, limit))])
        }
    }

    public func updateDelivery(_ job: DeliveryJob) throws(StoreError) {
        try locked { () throws(StoreError) in
            try transaction(reconnecting: true) { () throws(StoreError) in
                _ = try connection.run(
                    """
                    UPDATE deliveries SET status = $1, attempts = $2, next_attempt_at = $3, last_error = $4,
                        updated_at = $5
                    WHERE response_id = $6 AND target = $7
                    """,
                    [
                        job.status.rawValue, String(job.attempts),
                        String(ResponseCodec.milliseconds(job.nextAttemptAt)),
                        job.lastError, String(ResponseCodec.milliseconds(job.updatedAt)), job.responseID.rawValue,
                        job.target,
                    ])
            }
        }
    }

    public func deliveries(status: DeliveryStatus?) throws(StoreError) -> [DeliveryJob] {
        try reading { () throws(StoreError) in
            try readDeliveries(
                "SELECT \(Self.deliveryColumns) FROM deliveries WHERE $1::text IS NULL OR status = $1 "
                    + "ORDER BY updated_at, response_id, target", [status?.rawValue])
        }
    }

    public func retryFailedDeliveries(at now: Date) throws(StoreError) -> Int {
        try locked { () throws(StoreError) in
            try transaction(reconnecting: false) { () throws(StoreError) in
                let at = String(ResponseCodec.milliseconds(now))
                return try connection.run(
                    "UPDATE deliveries SET status = 'pending', attempts = 0, next_attempt_at = $1, updated_at = $1 "
                        + "WHERE status = 'failed'", [at])
            }
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

import SurveyResponses

/// The tables of a response store, the same in SQLite and PostgreSQL but for the types and options
/// of ``SQLDialect``.
package enum SQLSchema {
    /// The schema version this code writes.
    package static let version = 8

    /// `migrations(dialect)[n]` takes a store from schema version n to n + 1, one statement at a time.
    ///
    /// Times, sequence numbers and counts are 64-bit integers; response ids sort byte by byte, as
    /// SQLite's `TEXT` does.
    package static func migrations(_ dialect: SQLDialect) -> [[String]] {
        let integer = dialect.integer
        let key = dialect.key
        func createTable(_ definition: String) -> String { "CREATE TABLE " + definition + dialect.tableOptions }
        return [
            [
                createTable(
                    """
                    responses (
                        id \(key) PRIMARY KEY NOT NULL,
                        respondent_id TEXT NOT NULL,
                        survey_id TEXT NOT NULL,
                        survey_version TEXT,
                        locale TEXT NOT NULL,
                        seed TEXT NOT NULL,
                        today TEXT NOT NULL,
                        status TEXT NOT NULL,
                        created_at \(integer) NOT NULL,
                        updated_at \(integer) NOT NULL,
                        completed_at \(integer),
                        current_unit TEXT,
                        path TEXT NOT NULL DEFAULT '[]',
                        answers TEXT NOT NULL DEFAULT '{}',
                        action_count \(integer) NOT NULL DEFAULT 0
                    )
                    """),
                "CREATE INDEX responses_by_respondent ON responses (respondent_id, survey_id, created_at)",
                "CREATE INDEX responses_by_survey ON responses (survey_id, created_at)",
                "CREATE INDEX responses_by_stop ON responses (survey_id, status, current_unit)",
                createTable(
                    """
                    actions (
                        response_id \(key) NOT NULL REFERENCES responses (id) ON DELETE CASCADE,
                        sequence \(integer) NOT NULL,
                        action TEXT NOT NULL,
                        recorded_at \(integer) NOT NULL,
                        PRIMARY KEY (response_id, sequence)
                    )
                    """),
                createTable(
                    """
                    funnel_events (
                        response_id \(key) NOT NULL REFERENCES responses (id) ON DELETE CASCADE,
                        kind TEXT NOT NULL,
                        step_id TEXT NOT NULL,
                        survey_id TEXT NOT NULL,
                        recorded_at \(integer) NOT NULL,
                        PRIMARY KEY (response_id, kind, step_id)
                    )
                    """),
                "CREATE INDEX funnel_events_by_time ON funnel_events (survey_id, recorded_at)",
                createTable(
                    """
                    funnel_counts (
                        survey_id TEXT NOT NULL,
                        step_id TEXT NOT NULL,
                        kind TEXT NOT NULL,
                        count \(integer) NOT NULL,
                        PRIMARY KEY (survey_id, step_id, kind)
                    )
                    """),
            ],
            [
                createTable(
                    """
                    deliveries (
                        response_id \(key) NOT NULL REFERENCES responses (id) ON DELETE CASCADE,
                        target TEXT NOT NULL,
                        status TEXT NOT NULL,
                        attempts \(integer) NOT NULL DEFAULT 0,
                        next_attempt_at \(integer) NOT NULL,
                        last_error TEXT,
                        updated_at \(integer) NOT NULL,
                        PRIMARY KEY (response_id, target)
                    )
                    """),
                "CREATE INDEX deliveries_due ON deliveries (status, next_attempt_at)",
            ],
            [
                // Answers a new version of the survey no longer takes, and why the program abandoned a
                // response (docs/response-store.md, "When the survey changes").
                "ALTER TABLE responses ADD COLUMN orphaned TEXT NOT NULL DEFAULT '[]'",
                "ALTER TABLE responses ADD COLUMN abandoned_reason TEXT",
            ],
            [
                // Store-wide settings, such as the global cooldown (docs/targeting.md).
                createTable("settings (name TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL)")
            ],
            [
                // What the host says about a respondent, for audiences (docs/targeting.md).
                createTable(
                    """
                    respondent_attributes (
                        respondent_id TEXT NOT NULL,
                        name TEXT NOT NULL,
                        value TEXT NOT NULL,
                        updated_at \(integer) NOT NULL,
                        PRIMARY KEY (respondent_id, name)
                    )
                    """)
            ],
            [
                // Quotas, counted exactly in the transaction of the write that claims them.
                createTable(
                    """
                    quota_counts (
                        survey_id TEXT NOT NULL,
                        quota_id TEXT NOT NULL,
                        count \(integer) NOT NULL,
                        PRIMARY KEY (survey_id, quota_id)
                    )
                    """),
                createTable(
                    """
                    quota_members (
                        survey_id TEXT NOT NULL,
                        quota_id TEXT NOT NULL,
                        response_id \(key) NOT NULL REFERENCES responses (id) ON DELETE CASCADE,
                        PRIMARY KEY (survey_id, quota_id, response_id)
                    )
                    """),
            ],
            [
                // The full quotas whose action a respondent got (flag, skip, end), kept with the response.
                "ALTER TABLE responses ADD COLUMN quotas TEXT NOT NULL DEFAULT '[]'"
            ],
            [
                // Added to action_count to give the response's version, which never goes down
                // (Response.versionOffset): 0 for the responses stored before.
                "ALTER TABLE responses ADD COLUMN version_offset \(integer) NOT NULL DEFAULT 0"
            ],
        ]
    }

    /// The error for a store whose schema `version` is newer than ``version``.
    package static func newer(_ version: Int, store: String) -> StoreError {
        StoreError(
            .newerSchema,
            "the store has schema version \(version), newer than this program's \(Self.version); "
                + "use a newer survey, or another store", store: store)
    }
}

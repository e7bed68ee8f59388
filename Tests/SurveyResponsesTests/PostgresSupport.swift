import SurveyResponses

/// Opens the PostgreSQL store under test.
func openPostgres(_ url: String) throws -> any ResponseStore {
    throw StoreError(.unavailable, "the PostgreSQL store is not built yet", store: url)
}

import SurveyResponses
import SurveyStorePostgres

/// Opens the PostgreSQL store under test.
func openPostgres(_ url: String) throws -> any ResponseStore {
    try PostgresResponseStore(url: url)
}

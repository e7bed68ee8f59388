import SurveyResponses

extension CommandContext {
    /// Opens a PostgreSQL store.
    func openPostgresStore(_ url: String) throws(InputError) -> any ResponseStore {
        throw InputError("--store: PostgreSQL stores are not available in this build")
    }
}

import SurveyResponses
import SurveyStorePostgres

extension CommandContext {
    /// Opens a PostgreSQL store; the message of a failure never contains the password.
    func openPostgresStore(_ url: String) throws(InputError) -> any ResponseStore {
        do {
            return try PostgresResponseStore(url: url)
        } catch {
            throw InputError(error.description)
        }
    }
}

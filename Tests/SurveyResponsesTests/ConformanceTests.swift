import Foundation
import SurveyResponses
import SurveyStoreSQLite
import SurveyTestFixtures
import Testing

/// The one store conformance suite, against every store this package ships.
@Suite struct ConformanceTests {
    static let memory = InMemoryResponseStore()
    static let sqlitePath = Scratch.file("survey-conformance", suffix: ".sqlite").path

    @Test(arguments: ResponseStoreConformance.checkNames)
    func inMemory(check: String) throws {
        try ResponseStoreConformance { ConformanceTests.memory }.run(check)
    }

    @Test(arguments: ResponseStoreConformance.checkNames)
    func sqlite(check: String) throws {
        // Every call opens a new connection to the same file, as separate processes would.
        try ResponseStoreConformance { try SQLiteResponseStore(path: ConformanceTests.sqlitePath) }.run(check)
    }

    /// PostgreSQL runs when `SURVEY_TEST_POSTGRES_URL` names a server: `.ci/run` starts a throwaway
    /// cluster and sets it; locally, `scripts/with-postgres.sh swift test` does the same.
    @Test(
        .enabled(if: ProcessInfo.processInfo.environment["SURVEY_TEST_POSTGRES_URL"] != nil),
        arguments: ResponseStoreConformance.checkNames)
    func postgres(check: String) throws {
        let url = ProcessInfo.processInfo.environment["SURVEY_TEST_POSTGRES_URL"] ?? ""
        try ResponseStoreConformance { try openPostgres(url) }.run(check)
    }
}

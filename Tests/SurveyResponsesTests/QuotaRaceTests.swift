import Foundation
import SurveyResponses
import SurveyStoreSQLite
import Testing

/// Quotas counted exactly: 64 respondents completing at once race for a quota of 50, 10 times in a row.
@Suite struct QuotaRaceTests {
    /// One round: 64 threads, each on its own connection, complete a response claiming `quota`
    /// (limit 50) at once. Exactly 50 count, all 64 completions are stored, and a retried write
    /// changes nothing.
    static func race(round: Int, open: @escaping @Sendable () throws -> any ResponseStore) throws {
        let quota = "fr-18-24-round-\(round)"
        let survey = "quota-race-\(UUID().uuidString.prefix(8))"
        let respondents = 64
        let stores = try (0..<respondents).map { _ in try open() }
        let results = Results()
        let ready = DispatchGroup()
        let go = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        for index in 0..<respondents {
            ready.enter()
            done.enter()
            let store = stores[index]
            let thread = Thread {
                var response = Response(
                    id: .make(), respondentID: "r\(index)", surveyID: survey, surveyVersion: nil, locale: "en",
                    seed: 1, today: "2026-06-01", createdAt: Date(timeIntervalSince1970: 1_780_000_000))
                response.status = .completed
                response.completedAt = response.createdAt
                ready.leave()
                go.wait()
                do {
                    let granted = try store.write(
                        ResponseWrite(response: response), claiming: [QuotaClaim(quotaID: quota, limit: 50)])
                    results.add(response, granted: granted.contains(quota))
                } catch {
                    results.fail("\(error)")
                }
                done.leave()
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        ready.wait()
        for _ in 0..<respondents { go.signal() }
        #expect(done.wait(timeout: .now() + 120) == .success, "the race ends")
        let (granted, refused, failures) = results.values
        #expect(failures.isEmpty, "\(failures)")
        #expect(granted.count == 50, "round \(round): \(granted.count) counted")
        #expect(refused.count == respondents - 50, "the others get the quota's action")
        let store = try open()
        #expect(try store.quotaCounts(survey: survey) == [quota: 50])
        let stored = try store.responses(matching: ResponseQuery(surveyID: survey, statuses: [.completed]))
        #expect(stored.count == respondents, "no completion is lost")
        // A retried write of a counted response still counts, once; a refused one still does not.
        if let first = granted.first, let other = refused.first {
            let claim = [QuotaClaim(quotaID: quota, limit: 50)]
            #expect(try store.write(ResponseWrite(response: first), claiming: claim) == [quota])
            #expect(try store.write(ResponseWrite(response: other), claiming: claim).isEmpty)
            #expect(try store.quotaCounts(survey: survey) == [quota: 50])
        }
    }

    final class Results: @unchecked Sendable {
        private let lock = NSLock()
        private var granted: [Response] = []
        private var refused: [Response] = []
        private var failures: [String] = []

        func add(_ response: Response, granted isGranted: Bool) {
            lock.withLock { isGranted ? granted.append(response) : refused.append(response) }
        }
        func fail(_ message: String) { lock.withLock { failures.append(message) } }
        var values: ([Response], [Response], [String]) { lock.withLock { (granted, refused, failures) } }
    }

    @Test func sixtyFourRespondentsRaceForFiftyPlacesInSQLiteTenTimes() throws {
        let path = temporaryStorePath()
        _ = try SQLiteResponseStore(path: path)
        for round in 0..<10 { try Self.race(round: round) { try SQLiteResponseStore(path: path) } }
    }

    @Test func inMemory() throws {
        let store = InMemoryResponseStore()
        for round in 0..<10 { try Self.race(round: round) { store } }
    }

    /// `scripts/with-postgres.sh swift test --filter QuotaRaceTests` (and `.ci/run`) set the URL.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["SURVEY_TEST_POSTGRES_URL"] != nil))
    func sixtyFourRespondentsRaceForFiftyPlacesInPostgreSQLTenTimes() throws {
        let url = ProcessInfo.processInfo.environment["SURVEY_TEST_POSTGRES_URL"] ?? ""
        _ = try openPostgres(url)
        for round in 0..<10 { try Self.race(round: round) { try openPostgres(url) } }
    }
}

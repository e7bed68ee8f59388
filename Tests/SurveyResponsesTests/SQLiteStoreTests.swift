import Foundation
import SurveyResponses
import SurveyStoreSQLite
import Testing

@Suite struct SQLiteStoreTests {
    /// Many `survey run` processes starting at once on a store that does not exist yet.
    @Test func aNewStoreOpenedByManyAtOnceOpensForAll() throws {
        for _ in 0..<10 {
            let path = temporaryStorePath()
            let failures = FailureList()
            DispatchQueue.concurrentPerform(iterations: 12) { _ in
                do {
                    let store = try SQLiteResponseStore(path: path)
                    _ = try store.funnelCounts(survey: "x")
                } catch {
                    failures.append("\(error)")
                }
            }
            #expect(failures.values.isEmpty, "\(failures.values)")
        }
    }
}

final class FailureList: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    var values: [String] { lock.withLock { stored } }
    func append(_ value: String) { lock.withLock { stored.append(value) } }
}

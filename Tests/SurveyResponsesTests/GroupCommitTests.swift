import Foundation
import SurveyCore
import SurveyResponses
import SurveyStorePostgres
import SurveyStoreSQLite
import Testing

/// Group commit (`GroupCommit`), alone and in the SQL stores: writes from many threads share
/// transactions, each waiter returns once its own write committed, and a failed batch fails exactly
/// its writes.
@Suite struct GroupCommitTests {
    /// What the writers saw: each item's result, and the batches the committer was given.
    final class Log: @unchecked Sendable {
        let lock = NSLock()
        var batches: [[Int]] = []
        var results: [Int: Bool] = [:]
        var committed: Set<Int> = []
    }

    @Test func concurrentWritersShareCommitsAndAFailedBatchFailsExactlyItsWrites() {
        let committer = GroupCommit<Int>()
        let log = Log()
        // Item 13 and every multiple of 40 fail their batch. Real threads: concurrentPerform would run
        // one per core, and with 2 writers no batch can hold more than one write.
        Self.onThreads(16) { thread in
            for index in 0..<12 {
                let item = thread * 100 + index
                let succeeded: Bool
                do throws(StoreError) {
                    try committer.submit(item) { batch in
                        usleep(2_000)  // the time a commit takes: other writers queue meanwhile
                        let fails = batch.contains { $0 % 40 == 0 || $0 == 13 }
                        log.lock.withLock {
                            log.batches.append(batch)
                            if !fails { log.committed.formUnion(batch) }
                        }
                        let error = StoreError(.failed, "refused", store: "test")
                        return batch.map { _ in fails ? .failure(error) : .success(()) }
                    }
                    succeeded = true
                } catch {
                    #expect(error.message == "refused")
                    succeeded = false
                }
                log.lock.withLock { log.results[item] = succeeded }
            }
        }
        let all = log.batches.flatMap { $0 }
        #expect(all.count == 16 * 12, "every write was committed once")
        #expect(Set(all).count == all.count)
        #expect(log.batches.contains { $0.count > 1 }, "writes were committed together: \(log.batches.map(\.count))")
        for batch in log.batches {
            let fails = batch.contains { $0 % 40 == 0 || $0 == 13 }
            for item in batch { #expect(log.results[item] == !fails, "item \(item) of batch \(batch)") }
        }
        #expect(Set(log.results.filter(\.value).keys) == log.committed)
        #expect(committer.counts.writes == 16 * 12)
    }

    /// Runs `body` on `count` threads of its own at once, and returns when every one has finished.
    static func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        let finished = DispatchGroup()
        for thread in 0..<count {
            finished.enter()
            Thread {
                defer { finished.leave() }
                body(thread)
            }.start()
        }
        finished.wait()
    }

    @Test func sqliteCommitsWritersTogether() throws {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("survey-group-commit-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let store = try SQLiteResponseStore(path: path)
        let marker = "boom-\(UUID().uuidString.prefix(8))"
        do {
            store.lock.lock()
            defer { store.lock.unlock() }
            try store.connection.run(
                """
                CREATE TRIGGER refuse_marked BEFORE INSERT ON actions WHEN NEW.action LIKE '%\(marker)%'
                BEGIN SELECT RAISE(ABORT, 'refused by the test'); END
                """, [])
        }
        try checkBatches(store, marker: marker)
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment["SURVEY_TEST_POSTGRES_URL"] != nil))
    func postgresCommitsWritersTogether() throws {
        let store = try PostgresResponseStore(
            url: ProcessInfo.processInfo.environment["SURVEY_TEST_POSTGRES_URL"] ?? "")
        let marker = "boom\(UUID().uuidString.prefix(8).lowercased())"
        let function = "refuse_\(marker)"
        do {
            store.lock.lock()
            defer { store.lock.unlock() }
            try store.connection.run(
                """
                CREATE FUNCTION \(function)() RETURNS trigger LANGUAGE plpgsql AS 'BEGIN
                IF NEW.action LIKE ''%\(marker)%'' THEN RAISE EXCEPTION ''refused by the test''; END IF;
                RETURN NEW; END'
                """, [])
            try store.connection.run(
                "CREATE TRIGGER \(function) BEFORE INSERT ON actions FOR EACH ROW EXECUTE FUNCTION \(function)()", [])
        }
        defer {
            store.lock.lock()
            _ = try? store.connection.run("DROP TRIGGER \(function) ON actions", [])
            _ = try? store.connection.run("DROP FUNCTION \(function)()", [])
            store.lock.unlock()
        }
        try checkBatches(store, marker: marker)
    }

    /// 24 threads write through `store` at once, one new response per write; some writes carry
    /// `marker`, which the database refuses (a trigger), failing the transaction of their batch.
    /// Exactly the marked writes must fail (their batch-mates are committed again without them),
    /// every acknowledged write must be stored with its action and counted, a failed one must have
    /// left nothing.
    func checkBatches<Store: SQLResponseStore>(_ store: Store, marker: String) throws {
        let survey = "group-commit-\(UUID().uuidString.prefix(8))"
        let base = Date(timeIntervalSince1970: 1_780_000_000)
        let outcomes = Log()
        let ids = (0..<(24 * 10)).map { _ in ResponseID.make(at: base) }
        // 24 real threads (concurrentPerform would use one per core: 2 writers on this machine).
        let finished = DispatchGroup()
        for thread in 0..<24 {
            finished.enter()
            Thread {
                defer { finished.leave() }
                for index in 0..<10 {
                    let item = thread * 10 + index
                    let marked = item % 37 == 5
                    let response = Response(
                        id: ids[item], respondentID: "r\(item)", surveyID: survey, surveyVersion: "1", locale: "en",
                        seed: 1, today: "2026-06-01", createdAt: base, actionCount: 1)
                    let value: JSONValue = .string(marked ? marker : "fine")
                    let write = ResponseWrite(
                        response: response,
                        actions: [
                            RecordedAction(sequence: 1, action: .answer(stepID: "q", value: value), recordedAt: base)
                        ],
                        funnelEvents: [FunnelEvent(kind: .answered, stepID: "q", recordedAt: base)])
                    let succeeded = (try? store.write(write)) != nil
                    outcomes.lock.withLock { outcomes.results[item] = succeeded }
                }
            }.start()
        }
        finished.wait()
        var acknowledged = 0
        for (item, id) in ids.enumerated() {
            let succeeded = outcomes.results[item] ?? false
            #expect(succeeded == (item % 37 != 5), "write \(item): acknowledged \(succeeded)")
            let actions = try store.actions(of: id)
            let stored = try store.response(id)
            #expect(actions.count == (succeeded ? 1 : 0), "write \(item): acknowledged \(succeeded), stored \(actions)")
            #expect((stored != nil) == succeeded, "write \(item): its header is stored only when acknowledged")
            if succeeded { acknowledged += 1 }
        }
        let marked = ids.indices.filter { $0 % 37 == 5 }.count
        #expect(acknowledged == ids.count - marked, "\(acknowledged) writes acknowledged, \(marked) refused")
        let counts = try store.funnelCounts(survey: survey)
        #expect(counts.steps["q"]?[.answered] == acknowledged, "answered counted \(counts.steps)")
        #expect(store.committer.counts.largest > 1, "writes were committed together: \(store.committer.counts)")
    }
}

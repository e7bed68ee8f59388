import Foundation
import SurveyResponses

/// Group commit: the writes of many threads committed together, one transaction (one sync of the
/// log) for all the writes queued while the previous transaction committed.
///
/// A thread hands its write to ``submit(_:commit:)`` and waits. The first waiting thread that finds
/// no commit under way becomes the committer: it takes the writes queued so far (oldest first, at
/// most ``maximumBatch``), passes them to `commit`, which writes them in one transaction and commits,
/// gives each waiting thread its write's result and wakes them. While it commits, further writes
/// queue up for the next batch, so a batch holds about as many writes as threads are writing, and a
/// lone writer commits its write at once, as without batching.
///
/// With ``committers`` above one, that many batches may commit at once (each on a connection of its
/// own), so that a batch's statements run while the previous batch waits for its sync: a further
/// batch starts while one commits only once ``backlog`` writes are queued (fewer wait for the
/// batch under way, as with one committer, so that batches stay large).
///
/// Durability is the transaction's: ``submit(_:commit:)`` returns only after the transaction
/// holding its write committed, and throws the error `commit` gave its write otherwise.
package final class GroupCommit<Write>: @unchecked Sendable {
    /// A write waiting for its batch, and then its result.
    private final class Waiter {
        let write: Write
        var result: Result<Void, StoreError>?
        /// Whether a committer took it into its batch.
        var taken = false
        init(_ write: Write) { self.write = write }
    }

    /// The most writes one transaction takes.
    package let maximumBatch: Int
    /// The most batches committing at once.
    package let committers: Int
    /// How many writes must be queued for a batch to start while another commits.
    package let backlog: Int
    /// Guards ``queue`` and ``committing``; waiters wait on it.
    private let condition = NSCondition()
    private var queue: [Waiter] = []
    /// How many batches are committing.
    private var committing = 0

    private var statistics = (batches: 0, writes: 0, largest: 0)

    package init(maximumBatch: Int = 256, committers: Int = 1, backlog: Int = 16) {
        self.maximumBatch = max(1, maximumBatch)
        self.committers = max(1, committers)
        self.backlog = max(1, backlog)
    }

    /// Queues `write` and returns once it committed, committing the queued writes when no other
    /// thread does.
    /// - Parameter commit: writes a batch in one transaction and commits it; returns one result per
    ///   write, in order. It runs on up to ``committers`` threads at once.
    package func submit(_ write: Write, commit: ([Write]) -> [Result<Void, StoreError>]) throws(StoreError) {
        let waiter = Waiter(write)
        condition.lock()
        queue.append(waiter)
        while waiter.result == nil {
            // A waiter another committer took waits for its batch's result.
            if waiter.taken || committing >= committers || (committing > 0 && queue.count < backlog) {
                condition.wait()
                continue
            }
            committing += 1
            let batch = Array(queue.prefix(maximumBatch))
            queue.removeFirst(batch.count)
            for taken in batch { taken.taken = true }
            condition.unlock()
            var results = commit(batch.map(\.write))
            if results.count != batch.count {
                results = Array(
                    repeating: .failure(StoreError(.failed, "a batch of writes got no result", store: "")),
                    count: batch.count)
            }
            condition.lock()
            for (waiting, result) in zip(batch, results) { waiting.result = result }
            statistics.batches += 1
            statistics.writes += batch.count
            statistics.largest = max(statistics.largest, batch.count)
            committing -= 1
            condition.broadcast()
        }
        let result = waiter.result
        condition.unlock()
        if case .failure(let error) = result { throw error }
    }

    /// How many batches were committed, how many writes they held and the most in one.
    package var counts: (batches: Int, writes: Int, largest: Int) {
        condition.lock()
        defer { condition.unlock() }
        return statistics
    }
}

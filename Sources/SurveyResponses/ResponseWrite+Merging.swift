import Foundation

extension ResponseWrite {
    /// This write and `later`, a write to the same response made after it, as one write that leaves
    /// the store as applying both in order would; `nil` when `later` is about another response.
    ///
    /// A front end that takes several commands of one request (`survey serve`: an answer and its
    /// Next, a page of answers) commits their writes as one, in one transaction: half as many commits
    /// per answer, or fewer.
    ///
    /// - The header is `later`'s (the response as it is after both).
    /// - The actions are this write's, then `later`'s. When `later` removes actions from sequence
    ///   `n` on (an answer that took the place of the one before it), this write's actions from `n`
    ///   on are left out, and the merged write removes from `n` (or from where this one removed,
    ///   when that is before) before adding them.
    /// - A funnel event is kept once per kind and step, the first one (the store counts each once).
    /// - Deliveries and requeued deliveries are both writes' targets, each once, in order.
    public func merged(with later: ResponseWrite) -> ResponseWrite? {
        guard later.response.id == response.id else { return nil }
        var merged = later
        if let from = later.removesActionsFrom {
            // Removing from `from` before this write's actions takes away the stored ones `later`
            // would; of this write's actions, those before `from` stay.
            merged.actions = actions.filter { $0.sequence < from } + later.actions
            merged.removesActionsFrom = min(removesActionsFrom ?? from, from)
        } else {
            merged.actions = actions + later.actions
            merged.removesActionsFrom = removesActionsFrom
        }
        var seen = Set<FunnelKey>()
        merged.funnelEvents = (funnelEvents + later.funnelEvents).filter {
            seen.insert(FunnelKey(kind: $0.kind, stepID: $0.stepID)).inserted
        }
        merged.deliveries = Self.union(deliveries, later.deliveries)
        merged.requeuedDeliveries = Self.union(requeuedDeliveries, later.requeuedDeliveries)
        return merged
    }

    /// What the store keeps a funnel event once for.
    private struct FunnelKey: Hashable {
        var kind: FunnelEventKind
        var stepID: String?
    }

    private static func union(_ first: [String], _ second: [String]) -> [String] {
        var seen = Set<String>()
        return (first + second).filter { seen.insert($0).inserted }
    }
}

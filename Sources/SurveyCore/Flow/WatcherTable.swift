// The dependency graph sessions follow when a value changes.

/// Slot → watchers, stored flat (compressed rows) instead of one array per slot.
struct WatcherTable: Sendable {
    private let offsets: [Int32]
    private let entries: [Watcher]

    /// The table of the pairs `forEachPair` gives (it is called twice: to count each slot's watchers,
    /// then to place them, so that no list of the pairs is built). Each slot keeps its watchers in
    /// the order they are given.
    init(slotCount: Int, forEachPair: ((_ slot: Int, _ watcher: Watcher) -> Void) -> Void) {
        var counts = [Int32](repeating: 0, count: slotCount + 1)
        forEachPair { slot, _ in counts[slot + 1] += 1 }
        for index in 1..<counts.count { counts[index] += counts[index - 1] }
        var next = counts
        var entries = [Watcher](repeating: .calculated(0), count: Int(counts[slotCount]))
        forEachPair { slot, watcher in
            entries[Int(next[slot])] = watcher
            next[slot] += 1
        }
        offsets = counts
        self.entries = entries
    }

    /// The watchers of `slot`.
    subscript(slot: Int) -> ArraySlice<Watcher> {
        entries[Int(offsets[slot])..<Int(offsets[slot + 1])]
    }

    /// The positions of `slot`'s watchers, for ``entry(_:)``.
    @inline(__always)
    func positions(of slot: Int) -> Range<Int> {
        Int(offsets[slot])..<Int(offsets[slot + 1])
    }

    /// The watcher at `position` (one of ``positions(of:)``).
    @inline(__always)
    func entry(_ position: Int) -> Watcher {
        entries[position]
    }
}

/// What to re-evaluate when a value changes. Positions are 32 bits wide, so that an entry takes 8
/// bytes (a large survey has about one per question).
enum Watcher: Sendable, Hashable {
    case stepVisibility(Int32)
    case unitVisibility(Int32)
    case calculated(Int32)
    /// A step whose choices have `visibleIf` conditions reading this slot: an answered choice that
    /// becomes hidden is cleared at once (as SurveyJS does), so no later condition sees it.
    case choices(Int32)
    /// A trigger whose condition reads this slot: checked after the answer that changed it.
    case trigger(Int32)
    /// A step whose `defaultValueExpression` reads this slot: its answer follows until the respondent answers it.
    case defaultValue(Int32)
    /// A step whose `enableIf` reads this slot.
    case enabled(Int32)
    /// A step whose `setValueIf`, `setValueExpression` or `resetValueIf` reads this slot.
    case valueRules(Int32)
}

/// What the analysis knows about the stored answers at one point of the flow: for every question,
/// the representative answers it may have there (`{0}`, "no answer", for a question not asked yet).
///
/// The sets over-approximate: every real respondent's answers at that point are among them, so
/// "no representative satisfies the condition" proves that no respondent does.
package struct AbstractState: Sendable, Hashable {
    /// Indexed by step slot.
    package var sets: [RepresentativeSet]

    /// Nothing answered yet.
    package init(stepCount: Int) {
        sets = [RepresentativeSet](repeating: .noAnswer, count: stepCount)
    }

    /// Joins `other` into this state; returns whether anything was added.
    @discardableResult
    package mutating func formUnion(_ other: AbstractState) -> Bool {
        var changed = false
        for index in sets.indices where sets[index] != other.sets[index] {
            let union = sets[index].union(other.sets[index])
            if union != sets[index] {
                sets[index] = union
                changed = true
            }
        }
        return changed
    }

    /// The state with `delta` applied.
    package func applying(_ delta: StateDelta) -> AbstractState {
        guard !delta.changes.isEmpty else { return self }
        var copy = self
        for (slot, set) in delta.changes { copy.sets[slot] = set }
        return copy
    }
}

/// Narrowed sets on top of an ``AbstractState`` (refinements touch few questions, so they are kept
/// apart instead of copying the whole state).
package struct StateDelta: Sendable {
    package var changes: [Int: RepresentativeSet] = [:]

    package init() {}

    package func set(_ slot: Int, in state: AbstractState) -> RepresentativeSet {
        changes[slot] ?? state.sets[slot]
    }
}

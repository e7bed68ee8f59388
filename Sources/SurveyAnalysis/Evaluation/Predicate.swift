/// A condition as a tree of `and` / `or` over atoms, with negations pushed down to the atoms.
///
/// Expressions are split along their `and`, `or` and `not` (exactly as the engine evaluates them as
/// conditions); what remains (a comparison, a function call, an emptiness test) is an atom, decided by
/// enumerating the representative answers of the questions it reads.
package indirect enum Predicate: Sendable {
    case constant(Bool)
    /// Atom `id` evaluates to `Bool`.
    case atom(Int, Bool)
    case all([Predicate])
    case any([Predicate])

    package static let alwaysTrue = Predicate.constant(true)
    package static let alwaysFalse = Predicate.constant(false)

    /// The negation, with negations on the atoms.
    package var negated: Predicate {
        switch self {
        case .constant(let value): return .constant(!value)
        case .atom(let id, let wanted): return .atom(id, !wanted)
        case .all(let parts): return .any(parts.map(\.negated))
        case .any(let parts): return .all(parts.map(\.negated))
        }
    }

    /// `self and other`, simplified.
    package static func && (lhs: Predicate, rhs: Predicate) -> Predicate {
        switch (lhs, rhs) {
        case (.constant(false), _), (_, .constant(false)): return .alwaysFalse
        case (.constant(true), _): return rhs
        case (_, .constant(true)): return lhs
        case (.all(let a), .all(let b)): return .all(a + b)
        case (.all(let a), _): return .all(a + [rhs])
        case (_, .all(let b)): return .all([lhs] + b)
        default: return .all([lhs, rhs])
        }
    }

    /// `self or other`, simplified.
    package static func || (lhs: Predicate, rhs: Predicate) -> Predicate {
        switch (lhs, rhs) {
        case (.constant(true), _), (_, .constant(true)): return .alwaysTrue
        case (.constant(false), _): return rhs
        case (_, .constant(false)): return lhs
        case (.any(let a), .any(let b)): return .any(a + b)
        case (.any(let a), _): return .any(a + [rhs])
        case (_, .any(let b)): return .any([lhs] + b)
        default: return .any([lhs, rhs])
        }
    }

    /// The conjunction of `parts` (true when empty).
    package static func all(of parts: [Predicate]) -> Predicate {
        parts.reduce(.alwaysTrue, &&)
    }

    /// The disjunction of `parts` (false when empty).
    package static func any(of parts: [Predicate]) -> Predicate {
        parts.reduce(.alwaysFalse, ||)
    }

    /// The atoms in the tree.
    package var atoms: [Int] {
        switch self {
        case .constant: return []
        case .atom(let id, _): return [id]
        case .all(let parts), .any(let parts): return parts.flatMap(\.atoms)
        }
    }
}

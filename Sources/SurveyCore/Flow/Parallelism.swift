import Dispatch
import Foundation

/// How many threads loading a survey may use: the caller's decision, never the core's.
///
/// The core's own code never asks how many cores the machine has: it uses the parallelism it is
/// given. A command-line tool loading one survey gives ``machine`` (``SurveyLoader``'s default); a
/// server loading many surveys at once gives ``serial``, so that each load stays on the thread that
/// asked.
///
/// ```swift
/// let loader = SurveyLoader(registry: .builtins, parallelism: Parallelism(threads: 1))
/// ```
public struct Parallelism: Sendable, Hashable, CustomStringConvertible {
    /// The most threads work may run on at once (at least 1).
    public let threads: Int

    /// Work on at most `threads` threads (values below 1 mean 1).
    public init(threads: Int) {
        self.threads = max(1, threads)
    }

    /// Everything on the calling thread.
    public static let serial = Parallelism(threads: 1)

    /// The machine's active cores, read once per process (reading them is a system call or a file
    /// read each time: a measurable share of loading a small survey).
    public static let machine = Parallelism(threads: ProcessInfo.processInfo.activeProcessorCount)

    public var description: String { "\(threads) thread\(threads == 1 ? "" : "s")" }

    /// How many pieces parallel work is cut into: twice the threads (so that a thread slowed by other
    /// work does not hold up the rest), at most 16; 1 on one thread.
    var pieceCount: Int { threads > 1 ? min(2 * threads, 16) : 1 }

    /// The results of `body` for each of `count` pieces, in piece order; the pieces run on several
    /// threads when there are several threads and pieces, else one after another on this one.
    ///
    /// This and ``SharedSlots`` are the only code in the core that runs work on several threads;
    /// `body` must not share mutable state between pieces except through ``SharedSlots``.
    func map<Result>(_ count: Int, _ body: @Sendable (Int) -> Result) -> [Result] {
        guard count > 1, threads > 1 else { return (0..<count).map(body) }
        return [Result](unsafeUninitializedCapacity: count) { buffer, initialized in
            let slots = SharedSlots(buffer)
            DispatchQueue.concurrentPerform(iterations: count) { piece in slots.initialize(piece, to: body(piece)) }
            // Each piece initialized its own slot before concurrentPerform returned.
            initialized = count
        }
    }

    /// The range of `count` items that piece `piece` of `pieces` about equal pieces has, in order.
    static func range(of piece: Int, in pieces: Int, count: Int) -> Range<Int> {
        (piece * count / pieces)..<((piece + 1) * count / pieces)
    }
}

/// An array's storage that the pieces of a ``Parallelism/map(_:_:)`` write into at once, each only
/// at its own indices (no merge of per-piece results afterwards).
///
/// Invariants, which its users keep and nothing checks:
/// - it is used only inside the `withSharedSlots` call that made it (the array is not touched
///   otherwise meanwhile, and the storage does not move);
/// - no two threads access the same index, and an index one thread writes is read by no other until
///   the parallel map returns.
struct SharedSlots<Element>: @unchecked Sendable {
    private let base: UnsafeMutableBufferPointer<Element>

    fileprivate init(_ base: UnsafeMutableBufferPointer<Element>) { self.base = base }

    subscript(index: Int) -> Element {
        get { base[index] }
        nonmutating set { base[index] = newValue }
    }

    /// Initializes slot `index` of uninitialized storage (``Array/init(sharedSlotsOf:_:)``).
    func initialize(_ index: Int, to value: Element) {
        (base.baseAddress.unsafelyUnwrapped + index).initialize(to: value)
    }
}

extension Array {
    /// Calls `body` with the array's storage as ``SharedSlots`` that parallel pieces write into.
    mutating func withSharedSlots<R>(_ body: (SharedSlots<Element>) throws -> R) rethrows -> R {
        try withUnsafeMutableBufferPointer { try body(SharedSlots($0)) }
    }

    /// An array of `count` elements that `body` initializes, every one of them, through
    /// ``SharedSlots/initialize(_:to:)`` (from parallel pieces, each its own indices).
    init(sharedSlotsOf count: Int, _ body: (SharedSlots<Element>) -> Void) {
        self.init(unsafeUninitializedCapacity: count) { buffer, initialized in
            body(SharedSlots(buffer))
            initialized = count
        }
    }
}

/// A read-only buffer the caller keeps alive for a whole parallel map, shared by its pieces
/// (the parser's input bytes).
struct SharedBytes: @unchecked Sendable {
    /// The bytes; valid as long as the caller's buffer is, which outlives the map.
    let bytes: UnsafeBufferPointer<UInt8>
}

import Foundation

/// A Fenwick (binary indexed) tree of small counts: prefix sums and "first index with a nonzero
/// count after i" in O(log n), so that progress and next-visible-step queries never scan the survey.
@usableFromInline
struct FenwickTree: Sendable {
    private var tree: [Int32]
    @usableFromInline private(set) var values: [Int32]
    private let highestPowerOfTwo: Int

    init(count: Int) {
        tree = [Int32](repeating: 0, count: count + 1)
        values = [Int32](repeating: 0, count: count)
        var power = 1
        while power * 2 <= count { power *= 2 }
        highestPowerOfTwo = count == 0 ? 0 : power
    }

    /// Builds from initial values in O(n).
    init(values initial: [Int32]) {
        self.init(count: initial.count)
        values = initial
        for index in 0..<initial.count {
            let position = index + 1
            tree[position] += initial[index]
            let parent = position + (position & -position)
            if parent < tree.count { tree[parent] += tree[position] }
        }
    }

    var count: Int { values.count }

    /// Becomes equal to `other`, reusing this tree's storage.
    mutating func assign(from other: FenwickTree) {
        tree.assign(from: other.tree)
        values.assign(from: other.values)
    }

    mutating func set(_ index: Int, _ value: Int32) {
        let delta = value - values[index]
        guard delta != 0 else { return }
        values[index] = value
        var position = index + 1
        while position < tree.count {
            tree[position] += delta
            position += position & -position
        }
    }

    /// Sum of values[0..<end].
    func prefixSum(_ end: Int) -> Int {
        var sum: Int32 = 0
        var position = min(end, values.count)
        while position > 0 {
            sum += tree[position]
            position -= position & -position
        }
        return Int(sum)
    }

    /// Sum of values[start..<end].
    func sum(_ range: Range<Int>) -> Int {
        prefixSum(range.upperBound) - prefixSum(range.lowerBound)
    }

    /// The smallest index `i` with prefixSum(i + 1) > target (values must be non-negative).
    func lowerBound(exceeding target: Int) -> Int? {
        var position = 0
        var remaining = Int32(target)
        var step = highestPowerOfTwo
        while step > 0 {
            let next = position + step
            if next < tree.count, tree[next] <= remaining {
                position = next
                remaining -= tree[next]
            }
            step /= 2
        }
        return position < values.count ? position : nil
    }

    /// The first index ≥ `start` with a nonzero value.
    func firstNonzero(from start: Int) -> Int? {
        guard start < values.count else { return nil }
        if values[start] != 0 { return start }
        return lowerBound(exceeding: prefixSum(start))
    }
}

/// SplitMix64: a small, fast, seedable generator, so shuffles replay from the session seed.
package struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    package init(seed: UInt64) {
        state = seed
    }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A generator for one purpose (e.g. shuffling one question's choices) derived from the session seed.
    package init(seed: UInt64, purpose: String) {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in purpose.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        self.init(seed: seed ^ hash)
    }

    /// A number in 0..<1.
    package mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}

extension Array where Element: BitwiseCopyable {
    /// ``assign(from:)`` for plain values (flags, counts): one copy of the bytes. Compared element by
    /// element instead, a restart of a session on a survey of a million steps spent some 10 million
    /// instructions on its visibility flags and counts.
    mutating func assign(from source: [Element]) {
        guard count == source.count, count > 0 else {
            self = source
            return
        }
        withUnsafeMutableBufferPointer { target in
            source.withUnsafeBufferPointer { origin in
                guard let to = target.baseAddress, let from = origin.baseAddress, to != from else { return }
                to.update(from: from, count: origin.count)
            }
        }
    }
}

extension Array {
    /// Becomes equal to `source`, writing into this array's storage when it has the same length
    /// (no allocation when nothing else holds it), and sharing `source`'s otherwise. Storage
    /// already shared with `source` is left as it is.
    mutating func assign(from source: [Element]) {
        let shared = withUnsafeBufferPointer { mine in
            source.withUnsafeBufferPointer { theirs in mine.baseAddress == theirs.baseAddress }
        }
        guard !shared else { return }
        guard count == source.count, count > 0 else {
            self = source
            return
        }
        withUnsafeMutableBufferPointer { target in
            source.withUnsafeBufferPointer { origin in
                guard let to = target.baseAddress, let from = origin.baseAddress else { return }
                let size = MemoryLayout<Element>.size
                for index in origin.indices {
                    // Equal bits are the same value (most of a restart's values are unchanged: still
                    // `null`); comparing them costs no retain or release, where assigning costs both.
                    if memcmp(to + index, from + index, size) != 0 { to[index] = from[index] }
                }
            }
        }
    }
}

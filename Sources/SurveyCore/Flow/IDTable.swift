import Dispatch

/// Ids mapped to dense indices (a survey's steps and units): a `[String: Int]` for the compiler's
/// needs, built faster and smaller.
///
/// The ids are kept in one array in the order they were added; an open-addressing table of 64-bit
/// slots (linear probing, at most half full) holds each entry's position with the high half of its
/// key's hash, so a probe compares keys only when the hashes' halves agree. A table of a survey's
/// step ids is built in one call, with the hashes computed on all cores first: filling 1,000,000
/// ids took about 300 ms in a `Dictionary` (three cache misses an insert: its bitmap, key and value
/// arrays) and about 50 ms with this scheme, measured in a standalone program. Hashes are `String.hashValue`, seeded per process like `Dictionary`'s,
/// so a file cannot be written to make ids collide.
struct IDTable: Sendable {
    /// The keys, in the order they were added (a repeated key is kept here, but not in the table).
    private(set) var keys: [String] = []
    /// Each key's value, by position; `nil` while every key's value is its position (a table built
    /// from a list of ids), which saves 8 bytes a key.
    private var values: [Int]? = []
    /// 0 for an empty slot; otherwise the entry's position + 1 in the low 32 bits, the high 32 bits
    /// of its key's hash above them.
    private var slots: [UInt64]
    /// How many keys the table maps (``keys`` also holds the repeats of a bulk-built table).
    private(set) var count = 0

    /// Tables larger than this hash their keys on several threads.
    static let parallelHashing = 1 << 15

    /// An empty table with room for `minimumCapacity` keys before it grows.
    init(minimumCapacity: Int = 0) {
        slots = Array(repeating: 0, count: Self.slotCount(for: minimumCapacity))
    }

    /// A table of `keys`, each mapped to its position in `keys`; a key met again keeps its first
    /// position. `repeated` gets, for each later occurrence, its position and the first one's.
    /// Many keys are hashed on `parallelism`'s threads.
    init(
        positionsOf keys: [String], repeated: inout [(position: Int, first: Int)],
        parallelism: Parallelism = .serial
    ) {
        self.init(minimumCapacity: keys.count)
        let hashes = Self.hashes(of: keys, parallelism: parallelism)
        self.keys = keys
        values = nil
        for position in keys.indices {
            if let first = place(position, hash: hashes[position]) { repeated.append((position, first)) }
        }
    }

    /// The value of the entry at `position`.
    @inline(__always)
    private func value(at position: Int) -> Int {
        values?[position] ?? position
    }

    /// The value of `key`, or `nil` when it is not in the table.
    subscript(key: String) -> Int? {
        switch probe(key, hash: key.hashValue) {
        case .found(let position): value(at: position)
        case .empty: nil
        }
    }

    /// The values of `keys` (`nil` for a key not in the table), looked up together: every key's
    /// first slot is read before any key is compared, then every candidate key, so that the cache
    /// misses of a batch overlap. A survey's table is larger than the caches (16 MB of slots and
    /// 16 MB of keys at 1,000,000 steps) and a lookup alone waits for memory twice, once for its slot
    /// and once for the key it points to. `scratch` is working space, reused between calls.
    func values(of keys: [String], into values: inout [Int?], scratch: inout BatchScratch) {
        values.removeAll(keepingCapacity: true)
        scratch.hashes.removeAll(keepingCapacity: true)
        scratch.contents.removeAll(keepingCapacity: true)
        for key in keys { scratch.hashes.append(key.hashValue) }
        let mask = slots.count - 1
        // 1. The first slot of each key: loads that do not depend on one another.
        for hash in scratch.hashes { scratch.contents.append(slots[hash & mask]) }
        // 2. The key each first slot points to, compared by its bits (the same bits are the same
        //    string: a small string's bytes, or a large one's storage). A key found otherwise (a
        //    later slot, the same text stored differently) takes the full probe.
        keys.withUnsafeBufferPointer { wanted in
            self.keys.withUnsafeBufferPointer { stored in
                let storedBits = UnsafeRawPointer(stored.baseAddress)
                for (offset, content) in scratch.contents.enumerated() {
                    let hash = scratch.hashes[offset]
                    if let storedBits, content != 0, content & 0xFFFF_FFFF_0000_0000 == Self.tag(hash) {
                        let position = Int(truncatingIfNeeded: content & 0xFFFF_FFFF) - 1
                        let bits = storedBits.load(
                            fromByteOffset: position * MemoryLayout<String>.stride, as: (UInt64, UInt64).self)
                        let key = UnsafeRawPointer(wanted.baseAddress.unsafelyUnwrapped + offset)
                            .load(as: (UInt64, UInt64).self)
                        if bits == key {
                            values.append(value(at: position))
                            continue
                        }
                    }
                    switch probe(wanted[offset], hash: hash) {
                    case .found(let position): values.append(value(at: position))
                    case .empty: values.append(nil)
                    }
                }
            }
        }
    }

    /// Working space for ``values(of:into:scratch:)``.
    struct BatchScratch {
        var hashes: [Int] = []
        var contents: [UInt64] = []
    }

    /// Adds `key` with `value` when it is not in the table yet; otherwise leaves the table as it is
    /// and returns the value it has.
    @discardableResult
    mutating func insert(_ key: String, _ value: Int) -> Int? {
        if 2 * (count + 1) > slots.count { grow() }
        let hash = key.hashValue
        switch probe(key, hash: hash) {
        case .found(let existing):
            return self.value(at: existing)
        case .empty(let slot):
            if values == nil { values = Array(keys.indices) }
            keys.append(key)
            values?.append(value)
            occupy(slot, with: keys.count - 1, hash: hash)
            return nil
        }
    }

    /// The hashes of `keys`, on several threads when there are many.
    static func hashes(of keys: [String], parallelism: Parallelism) -> [Int] {
        let pieces = parallelism.pieceCount
        guard keys.count >= parallelHashing, pieces > 1 else { return keys.map(\.hashValue) }
        return [Int](sharedSlotsOf: keys.count) { hashes in
            _ = parallelism.map(pieces) { piece in
                for index in Parallelism.range(of: piece, in: pieces, count: keys.count) {
                    hashes.initialize(index, to: keys[index].hashValue)
                }
            }
        }
    }

    private static func slotCount(for capacity: Int) -> Int {
        var count = 16
        while count < 2 * capacity { count <<= 1 }
        return count
    }

    private static func tag(_ hash: Int) -> UInt64 { UInt64(UInt(bitPattern: hash)) & 0xFFFF_FFFF_0000_0000 }

    /// Where probing for `key` ends: at its entry's position, or at the empty slot it would take.
    private enum Probe {
        case found(Int)
        case empty(slot: Int)
    }

    private func probe(_ key: String, hash: Int) -> Probe {
        let mask = slots.count - 1
        let tag = Self.tag(hash)
        var slot = hash & mask
        while true {
            let content = slots[slot]
            if content == 0 { return .empty(slot: slot) }
            if content & 0xFFFF_FFFF_0000_0000 == tag {
                let position = Int(truncatingIfNeeded: content & 0xFFFF_FFFF) - 1
                if keys[position] == key { return .found(position) }
            }
            slot = (slot + 1) & mask
        }
    }

    /// Puts the entry at `position` in the table, unless an entry with the same key is there:
    /// then returns that entry's value.
    private mutating func place(_ position: Int, hash: Int) -> Int? {
        switch probe(keys[position], hash: hash) {
        case .found(let other):
            return value(at: other)
        case .empty(let slot):
            occupy(slot, with: position, hash: hash)
            return nil
        }
    }

    private mutating func occupy(_ slot: Int, with position: Int, hash: Int) {
        slots[slot] = Self.tag(hash) | UInt64(position + 1)
        count += 1
    }

    private mutating func grow() {
        let old = slots
        slots = Array(repeating: 0, count: old.count * 2)
        count = 0
        let mask = slots.count - 1
        for content in old where content != 0 {
            let position = Int(truncatingIfNeeded: content & 0xFFFF_FFFF) - 1
            // The hash's low bits are not kept: the key is hashed again.
            var slot = keys[position].hashValue & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = content
            count += 1
        }
    }
}

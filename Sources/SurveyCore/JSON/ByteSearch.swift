import Foundation

extension String {
    /// Whether `needle`'s UTF-8 bytes occur in the text's UTF-8 bytes: a byte search for sniffing
    /// large documents before parsing them (`String.contains` compares Characters: about 300
    /// instructions a byte, seconds on a 100 MB survey).
    ///
    /// For an ASCII needle it finds every match `contains` finds, and more only where a combining
    /// mark follows the match, which makes a good cheap pre-check for an exact test after it.
    package func containsUTF8(_ needle: String, parallelism: Parallelism = .serial) -> Bool {
        containsUTF8([needle], parallelism: parallelism)[0]
    }

    /// For each of `needles`, whether its UTF-8 bytes occur in the text's, in one pass over the text.
    /// Needles of four bytes or more are found through a filter on the four bytes at each position
    /// (one unaligned load, a multiply and a bit test however many needles there are, and JSON keys,
    /// which all start with a quote, rarely pass it), tried only where the needles' common first byte
    /// is when they have one; shorter needles by a plain scan. An empty needle is always found.
    /// A text of 4 MiB or more is searched on `parallelism`'s threads.
    package func containsUTF8(_ needles: [String], parallelism: Parallelism = .serial) -> [Bool] {
        let patterns = needles.map { Array($0.utf8) }
        var text = self
        return text.withUTF8 { haystack in
            // A large text is searched in pieces, each overlapping the next by the longest needle less
            // one byte, so that every occurrence lies whole in some piece.
            let pieces = haystack.count >= Self.parallelSearch ? parallelism.pieceCount : 1
            guard pieces > 1 else { return Self.search(patterns, in: haystack) }
            let overlap = max(0, (patterns.map(\.count).max() ?? 0) - 1)
            let shared = SharedBytes(bytes: haystack)
            let found = parallelism.map(pieces) { piece in
                let haystack = shared.bytes
                let range = Parallelism.range(of: piece, in: pieces, count: haystack.count)
                let end = min(haystack.count, range.upperBound + overlap)
                return Self.search(patterns, in: UnsafeBufferPointer(rebasing: haystack[range.lowerBound..<end]))
            }
            return patterns.indices.map { index in found.contains { $0[index] } }
        }
    }

    /// Texts this long (bytes) are searched in pieces.
    static let parallelSearch = 1 << 22

    /// ``containsUTF8(_:)`` of `patterns` (UTF-8 bytes) in `haystack`, on this thread.
    private static func search(_ patterns: [[UInt8]], in haystack: UnsafeBufferPointer<UInt8>) -> [Bool] {
        var found = patterns.map(\.isEmpty)
        func matches(_ pattern: [UInt8], at start: Int) -> Bool {
            guard pattern.count <= haystack.count - start else { return false }
            for offset in pattern.indices where haystack[start + offset] != pattern[offset] { return false }
            return true
        }
        let long = patterns.indices.filter { patterns[$0].count >= 4 }
        for index in patterns.indices where !found[index] && patterns[index].count < 4 {
            found[index] = haystack.indices.contains { matches(patterns[index], at: $0) }
        }
        guard !long.isEmpty, haystack.count >= 4, let base = UnsafeRawPointer(haystack.baseAddress) else {
            return found
        }
        func slot(_ word: UInt32) -> Int { Int((word &* 0x9E37_79B1) >> 20) }  // 4,096 slots
        var filter = [UInt64](repeating: 0, count: 64)
        for index in long {
            let word = patterns[index].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
            filter[slot(word) >> 6] |= 1 << UInt64(slot(word) & 63)
        }
        var remaining = long.count(where: { !found[$0] })
        // When the needles all start with the same byte (quoted JSON keys all do), only the
        // positions of that byte are tried, found by `memchr`, which skips the rest of the text
        // many bytes at a time.
        let first = patterns[long[0]][0]
        let sameFirst = long.allSatisfy { patterns[$0][0] == first }
        filter.withUnsafeBufferPointer { filter in
            let last = haystack.count - 4
            var start = 0
            while start <= last {
                if sameFirst {
                    guard let hit = memchr(base + start, Int32(first), last - start + 1) else { return }
                    start = base.distance(to: UnsafeRawPointer(hit))
                }
                let key = slot(base.loadUnaligned(fromByteOffset: start, as: UInt32.self))
                if filter[key >> 6] & (1 << UInt64(key & 63)) != 0 {
                    for index in long where !found[index] && matches(patterns[index], at: start) {
                        found[index] = true
                        remaining -= 1
                        if remaining == 0 { return }
                    }
                }
                start += 1
            }
        }
        return found
    }
}

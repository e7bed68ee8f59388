/// A set of representative answers of one question, as indices into its ``AnswerDomain/values``
/// (index 0 is "no answer"). At most ``capacity`` representatives.
package struct RepresentativeSet: Sendable, Hashable {
    package static let capacity = 128

    var low: UInt64
    var high: UInt64

    package init() {
        low = 0
        high = 0
    }

    init(low: UInt64, high: UInt64) {
        self.low = low
        self.high = high
    }

    /// Only "no answer".
    package static let noAnswer = RepresentativeSet(low: 1, high: 0)

    /// Indices `0..<count`.
    package static func all(_ count: Int) -> RepresentativeSet {
        var set = RepresentativeSet()
        for index in 0..<min(count, capacity) { set.insert(index) }
        return set
    }

    package var isEmpty: Bool { low == 0 && high == 0 }
    package var count: Int { low.nonzeroBitCount + high.nonzeroBitCount }

    package func contains(_ index: Int) -> Bool {
        index < 64 ? low & (1 << UInt64(index)) != 0 : high & (1 << UInt64(index - 64)) != 0
    }

    package mutating func insert(_ index: Int) {
        if index < 64 { low |= 1 << UInt64(index) } else { high |= 1 << UInt64(index - 64) }
    }

    package mutating func remove(_ index: Int) {
        if index < 64 { low &= ~(1 << UInt64(index)) } else { high &= ~(1 << UInt64(index - 64)) }
    }

    package func union(_ other: RepresentativeSet) -> RepresentativeSet {
        RepresentativeSet(low: low | other.low, high: high | other.high)
    }

    package func intersection(_ other: RepresentativeSet) -> RepresentativeSet {
        RepresentativeSet(low: low & other.low, high: high & other.high)
    }

    package func subtracting(_ other: RepresentativeSet) -> RepresentativeSet {
        RepresentativeSet(low: low & ~other.low, high: high & ~other.high)
    }

    /// The indices in the set, ascending.
    package var indices: [Int] {
        var result: [Int] = []
        result.reserveCapacity(count)
        var word = low
        while word != 0 {
            result.append(word.trailingZeroBitCount)
            word &= word - 1
        }
        word = high
        while word != 0 {
            result.append(64 + word.trailingZeroBitCount)
            word &= word - 1
        }
        return result
    }
}

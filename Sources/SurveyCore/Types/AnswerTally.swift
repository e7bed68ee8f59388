/// The answers many responses gave one question, kept as the distinct answers with how many
/// responses gave each: what ``QuestionType/summarize(_:options:in:)-(AnswerTally,_,_)`` reads. A report over a
/// million responses holds one entry per distinct answer, not one per response.
public struct AnswerTally: Sendable, Hashable {
    /// One distinct answer and how many responses gave it.
    public struct Entry: Sendable, Hashable {
        public var answer: JSONValue
        public var count: Int
    }

    /// The distinct answers, in the order each was first added.
    public private(set) var entries: [Entry] = []
    /// How many answers were added in all (empty ones included).
    public private(set) var count = 0
    private var index: [JSONValue: Int] = [:]

    /// An empty tally.
    public init() {}

    /// The tally of `answers`.
    public init(_ answers: some Sequence<JSONValue>) {
        for answer in answers { add(answer) }
    }

    /// Adds `count` responses that gave `answer`.
    public mutating func add(_ answer: JSONValue, count: Int = 1) {
        guard count > 0 else { return }
        self.count += count
        if let at = index[answer] {
            entries[at].count += count
        } else {
            index[answer] = entries.count
            entries.append(Entry(answer: answer, count: count))
        }
    }

    /// Adds every entry of `other`.
    public mutating func add(_ other: AnswerTally) {
        for entry in other.entries { add(entry.answer, count: entry.count) }
    }

    /// How many responses gave `answer`.
    public func count(of answer: JSONValue) -> Int { index[answer].map { entries[$0].count } ?? 0 }

    /// How many of the answers are not empty (``JSONValue/isEmptyAnswer``).
    public var answered: Int {
        entries.reduce(0) { $0 + ($1.answer.isEmptyAnswer ? 0 : $1.count) }
    }

    /// Every answer, each distinct one repeated as many times as it was given, grouped in the order
    /// each was first added: for a summary written over a plain list (repeated values share their
    /// storage, so this costs a few bytes per answer).
    public var answers: [JSONValue] {
        var result: [JSONValue] = []
        result.reserveCapacity(count)
        for entry in entries { result.append(contentsOf: repeatElement(entry.answer, count: entry.count)) }
        return result
    }

    /// Counts of values drawn from each non-empty answer (`values` gives the values of one answer:
    /// the choices of a multiple choice, a matrix row's column, …), weighted by how many gave it.
    public func counts<Key: Hashable>(_ values: (JSONValue) -> [Key]) -> [Key: Int] {
        var result: [Key: Int] = [:]
        for entry in entries where !entry.answer.isEmptyAnswer {
            for value in values(entry.answer) { result[value, default: 0] += entry.count }
        }
        return result
    }

    /// The numbers drawn from each non-empty answer (`number` gives at most one per answer), weighted.
    public func numbers(_ number: (JSONValue) -> Double? = \.numberValue) -> WeightedNumbers {
        var result = WeightedNumbers()
        for entry in entries where !entry.answer.isEmptyAnswer {
            if let value = number(entry.answer) { result.add(value, count: entry.count) }
        }
        return result
    }
}

/// Numbers with how often each occurs: exact mean, median, minimum and maximum without keeping one
/// entry per occurrence.
public struct WeightedNumbers: Sendable, Hashable {
    /// How often each number occurs.
    public private(set) var counts: [Double: Int] = [:]
    /// How many numbers in all.
    public private(set) var count = 0
    private var sum = 0.0

    public init() {}

    /// Adds `value`, `count` times.
    public mutating func add(_ value: Double, count: Int = 1) {
        guard count > 0, !value.isNaN else { return }
        counts[value, default: 0] += count
        self.count += count
        sum += value * Double(count)
    }

    public var mean: Double? { count == 0 ? nil : sum / Double(count) }
    public var minimum: Double? { counts.keys.min() }
    public var maximum: Double? { counts.keys.max() }

    /// The median (the mean of the two middle numbers for an even count).
    public var median: Double? {
        guard count > 0 else { return nil }
        let sorted = counts.sorted { $0.key < $1.key }
        // The numbers at positions (count - 1) / 2 and count / 2 of the sorted list (0-based).
        let low = (count - 1) / 2
        let high = count / 2
        var seen = 0
        var lowValue: Double?
        for (value, occurrences) in sorted {
            let next = seen + occurrences
            if lowValue == nil, low < next { lowValue = value }
            if high < next { return ((lowValue ?? value) + value) / 2 }
            seen = next
        }
        return lowValue
    }
}

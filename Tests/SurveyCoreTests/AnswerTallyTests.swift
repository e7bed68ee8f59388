import Testing

@testable import SurveyCore

@Suite struct AnswerTallyTests {
    @Test func keepsOneEntryPerDistinctAnswerInFirstSeenOrder() {
        var tally = AnswerTally(["b", "a", "b", nil, 3, ["x"], "b"])
        tally.add("a", count: 4)
        tally.add("z", count: 0)
        #expect(tally.entries.map(\.answer) == ["b", "a", nil, 3, ["x"]])
        #expect(tally.entries.map(\.count) == [3, 5, 1, 1, 1])
        #expect(tally.count == 11)
        #expect(tally.answered == 10)
        #expect(tally.count(of: "a") == 5 && tally.count(of: "q") == 0)
        // The plain list: every answer as often as given, grouped by first appearance.
        #expect(tally.answers == ["b", "b", "b", "a", "a", "a", "a", "a", nil, 3, ["x"]])
    }

    @Test func mergesTallies() {
        var left = AnswerTally(["a", "b"])
        left.add(AnswerTally(["b", "c", "b"]))
        #expect(left.entries.map(\.count) == [1, 3, 1])
        #expect(left.count == 5)
    }

    @Test func countsValuesDrawnFromEachAnswer() {
        let tally = AnswerTally([["red", "blue"], ["red"], [], nil, ["red", "blue"]])
        let counts = tally.counts { $0.arrayValue?.compactMap(\.stringValue) ?? [] }
        #expect(counts == ["red": 3, "blue": 2])
    }

    /// Weighted statistics equal the ones of the expanded list, for random lists with repeats.
    @Test func weightedNumbersMatchTheExpandedList() {
        var random = SeededGenerator(seed: 20_261_202)
        for round in 0..<200 {
            let size = Int(random.next() % 40) + (round == 0 ? 0 : 1)
            let values = (0..<size).map { _ in Double(Int(random.next() % 9)) - 3 + (random.next() % 2 == 0 ? 0.5 : 0) }
            let tally = AnswerTally(values.map(JSONValue.number))
            let numbers = tally.numbers()
            let sorted = values.sorted()
            #expect(numbers.count == values.count)
            #expect(numbers.minimum == sorted.first && numbers.maximum == sorted.last)
            #expect(numbers.median == InputPrimitive.median(sorted), "\(sorted)")
            if let mean = InputPrimitive.mean(values) {
                #expect(abs((numbers.mean ?? .nan) - mean) < 1e-9)
            } else {
                #expect(numbers.mean == nil)
            }
        }
    }

    @Test func medianOfAnEvenCountAveragesTheMiddleTwo() {
        var numbers = WeightedNumbers()
        numbers.add(1, count: 2)
        numbers.add(10, count: 2)
        #expect(numbers.median == 5.5)
        numbers.add(10)
        #expect(numbers.median == 10)
    }
}

import Foundation
import Testing

@testable import SurveyCore

/// The compiler's id tables (``IDTable``) answer as the dictionaries they replaced: the first of
/// repeated ids wins, every repeat is reported once, and lookups of absent ids find nothing.
@Suite struct IDTableTests {
    /// Ids with repeats, near misses, the empty id and non-ASCII ones; large enough (with
    /// `count`) to take the parallel hashing.
    static func ids(count: Int, seed: UInt64) -> [String] {
        var generator = SeededGenerator(seed: seed)
        let fixed = ["", "q", "Q", "é", "e\u{301}", "q1", "q10", "q1 ", "a-very-long-step-identifier-past-15-bytes"]
        return (0..<count).map { index in
            switch generator.next() % 8 {
            case 0: fixed[Int(generator.next() % UInt64(fixed.count))]
            case 1: "q\(generator.next() % UInt64(max(1, count / 4)))"
            default: "q\(index)-\(generator.next() % 1_000)"
            }
        }
    }

    @Test(arguments: [0, 1, 17, 1_000, IDTable.parallelHashing + 3])
    func bulkTableMatchesADictionary(count: Int) {
        let ids = Self.ids(count: count, seed: UInt64(count))
        var repeated: [(position: Int, first: Int)] = []
        let table = IDTable(positionsOf: ids, repeated: &repeated)
        var expected: [String: Int] = [:]
        var expectedRepeats: [(Int, Int)] = []
        for (position, id) in ids.enumerated() {
            if let first = expected[id] {
                expectedRepeats.append((position, first))
            } else {
                expected[id] = position
            }
        }
        #expect(table.count == expected.count)
        #expect(repeated.map(\.position) == expectedRepeats.map(\.0))
        #expect(repeated.map(\.first) == expectedRepeats.map(\.1))
        for (id, position) in expected { #expect(table[id] == position, "\(id)") }
        for absent in ["x", "q-1", "Q1", "e", " q1", "q\(count * 10)"] where expected[absent] == nil {
            #expect(table[absent] == nil, "\(absent)")
        }
        // "é" precomposed and decomposed are equal Strings, as in a Dictionary.
        if expected["é"] != nil { #expect(table["e\u{301}"] == expected["é"]) }
    }

    /// Keys looked up a batch at a time give what one lookup at a time gives: found or absent,
    /// a key stored as another string with the same text ("é" precomposed for decomposed, a copy
    /// of a long id in storage of its own), a key found past its first slot, from a bulk table and
    /// from one filled by inserts.
    @Test(arguments: [0, 1, 17, 1_000, IDTable.parallelHashing + 3])
    func batchedLookupsMatchSingleOnes(count: Int) {
        let ids = Self.ids(count: count, seed: UInt64(count) + 5)
        var repeated: [(position: Int, first: Int)] = []
        let bulk = IDTable(positionsOf: ids, repeated: &repeated)
        var inserted = IDTable()
        for (value, id) in ids.enumerated() { inserted.insert(id, value * 7) }
        var generator = SeededGenerator(seed: 77)
        var keys = ["x", "q-1", "Q1", "e", " q1", "e\u{301}", "é"]
        for _ in 0..<(2 * count) where !ids.isEmpty {
            // A fresh copy of the text: a long id's storage is not the table's.
            keys.append(String(decoding: Array(ids[Int(generator.next() % UInt64(ids.count))].utf8), as: UTF8.self))
        }
        var values: [Int?] = [1, 2, 3]
        var scratch = IDTable.BatchScratch()
        for table in [bulk, inserted] {
            table.values(of: keys, into: &values, scratch: &scratch)
            #expect(values.count == keys.count)
            for (key, value) in zip(keys, values) { #expect(value == table[key], "\(key)") }
            table.values(of: [], into: &values, scratch: &scratch)
            #expect(values.isEmpty)
        }
    }

    @Test func insertsGrowTheTableAndKeepTheFirstValue() {
        var table = IDTable()
        var expected: [String: Int] = [:]
        for (value, id) in Self.ids(count: 5_000, seed: 9).enumerated() {
            let previous = table.insert(id, value * 3)
            #expect(previous == expected[id])
            if expected[id] == nil { expected[id] = value * 3 }
        }
        #expect(table.count == expected.count)
        for (id, value) in expected { #expect(table[id] == value) }
        #expect(table["absent"] == nil)
        #expect(Set(table.keys) == Set(expected.keys))
    }

    /// A survey's repeated ids are still reported where they are, naming where the id was first used.
    @Test func repeatedStepIDsAreReportedInOrder() {
        let steps = (0..<6).map { #"{"id": "\#($0 % 2 == 0 ? "a" : "q\($0)")", "type": "t-text"}"# }
        let errors = loadErrors(surveyJSON(steps))
        #expect(
            errors.map(\.message) == [
                "duplicate id 'a': already used at $.steps[0]", "duplicate id 'a': already used at $.steps[0]",
            ])
        #expect(errors.map { $0.path?.description } == ["$.steps[2].id", "$.steps[4].id"])
    }

    /// A large survey's step-id table is built on another thread while the steps are flattened:
    /// the same repeated ids, in the same order, at the same places, with pages and single steps.
    @Test func repeatedStepIDsOfALargeSurveyAreReportedInOrder() {
        var steps: [String] = []
        for page in 0..<2_000 {
            let first = page == 1_500 ? "q3_1" : "q\(page)_0"
            steps.append(
                #"{"id": "p\#(page)", "type": "page", "steps": [{"id": "\#(first)", "type": "t-text"}, "#
                    + #"{"id": "q\#(page)_1", "type": "t-text"}]}"#)
            steps.append(#"{"id": "\#(page == 1_999 ? "p7" : "s\(page)")", "type": "t-text"}"#)
        }
        steps.append(#"{"id": "q10_1", "type": "t-text"}"#)
        let errors = loadErrors(surveyJSON(steps))
        #expect(
            errors.map(\.message) == [
                // A page whose id a step has is reported at the page (as in a small survey).
                "duplicate id 'p7': already used at $.steps[3999]",
                "duplicate id 'q3_1': already used at $.steps[6].steps[1]",
                "duplicate id 'q10_1': already used at $.steps[20].steps[1]",
            ])
        #expect(
            errors.map { $0.path?.description } == [
                "$.steps[14].id", "$.steps[3000].steps[0].id", "$.steps[4000].id",
            ])
    }
}

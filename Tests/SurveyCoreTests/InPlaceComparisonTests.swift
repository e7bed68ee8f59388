import Testing

@testable import SurveyCore

/// The comparison of a step condition's cell reads both values in place, with fast paths for the
/// common kinds; it must answer exactly what the general comparison answers, for every operator and
/// every pair of kinds.
@Suite struct InPlaceComparisonTests {
    static let values: [JSONValue] = [
        .null, .string(""), .string("a"), .string("A"), .string(" a "), .string("b"), .string("é"), .string("É"),
        .string("3"), .string("a constant longer than fifteen bytes"), .string("A CONSTANT LONGER THAN FIFTEEN BYTES"),
        .number(3), .number(3.5), .number(-1), .number(.nan), .bool(true), .bool(false),
        .array([]), .array([.string("a")]), .array([.string("B"), .string("c")]), .array([.number(3), .string("a")]),
        .array([.string("é"), .string("x")]), .object(["a": .string("x")]),
    ]

    static let operators: [BinaryOperator] = [
        .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual, .contains, .notContains, .anyOf, .allOf,
        .noneOf,
    ]

    @Test func agreesWithTheGeneralComparisonForEveryPair() {
        for op in Self.operators {
            for a in Self.values {
                for b in Self.values {
                    let general = Evaluator.compare(op, a, b)
                    let inPlace = withUnsafePointer(to: a) { x in
                        withUnsafePointer(to: b) { Evaluator.compare(op, x, $0) }
                    }
                    #expect(inPlace == general, "\(a) \(op) \(b)")
                }
            }
        }
    }

    @Test func readsASlotPastTheEndAsEmpty() {
        let values: [JSONValue] = [.string("a")]
        for op in Self.operators {
            for literal in Self.values {
                let past = values.withUnsafeBufferPointer { buffer in
                    withUnsafePointer(to: literal) { Evaluator.compare(op, slot: 5, of: buffer, with: $0) }
                }
                #expect(past == Evaluator.compare(op, .null, literal), "past the end \(op) \(literal)")
                let inside = values.withUnsafeBufferPointer { buffer in
                    withUnsafePointer(to: literal) { Evaluator.compare(op, slot: 0, of: buffer, with: $0) }
                }
                #expect(inside == Evaluator.compare(op, .string("a"), literal), "a \(op) \(literal)")
            }
        }
    }
}

import Testing

@testable import SurveyCore

/// `{name} op literal` has a fast reader (``ExpressionParser/parseSimpleComparison()``); it must give
/// exactly what the general parser gives, and leave every other text to it.
@Suite struct SimpleComparisonTests {
    static let names = ["q1", "age", "a.b", "q-2", "other", "other-Comment", "items", "unknown", "x.length"]
    static let slots: [String: Int] = ["q1": 0, "age": 1, "a.b": 2, "q-2": 3, "other": 4, "items": 5, "x": 6]

    /// Parses `source` with or without the fast reader: the tree (as text), names and slots, or the error.
    static func parse(_ source: String, fast: Bool) -> String {
        var text = source
        return text.withUTF8 { bytes in
            var parser = ExpressionParser(bytes: bytes, functions: .standard) { slots[$0] }
            parser.otherChoices = [4: OtherChoices(regular: ["a", "b"])]
            parser.readsSimpleComparisons = fast
            do throws(ExpressionCompileError) {
                let node = try parser.parse()
                return "\(node) \(parser.referencedNames) \(parser.referencedSlots)"
            } catch {
                return "error \(error.kind) \(error.message) at \(error.column)"
            }
        }
    }

    static let handWritten = [
        "{q1} = 'a'", "{q1}='a'", "  {q1}   ==  \"a\"  ", "{q1} != 'a'", "{q1} <> 'a'", "{age} < 18", "{age} <= 18.5",
        "{age} > 1", "{age} >= 0", "{age} => 3", "{age} =< 3", "{q1} contains 'b'", "{q1} CONTAINS 'b'",
        "{q1} notcontains 'a'", "{q1} NotContains'a'", "{q1} anyof 'a'", "{q1} allof 'a'", "{q1} noneof 'a'",
        "{q1} equals 'a'", "{q1} notequal 'a'", "{age} greater 3", "{age} lessorequal 3", "{age} greaterorequal 3",
        "{age} less 3", "{a.b} = 'x'", "{q-2} = 'x'", "{other} = 'other'", "{other-Comment} = 'x'",
        "{unknown} = 'x'", "{x.length} > 2", "{ q1 } = 'a'", "{q1} = 'a\\'b'", "{q1} = 'it''s'",
        "{q1} = 'a' and {age} > 3",
        "{q1} = 'a' or", "{q1} = ", "{q1} =", "{q1}", "{q1} notempty", "{q1} empty", "{age} > 1e3", "{age} > 1.2.3",
        "{age} > 4.", "{age} > .5", "{age} > -1", "{age} > 4abc", "{age} > 4 + 1", "'a' = {q1}", "{q1} = 'é'",
        "{q1} = 'unterminated", "{q1 = 'a'", "{} = 'a'", "{q1} ! 'a'", "{q1} = true", "{q1} = null", "{q1} === 'a'",
        "{q1} contains ['a', 'b']", "{q1} anyof ['a','c']", "{q1} anyof [ 'a' , 2 ]", "{q1} anyof []", "{q1} anyof [ ]",
        "{q1} anyof ['a',]", "{q1} anyof ['a' 'b']", "{q1} anyof [['a']]", "{q1} anyof ['a'", "{q1} anyof [{age}]",
        "{q1} notempty", "{q1} NOTEMPTY ", "{q1} empty 'a'", "{q1} notempty and {age} > 1", "{other} notempty",
        "{q1} = 'a'  ", "\t{q1}\n=\r'a'", "{q1} containsx 'a'", "{q1} contains2 'a'",
        "{q{1} = 'a'", "{items[0]} = 'a'", "",
        // Keywords are matched on bytes, whole numbers read without making a text.
        "{q1} NOTEQUALS 'a'", "{q1} Equal 'a'", "{q1} UNDEFINED 'a'", "{q1} negate 'a'", "{q1} notcontainsx 'a'",
        "{q1} notcontain 'a'", "{q1} anyofanyofanyof 'a'", "{age} > 007", "{age} = 0", "{age} > 123456789012345",
        "{age} > 1234567890123456789", "{age} > 99999999999999999999", "{age} > 10.0", "{age} > 3.14159",
    ]

    @Test(arguments: handWritten)
    func handWrittenTextsReadAlike(source: String) {
        #expect(Self.parse(source, fast: true) == Self.parse(source, fast: false))
    }

    /// A compiled simple comparison keeps only its slot and reads its name again from the source
    /// when asked: both must be what the general parser lists (and nothing for a text that fails).
    @Test(arguments: handWritten)
    func compiledExpressionsListTheParsersNamesAndSlots(source: String) {
        var text = source
        let expected: (names: [String], slots: [Int])? = text.withUTF8 { bytes in
            var parser = ExpressionParser(bytes: bytes, functions: .standard) { Self.slots[$0] }
            parser.readsSimpleComparisons = false
            guard (try? parser.parse()) != nil else { return nil }
            return (parser.referencedNames, parser.referencedSlots)
        }
        let compiled = try? Expression(source, functions: .standard) { Self.slots[$0] }
        #expect(compiled?.referencedNames == expected?.names, "\(source)")
        #expect(compiled?.slots == expected?.slots, "\(source)")
        var visited: [Int] = []
        compiled?.forEachSlot { visited.append($0) }
        #expect(compiled.map { _ in visited } == expected?.slots, "\(source)")
    }

    /// Random texts built from the pieces above, near misses included.
    @Test func randomTextsReadAlike() {
        var random = PropertyTests.Generator(state: 20_261_203)
        let operators = [
            "=", "==", "!=", "<>", "<", "<=", ">", ">=", "=>", "=<", "contains", "NOTCONTAINS", "anyof", "allOf",
            "noneof",
            "equal", "notequals", "greater", "less", "empty", "and", "+", "!", "",
        ]
        let literals = [
            "'a'", "\"b\"", "'a b'", "'x\\'y'", "12", "3.5", "1e2", "-4", ".5", "true", "['a']", "'é'", "''", "'", "7x",
            "{q1}",
            "['a', 'c']", "[1,2]", "[]", "[ 'a' ,'b' ]", "['a',", "[-1]", "[['a']]",
        ]
        let spaces = ["", " ", "  ", "\t", "\n"]
        var fastPaths = 0
        for _ in 0..<3000 {
            let name = Self.names.randomElement(using: &random) ?? "q1"
            let source =
                (spaces.randomElement(using: &random) ?? "") + "{\(name)}"
                + (spaces.randomElement(using: &random) ?? "")
                + (operators.randomElement(using: &random) ?? "=") + (spaces.randomElement(using: &random) ?? "")
                + (literals.randomElement(using: &random) ?? "'a'") + (spaces.randomElement(using: &random) ?? "")
            let fast = Self.parse(source, fast: true)
            #expect(fast == Self.parse(source, fast: false), "\(source)")
            var text = source
            let simple = text.withUTF8 { bytes in
                var parser = ExpressionParser(bytes: bytes, functions: .standard) { Self.slots[$0] }
                parser.otherChoices = [4: OtherChoices(regular: ["a", "b"])]
                return parser.parseSimpleComparison() != nil
            }
            if simple { fastPaths += 1 }
        }
        // The fast reader is really used (and so really compared).
        #expect(fastPaths > 500)
    }
}

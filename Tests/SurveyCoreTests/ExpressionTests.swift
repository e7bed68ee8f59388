import SurveyCore
import Testing

@Suite struct ExpressionTests {
    static let names = ["q1": 0, "age": 1, "colors": 2, "contact": 3, "empty": 4, "n": 5, "birth": 6]
    static let values: [JSONValue] = [
        "yes", 20, ["red", "blue"], ["email": "a@b.c", "name": "Ada"], .null, "7", "2000-06-15",
    ]

    /// Text `contains` ignores letter case; ASCII is searched byte by byte, the rest (and CR, which
    /// joins LF into one character) by characters. `anyof`/`allof` take a single value or a list.
    @Test(arguments: [
        ("'Hello World' contains 'o w'", true), ("'Hello' contains 'HELLO'", true),
        ("'Hello' contains 'Hello!'", false), ("'abcabd' contains 'abd'", true), ("'abc' contains ''", false),
        ("'a\r\nb' contains '\r\n'", true), ("'a\r\nb' contains '\r'", false),
        ("'Ölçü' contains 'LÇ'", true), ("'Ölçü' contains 'lcu'", false), ("'née' contains 'NÉ'", true),
        ("'x' anyof ['a', 'X']", true), ("'x' anyof 'x'", true), ("'' anyof ['']", false),
        ("['a', 'b'] anyof 'b'", true), ("['a', 'b'] anyof ['c', 'd']", false),
        ("'a' allof ['a', 'A']", true), ("'a' allof ['a', 'b']", false), ("'a' allof 'a'", true),
        ("['a', 'b'] allof 'b'", true), ("['a', 'b'] allof []", true), ("[] allof []", false),
        // Elements are passed over by their first letter only when it settles the comparison.
        ("['B', 'c'] contains 'b'", true), ("[' a '] contains 'A'", true), ("['ab', 'b'] contains 'a'", false),
        ("'b' anyof ['A', ' B']", true), ("['Éa', 'x'] contains 'éA'", true), ("['1', 2] contains '2'", true),
    ])
    func textAndListOperators(source: String, expected: Bool) throws {
        let expression = try Expression(source, functions: .standard) { _ in nil }
        #expect(expression.evaluate([], context: FunctionContext(today: "2024-06-14")) == .bool(expected), "\(source)")
    }

    func evaluate(_ source: String) throws -> JSONValue {
        let expression = try Expression(source, functions: .standard) { Self.names[$0] }
        return expression.evaluate(Self.values, context: FunctionContext(today: "2024-06-14"))
    }

    @Test(arguments: [
        ("{q1} = 'yes' and {age} >= 18", true),
        ("{q1} == 'yes' && {age} > 20", false),
        ("{q1} != 'no' or {age} < 3", true),
        ("{q1} <> 'yes'", false),
        ("not ({age} <= 20)", false),
        ("!({age} < 20)", true),
        ("{colors} contains 'red'", true),
        ("{colors} notcontains 'red'", false),
        ("{colors} contains ['red', 'blue']", true),
        ("{q1} anyof ['a', 'yes']", true),
        ("{colors} anyof ['green']", false),
        ("{colors} allof ['blue', 'red']", true),
        ("{colors} allof ['blue', 'green']", false),
        ("{colors} noneof ['green']", true),
        ("{empty} empty", true),
        ("{empty} notempty", false),
        ("{q1} notempty", true),
        ("{contact.email} = 'a@b.c'", true),
        ("{contact.phone} empty", true),
        ("{n} = 7", true),
        ("{n} > 6.5", true),
        ("{empty} = 'x'", false),
        ("{empty} <> 'x'", true),
        ("{empty} > 3", false),
        ("{colors} = ['blue', 'red']", true),
        ("true and not false", true),
        ("{age} >= 18 and {age} < 65 or {q1} = 'no'", true),
    ])
    func conditions(source: String, expected: Bool) throws {
        #expect(try evaluate(source) == .bool(expected), "\(source)")
    }

    @Test(arguments: [
        ("1 + 2 * 3", JSONValue.number(7)),
        ("(1 + 2) * 3", .number(9)),
        ("7 % 4", .number(3)),
        ("10 / 4", .number(2.5)),
        ("1 / 0", .null),
        ("-{age} + 5", .number(-15)),
        ("'a' + 'b'", .string("ab")),
        ("{n} + 1", .number(8)),
        ("iif({age} > 18, 'adult', 'minor')", .string("adult")),
        ("isEmpty({empty})", .bool(true)),
        ("age({birth})", .number(23)),
        ("today()", .string("2024-06-14")),
        ("count({colors})", .number(2)),
        ("sum(1, 2, 3)", .number(6)),
        ("sum([1, 2], 3)", .number(6)),
        ("min(4, 2, 9)", .number(2)),
        ("max([4, 2, 9])", .number(9)),
        ("avg(2, 4)", .number(3)),
        ("round(2.345, 2)", .number(2.35)),
        ("round(2.5)", .number(3)),
        ("length('hello')", .number(5)),
        ("len({colors})", .number(2)),
        ("contains({colors}, 'blue')", .bool(true)),
        ("IIF(true, 1, 2)", .number(1)),
        ("[1, {age}]", .array([1, 20])),
    ])
    func values(source: String, expected: JSONValue) throws {
        #expect(try evaluate(source) == expected, "\(source)")
    }

    @Test(arguments: [
        ("{q1} = ", 8, "expected a value"),
        ("{q1} = 'yes", 8, "unterminated string"),
        ("({age} > 1, 2", 11, "expected ')'"),
        ("{q1} yes", 6, "unexpected"),
        ("{nope} = 1", 1, "unknown reference {nope}"),
        ("nosuch(1)", 1, "unknown function"),
        ("round()", 1, "takes 1 to 2 arguments"),
        ("{q1", 1, "unclosed"),
        ("", 1, "empty"),
        ("1 # 2", 3, "unexpected character"),
    ])
    func syntaxErrorsCarryColumns(source: String, column: Int, message: String) {
        do {
            _ = try Expression(source, functions: .standard) { Self.names[$0] }
            Issue.record("expected a compile error for \(source)")
        } catch {
            #expect(error.column == column, "\(source): \(error)")
            #expect(error.message.contains(message), "\(source): \(error)")
        }
    }

    /// survey-core reads a member whatever its case, and a key holding dots (a matrix row named
    /// "Pay (base, etc.)") by joining the dotted parts back, shortest first.
    @Test func membersMatchWhateverTheirCaseAndMayHoldDots() throws {
        let grid: JSONValue = ["Pay (base, etc.)": ["score": "Low"], "Desk": ["score": "High"], "A": ["B.c": 1]]
        let expression = { (source: String) throws -> JSONValue in
            try Expression(source, functions: .standard) { $0 == "grid" ? 0 : nil }.evaluate(
                [grid], context: FunctionContext(today: "2024-06-14"))
        }
        #expect(try expression("{grid.Pay (base, etc.).score}") == "Low")
        #expect(try expression("{grid.desk.SCORE}") == "High")
        #expect(try expression("{grid.A.B.c}") == 1)
        #expect(try expression("{grid.Desk.none}") == .null)
        #expect(try expression("{grid.Pay (base, etc.).score} = 'Low'") == true)
    }

    @Test func recordsReferences() throws {
        let expression = try Expression(
            "{q1} = 'a' and {age} > {age} and {contact.email} notempty", functions: .standard
        ) {
            Self.names[$0]
        }
        #expect(expression.referencedNames == ["q1", "age", "contact"])
    }

    @Test func customFunctionsAndDuplicates() throws {
        var functions = ExpressionFunctionRegistry.standard
        try functions.register(
            ExpressionFunction(name: "double", arity: 1...1, origin: "test") { arguments, _ in
                .number((arguments[0].numberValue ?? 0) * 2)
            })
        let expression = try Expression("double({age}) = 40", functions: functions) { Self.names[$0] }
        #expect(expression.isTrue(Self.values, context: FunctionContext(today: "2024-01-01")))
        #expect(throws: RegistryError.self) {
            try functions.register(ExpressionFunction(name: "IIF", arity: 1...1, origin: "plugin.so") { _, _ in .null })
        }
    }
}

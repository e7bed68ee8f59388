import Foundation
import SurveyCore
import Testing

/// Hostile input: every case here used to crash, hang or be accepted with a wrong meaning.
@Suite struct RobustnessTests {
    static let context = FunctionContext(today: "2026-01-15")

    /// A survey with a text question `a` and a question `b` shown when `condition` holds.
    static func survey(condition: String) -> String {
        surveyJSON([
            #"{"id": "a", "type": "t-text"}"#,
            #"{"id": "b", "type": "t-text", "visibleIf": \#(JSONWriter.string(from: .string(condition), pretty: false))}"#,
        ])
    }

    static func evaluate(_ source: String, values: [JSONValue] = [.null]) throws -> JSONValue {
        try Expression(source, functions: .standard) { $0 == "a" ? 0 : nil }.evaluate(values, context: context)
    }

    static func repeated(_ text: String, _ count: Int) -> String {
        String(repeating: text, count: count)
    }

    // MARK: Nesting

    static let tooDeep: [String] = [
        repeated("(", 700) + "1" + repeated(")", 700),
        repeated("[", 700) + "1" + repeated("]", 700),
        repeated("abs(", 700) + "1" + repeated(")", 700),
        repeated("not ", 10_000) + "{a}",
        repeated("! ", 10_000) + "{a}",
        repeated("- ", 10_000) + "1",
        repeated("-(", 200) + "1" + repeated(")", 200),
        // Chained comparisons nest from the left: `((1 = 1) = 1) = …`.
        "1" + repeated(" = 1", 10_000),
    ]

    @Test(arguments: tooDeep)
    func nestingPastTheLimitIsALoadErrorWithItsPlace(condition: String) throws {
        let errors = loadErrors(Self.survey(condition: condition))
        let error = try #require(errors.count == 1 ? errors.first : nil, "\(errors.count) errors")
        #expect(error.kind == .expressionSyntax)
        #expect(error.message.hasSuffix("the expression nests deeper than 256 levels"))
        #expect(error.message.contains("at column "))
        #expect(error.stepID == "b")
        #expect(error.path?.description == "$.steps[1].visibleIf")
        #expect(error.position?.line == 3)
    }

    @Test func theNestingLimitIsExact() throws {
        let limit = Expression.maximumNesting
        #expect(limit == 256)
        #expect(try Self.evaluate(Self.repeated("(", limit) + "2" + Self.repeated(")", limit)) == 2)
        #expect(try Self.evaluate(Self.repeated("- ", limit) + "2") == 2)
        #expect(try Self.evaluate(Self.repeated("not ", limit) + "true") == true)
        #expect(try Self.evaluate(Self.repeated("[", limit) + "1" + Self.repeated("]", limit)) != .null)
        let error = #expect(throws: ExpressionCompileError.self) {
            try Self.evaluate(Self.repeated("(", limit + 1) + "2" + Self.repeated(")", limit + 1))
        }
        #expect(error?.column == limit + 1)
        #expect(error?.message == "the expression nests deeper than 256 levels")
    }

    @Test func theDeepestAllowedMixOfOperatorsEvaluates() throws {
        // Every precedence level between two parentheses: the deepest tree the limit allows.
        var source = "{a}"
        for _ in 0..<Expression.maximumNesting {
            source = "{a} or {a} and {a} = {a} + {a} * (\(source))"
        }
        #expect(try Self.evaluate(source, values: [1]) == true)
        let survey = try loadSurvey(Self.survey(condition: source))
        var session = SurveySession(survey: survey)
        _ = try session.answer("x", for: "a")
        #expect(session.isVisible("b"))
    }

    // MARK: Flat chains

    @Test func longOperatorChainsAreFlatNotDeep() throws {
        #expect(try Self.evaluate(Array(repeating: "1", count: 10_000).joined(separator: " + ")) == 10_000)
        #expect(try Self.evaluate(Array(repeating: "2", count: 10_001).joined(separator: " - ")) == -19_998)
        #expect(try Self.evaluate(Array(repeating: "1", count: 10_000).joined(separator: " * ")) == 1)
        let ands = Array(repeating: "{a}", count: 10_000).joined(separator: " and ")
        #expect(try Self.evaluate(ands, values: [true]) == true)
        #expect(try Self.evaluate(ands, values: [false]) == false)
        let ors = Array(repeating: "{a} = 'x'", count: 10_000).joined(separator: " or ")
        #expect(try Self.evaluate(ors, values: ["x"]) == true)
        #expect(try Self.evaluate(ors, values: ["y"]) == false)
    }

    @Test(arguments: [
        ("10 - 2 - 3", JSONValue.number(5)),
        ("2 - 3 + 4", 3),
        ("1 + 2 + 'a'", "3a"),
        ("'a' + 1 + 2", "a12"),
        ("12 / 2 / 3", 2),
        ("2 * 3 % 4", 2),
        ("1 + 2 * 3 + 4", 11),
        ("1 + 2 = 3 and 2 > 1 and 'x' = 'x'", true),
        ("false or false or 1 = 1", true),
        ("1 + 1 + 1 empty", false),
        ("1 - 1 - 1 notempty", true),
    ])
    func chainsKeepLeftToRightMeaning(source: String, expected: JSONValue) throws {
        #expect(try Self.evaluate(source) == expected)
    }

    @Test func aSurveyWithALongConditionLoadsAndAnswers() throws {
        let condition = Array(repeating: "{a} = 'x'", count: 10_000).joined(separator: " and ")
        let survey = try loadSurvey(Self.survey(condition: condition))
        var session = SurveySession(survey: survey)
        #expect(!session.isVisible("b"))
        _ = try session.answer("x", for: "a")
        #expect(session.isVisible("b"))
    }

    // MARK: Calculated values

    /// Calculated values `c0` (reading `a`) to `c(count-1)`, each reading the one before, listed
    /// first to last or last to first.
    static func chain(_ count: Int, reversed: Bool = false, cyclic: Bool = false) -> String {
        var values = (0..<count).map { index in
            let source = index == 0 ? (cyclic ? "{c\(count - 1)} + 1" : "{a} + 1") : "{c\(index - 1)} + 1"
            return #"{"name": "c\#(index)", "expression": "\#(source)"}"#
        }
        if reversed { values.reverse() }
        return surveyJSON([#"{"id": "a", "type": "t-text"}"#], calculated: "[" + values.joined(separator: ",\n") + "]")
    }

    @Test(arguments: [false, true])
    func aChainOfCalculatedValuesPastTheLimitIsALoadError(reversed: Bool) throws {
        let errors = loadErrors(Self.chain(5_000, reversed: reversed))
        let error = try #require(errors.count == 1 ? errors.first : nil, "\(errors.count) errors")
        #expect(error.kind == .invalidValue)
        #expect(error.message.contains("ends a chain of more than 256 calculated values"))
        #expect(error.path?.components.first == .key("calculatedValues"))
        #expect(error.position != nil)
    }

    @Test func aChainOfCalculatedValuesAtTheLimitRecomputesOnAnswer() throws {
        let limit = SurveyLoader.maximumCalculatedChain
        #expect(limit == 256)
        let survey = try loadSurvey(Self.chain(limit, reversed: true))
        var session = SurveySession(survey: survey)
        #expect(session.calculatedValue("c\(limit - 1)") == .number(Double(limit)))
        _ = try session.answer("1", for: "a")
        #expect(session.calculatedValue("c\(limit - 1)") == .number(Double(limit + 1)))
    }

    @Test func manyIndependentCalculatedValuesAreNotAChain() throws {
        let values = (0..<10_000).map { #"{"name": "v\#($0)", "expression": "{a} + \#($0)"}"# }
        let survey = try loadSurvey(
            surveyJSON([#"{"id": "a", "type": "t-text"}"#], calculated: "[" + values.joined(separator: ",") + "]"))
        #expect(SurveySession(survey: survey).calculatedValue("v9999") == 9_999)
    }

    @Test func aLongCycleIsFoundWithoutRecursion() throws {
        let errors = loadErrors(Self.chain(10_000, reversed: true, cyclic: true))
        let error = try #require(errors.count == 1 ? errors.first : nil, "\(errors.count) errors")
        #expect(error.kind == .dependencyCycle)
        #expect(
            error.message
                == "calculated values depend on each other in a cycle: c9999 → c9998 → c9997 → c9996 → c9995 → … → c3 → c2 → c1 → c0 → c9999 (10000 calculated values)"
        )
    }

    // MARK: Numbers from input

    @Test(arguments: [
        ("round(1.25, {a})", JSONValue.string("1e300"), JSONValue(1.25)),
        // Negative digits round to tens, hundreds… (clamped at -15).
        ("round(1.25, {a})", "-1e300", 0),
        ("round(1.25, {a})", 1e300, 1.25),
        ("round(1.25, {a} * 1e10)", 1e300, 1.25),
        ("round(1.25, -{a} * 1e10)", 1e300, 0),
        ("round(125, -1)", .null, 130),
        ("round(1.25, {a} * 1e10 - {a} * 1e10)", 1e300, 1),
        ("round(1.25, {a})", "x", 1),
        ("round(1.25, {a})", 1.9, 1.3),
        ("round({a}, 15)", 1e300, 1e300),
        ("round({a} * 1e10, 15)", 1e300, .number(.infinity)),
    ])
    func roundNeverTraps(source: String, answer: JSONValue, expected: JSONValue) throws {
        #expect(try Self.evaluate(source, values: [answer]) == expected)
    }

    @Test(arguments: ["0x10", "0X1p4", "inf", "-infinity", "nan", "1_000", "1e", "--1", "+", ".", "1.2.3", "1e5e"])
    func typedNumbersMustBeDecimal(line: String) {
        #expect(throws: AnswerError.self) { try InputPrimitive.number(NumberInput()).parse(line: line) }
    }

    @Test(arguments: [("42", 42.0), ("+5", 5), (".5", 0.5), ("5.", 5), ("-.5e1", -5), ("1E+2", 100)])
    func decimalTypedNumbersAreRead(line: String, expected: Double) throws {
        #expect(try InputPrimitive.number(NumberInput()).parse(line: line) == .number(expected))
    }

    // MARK: Many errors, long ids

    @Test func tenThousandErrorsAreLocatedInOnePass() throws {
        let steps = (0..<10_000).map { #"{"id": "s\#($0)", "type": "nosuch"}"# }
        let clock = ContinuousClock()
        var errors: [SurveyError] = []
        let elapsed = clock.measure { errors = loadErrors(surveyJSON(steps)) }
        #expect(errors.count == 10_000)
        // surveyJSON puts the first step on line 2 and each next one on its own line.
        for (index, error) in errors.enumerated() where index % 997 == 1 {
            #expect(error.stepID == "s\(index)")
            #expect(error.position == SourcePosition(line: index + 2, column: 21 + "\(index)".count))
        }
        // Locating each error by re-reading the file took minutes.
        #expect(elapsed < .seconds(30))
    }

    @Test func manyPathsAreLocatedTogether() {
        let text = "{\"a\": [1,\n  {\"b\": \"é\", \"c\": [true]}],\n \"d\": null}"
        let paths = [
            JSONPath([.key("a"), .index(1), .key("c"), .index(0)]),
            JSONPath([.key("d")]),
            JSONPath([.key("a"), .index(1), .key("missing"), .index(3)]),
            JSONPath([.key("a"), .index(0)]),
            JSONPath(),
            JSONPath([.key("d")]),
        ]
        var copy = text
        let positions = copy.withUTF8 { SourceLocator.positions(of: paths, in: $0) }
        #expect(
            positions == [
                SourcePosition(line: 2, column: 20), SourcePosition(line: 3, column: 7),
                SourcePosition(line: 2, column: 3), SourcePosition(line: 1, column: 8),
                SourcePosition(line: 1, column: 1), SourcePosition(line: 3, column: 7),
            ])
        for (path, position) in zip(paths, positions) {
            #expect(SourceLocator.position(of: path, in: text) == position)
        }
    }

    @Test func hugeIdsGetNoSuggestionAndDoNotHang() throws {
        let id = String(repeating: "a", count: 10_000)
        let errors = loadErrors(
            surveyJSON([#"{"id": "\#(id)", "type": "t-text", "branches": [{"goto": "\#(id)b"}]}"#]))
        let error = try #require(errors.first)
        #expect(errors.count == 1)
        #expect(error.kind == .unknownReference)
        #expect(!error.message.contains("did you mean"))
        let typo = try #require(
            loadErrors(surveyJSON([#"{"id": "\#(id)", "type": "t-text\#(id)"}"#])).first)
        #expect(typo.kind == .unknownType)
        #expect(!typo.message.contains("did you mean"))
    }

    @Test func ordinaryIdsStillGetSuggestions() throws {
        let id = String(repeating: "ab", count: 30)
        let error = try #require(
            loadErrors(surveyJSON([#"{"id": "\#(id)", "type": "t-text", "branches": [{"goto": "\#(id)x"}]}"#]))
                .first)
        #expect(error.message.contains("did you mean '\(id)'?"))
    }

    @Test func thousandsOfUnknownBranchTargetsAreReportedQuickly() throws {
        let steps = (0..<5_000).map { #"{"id": "s\#($0)", "type": "t-text", "branches": [{"goto": "t\#($0)"}]}"# }
        let clock = ContinuousClock()
        var errors: [SurveyError] = []
        let elapsed = clock.measure { errors = loadErrors(surveyJSON(steps)) }
        #expect(errors.count == 5_000)
        #expect(errors.allSatisfy { $0.kind == .unknownReference })
        #expect(errors.filter { $0.message.contains("did you mean") }.count <= 32)
        // Compiled in parallel chunks, the hints still go to the first targets in the file, as one
        // compiler gives them.
        let hinted = errors.indices.filter { errors[$0].message.contains("did you mean") }
        #expect(!hinted.isEmpty && hinted.allSatisfy { $0 < 32 })
        #expect(elapsed < .seconds(30))
    }

    // MARK: Duplicate members

    @Test(arguments: [
        #"{"formatVersion": 1, "id": "s", "title": "T", "steps": 5, "steps": [{"id": "a", "type": "t-text"}]}"#,
        #"{"formatVersion": 1, "id": "s", "title": "T", "steps": {}, "steps": [{"id": "a", "type": "t-text"}]}"#,
        #"{"formatVersion": 1, "id": "s", "title": "T", "steps": [{"id": "a", "type": "t-text"}], "steps": 5}"#,
        #"{"formatVersion": 1, "id": "s", "title": "T", "steps": [{"id": "a", "type": "t-text"}], "steps": []}"#,
        #"{"formatVersion": 1, "id": "s", "title": "T", "steps": null, "steps": null}"#,
    ])
    func aDuplicateStepsMemberIsAlwaysAnError(text: String) throws {
        let errors = loadErrors(text)
        let error = try #require(errors.count == 1 ? errors.first : nil, "\(errors)")
        #expect(error.kind == .syntax)
        #expect(error.message == #"invalid JSON: duplicate member name "steps""#)
        #expect(error.position?.line == 1)
    }
}

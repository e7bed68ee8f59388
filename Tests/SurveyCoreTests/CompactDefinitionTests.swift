import Foundation
import Testing

@testable import SurveyCore

/// A large survey's definition is kept small: repeated `options` are parsed once and shared
/// (``ValuePool``), and the step members most steps leave alone live outside the step. Neither may
/// change what a survey means.
@Suite struct CompactDefinitionTests {
    /// Option texts that a bracket counter can get wrong, and ones the pool must leave alone.
    static let optionTexts = [
        #"{"choices": ["a", "b", "c"]}"#,
        #"{"choices": ["a", "b", "c"]}"#,
        #"{"choices":["a","b","c"]}"#,
        #"{"choices": ["}", "a\"]", "\\", "{[", "\\\""]}"#,
        #"{"choices": ["}", "a\"]", "\\", "{[", "\\\""]}"#,
        #"{"deep": [[[[[[[[[["x"]]]]]]]]]]}"#,
        #"{"deep": [[[[[[[[[["x"]]]]]]]]]]}"#,
        #"{"choices": ["a", "b", "c"], "other": true}"#,
        #"{}"#,
        #"[1, 2]"#,
        #"null"#,
        #"{"choices": ["a", "b", "c"]}"#,
    ]

    /// Steps carrying ``optionTexts`` at the top level and inside a page.
    static var survey: String {
        var steps: [String] = []
        var children: [String] = []
        for (index, options) in optionTexts.enumerated() {
            steps.append(#"{"id": "q\#(index)", "type": "t-choice", "options": \#(options)}"#)
            // A page with a broken step is left out whole: only the top level has `[1, 2]`.
            if options != "[1, 2]" {
                children.append(#"{"id": "c\#(index)", "type": "t-choice", "options": \#(options)}"#)
            }
        }
        steps.append(#"{"id": "p", "type": "page", "steps": [\#(children.joined(separator: ", "))]}"#)
        return surveyJSON(steps)
    }

    @Test func sharedOptionsDecodeAsTheTreeDecoderReadsThem() throws {
        let text = Self.survey
        let (streamed, pooled) = try Array(text.utf8).withUnsafeBufferPointer { bytes in
            var parser = Parser(bytes: bytes)
            let survey = try #require(try parser.parseSurvey(stepChunks: 1))
            return (survey, parser.pool.values.count)
        }
        var treeErrors: [SurveyError] = []
        let tree = try SurveyDefinition(json: JSONParser.parse(text), errors: &treeErrors)
        let steps = try #require(streamed.steps?.steps)
        // `[1, 2]` is no object: both decoders drop that step and report it alike.
        #expect(steps == tree.steps)
        #expect(streamed.errors.map(\.message) == treeErrors.map(\.message))
        #expect(streamed.errors.map(\.path) == treeErrors.map(\.path))
        #expect(streamed.errors.count == 1)
        // Distinct texts of shallow objects and arrays: the two spellings of a, b, c, the escaped
        // one, the one with `other`, `{}` and `[1, 2]`; the deep one is not pooled.
        #expect(pooled == 6)
        let ids = steps.flatMap { [$0] + $0.steps }.map(\.id)
        #expect(ids.contains("q5") && ids.contains("c5"), "\(ids)")
    }

    @Test func stepsSharingOptionsTakeTheirOwnAnswers() throws {
        let spellings = [#"{"choices": ["a", "b"]}"#, #"{"choices":["a","b"]}"#, #"{"choices": ["a", "c"]}"#]
        let survey = try loadSurvey(
            surveyJSON(
                (0..<30).map { #"{"id": "q\#($0)", "type": "t-choice", "options": \#(spellings[$0 % 3])}"# }))
        for index in 0..<30 {
            let question = try #require(survey.question(forStep: "q\(index)"))
            let own = index % 3 == 2 ? "c" : "b"
            let foreign = index % 3 == 2 ? "b" : "c"
            #expect(try question.normalize(.string(own)) == .string(own))
            #expect(throws: AnswerError.self) { try question.normalize(.string(foreign)) }
        }
    }

    /// Types and options met again are given again from the bytes they were read from (no string or
    /// value made): spellings that differ, escapes, and texts that begin alike must still read as
    /// the tree decoder reads them.
    @Test func repeatedTypesAndOptionsDecodeAsTheTreeDecoderReadsThem() throws {
        let types = [#""t-text""#, #""t-te\u0078t""#, #""t-text""#, #""t-textual""#, #""t-tex""#, #""t-text""#]
        let options = [
            #"{"choices": ["a", "b"]}"#, #"{"choices": ["a", "b"]} "#, #"{"choices": ["a", "b", "c"]}"#,
            #"{"choices": ["a", "b"]}"#, #"{"choices": ["a", "b\u0022"]}"#,
        ]
        var steps: [String] = []
        for index in 0..<30 {
            steps.append(
                #"{"id": "q\#(index)", "type": \#(types[index % types.count]), "options": \#(options[index % options.count])}"#
            )
        }
        let (streamed, tree, _) = try decodeBothWays(surveyJSON(steps))
        let decoded = try #require(streamed.steps?.steps)
        #expect(decoded == tree.steps)
        #expect(decoded.map(\.type).prefix(6) == ["t-text", "t-text", "t-text", "t-textual", "t-tex", "t-text"])
        #expect(decoded[4].options == tree.steps[4].options)
    }

    @Test func theBracketCounterFindsTheEndOrGivesUp() {
        func end(_ text: String) -> Int? {
            Array(text.utf8).withUnsafeBufferPointer { ValuePool.end(of: $0, from: 0) }
        }
        #expect(end(#"{"a": "}"} tail"#) == 10)
        #expect(end(#"["\\", "\"]"], 1"#) == 13)
        #expect(end(#"{"a": [1, {"b": 2}]}"#) == 20)
        #expect(end(#"{"a": "unterminated}"#) == nil)
        #expect(end(#"{"a": [1, 2"#) == nil)
        #expect(end(String(repeating: "[", count: 9) + String(repeating: "]", count: 9)) == nil)
        #expect(end(String(repeating: "[", count: 8) + String(repeating: "]", count: 8)) == 16)
        #expect(end("[" + String(repeating: "1,", count: ValuePool.maximumLength) + "1]") == nil)
    }

    @Test func rareMembersCompareAndHashByValue() {
        let plain = StepDefinition(id: "q", type: "t-text")
        var changed = plain
        changed.isReadOnly = true
        changed.enableIf = "{a} = 1"
        #expect(changed != plain)
        #expect(changed.isReadOnly && changed.enableIf == "{a} = 1")
        changed.isReadOnly = false
        changed.enableIf = nil
        #expect(changed == plain)
        #expect(changed.hashValue == plain.hashValue)

        var viaProperty = plain
        viaProperty.requiredIf = "{b} notempty"
        let viaInit = StepDefinition(id: "q", type: "t-text", requiredIf: "{b} notempty")
        #expect(viaProperty == viaInit)
        #expect(viaProperty.hashValue == viaInit.hashValue)
        #expect(Set([viaProperty, viaInit, plain]).count == 2)

        // A copy changed later leaves the original as it was.
        var copy = viaInit
        copy.validators = [ValidatorDefinition(.expression("{q} > 1"))]
        copy.requiredIf = "{c} empty"
        #expect(viaInit.requiredIf == "{b} notempty")
        #expect(viaInit.validators.isEmpty)
        #expect(copy.validators.count == 1)
    }
}

import Testing

@testable import SurveyCore

@Suite struct JSONTests {
    @Test(arguments: [
        ("{\"a\": [1, 2.5, -3e2, true, false, null, \"x\\n\\u00e9\\ud83d\\ude00\"]}", true),
        ("[]", true), ("\"s\"", true), ("0", true), ("{", false), ("[1,]", false), ("01", false),
        ("{\"a\":1,\"a\":2}", false), ("tru", false), ("\"\\x\"", false), ("1 2", false), ("", false),
    ])
    func parsesStrictJSON(text: String, isValid: Bool) {
        let result = Result { () throws(JSONSyntaxError) in try JSONParser.parse(text) }
        #expect(((try? result.get()) != nil) == isValid)
    }

    /// A blank text is no answer: ASCII whitespace is scanned byte by byte, anything else is
    /// judged by `Character.isWhitespace` (no-break and ideographic spaces, CRLF).
    @Test(arguments: [
        ("", true), (" \t\n\r", true), ("\u{0B}\u{0C}", true), ("\r\n", true), ("\u{00A0} \u{3000}", true),
        ("a", false), ("  x ", false), ("\u{00A0}é", false), ("\u{0}", false),
    ])
    func blankTextIsNoAnswer(text: String, isBlank: Bool) {
        #expect(JSONValue.string(text).isEmptyAnswer == isBlank)
        #expect(JSONValue.string(text).isEmptyAnswer == text.allSatisfy(\.isWhitespace))
    }

    /// The byte search that sniffs a file before parsing it finds what `String.contains` finds for an
    /// ASCII needle, at the ends, across multi-byte text, and nothing past the end.
    @Test(arguments: [
        ("{\"pages\": []}", "\"pages\"", true), ("x\"pages\"", "\"pages\"", true), ("\"pages", "\"pages\"", false),
        ("é\"elements\"😀", "\"elements\"", true), ("\"element\"s", "\"elements\"", false), ("", "\"a\"", false),
        ("aab", "ab", true), ("ab", "", true), ("\"\"pages\"\"", "\"pages\"", true),
    ])
    func findsBytes(text: String, needle: String, found: Bool) {
        #expect(text.containsUTF8(needle) == found)
        #expect(text.containsUTF8(needle) == (needle.isEmpty || text.contains(needle)))
    }

    @Test func findsSeveralNeedlesInOnePass() {
        let text = "{\"steps\": [{\"options\": {\"choicesByUrl\": 1}}], \"é\": \"pages\"}"
        let needles = ["\"airtable\"", "\"pages\"", "\"elements\"", "\"choicesByUrl\"", "", "\"steps\""]
        #expect(text.containsUTF8(needles) == [false, true, false, true, true, true])
        #expect(text.containsUTF8(needles) == needles.map { $0.isEmpty || text.contains($0) })
    }

    /// Random texts over a few bytes, searched for needles that share their first byte (the search
    /// then tries only that byte's positions) and needles that do not: the same answers as a plain
    /// search, matches at the very start and end included.
    @Test func findsWhatAPlainSearchFinds() {
        var generator = SeededGenerator(seed: 7)
        let alphabet = Array("\"ab".utf8)
        func random(_ count: Int) -> [UInt8] {
            (0..<count).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }
        }
        for round in 0..<400 {
            let text = random(Int(generator.next() % 40))
            var needles = (0..<3).map { _ in [UInt8(ascii: "\"")] + random(3 + Int(generator.next() % 3)) }
            if round % 2 == 1 { needles.append(random(4)) }
            if round % 5 == 0, text.count >= 4 { needles.append(Array(text.suffix(4 + round % 2))) }
            if round % 7 == 0, text.count >= 5 { needles.append(Array(text.prefix(5))) }
            let plain = needles.map { needle in
                needle.count <= text.count
                    && (0...(text.count - needle.count)).contains { Array(text[$0..<($0 + needle.count)]) == needle }
            }
            let haystack = String(decoding: text, as: UTF8.self)
            #expect(
                haystack.containsUTF8(needles.map { String(decoding: $0, as: UTF8.self) }) == plain,
                "\(haystack) \(needles.map { String(decoding: $0, as: UTF8.self) })")
        }
    }

    /// A text large enough to be searched in pieces on all cores: a needle that straddles the place
    /// where the first two pieces meet (`before` of its bytes in the first) is found, one that is not
    /// there is not, and one at the very end is.
    @Test(arguments: [1, 5, 13])
    func findsNeedlesAcrossThePiecesOfALargeText(before: Int) {
        let size = String.parallelSearch + 4_096
        var bytes = [UInt8](repeating: UInt8(ascii: "x"), count: size)
        let needle = Array("\"choicesByUrl\"".utf8)
        let boundary = size / max(Parallelism.machine.pieceCount, 2)
        bytes.replaceSubrange((boundary - before)..<(boundary - before + needle.count), with: needle)
        let tail = Array("\"pages\"".utf8)
        bytes.replaceSubrange((size - tail.count)..<size, with: tail)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(
            text.containsUTF8(["\"choicesByUrl\"", "\"elements\"", "\"pages\"", ""], parallelism: .machine)
                == [true, false, true, true])
        #expect(!text.containsUTF8("\"airtable\"", parallelism: .machine))
    }

    @Test func decodesValues() throws {
        let value = try JSONParser.parse("{\"a\": [1, 2.5, \"x\\n\\u00e9\\ud83d\\ude00\"], \"b\": {\"c\": null}}")
        #expect(value["a"] == [1, 2.5, "x\né😀"])
        #expect(value["b"]?["c"] == .null)
    }

    @Test func reportsLineAndColumn() {
        let text = "{\n  \"a\": 1,\n  \"b\" 2\n}"
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(text) }
        do {
            _ = try JSONParser.parse(text)
        } catch {
            #expect(error.position == SourcePosition(line: 3, column: 7))
            #expect(error.message.contains("':'"))
        }
    }

    @Test func rejectsDuplicateKeysWithPosition() {
        do {
            _ = try JSONParser.parse("{\"id\": 1,\n \"id\": 2}")
            Issue.record("expected an error")
        } catch {
            #expect(error.position.line == 2)
            #expect(error.message.contains("duplicate"))
        }
    }

    @Test func writesDeterministicSortedJSON() throws {
        let value: JSONValue = ["b": 1, "a": [true, .null, 2.5, "q\"uote"], "c": [:]]
        #expect(JSONWriter.string(from: value) == "{\"a\":[true,null,2.5,\"q\\\"uote\"],\"b\":1,\"c\":{}}")
        let pretty = JSONWriter.string(from: value, pretty: true)
        #expect(try JSONParser.parse(pretty) == value)
        #expect(JSONWriter.string(from: try JSONParser.parse(pretty), pretty: true) == pretty)
    }

    /// U+2028, U+2029 and U+0085 are escaped (line ends to Python's `splitlines()` and older
    /// JavaScript), so a JSON Lines event stays one line; other characters sharing their first byte
    /// (é is C3, € E2 82 AC, \u{A0} C2 A0) are written as they are, and everything reads back the same.
    @Test func lineSeparatorsAreEscapedAndOtherCharactersKept() throws {
        let text = "a\u{2028}b\u{2029}c\u{85}d € \u{A0}é—\u{2028}"
        let written = JSONWriter.string(from: .string(text))
        #expect(written == #""a\u2028b\u2029c\u0085d € \#u{A0}é—\u2028""#)
        #expect(written.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).count == 1)
        #expect(try JSONParser.parse(written) == .string(text))
    }

    @Test func locatesPaths() {
        let text = "{\n  \"steps\": [\n    {\"id\": \"a\"},\n    {\"id\": \"b\", \"type\": 3}\n  ]\n}"
        let path = JSONPath.root.appending("steps").appending(1).appending("type")
        #expect(SourceLocator.position(of: path, in: text) == SourcePosition(line: 4, column: 25))
        #expect(path.description == "$.steps[1].type")
    }
}

import Foundation
import Testing

@testable import SurveyCore

/// The top-level `steps` array of a large survey is parsed in chunks on several threads: what comes
/// out must be what one parser makes, steps, problems, their order and their places included.
@Suite struct ParallelParseTests {
    /// A survey whose `steps` array is past ``StepChunks/minimumBytes``: pages of questions whose
    /// titles hold everything the structural scan must not mistake for structure (brackets, braces,
    /// commas, escaped quotes and backslashes), with `broken` steps spliced in by page index.
    static func largeSurvey(pages: Int = 4_000, broken: [Int: String] = [:]) -> String {
        var steps: [String] = []
        for page in 0..<pages {
            if let step = broken[page] {
                steps.append(step)
                continue
            }
            let questions = (0..<3).map { index in
                #"{"id": "q\#(page)_\#(index)", "type": "t-text", "title": "Q \"\#(page)\" [a, {b}] \\ ], }, ,", "#
                    + #""visibleIf": "{q0_0} = 'x'"}"#
            }
            steps.append(#"{"id": "p\#(page)", "type": "page", "steps": [\#(questions.joined(separator: ", "))]}"#)
        }
        return surveyJSON(steps)
    }

    /// Parses with `chunks` pieces: the streamed survey, or the syntax error.
    static func parse(_ text: String, chunks: Int) -> Result<StreamedSurvey?, RawSyntaxError> {
        Array(text.utf8).withUnsafeBufferPointer { bytes in
            var parser = Parser(bytes: bytes)
            do throws(RawSyntaxError) {
                return .success(try parser.parseSurvey(parallelism: .machine, stepChunks: chunks))
            } catch {
                return .failure(error)
            }
        }
    }

    static func expectSame(_ text: String) throws {
        let one = try #require(try parse(text, chunks: 1).get())
        for chunks in [2, 3, 7, 16] {
            let many = try #require(try parse(text, chunks: chunks).get())
            #expect(many.steps?.count == one.steps?.count)
            #expect(many.steps?.steps == one.steps?.steps)
            #expect(many.errors == one.errors)
            #expect(many.sourceMap == one.sourceMap)
            #expect(many.root == one.root)
        }
    }

    /// The offset of the `[` of the survey's `steps` array.
    static func stepsArrayStart(_ text: String) throws -> Int {
        let steps = try #require(text.range(of: #""steps": ["#)).upperBound
        return text.utf8.distance(from: text.utf8.startIndex, to: steps) - 1
    }

    @Test func chunksCoverEveryElementOnce() throws {
        let text = Self.largeSurvey()
        #expect(text.utf8.count > StepChunks.minimumBytes)
        let bytes = Array(text.utf8)
        let arrayStart = try Self.stepsArrayStart(text)
        #expect(bytes[arrayStart] == UInt8(ascii: "["))
        let plan = try #require(
            bytes.withUnsafeBufferPointer { StepChunks(bytes: $0, arrayAt: arrayStart, chunkCount: 4) })
        #expect(plan.chunks.count == 4)
        #expect(plan.chunks.first?.start == arrayStart + 1)
        #expect(plan.chunks.reduce(0) { $0 + $1.count } == 4_000)
        for (chunk, next) in zip(plan.chunks, plan.chunks.dropFirst()) {
            #expect(bytes[chunk.end] == UInt8(ascii: ","))
            #expect(next.start == chunk.end + 1)
            #expect(next.firstUnit == chunk.firstUnit + chunk.count)
        }
        #expect(bytes[plan.end] == UInt8(ascii: "]"))
        #expect(plan.chunks.last?.end == plan.end)
        // Small arrays are not cut.
        let small = Array(surveyJSON([#"{"id": "a", "type": "t-text"}"#]).utf8)
        #expect(small.withUnsafeBufferPointer { StepChunks(bytes: $0, arrayAt: 0, chunkCount: 4) } == nil)
    }

    @Test func manyChunksDecodeWhatOneDoes() throws {
        try Self.expectSame(Self.largeSurvey())
    }

    /// Steps with problems in several chunks: the same problems at the same paths, in the same
    /// order, and the same map of dropped steps.
    @Test func problemsInSeveralChunksAreTheSame() throws {
        let text = Self.largeSurvey(broken: [
            5: "42", 1_500: #"{"id": "p1500", "type": "page", "steps": [{"id": "x", "type": "page", "steps": []}, 7]}"#,
            2_999: #"{"type": "t-text"}"#, 3_999: #"[1, 2]"#,
        ])
        try Self.expectSame(text)
        let one = try #require(try Self.parse(text, chunks: 1).get())
        #expect(one.errors.count >= 4)
        #expect(one.sourceMap != nil)
        #expect(one.errors.first?.path?.description == "$.steps[5]")
        // Through the loader too (on as many cores as the machine has): every problem, in file order.
        let errors = loadErrors(text)
        #expect(errors.contains { $0.path?.description == "$.steps[3999]" && $0.position != nil })
        let lines = errors.map { $0.position?.line ?? Int.max }
        #expect(lines == lines.sorted())
    }

    /// A syntax error in a late chunk, and two in different chunks: the first in the document is the
    /// one reported, with its offset, whatever the chunks.
    @Test(arguments: [
        [3_000: #"{"id": "a" "type": "t-text"}"#], [1_000: "{\"id\": }", 3_500: "{,}"], [3_999: "{\"id\": \"z\",}"],
    ])
    func syntaxErrorsAreTheFirstInTheDocument(broken: [Int: String]) throws {
        let text = Self.largeSurvey(broken: broken)
        guard case .failure(let expected) = Self.parse(text, chunks: 1) else {
            Issue.record("the survey parsed")
            return
        }
        for chunks in [2, 4, 16] {
            guard case .failure(let error) = Self.parse(text, chunks: chunks) else {
                Issue.record("the survey parsed in \(chunks) chunks")
                continue
            }
            #expect(error.message == expected.message)
            #expect(error.offset == expected.offset)
        }
        let loaded = loadErrors(text)
        #expect(loaded.count == 1)
        #expect(loaded.first?.kind == .syntax)
    }

    /// An unbalanced array (it never closes) is not cut; the parser reports where it ends.
    @Test func anArrayThatNeverClosesIsNotCut() throws {
        var text = Self.largeSurvey()
        text.removeLast(2)  // "]}"
        let arrayStart = try Self.stepsArrayStart(text)
        #expect(
            Array(text.utf8).withUnsafeBufferPointer { StepChunks(bytes: $0, arrayAt: arrayStart, chunkCount: 4) }
                == nil)
        let errors = loadErrors(text)
        #expect(errors.count == 1)
        #expect(errors.first?.message.contains("unexpected end of input") == true)
    }

    /// The offsets of the separators of the array at `start` itself, by a plain byte-by-byte scan.
    static func topLevelSeparators(_ bytes: [UInt8], arrayAt start: Int) -> Set<Int> {
        var separators = Set<Int>()
        var depth = 0
        var inString = false
        var position = start + 1
        while position < bytes.count {
            let byte = bytes[position]
            if inString {
                if byte == UInt8(ascii: "\\") { position += 1 } else if byte == UInt8(ascii: "\"") { inString = false }
            } else if byte == UInt8(ascii: "\"") {
                inString = true
            } else if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                depth += 1
            } else if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
                if depth == 0 { break }
                depth -= 1
            } else if byte == UInt8(ascii: ","), depth == 0 {
                separators.insert(position)
            }
            position += 1
        }
        return separators
    }

    /// Cuts guessed from the layout (each element on a line of its own) are separators of the steps
    /// array itself here, and the pieces they make give what one parser gives.
    @Test func cutsGuessedFromTheLayoutAreTheArraysOwnSeparators() throws {
        let text = Self.largeSurvey()
        let bytes = Array(text.utf8)
        let start = try Self.stepsArrayStart(text)
        let separators = Self.topLevelSeparators(bytes, arrayAt: start)
        for chunks in [2, 4, 16] {
            let cuts = try #require(
                bytes.withUnsafeBufferPointer {
                    StepChunks.speculativeCuts(bytes: $0, arrayAt: start, chunkCount: chunks)
                })
            #expect(cuts.count == chunks - 1)
            #expect(cuts == cuts.sorted() && Set(cuts).count == cuts.count)
            #expect(cuts.allSatisfy { separators.contains($0) })
            let pieces = bytes.withUnsafeBufferPointer { buffer in
                var parser = Parser(bytes: buffer)
                parser.index = start
                return parser.parseSteps(cutAt: cuts, parallelism: .machine).map {
                    ($0.run.steps, $0.count, parser.index)
                }
            }
            let (steps, count, end) = try #require(pieces)
            #expect(count == 4_000 && steps.count == 4_000)
            #expect(end == bytes.count - 1)  // past the array's `]`, before the survey's `}`
        }
        try Self.expectSame(text)
    }

    /// A layout that puts a page's own steps on lines of their own, indented like the pages, makes
    /// the guessed cuts fall inside pages: the parse refuses them, and the exact cut gives the same.
    @Test func cutsGuessedInsideElementsAreRefused() throws {
        var pages: [String] = []
        for page in 0..<6_000 {
            let questions = (0..<3).map { index in
                #"{"id": "q\#(page)_\#(index)", "type": "t-text", "title": "Q [\#(index)],\n{"}"#
            }
            pages.append(
                #"{"id": "p\#(page)", "type": "page", "steps": ["# + "\n" + questions.joined(separator: ",\n") + "]}")
        }
        let text = surveyJSON(pages)
        let bytes = Array(text.utf8)
        let start = try Self.stepsArrayStart(text)
        let separators = Self.topLevelSeparators(bytes, arrayAt: start)
        // Two lines in three start a page's question: with some piece counts a guess is inside a page,
        // and then the parse refuses the cuts.
        var refused = 0
        for chunks in 2...16 {
            guard
                let cuts = bytes.withUnsafeBufferPointer({
                    StepChunks.speculativeCuts(bytes: $0, arrayAt: start, chunkCount: chunks)
                })
            else { continue }
            let parsed = bytes.withUnsafeBufferPointer { buffer in
                var parser = Parser(bytes: buffer)
                parser.index = start
                return parser.parseSteps(cutAt: cuts, parallelism: .machine)?.count
            }
            if cuts.allSatisfy({ separators.contains($0) }) {
                #expect(parsed == 6_000)
            } else {
                #expect(parsed == nil)
                refused += 1
            }
        }
        #expect(refused > 0)
        try Self.expectSame(text)
        #expect(try loadSurvey(text).stepCount == 18_000)
    }

    /// The scan that steps over strings eight bytes at a time finds the quote a byte-by-byte scan
    /// finds: quotes and backslashes at every offset in a word, escaped quotes, escapes running into
    /// the limit, strings that do not close, and multi-byte text (whose bytes are all 0x80 or more).
    @Test func stringsEndWhereAByteScanSaysTheyDo() {
        func byteByByte(_ bytes: [UInt8], after start: Int, limit: Int) -> Int {
            var position = start + 1
            while position < limit {
                if bytes[position] == UInt8(ascii: "\"") { return position }
                position += bytes[position] == UInt8(ascii: "\\") ? 2 : 1
            }
            return limit
        }
        var generator = SeededGenerator(seed: 11)
        let alphabet = Array("ab\"\\é\u{01}\u{FF}".utf8) + [0x22, 0x5C, 0xA2, 0xDC, 0x7F]
        for length in 1..<48 {
            for _ in 0..<60 {
                var bytes = (0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }
                bytes[0] = UInt8(ascii: "\"")
                let limit = Int(generator.next() % UInt64(length + 1))
                let start = 0
                let expected = byteByByte(bytes, after: start, limit: max(limit, 0))
                let found = bytes.withUnsafeBufferPointer {
                    StepChunks.closingQuote(in: $0, after: start, limit: max(limit, 0))
                }
                #expect(found == expected, "\(bytes) limit \(limit)")
            }
        }
    }
}

/// Where the children of a page are in the file is recorded only for pages whose children are not
/// simply one after another (``SourceMap``): after a page left out (for a broken child), and inside
/// panels, every problem must still be put at its own place in the file.
@Suite struct ChildPositionTests {
    @Test func problemsAfterALeftOutPageAndInPanelsNameTheirPlace() {
        let text = surveyJSON([
            #"{"id": "p0", "type": "page", "steps": [{"id": "a", "type": "t-text"}, {"id": "b"}, {"id": "c", "type": "t-text", "visibleIf": "{nope} = 1"}]}"#,
            #"{"id": "p1", "type": "page", "steps": [{"id": "d", "type": "t-text", "visibleIf": "{zzz} = 2"}]}"#,
            #"{"id": "p2", "type": "page", "steps": [{"id": "e", "type": "t-text"}, {"id": "g", "type": "panel", "steps": [{"id": "f", "type": "t-text", "visibleIf": "{yyy} = 3"}]}]}"#,
        ])
        let paths = loadErrors(text).compactMap { $0.path?.description }
        #expect(paths.contains("$.steps[0].steps[1]"), "\(paths)")
        #expect(paths.contains("$.steps[1].steps[0].visibleIf"), "\(paths)")
        #expect(paths.contains("$.steps[2].steps[1].steps[0].visibleIf"), "\(paths)")
    }

    @Test func pagesWithChildrenInOrderRecordNothing() throws {
        let text = surveyJSON([
            #"{"id": "p0", "type": "page", "steps": [{"id": "a", "type": "t-text"}, {"id": "b", "type": "t-text"}]}"#,
            #"{"id": "p1", "type": "page", "steps": [{"id": "c", "type": "t-text"}, {"id": "x"}]}"#,
            #"{"id": "p2", "type": "page", "steps": [{"id": "d", "type": "t-text"}, {"id": "e", "type": "t-text"}]}"#,
        ])
        let survey = try Array(text.utf8).withUnsafeBufferPointer { bytes in
            var parser = Parser(bytes: bytes)
            return try #require(try parser.parseSurvey(stepChunks: 1))
        }
        let map = try #require(survey.sourceMap)
        #expect(map.units == [0, 2])
        // The kept pages: both in order, so every child is at its own position.
        #expect(map.childPath(unit: 0, child: 1) == [1])
        #expect(map.childPath(unit: 1, child: 1) == [1])
    }
}

import Foundation
import SurveyCore
import SurveyFuzzTargets
import Testing

/// Every input of the fuzz corpus (the seeds, and each crash the fuzzers found, kept as a
/// regression) runs through its target on every `swift test`: none may crash.
@Suite struct CorpusReplayTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz/Corpus")

    @Test(arguments: FuzzTargets.all.keys.sorted())
    func replay(target: String) throws {
        let directory = Self.corpus.appendingPathComponent(target)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { !$0.hasPrefix(".") }
        #expect(files.count >= 2, "the \(target) corpus needs seeds")
        let run = try #require(FuzzTargets.all[target])
        for file in files.sorted() {
            run(Array(try Data(contentsOf: directory.appendingPathComponent(file))))
        }
    }
}

/// The expression target compiles its survey around the input (built as a value, not parsed from
/// text): a valid expression gives a survey whose step `q` it decides, an invalid one none.
@Suite struct ExpressionTargetTests {
    @Test func theExpressionDecidesWhetherQIsShown() throws {
        let survey = try #require(FuzzTargets.expressionSurvey(Array("{a} > 3 and {c} contains 'x'".utf8)))
        var session = SurveySession(survey: survey, seed: 1, today: "2026-01-01")
        #expect(!session.isVisible("q"))
        try session.answer(5, for: "a")
        session.next()
        session.next()
        try session.answer(["x"], for: "c")
        #expect(session.isVisible("q"))
        // A double quote and a control character are taken as the survey's JSON text gives them.
        let quoted = try #require(FuzzTargets.expressionSurvey(Array("{b} = 'a\"b'\u{1}".utf8)))
        var other = SurveySession(survey: quoted, seed: 1, today: "2026-01-01")
        #expect(!other.isVisible("q"))
        other.next()
        try other.answer("a\"b", for: "b")
        #expect(other.isVisible("q"))
        #expect(FuzzTargets.expressionSurvey(Array("{a} >".utf8)) == nil)
        #expect(FuzzTargets.expressionSurvey(Array("{nope} = 1".utf8)) == nil)
    }
}

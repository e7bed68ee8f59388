import Foundation
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

import Foundation
import Testing

@testable import SurveyCore

/// The threads a load uses are the caller's choice, and never change what it gives.
@Suite struct ParallelismTests {
    @Test func threadsAreAtLeastOneAndPiecesAtMostSixteen() {
        #expect(Parallelism(threads: 0).threads == 1)
        #expect(Parallelism(threads: -3) == .serial)
        #expect(Parallelism.serial.pieceCount == 1)
        #expect(Parallelism(threads: 2).pieceCount == 4)
        #expect(Parallelism(threads: 64).pieceCount == 16)
        #expect(Parallelism.machine.threads == max(1, ProcessInfo.processInfo.activeProcessorCount))
    }

    /// Pieces come back in piece order, whatever the threads; writes through shared slots land
    /// where each piece put them.
    @Test(arguments: [1, 2, 4])
    func mapKeepsPieceOrder(threads: Int) {
        let parallelism = Parallelism(threads: threads)
        let count = 1_000
        var squares = [Int](repeating: -1, count: count)
        let sums = squares.withSharedSlots { slots in
            parallelism.map(7) { piece -> Int in
                var sum = 0
                for index in Parallelism.range(of: piece, in: 7, count: count) {
                    slots[index] = index * index
                    sum += index
                }
                return sum
            }
        }
        #expect(squares == (0..<count).map { $0 * $0 })
        #expect(sums.count == 7)
        #expect(sums == (0..<7).map { piece in Parallelism.range(of: piece, in: 7, count: count).reduce(0, +) })
    }

    /// A survey large enough to be configured and compiled in pieces, with errors spread over the
    /// pieces (unknown types, bad expressions, repeated ids, unknown branch targets past the hint
    /// budget): one thread and four give the same errors in the same order, and the same survey.
    @Test func oneThreadAndFourLoadTheSame() throws {
        var steps: [String] = []
        for page in 0..<1_500 {
            var questions = (0..<4).map { index in
                #"{"id": "q\#(page)_\#(index)", "type": "t-text", "visibleIf": "{q0_0} = 'x'"}"#
            }
            if page % 97 == 5 { questions[1] = #"{"id": "u\#(page)", "type": "no-such-type"}"# }
            if page % 89 == 7 { questions[2] = #"{"id": "e\#(page)", "type": "t-text", "visibleIf": "{nope} ="}"# }
            if page % 83 == 11 { questions[3] = #"{"id": "q0_1", "type": "t-text"}"# }
            if page % 13 == 3 {
                questions[0] =
                    #"{"id": "b\#(page)", "type": "t-text", "branches": [{"if": "{q0_0} = 'y'", "goto": "nowhere\#(page)"}]}"#
            }
            steps.append(#"{"id": "p\#(page)", "type": "page", "steps": [\#(questions.joined(separator: ", "))]}"#)
        }
        let text = surveyJSON(steps)
        func errors(threads: Int) -> [SurveyError] {
            let loader = SurveyLoader(registry: testRegistry(), parallelism: Parallelism(threads: threads))
            do {
                _ = try loader.load(text: text, source: "big.json")
                return []
            } catch {
                return error.errors
            }
        }
        let serial = errors(threads: 1)
        #expect(serial.count > 100)
        #expect(serial.filter { $0.message.contains("did you mean") }.count <= SurveyCompiler.branchHintBudget)
        #expect(errors(threads: 4) == serial)

        let valid = surveyJSON(
            (0..<1_500).map { page in
                let questions = (0..<4).map { index in
                    #"{"id": "q\#(page)_\#(index)", "type": "t-text", "visibleIf": "{q\#(max(0, page - 1))_0} = 'x'"}"#
                }
                return #"{"id": "p\#(page)", "type": "page", "steps": [\#(questions.joined(separator: ", "))]}"#
            })
        let one = try SurveyLoader(registry: testRegistry(), parallelism: .serial).load(text: valid)
        let four = try SurveyLoader(registry: testRegistry(), parallelism: Parallelism(threads: 4)).load(text: valid)
        #expect(one.stepCount == 6_000 && four.stepCount == one.stepCount)
        #expect(one.expressionCount == four.expressionCount)
        #expect((0..<one.stepCount).allSatisfy { one.stepID(at: StepIndex($0)) == four.stepID(at: StepIndex($0)) })
    }
}

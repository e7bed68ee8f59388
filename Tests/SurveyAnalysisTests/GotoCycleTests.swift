import SurveyAnalysis
import SurveyCore
import Testing

@Suite("goto-cycle")
struct GotoCycleTests {
    @Test func backwardBranchIsALoop() throws {
        let found = try findings(
            .gotoCycle,
            steps: """
                {"id": "name", "type": "text"},
                {"id": "again", "type": "boolean", "required": true, "branches": [{"if": "{again} = true", "goto": "name"}]}
                """)
        #expect(found.map(\.stepID) == ["again"], "\(listing(found))")
        #expect(found.first?.severity == .warning)
        #expect(found.first?.path?.description == "$.steps[1].branches[0]")
    }

    @Test func jumpToItself() throws {
        let found = try findings(
            .gotoCycle,
            steps: """
                {"id": "p", "type": "page", "steps": [{"id": "x", "type": "boolean"}],
                 "branches": [{"if": "{x} = true", "goto": "p"}]}
                """)
        #expect(found.map(\.stepID) == ["p"], "\(listing(found))")
    }

    @Test func backwardBranchNobodyTakesIsNotALoop() throws {
        let found = try findings(
            .gotoCycle,
            steps: """
                {"id": "name", "type": "text"},
                {"id": "again", "type": "boolean", "required": true,
                 "branches": [{"if": "{again} = true and {again} = false", "goto": "name"}]}
                """)
        #expect(found.isEmpty, "\(listing(found))")
    }

    @Test func forwardBranchesAreNotLoops() throws {
        let found = try findings(
            .gotoCycle,
            steps: """
                {"id": "a", "type": "boolean", "branches": [{"if": "{a} = true", "goto": "c"}]},
                {"id": "b", "type": "text"},
                {"id": "c", "type": "text"}
                """)
        #expect(found.isEmpty, "\(listing(found))")
    }
}

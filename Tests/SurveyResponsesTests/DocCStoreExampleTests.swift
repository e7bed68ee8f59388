import Foundation
import SurveyBuiltins
import SurveyCore
import SurveyResponses
import SurveyStoreSQLite
import Testing

/// The code of SurveyResponses.docc/ChoosingAStore.md, compiled and run (the article's blocks are
/// checked against this file by DocCArticleTests).
@Suite struct DocCStoreExampleTests {
    static let json = """
        {"formatVersion": 1, "id": "rating", "title": "Rating", "steps": [
          {"id": "rating", "type": "rating", "title": "How was it?", "required": true}]}
        """

    func record(in store: any ResponseStore) throws {
        let survey = try SurveyLoader(registry: .builtins()).load(text: Self.json, source: "rating.json")
        let userID = "user-42"
        guard try store.shouldAsk(respondent: userID, survey: survey).shouldAsk else { return }
        var session = SurveySession(survey: survey)
        var recorder = try ResponseRecorder(store: store, respondentID: userID, session: session)
        try session.answer(4, for: "rating")
        try recorder.record(session)  // durable from here on: now tell the respondent
    }

    @Test func anEmbeddedStore() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("docc-\(UUID()).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let store = try SQLiteResponseStore(path: path)
        try record(in: store)
        let stored = try store.responses(matching: ResponseQuery(surveyID: "rating"))
        #expect(stored.map(\.respondentID) == ["user-42"])
        #expect(stored.first?.status == .inProgress)
    }

    @Test func aStoreInMemoryForTests() throws {
        let store = InMemoryResponseStore()
        try record(in: store)
        #expect(try store.responses(matching: ResponseQuery(surveyID: "rating")).count == 1)
    }

    static let store = InMemoryResponseStore()

    @Test(arguments: ResponseStoreConformance.checkNames)
    func conforms(check: String) throws {
        try ResponseStoreConformance { Self.store }.run(check)
    }
}

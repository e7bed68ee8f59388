import Foundation
import SurveyBuiltins
import SurveyCore
import SurveyReports
import SurveyResponses
import Testing

/// `survey report` shows the quotas' live counts: in the JSON and as a section of the page.
@Suite struct QuotaReportTests {
    @Test func theReportShowsEachQuotasCountOfItsLimit() throws {
        let survey = try SurveyLoader(registry: .builtins()).load(
            text: """
                {"formatVersion": 1, "id": "panel", "title": "Panel",
                 "quotas": [{"id": "young", "when": "{age} = 'young'", "limit": 2},
                            {"id": "old", "when": "{age} = 'old'", "limit": 3, "action": "flag"}],
                 "steps": [{"id": "age", "type": "text", "title": "Age group"}]}
                """, source: "panel.json")
        let store = InMemoryResponseStore()
        for (respondent, age) in [("a", "young"), ("b", "young"), ("c", "young"), ("d", "old")] {
            var session = SurveySession(survey: survey)
            var recorder = try ResponseRecorder(store: store, respondentID: respondent, session: session)
            try session.answer(.string(age), for: "age")
            try recorder.prepareNext(of: &session)
            session.next()
            try recorder.record(session)
        }
        let report = try SurveyReport(survey: survey, store: store)
        #expect(report.quotas?.rows.map(\.counted) == [2, 1])
        #expect(report.quotas?.rows.map(\.isFull) == [true, false])
        let quotas = report.json["quotas"]?.arrayValue ?? []
        #expect(quotas.map { $0["counted"] } == [.number(2), .number(1)])
        #expect(quotas.map { $0["limit"] } == [.number(2), .number(3)])
        let page = HTMLReport.page(report)
        #expect(page.contains("<section class=\"quotas\"><h2>Quotas</h2>"))
        #expect(page.contains("<bdi>young: {age} = &#39;young&#39;</bdi></th><td>2</td><td>2</td>"), "\(page)")
        // A survey without quotas has no section.
        let plain = try SurveyLoader(registry: .builtins()).load(
            text:
                #"{"formatVersion": 1, "id": "plain", "title": "P", "steps": [{"id": "q", "type": "text", "title": "Q"}]}"#,
            source: "plain.json")
        #expect(try SurveyReport(survey: plain, store: store).quotas == nil)
    }
}

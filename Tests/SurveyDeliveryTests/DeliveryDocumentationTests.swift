import Foundation
import SurveyCore
import SurveyDelivery
import SurveyResponses
import Testing

/// The examples of docs/delivery.md read as the page says.
@Suite struct DeliveryDocumentationTests {
    /// The page's ```json blocks, in order.
    static let examples: [String] = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        let text = (try? String(contentsOf: url.appendingPathComponent("docs/delivery.md"), encoding: .utf8)) ?? ""
        return text.components(separatedBy: "```json\n").dropFirst().compactMap {
            $0.components(separatedBy: "```").first
        }
    }()

    @Test func theQuestionTableSourceReads() throws {
        let text = try #require(Self.examples.first { $0.contains("\"airtable\"") })
        let source = try AirTable.Source(json: try JSONParser.parse(text), file: "in-app.json")
        #expect(source.url.absoluteString == "https://api.airtable.com/v0/appXXXXXXXX/Questions")
        #expect(source.tokenEnvironment == "AIRTABLE_TOKEN" && source.surveyID == "in-app")
        #expect(source.columns["questionText"] == "Question" && source.columns["id"] == "id")
    }

    @Test func theConfigurationReads() throws {
        let text = try #require(Self.examples.first { $0.contains("\"targets\"") })
        let configuration = try DeliveryConfiguration(text: text, file: "delivery.json")
        #expect(configuration.targets.map(\.name) == ["crm", "firebase"])
        #expect(configuration.targets.map(\.kind) == [.webhook, .firebase])
        #expect(configuration.targets[0].maximumAttempts == 8 && configuration.targets[0].timeout == 10)
        #expect(configuration.initialBackoff == 1 && configuration.maximumBackoff == 3600)
        #expect(!configuration.deliversDismissed)
    }

    @Test func thePayloadExampleHasThePayloadsMembers() throws {
        let text = try #require(Self.examples.first { $0.contains("\"payloadVersion\"") })
        let example = try JSONParser.parse(text.replacingOccurrences(of: "…", with: ""))
        let at = Date(timeIntervalSince1970: 1_790_000_000)
        let built = DeliveryPayload.json(
            of: .init(
                id: .make(at: at), respondentID: "user-42", surveyID: "onboarding", surveyVersion: "3", locale: "en",
                seed: 0, today: "2026-12-02", status: .completed, createdAt: at, completedAt: at),
            events: [])
        #expect(Set(example.objectValue?.keys ?? [:].keys) == Set(built.objectValue?.keys ?? [:].keys))
        #expect(Set(example["funnel"]?.objectValue?.keys ?? [:].keys) == ["seen", "answered", "dismissed"])
    }
}

import SurveyCore
import Testing

/// `quotas` in the survey format: read, written back, and refused with the JSON path of the problem.
@Suite struct QuotaTests {
    static func text(quotas: String) -> String {
        """
        {"formatVersion": 1, "id": "s", "title": "T", "variables": [{"name": "panel"}],
         "quotas": [\(quotas)],
         "steps": [{"id": "p1", "type": "page", "steps": [{"id": "age", "type": "t-text"}]},
                   {"id": "p2", "type": "page", "steps": [{"id": "more", "type": "t-text"}]},
                   {"id": "p3", "type": "page", "steps": [{"id": "last", "type": "t-text"}]}]}
        """
    }

    @Test func quotasAreReadAndWrittenBack() throws {
        let survey = try loadSurvey(
            Self.text(
                quotas: #"""
                    {"id": "young", "when": "{age} = '18-24' and {panel} = 'fr'", "limit": 200,
                     "message": {"en": "Thanks, we have enough answers like yours.", "fr": "Merci !"}},
                    {"id": "started", "when": "{age} notempty", "limit": 5, "count": "started", "action": "skip", "skipTo": "p3"},
                    {"id": "flagged", "when": "{more} = 'x'", "limit": 0, "action": "flag"}
                    """#))
        let quotas = survey.definition.quotas
        #expect(quotas.map(\.id) == ["young", "started", "flagged"])
        #expect(quotas[0].limit == 200 && quotas[0].count == .completed)
        #expect(
            quotas[0].action
                == .end(
                    message: LocalizedText(translations: [
                        "en": "Thanks, we have enough answers like yours.", "fr": "Merci !",
                    ])))
        #expect(quotas[1].count == .started && quotas[1].action == .skip(to: "p3"))
        #expect(quotas[2].action == .flag && quotas[2].limit == 0)
        // Written back and read again: the same quotas.
        let again = try SurveyDefinition(json: JSONParser.parse(survey.definition.jsonText()))
        #expect(again.quotas == quotas)
    }

    @Test func aConditionThatDoesNotCompileIsReportedAtItsWhen() {
        let errors = loadErrors(Self.text(quotas: #"{"id": "q", "when": "{agee} = 1", "limit": 3}"#))
        #expect(errors.count == 1)
        #expect(errors.first?.kind == .unknownReference)
        #expect(errors.first?.path?.description == "$.quotas[0].when")
    }

    @Test func anUnknownSkipTargetIsReportedAtSkipTo() {
        let errors = loadErrors(
            Self.text(quotas: #"{"id": "q", "when": "{age} = 1", "limit": 3, "action": "skip", "skipTo": "p4"}"#))
        #expect(errors.map(\.path?.description) == ["$.quotas[0].skipTo"])
        #expect(errors.first?.message.contains("'p4'") == true)
    }

    @Test func structuralProblemsAreReportedAtTheirMember() {
        let cases: [(String, String, SurveyError.Kind)] = [
            (#"{"id": "q", "when": "{age} = 1"}"#, "$.quotas[0]", .missingField),
            (#"{"id": "q", "when": "{age} = 1", "limit": -1}"#, "$.quotas[0].limit", .invalidValue),
            (#"{"id": "q", "when": "{age} = 1", "limit": 1, "count": "finished"}"#, "$.quotas[0].count", .invalidValue),
            (#"{"id": "q", "when": "{age} = 1", "limit": 1, "action": "stop"}"#, "$.quotas[0].action", .invalidValue),
            (#"{"id": "q", "when": "{age} = 1", "limit": 1, "action": "skip"}"#, "$.quotas[0]", .missingField),
            (
                #"{"id": "q", "when": "{age} = 1", "limit": 1, "action": "flag", "message": "Hi"}"#,
                "$.quotas[0].message", .invalidValue
            ),
            (#"{"id": "q", "when": "{age} = 1", "limit": 1, "colour": "red"}"#, "$.quotas[0]", .unknownField),
            (#"{"id": "", "when": "{age} = 1", "limit": 1}"#, "$.quotas[0].id", .invalidValue),
        ]
        for (quota, path, kind) in cases {
            let errors = loadErrors(Self.text(quotas: quota))
            #expect(errors.count == 1, "\(quota): \(errors)")
            #expect(errors.first?.path?.description.hasPrefix(path) == true, "\(quota): \(errors)")
            #expect(errors.first?.kind == kind, "\(quota): \(errors)")
        }
    }

    @Test func quotaIdsAreUnique() {
        let errors = loadErrors(
            Self.text(
                quotas: #"{"id": "q", "when": "{age} = 1", "limit": 1}, {"id": "q", "when": "{age} = 2", "limit": 1}"#))
        #expect(errors.map(\.path?.description) == ["$.quotas[1].id"])
    }
}

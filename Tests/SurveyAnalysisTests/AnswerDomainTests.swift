import Foundation
import SurveyAnalysis
import SurveyBuiltins
import SurveyCore
import Testing

/// Representatives: every answer where the domain is small, one per class elsewhere, all accepted
/// by the question type.
@Suite("Answer domains")
struct AnswerDomainTests {
    static func domain(_ step: String, usages: [ValueUsage] = []) throws -> AnswerDomain {
        let survey = try SurveyLoader(registry: .builtins()).load(text: surveyJSON(step))
        return AnswerDomain.make(for: survey.analysisSteps[0], usages: usages)
    }

    @Test func smallDomainsAreEnumerated() throws {
        let rating = try Self.domain(#"{"id": "r", "type": "rating", "options": {"stars": 3}}"#)
        #expect(rating.isEnumerated)
        #expect(rating.values == [.null, 1, 2, 3])
        let yesNo = try Self.domain(#"{"id": "b", "type": "boolean"}"#)
        #expect(yesNo.values == [.null, true, false])
        let multiple = try Self.domain(
            #"{"id": "m", "type": "multiple-choice", "options": {"choices": ["a", "b", "c"], "maxSelections": 2}}"#)
        #expect(multiple.isEnumerated)
        #expect(multiple.values.count == 1 + 6)  // every non-empty subset of at most 2
    }

    @Test func numbersGetOneValuePerGap() throws {
        let number = try Self.domain(
            #"{"id": "n", "type": "number", "options": {"min": 0, "max": 1000, "step": 0.5}}"#,
            usages: [.comparison(.greater, 18), .comparison(.less, 65)])
        #expect(!number.isEnumerated)
        #expect(number.covers(.comparison(.greater, 18)))
        #expect(!number.covers(.opaque))
        let values = Set(number.values.compactMap(\.numberValue))
        #expect(values.isSuperset(of: [0, 18, 65, 1000, 0.5, 18.5, 65.5]))
    }

    @Test func textGetsTheComparedLiteralsAndOneOther() throws {
        let text = try Self.domain(#"{"id": "t", "type": "text"}"#, usages: [.comparison(.equal, "yes")])
        #expect(text.values.contains("yes"))
        #expect(text.values.count == 3)
        #expect(text.covers(.comparison(.equal, "yes")))
        #expect(!text.covers(.comparison(.contains, "y")))
    }

    @Test func otherAnswersAreTexts() throws {
        let choice = try Self.domain(
            #"{"id": "c", "type": "single-choice", "options": {"choices": ["a", "b"], "other": true}}"#,
            usages: [.comparison(.equal, "podcast")])
        #expect(choice.hasOther)
        #expect(choice.choiceValues == ["a", "b"])
        #expect(choice.values.contains("podcast"))
        #expect(!choice.values.contains("other"))
    }
}

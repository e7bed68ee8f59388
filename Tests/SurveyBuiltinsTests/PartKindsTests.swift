import Foundation
import SurveyBuiltins
import SurveyCore
import Testing

/// A kind registered from outside the built-ins (a plugin's, through the same public API) may be a
/// repeat's item and a matrix-dropdown's column; a built-in kind those do not take stays refused.
struct PartKindsTests {
    /// A whole number of stars, its own kind: "stars".
    struct StarsType: QuestionType {
        var typeID: String { "stars" }
        var summary: String { "Stars" }
        func makeOptions(from reader: inout OptionsReader) throws(SurveyError) -> Int {
            try reader.int("max", default: 5, in: 1...10)
        }
        func input(for max: Int, in context: PresentationContext) -> InputPrimitive {
            .number(NumberInput(minimum: 1, maximum: Double(max), isInteger: true))
        }
        func normalize(_ answer: JSONValue, options max: Int) throws(AnswerError) -> JSONValue {
            guard let value = answer.numberValue, value >= 1, value <= Double(max) else {
                throw AnswerError(code: "stars", message: "One to \(max) stars.")
            }
            return .number(value)
        }
    }

    static func registry() throws -> QuestionTypeRegistry {
        var registry = QuestionTypeRegistry.builtins()
        try registry.register(StarsType(), origin: "libstars.so")
        return registry
    }

    static let survey = """
        {"formatVersion": 1, "id": "p", "title": "P", "steps": [
          {"id": "trips", "type": "repeat", "title": "Trips", "options": {"count": 1, "items": [
            {"name": "rating", "type": "stars", "options": {"max": 3}}]}},
          {"id": "grid", "type": "matrix-dropdown", "title": "Grid", "options": {"rows": ["a"],
            "columns": [{"name": "rating", "cellType": "stars"}]}}]}
        """

    @Test func aRegisteredKindIsARepeatItemAndAMatrixDropdownColumn() throws {
        let survey = try SurveyLoader(registry: Self.registry()).load(text: Self.survey, source: "p.json")
        var session = SurveySession(survey: survey, locale: "en")
        // The kind's own check and message, about the instance's item.
        #expect { try session.answer([["rating": 4]], for: "trips") } throws: { "\($0)".contains("One to 3 stars.") }
        try session.answer([["rating": 3]], for: "trips")
        session.next()
        try session.answer(["a": ["rating": 5]], for: "grid")
        #expect { try session.answer(["a": ["rating": 6]], for: "grid") } throws: {
            "\($0)".contains("One to 5 stars.")
        }
    }

    @Test func theOptionsOfTheItemsKindAreReadByItWithTheirPath() throws {
        let text = Self.survey.replacingOccurrences(of: #"{"max": 3}"#, with: #"{"max": 30}"#)
        #expect {
            _ = try SurveyLoader(registry: Self.registry()).load(text: text, source: "p.json")
        } throws: { error in
            "\(error)".contains("$.steps[0].options.items[0].options.max")
        }
    }

    @Test func aBuiltInKindARepeatDoesNotTakeIsStillRefused() throws {
        let text = Self.survey.replacingOccurrences(of: #""type": "stars""#, with: #""type": "signature""#)
        #expect {
            _ = try SurveyLoader(registry: Self.registry()).load(text: text, source: "p.json")
        } throws: { error in
            "\(error)".contains("unknown type 'signature'") && "\(error)".contains("stars")
        }
    }

    /// Scales, NPS, pictures and rankings are items too (SurveyJS's rating with its own range, image
    /// picker and ranking inside a dynamic panel), each checking its answer in the instance.
    @Test func scalesPicturesAndRankingsAreRepeatItems() throws {
        let text = """
            {"formatVersion": 1, "id": "r", "title": "R", "steps": [
              {"id": "stands", "type": "repeat", "title": "Stands", "options": {"items": [
                {"name": "state", "type": "scale", "options": {"min": 0, "max": 2}},
                {"name": "likely", "type": "nps"},
                {"name": "look", "type": "image-choice", "options": {"choices": [
                  {"value": "tidy", "image": "https://example.org/tidy.png"},
                  {"value": "messy", "image": "https://example.org/messy.png"}]}},
                {"name": "order", "type": "ranking", "options": {"choices": ["price", "taste"]}}]}}]}
            """
        let survey = try SurveyLoader(registry: .builtins()).load(text: text, source: "r.json")
        var session = SurveySession(survey: survey, locale: "en")
        let answer: JSONValue = [["state": 0, "likely": 9, "look": "tidy", "order": ["taste", "price"]]]
        try session.answer(answer, for: "stands")
        #expect(session.answer(for: "stands") == answer)
        #expect(throws: (any Error).self) { try session.answer([["state": 3]], for: "stands") }
        #expect(throws: (any Error).self) { try session.answer([["look": "shiny"]], for: "stands") }
        #expect(throws: (any Error).self) { try session.answer([["order": ["taste", "salt"]]], for: "stands") }
    }

    @Test func withoutTheRegistryTheKindIsUnknown() throws {
        #expect {
            _ = try SurveyLoader(registry: .builtins()).load(text: Self.survey, source: "p.json")
        } throws: { error in
            "\(error)".contains("unknown type 'stars'")
        }
    }

    /// A function registered beside the standard ones (a plugin's) may be called in a repeat item's
    /// expressions, which read the instance as `{panel.x}`.
    @Test func aRegisteredFunctionWorksInARepeatItemsExpressions() throws {
        var functions = ExpressionFunctionRegistry.standard
        try functions.register(
            ExpressionFunction(name: "twice", arity: 1...1, origin: "libtwice.so") { arguments, _ in
                arguments[0].numberValue.map { .number($0 * 2) } ?? .null
            })
        let text = """
            {"formatVersion": 1, "id": "f", "title": "F", "steps": [
              {"id": "trips", "type": "repeat", "title": "Trips", "options": {"count": 1, "items": [
                {"name": "days", "type": "number"},
                {"name": "why", "type": "text", "visibleIf": "twice({panel.days}) > 10"},
                {"name": "doubled", "expression": "twice({panel.days})"}]}}]}
            """
        let survey = try SurveyLoader(registry: .builtins(), functions: functions).load(text: text, source: "f.json")
        var session = SurveySession(survey: survey, locale: "en")
        try session.answer([["days": 6, "why": "work"]], for: "trips")
        #expect(session.answer(for: "trips") == [["days": 6, "why": "work", "doubled": 12]])
        try session.answer([["days": 2, "why": "rest"]], for: "trips")
        #expect(session.answer(for: "trips") == [["days": 2, "doubled": 4]])
        #expect {
            _ = try SurveyLoader(registry: .builtins()).load(text: text, source: "f.json")
        } throws: { error in
            "\(error)".contains("twice")
        }
    }
}

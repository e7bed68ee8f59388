import SurveyBuiltins
import SurveyCore
import SurveyImport
import Testing

/// A `matrixdropdown` column's expression validators: survey-core checks them in every row it shows,
/// answered or not, reading the row as `{row.x}` (checked against survey-core 3.0.4; issue 42).
@Suite struct ColumnCheckTests {
    static let survey = #"""
        {"elements": [
          {"type": "text", "name": "limit", "inputType": "number"},
          {"type": "matrixdropdown", "name": "costs",
           "rows": ["travel", {"value": "food", "visibleIf": "{limit} > 10"}],
           "columns": [{"name": "amount", "cellType": "text", "inputType": "number",
             "validators": [{"type": "expression", "expression": "{ROW.amount} <= {limit}"},
                            {"type": "numeric", "minValue": 0}]}]}]}
        """#

    @Test func eachRowIsCheckedAsTheMatrixsOwnValidator() throws {
        let (conversion, survey) = try convertAndLoad(Self.survey)
        let step = try #require(survey.stepDefinition("costs"))
        let expressions = step.validators.map { validator -> String? in
            if case .expression(let source) = validator.kind { return source }
            return nil
        }
        #expect(
            expressions == [
                "{costs.travel.amount} <= {limit}", "!({limit} > 10) or ({costs.food.amount} <= {limit})",
            ])
        // The numeric validator is still noted as not converted; the expression one is not.
        let notes = conversion.notes.filter { $0.kind == .notConverted }.map(\.what)
        #expect(notes.contains("the validators of column 'amount'"))

        var session = SurveySession(survey: survey)
        try session.answer(5, for: "limit")
        try session.answer(["travel": ["amount": 4]], for: "costs")
        // The food row is hidden (limit 5): only travel counts.
        guard case .completed = session.next() else {
            Issue.record("expected the survey to complete")
            return
        }
        var refused = SurveySession(survey: survey)
        try refused.answer(50, for: "limit")
        try refused.answer(["travel": ["amount": 4]], for: "costs")
        // The food row shows and its amount is not answered: the check fails, as in survey-core.
        guard case .blocked(let errors) = refused.next() else {
            Issue.record("an unanswered shown row should fail the check")
            return
        }
        #expect(errors.map(\.stepID) == ["costs"])
    }
}

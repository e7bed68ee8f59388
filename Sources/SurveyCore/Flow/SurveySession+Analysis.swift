/// Read-only views of a running session for the analysis target (coverage measurement).
extension SurveySession {
    /// The values expressions read now, indexed by slot (answers of live units, then calculated values).
    package var analysisValues: [JSONValue] { values }

    /// The unit indices on the path, the current one last.
    package var analysisPath: [Int] { path }

    /// Whether leaf step `index` is visible now (its own condition and switch).
    package func analysisStepVisible(_ index: Int) -> Bool { derived.stepVisible[index] }

    /// Whether unit `index` is visible now.
    package func analysisUnitVisible(_ index: Int) -> Bool { derived.unitVisible(survey.units[index], at: index) }

    /// What expressions are evaluated with in this session: the date and the host's variables.
    package var analysisFunctionContext: FunctionContext { functionContext }

    /// Whether leaf step `index` is shown but not editable now (`readOnly`, or an `enableIf` that does not hold).
    package func analysisIsReadOnly(_ index: Int) -> Bool { isReadOnly(index) }

    /// Moves on as ``advance()`` does, but leaves the current unit even when its answers are missing or
    /// invalid (a response audit reports those and replays the rest of the response).
    @discardableResult
    package mutating func analysisAdvanceUnchecked() -> Advance {
        var result: CompletionResult?
        return proceed(reporting: &result, validating: false)
    }
}

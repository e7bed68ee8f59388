import SurveyCore

extension PresentationContext {
    /// What the conditions a kind evaluates while presenting (a repeat's items, a matrix's rows and
    /// cells) read: today, and the respondent's locale with the survey's default one.
    var conditionFunctions: FunctionContext {
        var functions = FunctionContext.current()
        functions.locale = locale
        functions.defaultLocale = defaultLocale
        return functions
    }
}

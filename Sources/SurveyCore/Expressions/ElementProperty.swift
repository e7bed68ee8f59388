/// What SurveyJS's `{$name.property}` reads in this engine: a property of a question, page or panel
/// (`{$q1.isVisible}`, `{$page1.title}`), or of the survey (`{$survey.title}`).
///
/// survey-core reads any JavaScript property of its objects; this engine reads the ones a survey's
/// flow can use (``SurveyCompiler/ElementProperties`` lists them). A property that can change during
/// a session (`isVisible`, `isReadOnly`, `isRequired`) is the condition that decides it, embedded in
/// the expression that reads it, so that the expression is evaluated again whenever that condition's
/// names change; one that cannot is a constant.
package enum ElementPropertyValue: Sendable {
    /// A value fixed when the survey loads (`{$q1.name}`, `{$q1.containsErrors}`).
    case constant(JSONValue)
    /// Holds when `expression` does (or, `negated`, when it does not).
    case condition(Expression, negated: Bool)
    /// A value of the session rather than of the answers (a title in the respondent's language).
    case sessionValue(ExpressionFunction)
    case unknownElement
    /// The element exists; the property is none of `known`.
    case unknownProperty(known: [String])
    /// The condition read reads properties deeper than ``maximumDepth`` (or reads itself).
    case tooDeep

    /// How many `{$…}` references deep a property's condition may read others: a question's
    /// `isVisible` whose `visibleIf` reads another's, and so on. A reference to itself stops here.
    static let maximumDepth = 4

    /// The properties read of a question (`{$q1.…}`).
    package static let questionProperties = [
        "isVisible", "visible", "isReadOnly", "readOnly", "isRequired", "containsErrors", "name", "title",
    ]
    /// The properties read of a page or a panel.
    package static let containerProperties = ["isVisible", "visible", "isReadOnly", "readOnly", "name", "title"]
    /// The properties read of the survey (`{$survey.…}`).
    package static let surveyProperties = ["title", "locale", "readOnly"]
}

/// Resolves `{$element.property}` (the element's name and the property, both without `$`).
typealias ElementPropertyResolver = @Sendable (String, String) -> ElementPropertyValue

/// What the survey compiler adds to a parse: the configured questions (`displayValue('name')`, a
/// ranking's ordered equality) and `{$name.property}`. Made once per survey (not per expression) and
/// shared by its expressions.
final class ExpressionCompileContext: Sendable {
    let displayQuestion: (@Sendable (Int) -> ConfiguredQuestion?)?
    let resolveProperty: ElementPropertyResolver?

    init(displayQuestion: (@Sendable (Int) -> ConfiguredQuestion?)?, resolveProperty: ElementPropertyResolver?) {
        self.displayQuestion = displayQuestion
        self.resolveProperty = resolveProperty
    }
}

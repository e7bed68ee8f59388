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
    /// The properties read of a choice (`{$item.…}` in its `visibleIf`).
    package static let choiceProperties = ["value", "text"]
    /// The names that stand for an element relative to the expression's own (`{$self.name}`,
    /// `{$panel.title}`, `{$parent.name}`, `{$item.text}`, `{$choice.value}`), as survey-core reads them.
    package static let relativeElements: Set<String> = ["self", "panel", "parent", "item", "choice"]
    /// The properties a relative element may be asked for, by its name.
    package static func relativeProperties(of element: String) -> [String] {
        let elementProperties = questionProperties + containerProperties.filter { !questionProperties.contains($0) }
        switch element {
        case "item", "choice": return choiceProperties
        case "self": return elementProperties + choiceProperties
        default: return elementProperties
        }
    }
}

/// The element an expression belongs to, for survey-core's relative references: `{$self.…}` (the
/// question, or in a choice's `visibleIf` the choice), `{$panel.…}` (the panel the question is in),
/// `{$parent.…}` (the dynamic panel or matrix it is in: never a step here) and `{$item.…}` /
/// `{$choice.…}` (the choice). Where the expression has no such element they read as empty, as in
/// survey-core (a page's `visibleIf` has no `$self`).
struct ExpressionOwner: Sendable {
    /// The id of the question (step) the expression belongs to.
    var step: String?
    /// The id of the innermost panel around that question.
    var panel: String?
    /// The choice whose `visibleIf` it is: its value (numeric or not) and its label.
    var choice: (value: JSONValue, label: String)?
}

/// Resolves `{$element.property}` (the element's name and the property, both without `$`) for an
/// expression that belongs to `owner`.
typealias ElementPropertyResolver = @Sendable (String, String, ExpressionOwner?) -> ElementPropertyValue

/// What the survey compiler adds to a parse: the configured questions (`displayValue('name')`, a
/// ranking's ordered equality) and `{$name.property}`. Made once per survey (not per expression) and
/// shared by its expressions.
final class ExpressionCompileContext: Sendable {
    let displayQuestion: (@Sendable (Int) -> ConfiguredQuestion?)?
    let resolveProperty: ElementPropertyResolver?
    /// The element the expression belongs to (``ExpressionOwner``), `nil` for a survey-level one.
    let owner: ExpressionOwner?

    init(
        displayQuestion: (@Sendable (Int) -> ConfiguredQuestion?)?, resolveProperty: ElementPropertyResolver?,
        owner: ExpressionOwner? = nil
    ) {
        self.displayQuestion = displayQuestion
        self.resolveProperty = resolveProperty
        self.owner = owner
    }

    /// This context for an expression that belongs to `owner`.
    func owned(by owner: ExpressionOwner?) -> ExpressionCompileContext {
        ExpressionCompileContext(displayQuestion: displayQuestion, resolveProperty: resolveProperty, owner: owner)
    }
}

import SurveyCore

/// How serious a finding is.
public enum LintSeverity: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    /// Certainly a defect: the analysis proved it (`survey lint` exits 1).
    case error
    /// Probably a defect, or something that never has an effect.
    case warning
    /// Something the analysis could not decide, or worth knowing.
    case info

    private var rank: Int {
        switch self {
        case .error: return 0
        case .warning: return 1
        case .info: return 2
        }
    }

    public static func < (lhs: LintSeverity, rhs: LintSeverity) -> Bool { lhs.rank < rhs.rank }
}

/// The lint rules, by their stable ids.
public enum LintRule: String, Sendable, Hashable, Codable, CaseIterable {
    case unreachableStep = "unreachable-step"
    case alwaysTrueCondition = "always-true-condition"
    case alwaysFalseCondition = "always-false-condition"
    case gotoCycle = "goto-cycle"
    case deadEnd = "dead-end"
    case unknownChoiceValue = "unknown-choice-value"
    case typeMismatch = "type-mismatch"
    case forwardReference = "forward-reference"
    case unusedCalculatedValue = "unused-calculated-value"
    case missingTranslation = "missing-translation"
    case emptyPage = "empty-page"
    case unknownReference = "unknown-reference"
    case nothingToAnswer = "nothing-to-answer"
    case unquotedName = "unquoted-name"
    case invalidExpression = "invalid-expression"
    /// Not a lint rule: the file does not load (the problems `survey validate` reports).
    case invalidSurvey = "invalid-survey"

    /// The rule's id, as printed and accepted on the command line.
    public var id: String { rawValue }

    /// A one-line description.
    public var summary: String {
        switch self {
        case .unreachableStep: return "A step no respondent can ever see."
        case .alwaysTrueCondition:
            return "A condition that always holds where it is evaluated, so it never changes the outcome."
        case .alwaysFalseCondition:
            return "A condition that never holds where it is evaluated, so it never changes the outcome."
        case .gotoCycle: return "Branches that can send a respondent round a loop."
        case .deadEnd: return "A reachable point from which the survey cannot be completed."
        case .unknownChoiceValue: return "A comparison with a value that is not one of the question's choices."
        case .typeMismatch: return "A comparison that can never hold because of the answer's type."
        case .forwardReference:
            return "A condition or text that reads a question asked later, so it is always empty there."
        case .unusedCalculatedValue: return "A calculated value that no expression or text uses."
        case .missingTranslation: return "A text without a translation for one of the survey's declared locales."
        case .emptyPage: return "A page whose questions are all hidden under every answer."
        case .unknownReference:
            return "A name no question or value defines, read as empty until the host sets it (SurveyJS surveys)."
        case .nothingToAnswer:
            return "A matrix with no rows (or columns): it asks nothing, and required no respondent can pass it."
        case .unquotedName:
            return "An unquoted word in an expression that is a question's name: a text, not that question's answer."
        case .invalidExpression:
            return
                "An expression of a SurveyJS survey that cannot be parsed: survey-core ignores it, and so does this engine."
        case .invalidSurvey: return "The file is not a valid survey (what `survey validate` reports)."
        }
    }

    /// The severity of the rule's definite findings (undecided ones are `info`).
    public var defaultSeverity: LintSeverity {
        switch self {
        case .unreachableStep, .deadEnd, .unknownChoiceValue, .typeMismatch, .invalidExpression, .invalidSurvey:
            return .error
        default: return .warning
        }
    }
}

/// One problem found by ``SurveyLinter``.
public struct LintFinding: Sendable, Hashable, CustomStringConvertible {
    public var rule: LintRule
    public var severity: LintSeverity
    /// What is wrong, why, and how to fix it where the fix is obvious.
    public var message: String
    /// The step or page it is about.
    public var stepID: String?
    /// Where in the survey file (JSON path).
    public var path: JSONPath?
    /// Line and column in the file, when the source text was given.
    public var position: SourcePosition?
    /// The file, when known.
    public var file: String?

    public init(
        rule: LintRule, severity: LintSeverity, message: String, stepID: String? = nil, path: JSONPath? = nil,
        position: SourcePosition? = nil, file: String? = nil
    ) {
        self.rule = rule
        self.severity = severity
        self.message = message
        self.stepID = stepID
        self.path = path
        self.position = position
        self.file = file
    }

    /// `FILE:LINE:COL: severity: message [rule] (step 'id')`.
    public var description: String {
        var text =
            SourcePosition.messagePrefix(file: file, position: position)
            + "\(severity.rawValue): \(message) [\(rule.id)]"
        if let stepID, !message.contains("'\(stepID)'") { text += " (step '\(stepID)')" }
        return text
    }
}

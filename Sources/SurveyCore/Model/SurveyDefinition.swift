import Foundation

/// A survey as its author wrote it: the JSON format, decoded but not yet compiled.
///
/// Compile it with ``SurveyLoader`` (which checks question types, options and expressions) to get
/// a ``Survey`` that sessions can run. Encoding is deterministic (sorted keys), so a load/save
/// round trip is byte-stable.
///
/// ```json
/// { "formatVersion": 1, "id": "feedback", "title": "Feedback", "defaultLocale": "en",
///   "steps": [ { "id": "rating", "type": "rating", "title": "How was it?", "required": true } ] }
/// ```
public struct SurveyDefinition: Sendable, Hashable {
    /// The format versions this engine reads.
    public static let supportedFormatVersions: ClosedRange<Int> = 1...1
    /// The format version this engine writes.
    public static let currentFormatVersion = 1

    public var formatVersion: Int
    /// Stable survey id, chosen by the author.
    public var id: String
    /// The author's version of this survey ("2024-06-01", "3").
    public var version: String?
    public var title: LocalizedText
    public var description: LocalizedText?
    /// The locale texts fall back to.
    public var defaultLocale: String
    /// The locales the author translated the survey into (informational).
    public var locales: [String]?
    public var settings: SurveySettings
    /// Named expressions that other expressions can use as `{name}`.
    public var calculatedValues: [CalculatedValue]
    /// Rules that act when their condition holds (SurveyJS's triggers): set, copy or compute an
    /// answer, skip to a step, complete the survey.
    public var triggers: [TriggerDefinition] = []
    /// Values the host app passes when a session starts (`{plan}`, `{lang}`), declared so that
    /// expressions can use them and an unknown name stays a load error.
    public var variables: [VariableDefinition] = []
    /// What respondents read when they complete the survey: the first message whose condition holds
    /// (one without `if` always does), as SurveyJS's `completedHtmlOnCondition` and `completedHtml`.
    public var completionMessages: [CompletionMessage] = []
    /// Where a respondent who completes the survey goes next: the first address whose condition
    /// holds (one without `if` always does), as SurveyJS's `navigateToUrlOnCondition` and
    /// `navigateToUrl`.
    public var completionRedirects: [CompletionRedirect] = []
    /// How many responses of each kind are collected (``QuotaDefinition``): checked at Next and at
    /// completion, counted by the response store.
    public var quotas: [QuotaDefinition] = []
    /// The steps in order: questions, content steps and pages.
    public var steps: [StepDefinition]
    /// The JSON Schema reference (`$schema`) the file declares for editors, kept on save.
    public var schema: String?
    /// Members whose names start with `x-` (`"x-surveyjs"`, `"x-myapp"`): kept as written and on
    /// save, never read by the engine — where tools and converters keep what is theirs.
    public var extensions: [String: JSONValue] = [:]
    /// Where the steps are in the file, when some were left out because of problems.
    var sourceMap: SourceMap?

    public init(
        formatVersion: Int = SurveyDefinition.currentFormatVersion, id: String, version: String? = nil,
        title: LocalizedText, description: LocalizedText? = nil, defaultLocale: String = "en", locales: [String]? = nil,
        settings: SurveySettings = SurveySettings(), calculatedValues: [CalculatedValue] = [], steps: [StepDefinition]
    ) {
        self.formatVersion = formatVersion
        self.id = id
        self.version = version
        self.title = title
        self.description = description
        self.defaultLocale = defaultLocale
        self.locales = locales
        self.settings = settings
        self.calculatedValues = calculatedValues
        self.steps = steps
    }
}

/// File positions of decoded steps: `units[i]` is the index in `$.steps` of `steps[i]`, and
/// `children[i][j]` the index path below its page of `steps[i].steps[j]` (see
/// ``StepDefinition/childIndexPaths()``).
struct SourceMap: Sendable, Hashable {
    var units: [Int] = []
    /// Where the children of a unit are in the file, kept only for the units whose children are not
    /// simply `0..<count` (a child was left out, or panels are involved), by position in ``units``:
    /// most pages have none, and a list for each of a large survey's pages was 100,000 allocations
    /// made and freed on every load (the map is kept only when a step was left out).
    private var irregular: [Int: ChildSources] = [:]

    /// Where a container's children are in the file (see ``DecodedStep``).
    struct ChildSources: Sendable, Hashable {
        var indices: [Int]?
        var paths: [[Int]]?

        /// The index path of child `position` below its container.
        func path(of position: Int) -> [Int] {
            paths?[position] ?? [indices?[position] ?? position]
        }
    }

    mutating func add(_ decoded: DecodedStep, unit: Int) {
        if decoded.childSourceIndices != nil || decoded.childSourcePaths != nil {
            irregular[units.count] = ChildSources(
                indices: decoded.childSourceIndices, paths: decoded.childSourcePaths)
        }
        units.append(unit)
    }

    /// Numbers the units from `offset` instead of 0 (a piece of the steps array parsed on its own).
    mutating func shiftUnits(by offset: Int) {
        guard offset != 0 else { return }
        for index in units.indices { units[index] += offset }
    }

    /// Adds the map of the steps that follow in the document.
    mutating func append(_ next: SourceMap) {
        let base = units.count
        units += next.units
        for (position, sources) in next.irregular { irregular[base + position] = sources }
    }

    /// The index path below its page of `steps[unit].steps[child]`.
    func childPath(unit: Int, child: Int) -> [Int] {
        irregular[unit]?.path(of: child) ?? [child]
    }

    static func == (lhs: SourceMap, rhs: SourceMap) -> Bool {
        lhs.units == rhs.units && lhs.irregular == rhs.irregular
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(units)
    }
}

/// Survey-wide behaviour.
public struct SurveySettings: Sendable, Hashable {
    /// Whether content steps count in "Question k of n". Default `false`.
    public var progressCountsContent: Bool
    /// Whether a respondent who completed or dismissed the survey is asked again. Default ``AskAgainPolicy/never``.
    public var askAgain: AskAgainPolicy
    /// What happens to the answers of questions that are hidden (SurveyJS's `clearInvisibleValues`).
    public var clearInvisibleValues: ClearInvisibleValues
    /// How often one respondent is shown the survey (`settings.display`); `nil`: as `askAgain` says.
    public var display: DisplayRule?
    /// Days to wait after a respondent's last completion or dismissal before asking again.
    public var recontactDays: Int?
    /// The percentage of respondents asked (0–100), chosen from respondent and survey id; `nil`: all.
    public var rollout: Double?
    /// When the survey may be asked: from `start` (inclusive) until `end` (exclusive).
    public var scheduleStart: Date?
    public var scheduleEnd: Date?
    /// Who is asked: an expression over the respondent's attributes (`{@plan}`) and history
    /// (`completed('onboarding', 'P30D')`); `nil`: everyone.
    public var audience: String?

    public init(
        progressCountsContent: Bool = false, askAgain: AskAgainPolicy = .never,
        clearInvisibleValues: ClearInvisibleValues = .onComplete, display: DisplayRule? = nil,
        recontactDays: Int? = nil, rollout: Double? = nil, scheduleStart: Date? = nil, scheduleEnd: Date? = nil
    ) {
        self.progressCountsContent = progressCountsContent
        self.askAgain = askAgain
        self.clearInvisibleValues = clearInvisibleValues
        self.display = display
        self.recontactDays = recontactDays
        self.rollout = rollout
        self.scheduleStart = scheduleStart
        self.scheduleEnd = scheduleEnd
    }
}

/// What happens to the answer of a question that is hidden, with SurveyJS's names and meaning.
public enum ClearInvisibleValues: String, Sendable, Hashable, CaseIterable {
    /// Kept while the respondent answers (a condition still reads it), left out of the completed
    /// answers when the question is hidden at the end. The default.
    case onComplete
    /// Cleared as soon as the question is hidden.
    case onHidden
    /// Kept, and reported with the completed answers even when the question is hidden.
    case none
}

/// A named expression, usable as `{name}` in other expressions and in piped texts.
public struct CalculatedValue: Sendable, Hashable {
    public var name: String
    public var expression: String
    /// Whether the completed answers report its value under its name (SurveyJS's `includeIntoResult`).
    public var includeIntoResult: Bool

    public init(name: String, expression: String, includeIntoResult: Bool = false) {
        self.name = name
        self.expression = expression
        self.includeIntoResult = includeIntoResult
    }
}

/// A host variable: `{name}` in expressions and piped texts reads the value the host gave it when the
/// session started (`survey run --var name=value`), else `default` (else empty).
public struct VariableDefinition: Sendable, Hashable {
    public var name: String
    public var defaultValue: JSONValue?

    public init(name: String, defaultValue: JSONValue? = nil) {
        self.name = name
        self.defaultValue = defaultValue
    }
}

/// One address a respondent who completes goes to: when `condition` holds (always, when it is `nil`).
/// `url` is piped (`{name}` is the answer as text), as a title is.
public struct CompletionRedirect: Sendable, Hashable {
    public var condition: String?
    public var url: String

    public init(condition: String? = nil, url: String) {
        self.condition = condition
        self.url = url
    }
}

/// One completion message: shown when `condition` holds (always, when it is `nil`).
public struct CompletionMessage: Sendable, Hashable {
    public var condition: String?
    public var text: LocalizedText

    public init(condition: String? = nil, text: LocalizedText) {
        self.condition = condition
        self.text = text
    }
}

extension SurveyDefinition {
    /// The step at `unitOffset` in ``steps``, or, when `childOffset` is not negative, the step at
    /// `childOffset` in that page's steps (where a compiled step's definition is).
    func step(unitOffset: Int32, childOffset: Int32) -> StepDefinition {
        let unit = steps[Int(unitOffset)]
        return childOffset < 0 ? unit : unit.steps[Int(childOffset)]
    }
}

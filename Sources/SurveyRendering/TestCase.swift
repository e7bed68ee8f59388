import SurveyCore

/// One answer script with the expectations it carries: a regression test of a survey's flow.
///
/// A file holds either a plain script (`{"step": answer, …}` or `{"actions": […]}`, see
/// ``AnswerScript``), or a test case with expectations:
///
/// ```json
/// {"description": "Instagram users see the follow-up",
///  "answers": {"discovery": "instagram", "instagram-follow-up": "reels"},
///  "expectPath": ["welcome", "discovery", "instagram-follow-up", "about-you"],
///  "expectAnswers": {"discovery": "instagram", "instagram-follow-up": "reels"},
///  "expectShown": ["instagram-follow-up"], "expectHidden": ["contact"],
///  "seed": 0, "locale": "en", "today": "2026-01-01", "variables": {"plan": "pro"}}
/// ```
///
/// `actions` may stand instead of `answers`. Every `expect…` member is optional; a case with none
/// only checks that the script fits the survey and completes it.
public struct TestCase: Sendable, Hashable {
    /// What the run must show.
    public struct Expectations: Sendable, Hashable {
        /// The exact completed path (unit ids).
        public var path: [String]?
        /// The exact answers on the completed path.
        public var answers: [String: JSONValue]?
        /// Steps that must have been shown at least once.
        public var shown: [String]?
        /// Steps that must never have been shown.
        public var hidden: [String]?

        public init(
            path: [String]? = nil, answers: [String: JSONValue]? = nil, shown: [String]? = nil,
            hidden: [String]? = nil
        ) {
            self.path = path
            self.answers = answers
            self.shown = shown
            self.hidden = hidden
        }

        /// Whether anything is expected beyond completing.
        public var isEmpty: Bool { path == nil && answers == nil && shown == nil && hidden == nil }
    }

    public var script: AnswerScript
    public var expectations: Expectations
    public var description: String?
    public var seed: UInt64?
    public var locale: String?
    public var today: String?
    /// What the host gives the survey's declared variables in this run, as `--var NAME=VALUE` does
    /// (these win over `--var` for the same name).
    public var variables: [String: JSONValue]?

    /// Whether the case expects the survey to show nothing (`"expectPath": []`): a run that ends
    /// ``DriverOutcome/empty(_:)`` then passes (the survey-core `empty` state is what was meant).
    public var expectsEmpty: Bool { expectations.path == [] }

    public init(
        script: AnswerScript, expectations: Expectations = Expectations(), description: String? = nil,
        seed: UInt64? = nil, locale: String? = nil, today: String? = nil, variables: [String: JSONValue]? = nil
    ) {
        self.script = script
        self.expectations = expectations
        self.description = description
        self.seed = seed
        self.locale = locale
        self.today = today
        self.variables = variables
    }

    static let members: Set<String> = [
        "answers", "actions", "expectPath", "expectAnswers", "expectShown", "expectHidden", "description", "seed",
        "locale", "today", "variables",
    ]

    /// Reads a test case or a plain script.
    /// - Throws: ``RendererError`` (`invalidScript`) naming the bad member.
    public init(json: JSONValue) throws(RendererError) {
        guard case .object(let members) = json,
            members["answers"]?.objectValue != nil || members["expectPath"] != nil
                || members["expectAnswers"] != nil || members["expectShown"] != nil || members["expectHidden"] != nil,
            members.keys.allSatisfy(Self.members.contains)
        else {
            self.init(script: try AnswerScript(json: json))
            return
        }
        func fail(_ message: String) -> RendererError { RendererError(code: "invalidScript", message: message) }
        func strings(_ key: String) throws(RendererError) -> [String]? {
            guard let value = members[key] else { return nil }
            guard let array = value.arrayValue, array.allSatisfy({ $0.stringValue != nil }) else {
                throw fail("'\(key)' must be an array of step ids")
            }
            return array.compactMap(\.stringValue)
        }
        let script: AnswerScript
        switch (members["answers"], members["actions"]) {
        case (let answers?, nil):
            guard case .object(let map) = answers else { throw fail("'answers' must be an object (step id → answer)") }
            script = .answers(map)
        case (nil, let actions?):
            script = try AnswerScript(json: ["actions": actions])
        case (nil, nil):
            throw fail("a test case needs 'answers' (step id → answer) or 'actions' (a list of commands)")
        default:
            throw fail("a test case has 'answers' or 'actions', not both")
        }
        var expectations = Expectations(
            path: try strings("expectPath"), shown: try strings("expectShown"), hidden: try strings("expectHidden"))
        if let answers = members["expectAnswers"] {
            guard case .object(let map) = answers else {
                throw fail("'expectAnswers' must be an object (step id → answer)")
            }
            expectations.answers = map
        }
        var seed: UInt64?
        if let value = members["seed"] {
            guard let number = value.intValue, number >= 0 else {
                throw fail("'seed' must be a whole number ≥ 0")
            }
            seed = UInt64(number)
        }
        if let value = members["description"], value.stringValue == nil { throw fail("'description' must be text") }
        if let value = members["locale"], value.stringValue == nil { throw fail("'locale' must be text") }
        if let value = members["today"], value.stringValue == nil { throw fail("'today' must be text (YYYY-MM-DD)") }
        var variables: [String: JSONValue]?
        if let value = members["variables"] {
            guard case .object(let map) = value else {
                throw fail("'variables' must be an object (variable name → value)")
            }
            variables = map
        }
        self.init(
            script: script, expectations: expectations, description: members["description"]?.stringValue, seed: seed,
            locale: members["locale"]?.stringValue, today: members["today"]?.stringValue, variables: variables)
    }

    /// The ways `run` does not meet the expectations (empty when it does), each a readable paragraph:
    /// a script failure, an incomplete run, then ``pathAndAnswerProblems(of:pathSource:answersSource:)``
    /// and ``visibilityProblems(of:)``.
    public func problems(of run: HeadlessRun) -> [String] {
        if let failure = run.failure {
            return [failure.message + (failure.stepID.map { " (at '\($0)')" } ?? "")]
        }
        var problems: [String] = []
        if case .empty = run.outcome {
            if !expectsEmpty { problems.append(HeadlessRun.emptyProblem) }
        } else if run.outcome.result == nil {
            problems.append("the survey did not complete (it ended at '\(run.path.last ?? "")')")
        }
        return problems + pathAndAnswerProblems(of: run) + visibilityProblems(of: run)
    }

    /// How the path and the answers differ from `expectPath` and `expectAnswers`, naming them as
    /// `pathSource` and `answersSource` (e.g. a command-line flag that stands in for them).
    public func pathAndAnswerProblems(
        of run: HeadlessRun, pathSource: String = "expectPath", answersSource: String = "expectAnswers"
    ) -> [String] {
        var problems: [String] = []
        if let path = expectations.path, let difference = HeadlessRun.pathDifference(expected: path, actual: run.path) {
            problems.append("the path differs from \(pathSource):\n" + difference)
        }
        if let answers = expectations.answers,
            let difference = HeadlessRun.answersDifference(expected: answers, actual: run.answers)
        {
            problems.append("the answers differ from \(answersSource):\n" + difference)
        }
        return problems
    }

    /// Steps `expectShown` lists that were never shown, and steps `expectHidden` lists that were.
    public func visibilityProblems(of run: HeadlessRun) -> [String] {
        var problems: [String] = []
        let shown = Set(run.shownSteps)
        if let expected = expectations.shown {
            let missing = expected.filter { !shown.contains($0) }
            if !missing.isEmpty {
                problems.append("never shown, but expectShown lists: " + missing.joined(separator: ", "))
            }
        }
        if let hidden = expectations.hidden {
            let seen = hidden.filter { shown.contains($0) }
            if !seen.isEmpty { problems.append("shown, but expectHidden lists: " + seen.joined(separator: ", ")) }
        }
        return problems
    }

    /// What the case does not fit in `survey`, one readable line each: expectations naming steps it
    /// does not have (unless `allowsExtra`), then ``variables`` it does not declare.
    public func mismatches(with survey: Survey, allowsExtra: Bool) -> [String] {
        var result: [String] = []
        let unknown = allowsExtra ? [] : unknownSteps(in: survey)
        if !unknown.isEmpty {
            result.append("the expectations name steps this survey does not have: \(unknown.joined(separator: ", "))")
        }
        let undeclared = undeclaredVariables(in: survey)
        if !undeclared.isEmpty {
            result.append("'variables' names what this survey does not declare: \(undeclared.joined(separator: ", "))")
        }
        return result
    }

    /// The host's values for the run: `given` (`--var`), with the case's own ``variables`` winning.
    public func variables(over given: [String: JSONValue]) -> [String: JSONValue] {
        given.merging(variables ?? [:], uniquingKeysWith: { $1 })
    }

    /// The names in ``variables`` that the survey does not declare (a typo would pass silently).
    public func undeclaredVariables(in survey: Survey) -> [String] {
        guard let variables else { return [] }
        let declared = Set(survey.definition.variables.map(\.name))
        return variables.keys.filter { !declared.contains($0) }.sorted()
    }

    /// Step ids that `expectShown`, `expectHidden` and `expectAnswers` name and the survey does not have
    /// (a typo there would pass silently; an unknown unit in `expectPath` shows in the path's diff).
    /// `expectAnswers` may also name a calculated value the result includes (`includeIntoResult`).
    public func unknownSteps(in survey: Survey) -> [String] {
        let inResult = Set(survey.definition.calculatedValues.filter(\.includeIntoResult).map(\.name))
            .union(survey.resultShape?.addedKeys ?? [])
        let steps = (expectations.shown ?? []) + (expectations.hidden ?? [])
        let answers = (expectations.answers?.keys.sorted() ?? []).filter { !inResult.contains($0) }
        // `<id>-Comment` of a question with an Other choice: its text in SurveyJS's data shape.
        let otherText = { (key: String) in
            key.hasSuffix("-Comment") && survey.hasOtherChoice(step: String(key.dropLast(8)))
        }
        return (steps + answers).filter {
            survey.question(forStep: $0) == nil && !survey.isComment($0) && !otherText($0)
        }
    }
}

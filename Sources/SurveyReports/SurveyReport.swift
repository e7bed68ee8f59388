import Foundation
import SurveyCore
import SurveyResponses

/// The results of one survey: per question the question type's own summary (counts and shares per
/// choice, mean/median/min/max for numbers, the NPS score, …, through ``QuestionType/summarize``,
/// so a plugin type reports itself), the funnel per question and the drop-off per unit, the
/// completion rate and the most common paths. Keys are the author's step ids.
public struct SurveyReport: Sendable {
    /// One question's part.
    public struct Question: Sendable {
        public var stepID: String
        public var title: String
        public var typeID: String
        /// The type's summary of the answers on the selected responses.
        public var summary: AnswerSummary
        /// Free-text answers (text questions), as given, at most ``SurveyReport/textLimit``.
        public var texts: [String]
        /// What respondents wrote for a choice question's "Other" choice, the same texts grouped
        /// (most frequent first, at most ``SurveyReport/textLimit``).
        public var otherTexts: [(text: String, count: Int)]
        /// How many of the answers summarised are those of unfinished responses, so far
        /// (``SurveyReport/partialResponses``); `summary.answered` counts them too.
        public var answeredPartially: Int
        /// How many responses saw, answered and dismissed it (all responses to the survey).
        public var seen: Int
        public var answered: Int
        public var dismissed: Int
    }

    /// One unit's drop-off (all responses to the survey) and the median time respondents spent on it.
    public struct Unit: Sendable {
        public var unitID: String
        public var reached: Int
        public var stopped: Int
        /// The median seconds from entering the unit to leaving it (Next, Back or dismissing), over
        /// the timed responses; `nil` when none left it.
        public var medianSeconds: Double?
    }

    public var surveyID: String
    public var title: String
    public var locale: String
    /// The selected responses, and how many of them have each status.
    public var responses: Int
    public var statuses: [ResponseStatus: Int]
    /// How many of the selected responses are unfinished (in progress or abandoned), of any version
    /// of the survey: their answers so far, replayed from their stored actions
    /// (``PartialResponses``), are in the questions' summaries, counted apart in
    /// ``Question/answeredPartially``.
    public var partialResponses: Int
    /// Invitations shown and completions of the survey (the funnel, all responses).
    public var invitations: Int
    public var completed: Int
    public var questions: [Question]
    public var units: [Unit]
    /// The most common paths of the selected completed responses, most common first.
    public var paths: [(path: [String], count: Int)]
    /// The survey's quotas with their live counts (``QuotaReport``); `nil` when it has none.
    public var quotas: QuotaReport?

    /// `completed / invitations` of the funnel, `nil` before any invitation.
    public var completionRate: Double? { invitations == 0 ? nil : Double(completed) / Double(invitations) }

    /// Free-text answers kept per question.
    public static let textLimit = 500
    /// Responses whose action logs are replayed for the time spent per unit (the first selected ones).
    public static let timingLimit = 5_000
    /// Paths listed.
    public static let pathLimit = 10

    /// The report of `survey` over the responses of `store` that `query` selects (its survey id is
    /// set to the survey's), with texts in `locale`.
    ///
    /// Unfinished responses (in progress or abandoned) of the survey, of any version (replayed by step
    /// id, ``PartialResponses``), count with their
    /// answers so far when `includesPartial` is true (the default): for drop-off analysis, what a
    /// respondent answered before stopping is part of the results. Each question says how many of
    /// its answers are such partial ones (``Question/answeredPartially``); a query selecting only
    /// completed responses leaves them out.
    ///
    /// The responses stream past once, each question's answers going into a tally (the memory of its
    /// distinct answers, never of the responses). When the store can split the selection
    /// (``ResponseStore/split(_:into:minimumPartSize:)``), up to `parallelism` parts of at least
    /// `minimumPartSize` responses are read at once on their own threads and their tallies merged;
    /// the result is the same as reading them in one go.
    /// - Throws: the store's error.
    public init(
        survey: Survey, store: any ResponseStore, query: ResponseQuery = ResponseQuery(), locale: String? = nil,
        includesPartial: Bool = true, parallelism: Int = ProcessInfo.processInfo.activeProcessorCount,
        minimumPartSize: Int = 50_000
    ) throws {
        var query = query
        query.surveyID = survey.id
        let partial =
            includesPartial
            ? PartialResponses(survey: survey, store: store) : PartialResponses()
        let locale = locale ?? survey.definition.defaultLocale
        let context = PresentationContext(locale: locale, defaultLocale: survey.definition.defaultLocale)
        let steps = survey.stepIDs.filter { id in
            survey.isSwitchedOn(id) && (survey.question(forStep: id)?.collectsAnswer ?? false)
        }
        let freeText = steps.map { id in
            if case .freeText = survey.question(forStep: id)?.input(in: context) { return true }
            return false
        }
        let partials = try store.forEachPart(
            of: query, parallelism: parallelism, minimumPartSize: minimumPartSize
        ) { _, part in
            try Partial(store: store, query: part, steps: steps, freeText: freeText, partial: partial)
        }
        var scan = Partial(steps: steps.count)
        for partial in partials { scan.append(partial) }
        let funnel = FunnelReport(counts: try store.funnelCounts(survey: survey.id), survey: survey)
        var rows: [String: FunnelReport.StepRow] = [:]
        for unit in funnel.units { for row in unit.steps { rows[row.stepID] = row } }
        questions = steps.enumerated().compactMap { index, id in
            guard let question = survey.question(forStep: id) else { return nil }
            let title = survey.stepDefinition(id)?.title.map { context.text($0) } ?? id
            let row = rows[id]
            return Question(
                stepID: id, title: title, typeID: question.typeID,
                summary: question.summarize(scan.tallies[index], in: context), texts: scan.texts[index],
                otherTexts: Self.otherTexts(scan.tallies[index], input: question.input(in: context)),
                answeredPartially: scan.partialAnswers[index], seen: row?.seen ?? 0, answered: row?.answered ?? 0,
                dismissed: row?.dismissed ?? 0)
        }
        let dwell = try Self.dwellTimes(of: scan.timed, survey: survey, store: store)
        units = funnel.units.map {
            Unit(
                unitID: $0.unitID, reached: $0.reached, stopped: $0.stopped,
                medianSeconds: dwell[$0.unitID].flatMap(Self.median))
        }
        paths = scan.pathCounts.sorted {
            ($0.value, $1.key.joined(separator: ",")) > ($1.value, $0.key.joined(separator: ","))
        }
        .prefix(Self.pathLimit).map { ($0.key, $0.value) }
        surveyID = survey.id
        title = context.text(survey.definition.title)
        self.locale = locale
        responses = scan.count
        statuses = scan.statuses
        partialResponses = scan.partialCount
        invitations = funnel.invitations
        completed = funnel.completed
        quotas = survey.definition.quotas.isEmpty ? nil : try QuotaReport(survey: survey, store: store)
    }

    /// What one part of the responses gives, in the order they were read.
    struct Partial: Sendable {
        var tallies: [AnswerTally]
        var texts: [[String]]
        var statuses: [ResponseStatus: Int] = [:]
        var pathCounts: [[String]: Int] = [:]
        var count = 0
        var timed: [Response] = []
        /// Per step, the answers that came from partial responses.
        var partialAnswers: [Int]
        var partialCount = 0

        init(steps: Int) {
            tallies = Array(repeating: AnswerTally(), count: steps)
            texts = Array(repeating: [], count: steps)
            partialAnswers = Array(repeating: 0, count: steps)
        }

        /// Reads the responses `query` selects, those `partial` replayed with their answers so far.
        init(
            store: any ResponseStore, query: ResponseQuery, steps: [String], freeText: [Bool],
            partial: PartialResponses
        ) throws {
            self.init(steps: steps.count)
            try store.forEachResponse(matching: query) { stored in
                let (response, isPartial) = try partial.completing(stored)
                count += 1
                if isPartial { partialCount += 1 }
                if timed.count < SurveyReport.timingLimit, response.status.isFinal { timed.append(response) }
                statuses[response.status, default: 0] += 1
                if response.status == .completed { pathCounts[response.path, default: 0] += 1 }
                for (index, step) in steps.enumerated() {
                    guard let value = response.answers[step], !value.isNull else { continue }
                    tallies[index].add(value)
                    if isPartial { partialAnswers[index] += 1 }
                    if freeText[index], texts[index].count < SurveyReport.textLimit, let text = value.stringValue {
                        texts[index].append(text)
                    }
                }
            }
        }

        /// Adds a later part: counts add up, lists keep this part's entries first.
        mutating func append(_ later: Partial) {
            for index in tallies.indices {
                tallies[index].add(later.tallies[index])
                texts[index] += later.texts[index].prefix(max(0, SurveyReport.textLimit - texts[index].count))
            }
            for index in partialAnswers.indices { partialAnswers[index] += later.partialAnswers[index] }
            partialCount += later.partialCount
            statuses.merge(later.statuses, uniquingKeysWith: +)
            pathCounts.merge(later.pathCounts, uniquingKeysWith: +)
            count += later.count
            timed += later.timed.prefix(max(0, SurveyReport.timingLimit - timed.count))
        }
    }

    /// Seconds spent on each unit, per visit, replaying each response's recorded actions: a visit
    /// starts when the unit is entered (the response's creation for the first) and ends with the
    /// action that leaves it.
    static func dwellTimes(of responses: [Response], survey: Survey, store: any ResponseStore) throws -> [String:
        [Double]]
    {
        var times: [String: [Double]] = [:]
        for response in responses {
            let actions = try store.actions(of: response.id)
            guard !actions.isEmpty else { continue }
            var session = SurveySession(
                survey: survey, seed: response.seed, locale: response.locale, today: response.today)
            var unit = session.currentUnitID
            var enteredAt = response.createdAt
            for entry in actions {
                guard session.apply(entry.action) else { break }
                let now = session.currentUnitID
                guard now != unit || session.status != .inProgress else { continue }
                if let left = unit {
                    times[left, default: []].append(max(0, entry.recordedAt.timeIntervalSince(enteredAt)))
                }
                unit = now
                enteredAt = entry.recordedAt
                if session.status != .inProgress { break }
            }
        }
        return times
    }

    /// The answers of a choice question with an "Other" choice that are none of its choices: the
    /// texts respondents wrote, grouped by their text ignoring case and surrounding space.
    static func otherTexts(_ tally: AnswerTally, input: InputPrimitive) -> [(text: String, count: Int)] {
        let choices: [Choice]
        switch input {
        case .singleChoice(let choice), .multipleChoice(let choice): choices = choice.choices
        default: return []
        }
        guard choices.contains(where: \.isOther) else { return [] }
        let known = Set(choices.map(\.value))
        var groups: [String: (text: String, count: Int)] = [:]
        for entry in tally.entries {
            for value in entry.answer.arrayValue ?? [entry.answer] {
                guard let text = value.stringValue, !known.contains(text) else { continue }
                let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
                guard !trimmed.isEmpty else { continue }
                let key = trimmed.lowercased()
                groups[key] = (groups[key]?.text ?? trimmed, (groups[key]?.count ?? 0) + entry.count)
            }
        }
        return groups.values.sorted { ($0.count, $1.text) > ($1.count, $0.text) }.prefix(Self.textLimit).map { $0 }
    }

    static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    // MARK: JSON

    /// The report as JSON: the same content as the HTML page.
    public var json: JSONValue {
        func number(_ value: Double?) -> JSONValue { value.map { .number(($0 * 1000).rounded() / 1000) } ?? .null }
        return [
            "reportVersion": 1, "surveyId": .string(surveyID), "title": .string(title), "locale": .string(locale),
            "responses": .number(Double(responses)), "partialResponses": .number(Double(partialResponses)),
            "statuses": .object(
                Dictionary(uniqueKeysWithValues: statuses.map { ($0.key.rawValue, JSONValue.number(Double($0.value))) })
            ),
            "invitations": .number(Double(invitations)), "completed": .number(Double(completed)),
            "completionRate": number(completionRate),
            "questions": .array(
                questions.map { question in
                    var members: [String: JSONValue] = [
                        "stepId": .string(question.stepID), "title": .string(question.title),
                        "type": .string(question.typeID), "answered": .number(Double(question.summary.answered)),
                        "answeredPartially": .number(Double(question.answeredPartially)),
                        "buckets": .array(
                            question.summary.buckets.map { bucket in
                                var members: [String: JSONValue] = [
                                    "value": .string(bucket.value), "label": .string(bucket.label),
                                    "count": .number(Double(bucket.count)), "percentage": number(bucket.percentage),
                                ]
                                if let group = bucket.group { members["group"] = .string(group) }
                                if let label = bucket.groupLabel { members["groupLabel"] = .string(label) }
                                if let mean = bucket.mean { members["averagePosition"] = number(mean) }
                                return .object(members)
                            }),
                        "funnel": [
                            "seen": .number(Double(question.seen)), "answered": .number(Double(question.answered)),
                            "dismissed": .number(Double(question.dismissed)),
                        ],
                    ]
                    for (key, value) in [
                        ("mean", question.summary.mean), ("median", question.summary.median),
                        ("minimum", question.summary.minimum), ("maximum", question.summary.maximum),
                    ] where value != nil {
                        members[key] = number(value)
                    }
                    if !question.texts.isEmpty { members["texts"] = .array(question.texts.map(JSONValue.string)) }
                    if !question.otherTexts.isEmpty {
                        members["otherTexts"] = .array(
                            question.otherTexts.map { ["text": .string($0.text), "count": .number(Double($0.count))] })
                    }
                    return .object(members)
                }),
            "units": .array(
                units.map {
                    [
                        "unitId": .string($0.unitID), "reached": .number(Double($0.reached)),
                        "stopped": .number(Double($0.stopped)), "medianSeconds": number($0.medianSeconds),
                    ]
                }),
            "paths": .array(
                paths.map { ["path": .array($0.path.map(JSONValue.string)), "count": .number(Double($0.count))] }),
            "quotas": quotas?.jsonValue["quotas"] ?? .array([]),
        ]
    }
}

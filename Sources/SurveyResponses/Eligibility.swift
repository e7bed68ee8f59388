import Foundation
import SurveyCore

/// Whether to ask a respondent a survey now, and why: the one decision every front end makes before
/// starting a new response (`survey run`, the JSON protocol's `not-asked` event, `survey eligible`,
/// the HTTP server), made from the survey's rules (`Targeting`), the respondent's history in the
/// store and an injected clock.
///
/// ```swift
/// let report = try Eligibility.decide(respondent: "user-42", survey: survey, store: store, at: now)
/// switch report.decision {
/// case .ask: break  // start the response
/// case .skip(let skip): print(skip.message)  // "'user-42' already completed 'feedback' on …"
/// }
/// for verdict in report.verdicts { print(verdict.rule, verdict.outcome, verdict.detail) }
/// ```
///
/// Every rule is judged (``Report/verdicts``, in ``Rule`` order); the first that says no decides.
/// A respondent's unfinished response is not a new display: ``ResponseStart`` continues it before
/// asking this.
public enum Eligibility {
    /// A rule of docs/targeting.md, in the order they are judged.
    public enum Rule: String, Sendable, Hashable, CaseIterable {
        /// `settings.schedule`: from its start, until its end.
        case schedule
        /// `settings.display` (or `askAgain`): once, until submitted, always, at most N.
        case display
        /// `settings.recontactDays` (or `askAgain`'s duration): the wait after the last completion or dismissal.
        case recontact
        /// The global cooldown: the wait after the respondent was last shown any survey.
        case cooldown
        /// `settings.audience`: an expression over the respondent's attributes and history.
        case audience
        /// `settings.rollout`: a fixed share of respondents, chosen from respondent and survey id.
        case rollout
    }

    /// Where the global cooldown comes from.
    public enum Cooldown: Sendable, Hashable {
        /// The store's setting (``cooldownSetting``), if any.
        case store
        /// This wait (`nil`: none), whatever the store says.
        case fixed(ISODuration?)
    }

    /// The name of the store setting (``ResponseStore/setting(named:)``) holding the global cooldown,
    /// an ISO-8601 duration such as `P7D`.
    public static let cooldownSetting = "cooldown"

    /// What one rule says.
    public struct Verdict: Sendable, Hashable {
        public enum Outcome: String, Sendable, Hashable {
            /// The rule lets the respondent be asked.
            case pass
            /// The rule says not now (or never).
            case skip
            /// The survey does not use the rule.
            case off
        }

        public var rule: Rule
        public var outcome: Outcome
        /// What the rule looked at, in a sentence.
        public var detail: String
        /// Why it said no, when it did.
        public var skip: Skip?
    }

    /// Why a respondent is not asked.
    public struct Skip: Sendable, Hashable {
        /// The rule that said no.
        public var rule: Rule
        /// The machine-readable reason (the `not-asked` event's `reason`): `completed`, `dismissed` or
        /// `endedByQuota` (the display or recontact rule after that finish), `displayLimit`, `notStarted`, `ended`,
        /// `cooldown`, `audience`, `rollout`.
        public var reason: String
        /// What the rule saw, in words ("already completed 'feedback' on …").
        public var explanation: String
        /// From when the rule will let the respondent be asked; `nil` when never (or not known).
        public var until: Date?
        /// For `completed` / `dismissed`: when.
        public var finishedAt: Date?
        /// The survey.
        public var surveyID: String
        /// What the survey's setting says when there is no ``until`` ("askAgain is never").
        public var setting: String
        /// The survey's `settings.askAgain` (in the event, as before the other rules existed).
        public var askAgain: AskAgainPolicy
    }

    /// The outcome.
    public enum Decision: Sendable, Hashable {
        case ask
        case skip(Skip)
    }

    /// The decision and every rule's verdict.
    public struct Report: Sendable, Hashable {
        public var decision: Decision
        public var verdicts: [Verdict]

        /// Whether the respondent is asked.
        public var asks: Bool { decision == .ask }
    }

    /// Decides for `respondent` at `date`, reading their history from `store` (one read, one more
    /// for the store's cooldown setting when `cooldown` is ``Cooldown/store``, and one for their
    /// attributes when the survey has an audience).
    /// - Parameters:
    ///   - respondent: the respondent's id.
    ///   - survey: the survey they might be asked.
    ///   - store: where their history is read.
    ///   - date: the moment of the decision.
    ///   - cooldown: the global cooldown: the store's setting (``Cooldown/store``) or one given here.
    ///   - attributes: attributes the host gives now, over those stored (this call does not store
    ///     them: ``ResponseStore/setAttributes(_:of:at:)`` does, as `ResponseStart.begin` does).
    /// - Throws: ``StoreError`` when the store cannot be read, or its cooldown setting is not a duration.
    public static func decide(
        respondent: String, survey: Survey, store: any ResponseStore, at date: Date = Date(),
        cooldown: Cooldown = .store, attributes: [String: JSONValue] = [:]
    ) throws(StoreError) -> Report {
        let wait: ISODuration?
        switch cooldown {
        case .fixed(let fixed): wait = fixed
        case .store: wait = try storeCooldown(store)
        }
        var known = attributes
        if survey.definition.settings.audience != nil {
            known = try store.attributes(of: respondent).merging(attributes) { _, given in given }
        }
        return decide(
            respondent: respondent, survey: survey, history: try store.history(respondent: respondent), at: date,
            cooldown: wait, attributes: known)
    }

    /// The store's global cooldown (``cooldownSetting``).
    /// - Throws: ``StoreError`` when it cannot be read or is not an ISO-8601 duration.
    public static func storeCooldown(_ store: any ResponseStore) throws(StoreError) -> ISODuration? {
        guard let text = try store.setting(named: cooldownSetting) else { return nil }
        guard let duration = ISODuration(text) else {
            throw StoreError(
                .corrupt, "the store's cooldown setting '\(text)' is not an ISO-8601 duration", store: store.name)
        }
        return duration
    }

    /// Decides from a history already read (``ResponseStore/history(respondent:)``): no store, no clock.
    /// - Parameters:
    ///   - respondent: the respondent's id.
    ///   - survey: the survey they might be asked.
    ///   - history: what they did before (``ResponseStore/history(respondent:)``).
    ///   - date: the moment of the decision.
    ///   - cooldown: the global cooldown, if any.
    ///   - attributes: the respondent's attributes, for the audience.
    public static func decide(
        respondent: String, survey: Survey, history: RespondentHistory, at date: Date, cooldown: ISODuration? = nil,
        attributes: [String: JSONValue] = [:]
    ) -> Report {
        let targeting = Targeting(settings: survey.definition.settings)
        let record = history[survey.id]
        let verdicts = [
            schedule(targeting, survey: survey, at: date),
            display(targeting.display, record: record, survey: survey),
            recontact(targeting.recontact, record: record, survey: survey, at: date),
            self.cooldown(cooldown, history: history, survey: survey, at: date),
            audience(targeting.audience, attributes: attributes, history: history, survey: survey, at: date),
            rollout(targeting.rollout, respondent: respondent, survey: survey),
        ]
        let decision = verdicts.lazy.compactMap(\.skip).first.map(Decision.skip) ?? .ask
        return Report(decision: decision, verdicts: verdicts)
    }

    /// "already completed 'feedback' on T"
    static func finished(_ last: (status: ResponseStatus, at: Date), surveyID: String) -> String {
        let what =
            switch last.status {
            case .completed: "already completed '\(surveyID)'"
            case .endedByQuota: "was already screened out of '\(surveyID)' by a full quota"
            default: "already dismissed '\(surveyID)'"
            }
        return what + " on " + ResponseExport.timestamp(last.at)
    }

    /// The skip reason after a finish: `completed`, `dismissed` or `endedByQuota`.
    static func reason(after status: ResponseStatus) -> String {
        status == .endedByQuota ? "endedByQuota" : status.rawValue
    }

    static func display(_ rule: DisplayRule, record: RespondentHistory.Record, survey: Survey) -> Verdict {
        let surveyID = survey.id
        let askAgain = survey.definition.settings.askAgain
        let setting = Targeting.displayPhrase(survey.definition.settings)
        func skip(_ last: (status: ResponseStatus, at: Date)) -> Verdict {
            let explanation = finished(last, surveyID: surveyID)
            return Verdict(
                rule: .display, outcome: .skip, detail: "\(rule): \(explanation)",
                skip: Skip(
                    rule: .display, reason: reason(after: last.status), explanation: explanation, until: nil,
                    finishedAt: last.at, surveyID: survey.id, setting: setting, askAgain: askAgain))
        }
        switch rule {
        case .always:
            return Verdict(rule: .display, outcome: .pass, detail: "always: shown \(times(record.displays)) before")
        case .once:
            if let last = record.lastFinished { return skip(last) }
            return Verdict(rule: .display, outcome: .pass, detail: "once: never completed nor dismissed")
        case .untilSubmitted:
            // Screened out by a quota: they submitted what they were asked.
            let submitted = [
                record.lastCompletedAt.map { (status: ResponseStatus.completed, at: $0) },
                record.lastQuotaEndedAt.map { (status: ResponseStatus.endedByQuota, at: $0) },
            ].compactMap { $0 }.max { $0.at < $1.at }
            if let submitted { return skip(submitted) }
            return Verdict(rule: .display, outcome: .pass, detail: "untilSubmitted: never completed")
        case .atMost(let limit):
            guard record.displays >= limit else {
                return Verdict(
                    rule: .display, outcome: .pass, detail: "at most \(limit): shown \(times(record.displays)) before")
            }
            let explanation = "was already shown '\(surveyID)' \(times(record.displays)) (at most \(limit))"
            return Verdict(
                rule: .display, outcome: .skip, detail: "at most \(limit): shown \(times(record.displays))",
                skip: Skip(
                    rule: .display, reason: "displayLimit", explanation: explanation, until: nil, finishedAt: nil,
                    surveyID: survey.id, setting: setting, askAgain: askAgain))
        }
    }

    static func recontact(_ wait: ISODuration?, record: RespondentHistory.Record, survey: Survey, at date: Date)
        -> Verdict
    {
        let surveyID = survey.id
        guard let wait else { return Verdict(rule: .recontact, outcome: .off, detail: "no wait") }
        guard let last = record.lastFinished else {
            return Verdict(rule: .recontact, outcome: .pass, detail: "\(wait): never completed nor dismissed")
        }
        let again = wait.adding(to: last.at)
        guard date < again else {
            return Verdict(
                rule: .recontact, outcome: .pass,
                detail: "\(wait): last finished \(ResponseExport.timestamp(last.at)), asked again from "
                    + ResponseExport.timestamp(again))
        }
        let explanation = finished(last, surveyID: surveyID)
        return Verdict(
            rule: .recontact, outcome: .skip,
            detail: "\(wait): \(explanation), asked again from \(ResponseExport.timestamp(again))",
            skip: Skip(
                rule: .recontact, reason: reason(after: last.status), explanation: explanation, until: again,
                finishedAt: last.at, surveyID: survey.id, setting: "recontact after \(wait)",
                askAgain: survey.definition.settings.askAgain))
    }

    /// A skip of `rule` with `reason`.
    static func skip(
        _ rule: Rule, _ reason: String, _ explanation: String, survey: Survey, until: Date? = nil, setting: String
    ) -> Skip {
        Skip(
            rule: rule, reason: reason, explanation: explanation, until: until, finishedAt: nil, surveyID: survey.id,
            setting: setting, askAgain: survey.definition.settings.askAgain)
    }

    static func schedule(_ targeting: Targeting, survey: Survey, at date: Date) -> Verdict {
        guard targeting.start != nil || targeting.end != nil else {
            return Verdict(rule: .schedule, outcome: .off, detail: "no schedule")
        }
        let window =
            "from \(targeting.start.map(ResponseExport.timestamp) ?? "the start") until \(targeting.end.map(ResponseExport.timestamp) ?? "no end")"
        if let start = targeting.start, date < start {
            let explanation = "is not asked '\(survey.id)' before \(ResponseExport.timestamp(start))"
            return Verdict(
                rule: .schedule, outcome: .skip, detail: "\(window): not started",
                skip: skip(.schedule, "notStarted", explanation, survey: survey, until: start, setting: window))
        }
        if let end = targeting.end, date >= end {
            let explanation = "is not asked '\(survey.id)' since it ended on \(ResponseExport.timestamp(end))"
            return Verdict(
                rule: .schedule, outcome: .skip, detail: "\(window): ended",
                skip: skip(.schedule, "ended", explanation, survey: survey, setting: "the schedule ended"))
        }
        return Verdict(rule: .schedule, outcome: .pass, detail: window)
    }

    static func cooldown(_ wait: ISODuration?, history: RespondentHistory, survey: Survey, at date: Date) -> Verdict {
        guard let wait else { return Verdict(rule: .cooldown, outcome: .off, detail: "no global cooldown") }
        guard let last = history.lastDisplayedAt,
            let (lastSurvey, _) = history.surveys.first(where: { $0.value.lastDisplayedAt == last })
        else {
            return Verdict(rule: .cooldown, outcome: .pass, detail: "\(wait): never shown a survey")
        }
        let again = wait.adding(to: last)
        let shown = "last shown '\(lastSurvey)' on \(ResponseExport.timestamp(last))"
        guard date < again else {
            return Verdict(rule: .cooldown, outcome: .pass, detail: "\(wait): \(shown)")
        }
        return Verdict(
            rule: .cooldown, outcome: .skip,
            detail: "\(wait): \(shown), asked again from \(ResponseExport.timestamp(again))",
            skip: skip(
                .cooldown, "cooldown", "was \(shown) (global cooldown \(wait))", survey: survey, until: again,
                setting: "cooldown \(wait)"))
    }

    static func audience(
        _ source: String?, attributes: [String: JSONValue], history: RespondentHistory, survey: Survey, at date: Date
    ) -> Verdict {
        guard let source else { return Verdict(rule: .audience, outcome: .off, detail: "everyone") }
        let compiled: (expression: SurveyCore.Expression, attributes: [String])
        do {
            compiled = try Targeting.compileAudience(source, functions: historyFunctions(history, at: date))
        } catch {
            // Loading checked it; a survey built in code may not have been.
            return Verdict(
                rule: .audience, outcome: .skip, detail: "\(source): \(error)",
                skip: skip(
                    .audience, "audience", "cannot be matched: the audience does not compile (\(error))",
                    survey: survey, setting: "audience"))
        }
        let values = compiled.attributes.map { attributes[$0] ?? .null }
        let seen = zip(compiled.attributes, values).map { "@\($0)=\(JSONWriter.string(from: $1))" }
        let detail = source + (seen.isEmpty ? "" : " with " + seen.joined(separator: ", "))
        let context = FunctionContext(today: String(ResponseExport.timestamp(date).prefix(10)))
        guard !compiled.expression.isTrue(values, context: context) else {
            return Verdict(rule: .audience, outcome: .pass, detail: detail)
        }
        return Verdict(
            rule: .audience, outcome: .skip, detail: detail + " is false",
            skip: skip(
                .audience, "audience", "is not in the audience of '\(survey.id)' (\(source))", survey: survey,
                setting: "audience"))
    }

    /// The standard functions and the history functions of `Targeting/historyFunctions`, answering
    /// from `history` at `date`.
    public static func historyFunctions(_ history: RespondentHistory, at date: Date) -> ExpressionFunctionRegistry {
        var registry = ExpressionFunctionRegistry.standard
        @Sendable func record(_ arguments: [JSONValue]) throws(ExpressionError) -> RespondentHistory.Record {
            guard case .string(let survey) = arguments[0] else {
                throw ExpressionError("the first argument of a history function is a survey id")
            }
            return history[survey]
        }
        @Sendable func within(_ last: Date?, _ arguments: [JSONValue]) throws(ExpressionError) -> JSONValue {
            guard let last else { return .bool(false) }
            guard arguments.count > 1 else { return .bool(true) }
            guard case .string(let text) = arguments[1], let window = ISODuration(text) else {
                throw ExpressionError("the window of a history function is an ISO-8601 duration such as 'P30D'")
            }
            return .bool(window.adding(to: last) >= date)
        }
        let functions: [ExpressionFunction] = [
            ExpressionFunction(name: "completed", arity: 1...2, isPure: false) { arguments, _ throws(ExpressionError) in
                try within(try record(arguments).lastCompletedAt, arguments)
            },
            ExpressionFunction(name: "dismissed", arity: 1...2, isPure: false) { arguments, _ throws(ExpressionError) in
                try within(try record(arguments).lastDismissedAt, arguments)
            },
            ExpressionFunction(name: "displayed", arity: 1...2, isPure: false) { arguments, _ throws(ExpressionError) in
                try within(try record(arguments).lastDisplayedAt, arguments)
            },
            ExpressionFunction(name: "completions", arity: 1...1, isPure: false) {
                arguments, _ throws(ExpressionError) in
                .number(Double(try record(arguments).completions))
            },
            ExpressionFunction(name: "dismissals", arity: 1...1, isPure: false) {
                arguments, _ throws(ExpressionError) in
                .number(Double(try record(arguments).dismissals))
            },
            ExpressionFunction(name: "displays", arity: 1...1, isPure: false) { arguments, _ throws(ExpressionError) in
                .number(Double(try record(arguments).displays))
            },
        ]
        for function in functions {
            do { try registry.register(function) } catch { assertionFailure("duplicate history function") }
        }
        return registry
    }

    static func rollout(_ percentage: Double?, respondent: String, survey: Survey) -> Verdict {
        guard let percentage else { return Verdict(rule: .rollout, outcome: .off, detail: "everyone") }
        let bucket = rolloutBucket(respondent: respondent, surveyID: survey.id)
        let included = Double(bucket) < percentage * 100
        let detail = "\(JSONValue.format(number: percentage)) %: bucket \(bucket) of 10000"
        guard !included else { return Verdict(rule: .rollout, outcome: .pass, detail: detail) }
        return Verdict(
            rule: .rollout, outcome: .skip, detail: detail + " is outside",
            skip: skip(
                .rollout, "rollout",
                "is outside the \(JSONValue.format(number: percentage)) % rollout of '\(survey.id)'",
                survey: survey, setting: "rollout"))
    }

    /// The respondent's rollout bucket for a survey, 0..<10000: the same for the same pair, every time,
    /// in every process (FNV-1a of the UTF-8 of survey id, a zero byte and respondent id, mixed by
    /// SplitMix64's finalizer). A rollout of p % asks the buckets below p × 100.
    public static func rolloutBucket(respondent: String, surveyID: String) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func add(_ byte: UInt8) {
            hash ^= UInt64(byte)
            hash &*= 0x100_0000_01b3
        }
        for byte in surveyID.utf8 { add(byte) }
        add(0)
        for byte in respondent.utf8 { add(byte) }
        hash ^= hash >> 30
        hash &*= 0xbf58_476d_1ce4_e5b9
        hash ^= hash >> 27
        hash &*= 0x94d0_49bb_1331_11eb
        hash ^= hash >> 31
        return Int(hash % 10_000)
    }

    static func times(_ count: Int) -> String { count == 1 ? "once" : "\(count) times" }
}

extension Eligibility.Skip {
    /// Why the respondent is not asked, in a sentence a person can act on.
    ///
    /// ```swift
    /// skip.message(respondent: "user-42")
    /// // "'user-42' already completed 'feedback' on 2026-12-01T10:00:00Z; not asking again (askAgain is never)"
    /// ```
    ///
    /// The closing words follow the reason: after a finish or a display limit, "not asking again";
    /// outside the audience or the rollout (a respondent perhaps never asked), "not asking them";
    /// before the schedule's start, "not asking yet"; in the cooldown, "not asking now".
    public func message(respondent: String) -> String {
        let when = until.map { ResponseExport.timestamp($0) }
        let closing: String
        switch rule {
        case .display, .recontact:
            closing = "not asking again (\(when.map { "it will be asked again from \($0)" } ?? setting))"
        case .audience:
            closing = "not asking them (only the audience is asked)"
        case .rollout:
            closing = "not asking them (only the rollout is asked)"
        case .schedule:
            closing = when.map { "not asking yet (it will be asked from \($0))" } ?? "not asking (\(setting))"
        case .cooldown:
            closing = "not asking now (\(when.map { "it can be asked from \($0)" } ?? setting))"
        }
        return "'\(respondent)' \(explanation); \(closing)"
    }

    /// The JSON-event protocol's `not-asked` event, the only event of a run whose respondent is not
    /// asked (see docs/json-event-protocol.md):
    ///
    /// ```json
    /// {"event":"not-asked","surveyId":"feedback","respondentId":"user-42","reason":"completed",
    ///  "rule":"recontact","finishedAt":"2026-12-01T10:00:00Z","askAgain":"P30D",
    ///  "askedAgainFrom":"2026-12-31T10:00:00Z","message":"'user-42' already completed 'feedback' on …"}
    /// ```
    ///
    /// `reason` is the machine-readable reason, `rule` the rule that said no (docs/targeting.md);
    /// `askedAgainFrom` is `null` when the rule does not ask again (or cannot say when);
    /// `finishedAt` is there when `reason` is `completed`, `dismissed` or `endedByQuota`.
    public func event(respondent: String) -> JSONValue {
        var members: [String: JSONValue] = [
            "event": .string("not-asked"),
            "surveyId": .string(surveyID),
            "respondentId": .string(respondent),
            "reason": .string(reason),
            "rule": .string(rule.rawValue),
            "askAgain": .string(askAgain.description),
            "askedAgainFrom": until.map { .string(ResponseExport.timestamp($0)) } ?? .null,
            "message": .string(message(respondent: respondent)),
        ]
        if let finishedAt { members["finishedAt"] = .string(ResponseExport.timestamp(finishedAt)) }
        return .object(members)
    }
}

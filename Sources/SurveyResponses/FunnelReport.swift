import SurveyCore

/// The funnel of one survey: how many responses were offered, started, completed and dismissed,
/// and per unit and question how many saw, answered, dismissed, or stopped there.
///
/// Counts are of responses (a question seen twice after Back counts once). Built from a store's
/// ``FunnelCounts`` and the survey's structure, so it costs the same for 10 or 10 million responses.
public struct FunnelReport: Sendable, Hashable {
    /// One question (leaf step).
    public struct StepRow: Sendable, Hashable {
        public var stepID: String
        public var seen: Int
        public var answered: Int
        public var dismissed: Int
        /// `answered / seen`, `nil` when nobody saw it.
        public var answerRate: Double? { seen == 0 ? nil : Double(answered) / Double(seen) }
    }

    /// One unit (page or top-level step), in document order.
    public struct UnitRow: Sendable, Hashable {
        public var unitID: String
        /// Responses that saw at least one of its questions (the most seen of them).
        public var reached: Int
        /// Responses that stopped on it without completing (in progress, dismissed or abandoned there).
        public var stopped: Int
        public var steps: [StepRow]
        /// `stopped / reached`: the drop-off at this unit, `nil` when nobody reached it.
        public var dropOffRate: Double? { reached == 0 ? nil : Double(stopped) / Double(reached) }
    }

    public var surveyID: String
    public var invitations: Int
    public var started: Int
    public var completed: Int
    public var dismissed: Int
    /// Responses a full quota ended (screened out): not completions.
    public var endedByQuota: Int
    /// Responses carried over to a new version of the survey while unfinished (each counted once).
    public var carriedOver: Int
    public var units: [UnitRow]
    /// Respondents the targeting rules did not ask, by reason (docs/targeting.md).
    public var notAsked: [String: Int]

    /// `completed / invitations`, `nil` before any invitation.
    public var completionRate: Double? { invitations == 0 ? nil : Double(completed) / Double(invitations) }

    /// The report for `survey` from `counts`. Steps the survey no longer has but the counts do (an
    /// older version) are listed after the survey's own, under a unit of their own id.
    public init(counts: FunnelCounts, survey: Survey) {
        surveyID = survey.id
        invitations = counts.survey[.invitationShown] ?? 0
        started = counts.survey[.started] ?? 0
        completed = counts.survey[.completed] ?? 0
        dismissed = counts.survey[.dismissed] ?? 0
        endedByQuota = counts.survey[.endedByQuota] ?? 0
        carriedOver = counts.survey[.carriedOver] ?? 0
        notAsked = counts.notAsked.filter { $0.value > 0 }
        func row(_ step: String) -> StepRow {
            let kinds = counts.steps[step] ?? [:]
            return StepRow(
                stepID: step, seen: kinds[.stepSeen] ?? 0, answered: kinds[.answered] ?? 0,
                dismissed: kinds[.dismissed] ?? 0)
        }
        var known = Set<String>()
        units = []
        for unit in survey.unitIDs {
            let all = survey.stepIDs(inUnit: unit)
            known.formUnion(all)
            known.insert(unit)
            // Switched-off questions are left out, unless an earlier version showed them.
            let steps = all.filter { survey.isSwitchedOn($0) || counts.steps[$0] != nil }.map(row)
            guard !steps.isEmpty else { continue }
            units.append(
                UnitRow(
                    unitID: unit, reached: steps.map(\.seen).max() ?? 0, stopped: counts.stoppedAt[unit] ?? 0,
                    steps: steps))
        }
        for step in counts.steps.keys.sorted() where !known.contains(step) {
            let row = row(step)
            units.append(
                UnitRow(unitID: step, reached: row.seen, stopped: counts.stoppedAt[step] ?? 0, steps: [row]))
        }
    }

    /// The report as JSON (rates as fractions 0…1, `null` when undefined).
    public var jsonValue: JSONValue {
        func rate(_ value: Double?) -> JSONValue { value.map { .number(($0 * 10_000).rounded() / 10_000) } ?? .null }
        var json: JSONValue = [
            "surveyId": .string(surveyID),
            "invitations": .number(Double(invitations)),
            "started": .number(Double(started)),
            "completed": .number(Double(completed)),
            "dismissed": .number(Double(dismissed)),
            "carriedOver": .number(Double(carriedOver)),
            "completionRate": rate(completionRate),
            "units": .array(
                units.map { unit in
                    [
                        "unitId": .string(unit.unitID),
                        "reached": .number(Double(unit.reached)),
                        "stopped": .number(Double(unit.stopped)),
                        "dropOffRate": rate(unit.dropOffRate),
                        "steps": .array(
                            unit.steps.map { step in
                                [
                                    "stepId": .string(step.stepID),
                                    "seen": .number(Double(step.seen)),
                                    "answered": .number(Double(step.answered)),
                                    "dismissed": .number(Double(step.dismissed)),
                                    "answerRate": rate(step.answerRate),
                                ]
                            }),
                    ]
                }),
        ]
        if !notAsked.isEmpty, case .object(var members) = json {
            members["notAsked"] = .object(notAsked.mapValues { .number(Double($0)) })
            json = .object(members)
        }
        if endedByQuota > 0, case .object(var members) = json {
            members["endedByQuota"] = .number(Double(endedByQuota))
            json = .object(members)
        }
        return json
    }

    /// The report as an aligned text table.
    public var text: String {
        func percent(_ value: Double?) -> String {
            guard let value else { return "–" }
            return String(Int((value * 100).rounded())) + "%"
        }
        var lines = [
            "Survey \(surveyID): \(invitations) invited, \(started) started, \(completed) completed "
                + "(\(percent(completionRate))), \(dismissed) dismissed"
                + (endedByQuota == 0 ? "" : ", \(endedByQuota) ended by a quota")
                + (carriedOver == 0 ? "" : ", \(carriedOver) carried over to a new version"), "",
        ]
        if !notAsked.isEmpty {
            let reasons = notAsked.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map { "\($0.key) \($0.value)" }
            lines.insert(
                "Not asked: \(notAsked.values.reduce(0, +)) (\(reasons.joined(separator: ", ")))", at: lines.count - 1)
        }
        var table = [["unit / step", "seen", "answered", "dismissed", "stopped", "drop-off"]]
        for unit in units {
            let isPage = unit.steps.count != 1 || unit.steps.first?.stepID != unit.unitID
            if isPage {
                table.append([
                    unit.unitID, String(unit.reached), "", "", String(unit.stopped), percent(unit.dropOffRate),
                ])
            }
            for step in unit.steps {
                table.append([
                    (isPage ? "  " : "") + step.stepID, String(step.seen), String(step.answered),
                    String(step.dismissed),
                    isPage ? "" : String(unit.stopped), isPage ? "" : percent(unit.dropOffRate),
                ])
            }
        }
        let widths = (0..<table[0].count).map { column in table.map { $0[column].count }.max() ?? 0 }
        for row in table {
            var line = ""
            for (column, cell) in row.enumerated() {
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                line += column == 0 ? cell + padding : "  " + padding + cell
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

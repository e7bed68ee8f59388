import Foundation
import SurveyCore
import SurveyResponses

let atOption = CommandSpec.Option(
    name: "--at", valueName: "TIME",
    help:
        "The time the targeting rules are decided at (YYYY-MM-DD or ISO 8601; default: now); run also stamps the response with it."
)

let cooldownOption = CommandSpec.Option(
    name: "--cooldown", valueName: "DURATION|none",
    help:
        "The global cooldown (ISO-8601, e.g. P7D): not asked within that time of being shown any survey; default: the store's setting (survey responses cooldown)."
)

/// `--cooldown`: a fixed wait, or the store's.
func cooldown(_ arguments: ParsedArguments, command: String) throws(UsageError) -> Eligibility.Cooldown {
    guard let text = arguments.value(cooldownOption) else { return .store }
    if text == "none" { return .fixed(nil) }
    guard let duration = ISODuration(text) else {
        throw UsageError(
            "--cooldown must be an ISO-8601 duration such as P7D, or none, got '\(text)'", command: command)
    }
    return .fixed(duration)
}

let attributeOption = CommandSpec.Option(
    name: "--attr", valueName: "NAME=VALUE",
    help:
        "An attribute of the respondent (JSON, or text when it is not JSON), as the host app knows it, for the survey's audience; run stores it in the response store.",
    isRepeatable: true)

/// The `--attr NAME=VALUE` options.
func attributes(_ arguments: ParsedArguments, command: String) throws(UsageError) -> [String: JSONValue] {
    var result: [String: JSONValue] = [:]
    for option in arguments.all(attributeOption) {
        guard let equals = option.firstIndex(of: "="), equals != option.startIndex else {
            throw UsageError("--attr must be NAME=VALUE, got '\(option)'", command: command)
        }
        let text = String(option[option.index(after: equals)...])
        result[String(option[..<equals])] = (try? JSONParser.parse(text)) ?? .string(text)
    }
    return result
}

/// `--at TIME`, or `nil` (now).
func decisionTime(_ arguments: ParsedArguments, command: String) throws(UsageError) -> Date? {
    guard let text = arguments.value(atOption) else { return nil }
    return try ResponsesCommand.time(text, "--at", command: command)
}

// MARK: eligible

enum EligibleCommand: Command {
    static let spec = CommandSpec(
        name: "eligible", summary: "Say whether a respondent would be asked a survey now, and every rule's verdict.",
        usage:
            "eligible FILE --respondent ID [--at TIME] [--attr NAME=VALUE]... [--cooldown DURATION|none] [--store PATH|URL]",
        positionalHelp: [("FILE", "The survey definition (JSON).")],
        options: [
            respondentOption, atOption, attributeOption, cooldownOption, storeOption, pluginOption,
            isolatePluginsOption, lenientExpressionsOption,
            pluginTimeoutOption,
        ],
        minimumPositionals: 1, maximumPositionals: 1,
        discussion: """
            Makes the decision `survey run` makes before starting a new response (docs/targeting.md), reading the
            respondent's history from the store, and prints it: first `ask` or `skip: REASON`, then one line per
            rule: its name, pass, skip or off (the survey does not use it), and what it looked at. --attr gives
            attributes over the stored ones, without storing them. A respondent
            with an unfinished response is not decided: `survey run` continues that response.
            Exit status: 0 ask (or an unfinished response continues), 3 skip, 1 a survey or store problem,
            2 wrong usage. A skip is an answer, not an error, yet not 0, so that `survey eligible FILE
            --respondent ID && show_the_survey` shows it only when asked and a script tells a skip (3) from a
            problem (1, 2). The store is only read.
            """)

    /// The exit status of a skip: not an error (1) nor wrong usage (2), so scripts can tell them apart.
    static let skipStatus = ExitCode.skip

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        guard arguments.value(respondentOption) != nil else {
            throw UsageError("--respondent ID is required", command: spec.name)
        }
        let respondent = try context.respondentID(arguments, command: spec.name)
        let at = try decisionTime(arguments, command: spec.name) ?? Date()
        let cooldown = try cooldown(arguments, command: spec.name)
        let given = try attributes(arguments, command: spec.name)
        let survey = try context.loadSurvey(arguments.positionals[0], plugins: PluginSelection(arguments))
        let location = arguments.value(storeOption) ?? context.defaultStorePath
        let store = try context.openStore(location, isDefault: arguments.value(storeOption) == nil)
        do {
            if let latest = try store.latestResponse(respondent: respondent, survey: survey.id),
                latest.status == .inProgress
            {
                Console.line("ask: continues unfinished response \(latest.id)")
                Console.line("  (the rules decide only new responses)")
                return .success
            }
            let report = try Eligibility.decide(
                respondent: respondent, survey: survey, store: store, at: at, cooldown: cooldown, attributes: given)
            switch report.decision {
            case .ask: Console.line("ask")
            case .skip(let skip): Console.line("skip: \(skip.reason) — \(skip.message(respondent: respondent))")
            }
            let width = (Eligibility.Rule.allCases.map(\.rawValue.count).max() ?? 0) + 2
            for verdict in report.verdicts {
                let name = verdict.rule.rawValue
                Console.line(
                    "  " + name + String(repeating: " ", count: width - name.count) + verdict.outcome.rawValue
                        + String(repeating: " ", count: 6 - verdict.outcome.rawValue.count) + verdict.detail)
            }
            return report.asks ? .success : skipStatus
        } catch {
            throw InputError(error.description)
        }
    }
}

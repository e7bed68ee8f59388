import Foundation
import SurveyCore
import SurveyDelivery
import SurveyResponses

let deliveryOption = CommandSpec.Option(
    name: "--delivery", valueName: "FILE",
    help: "The delivery configuration (targets; see docs/delivery.md); default $SURVEY_DELIVERY_CONFIG.")

extension CommandContext {
    /// The delivery configuration named by `--delivery` or `$SURVEY_DELIVERY_CONFIG`, if any.
    func deliveryConfiguration(_ arguments: ParsedArguments) throws(InputError) -> (
        configuration: DeliveryConfiguration, file: String
    )? {
        guard
            let file = arguments.value(deliveryOption)
                ?? environment["SURVEY_DELIVERY_CONFIG"].flatMap({ $0.isEmpty ? nil : $0 })
        else { return nil }
        let text = try read(file)
        do {
            return (try DeliveryConfiguration(text: text, file: file), file)
        } catch {
            throw InputError(error.description)
        }
    }
}

/// `survey deliver`: sends the store's pending deliveries.
enum DeliverCommand: Command {
    /// The options only this command declares, read by these constants.
    enum Options {
        static let status = CommandSpec.Option(
            name: "--status", valueName: nil,
            help:
                "Print how many deliveries are pending, delivered and failed (with the last error), and send nothing."
        )
        static let retryFailed = CommandSpec.Option(
            name: "--retry-failed", valueName: nil, help: "Make failed deliveries pending again first.")
        static let wait = CommandSpec.Option(
            name: "--wait", valueName: "SECONDS",
            help:
                "Keep going until nothing is pending (retries included) or SECONDS have passed (default: one pass)."
        )
        static let concurrency = CommandSpec.Option(
            name: "--concurrency", valueName: "N", help: "Requests in flight at once (default 4).")
        static let survey = CommandSpec.Option(
            name: "--survey", valueName: "FILE",
            help: "A survey whose question texts an airtable target sends (repeatable; else the step ids).",
            isRepeatable: true)
    }

    static let spec = CommandSpec(
        name: "deliver", summary: "Send completed responses to the configured targets (the store's outbox).",
        usage: "deliver [--store PATH|URL] [--delivery FILE] [--status] [--retry-failed] [--wait SECONDS]",
        positionalHelp: [],
        options: [
            storeOption, deliveryOption,
            Options.status,
            Options.retryFailed,
            Options.wait,
            Options.concurrency,
            Options.survey,
            pluginOption,
        ],
        minimumPositionals: 0, maximumPositionals: 0,
        discussion: """
            A response is queued for every target of the configuration in the same store transaction that
            completes it (survey run --delivery FILE, or $SURVEY_DELIVERY_CONFIG). Each attempt sends the
            response's id as its idempotency key; a failed attempt is retried with exponential backoff
            and jitter (the target's Retry-After when longer), up to the target's maxAttempts, after
            which the delivery is parked as failed. Credentials come only from the environment variables
            the configuration names, and are never printed.
            Exit status: 0 when nothing failed in this run; 1 when a delivery failed for good, or on a
            store or configuration problem; 2 wrong usage.
            """)

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        let location = arguments.value(storeOption) ?? context.defaultStorePath
        if arguments.value(storeOption) == nil, !FileManager.default.fileExists(atPath: location) {
            throw InputError("\(location): no responses are stored yet (--store to choose another store)")
        }
        let store = try context.openStore(location)
        if arguments.flag(Options.status) { return try status(store) }
        guard let (configuration, _) = try context.deliveryConfiguration(arguments) else {
            throw UsageError("give the targets with --delivery FILE (or $SURVEY_DELIVERY_CONFIG)", command: spec.name)
        }
        var wait: TimeInterval?
        if let text = arguments.value(Options.wait) {
            guard let seconds = Double(text), seconds >= 0, seconds <= 86_400 else {
                throw UsageError("--wait must be a number of seconds, got '\(text)'", command: spec.name)
            }
            wait = seconds
        }
        var concurrency = 4
        if let text = arguments.value(Options.concurrency) {
            guard let number = Int(text), (1...64).contains(number) else {
                throw UsageError("--concurrency must be a whole number from 1 to 64, got '\(text)'", command: spec.name)
            }
            concurrency = number
        }
        do {
            if arguments.flag(Options.retryFailed) {
                let count = try store.retryFailedDeliveries(at: Date())
                Console.error("\(count) failed deliver\(count == 1 ? "y is" : "ies are") pending again")
            }
            var deliverer = Deliverer(
                store: store, configuration: configuration, environment: context.environment,
                concurrency: concurrency)
            for file in arguments.all(Options.survey) {
                let survey = try context.loadSurvey(file, plugins: PluginSelection(arguments))
                deliverer.surveys[survey.id] = survey
            }
            let report =
                try wait.map { try deliverer.deliverAll(until: Date().addingTimeInterval($0)) }
                ?? deliverer.deliverDue()
            var line = "delivered \(report.delivered), to retry \(report.retried), failed \(report.failed)"
            if let next = report.nextDue {
                line += "; pending ones are due from \(ResponseExport.timestamp(next))"
            }
            Console.line(line)
            return report.failed > 0 ? .failure : .success
        } catch {
            throw InputError("\(error)")
        }
    }

    /// `--status`: the outbox's counts and its failed deliveries.
    static func status(_ store: any ResponseStore) throws -> ExitCode {
        let jobs: [DeliveryJob]
        do {
            jobs = try store.deliveries(status: nil)
        } catch {
            throw InputError(error.description)
        }
        var counts: [DeliveryStatus: Int] = [:]
        for job in jobs { counts[job.status, default: 0] += 1 }
        Console.line(DeliveryStatus.allCases.map { "\($0.rawValue) \(counts[$0] ?? 0)" }.joined(separator: ", "))
        for job in jobs where job.status != .delivered {
            var line = "\(job.status.rawValue)  \(job.responseID)  \(job.target)  attempts \(job.attempts)"
            if job.status == .pending { line += "  due \(ResponseExport.timestamp(job.nextAttemptAt))" }
            if let error = job.lastError { line += "  last error: \(error)" }
            Console.line(line)
        }
        return .success
    }
}

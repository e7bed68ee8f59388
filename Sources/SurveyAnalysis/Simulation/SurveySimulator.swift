import Dispatch
import Foundation
import SurveyCore

/// Seeded synthetic respondents: how many see each question, how long paths are, how many complete,
/// which paths are most common, and how long a respondent would take.
///
/// Every respondent is a real ``SurveySession`` with its own seed (`seed + number`), so a run is
/// reproducible and obeys every rule the engine has. Respondents answer each visible question from
/// its input primitive: uniformly, or by the weights of a ``SimulationProfile``; optional questions
/// are skipped with the profile's skip probability. Runs on every core.
///
/// ```swift
/// let report = SurveySimulator(survey: survey, profile: .uniform).run(respondents: 10_000, seed: 1)
/// print(report.completionShare, report.reach["contact"] ?? 0)
/// ```
public struct SurveySimulator: Sendable {
    public let survey: Survey
    public let profile: SimulationProfile

    public init(survey: Survey, profile: SimulationProfile = SimulationProfile()) {
        self.survey = survey
        self.profile = profile
    }

    /// Runs `respondents` respondents with seeds `seed`, `seed + 1`, ….
    public func run(respondents: Int, seed: UInt64 = 0, today: String = "2026-01-01") -> SimulationReport {
        let plan = SimulationPlan(survey: survey, profile: profile)
        let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, respondents / 64 + 1))
        let partials = PartialSlots(count: workers)
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            var tally = Tally(stepCount: survey.stepCount)
            // One session per worker, restarted for each respondent: no allocation per respondent.
            var session = SurveySession(survey: survey, seed: seed &+ UInt64(worker), today: today)
            var number = worker
            while number < respondents {
                session.restart(seed: seed &+ UInt64(number))
                plan.simulate(&session, into: &tally)
                number += workers
            }
            partials[worker] = tally
        }
        var total = Tally(stepCount: survey.stepCount)
        for partial in partials.values { total.merge(partial) }
        return SimulationReport(survey: survey, tally: total, respondents: respondents, seed: seed)
    }
}

/// How synthetic respondents answer.
///
/// As JSON (`survey simulate --profile FILE`):
/// ```json
/// {"skipOptional": 0.1,
///  "weights": {"discovery": {"google": 5, "instagram": 2, "app-store": 1}},
///  "secondsPerQuestion": {"text": 20, "single-choice": 4}}
/// ```
public struct SimulationProfile: Sendable, Hashable {
    /// The chance that an optional question is left unanswered.
    public var skipOptional: Double
    /// Per step id, a weight per choice value (unlisted choices weigh 0 when any weight is given).
    public var weights: [String: [String: Double]]
    /// Seconds a respondent spends on a question, by input kind (`single-choice`, `free-text`, …) or
    /// question type id; the defaults cover every kind.
    public var secondsPerQuestion: [String: Double]

    public static let defaultSeconds: [String: Double] = [
        "none": 5, "free-text": 15, "single-choice": 4, "multiple-choice": 7, "number": 5, "boolean": 2,
        "date": 6, "composite": 30, "file-reference": 25,
    ]

    public init(
        skipOptional: Double = 0.1, weights: [String: [String: Double]] = [:],
        secondsPerQuestion: [String: Double] = [:]
    ) {
        self.skipOptional = skipOptional
        self.weights = weights
        self.secondsPerQuestion = secondsPerQuestion
    }

    /// Reads a profile; `path` names the file in errors.
    public init(json: JSONValue, path: String) throws(SimulationError) {
        guard case .object(let members) = json else {
            throw SimulationError("\(path): a simulation profile must be a JSON object")
        }
        for key in members.keys where !["skipOptional", "weights", "secondsPerQuestion"].contains(key) {
            throw SimulationError(
                "\(path): unknown member '\(key)' (expected skipOptional, weights, secondsPerQuestion)")
        }
        self.init()
        if let value = members["skipOptional"] {
            guard let share = value.numberValue, (0...1).contains(share) else {
                throw SimulationError("\(path): 'skipOptional' must be a number from 0 to 1")
            }
            skipOptional = share
        }
        for (step, table) in members["weights"]?.objectValue ?? [:] {
            guard case .object(let entries) = table else {
                throw SimulationError("\(path): weights of '\(step)' must be an object (choice value → weight)")
            }
            var parsed: [String: Double] = [:]
            for (choice, weight) in entries {
                guard let number = weight.numberValue, number >= 0, number.isFinite else {
                    throw SimulationError("\(path): the weight of '\(choice)' for '\(step)' must be a number ≥ 0")
                }
                parsed[choice] = number
            }
            weights[step] = parsed
        }
        for (kind, seconds) in members["secondsPerQuestion"]?.objectValue ?? [:] {
            guard let number = seconds.numberValue, number >= 0, number.isFinite else {
                throw SimulationError("\(path): secondsPerQuestion of '\(kind)' must be a number ≥ 0")
            }
            secondsPerQuestion[kind] = number
        }
    }
}

/// A problem with a simulation's input.
public struct SimulationError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// What the respondents did.
public struct SimulationReport: Sendable {
    public var surveyID: String
    public var respondents: Int
    public var seed: UInt64
    public var completed: Int
    /// Respondents stopped by a question none of the generated answers could pass.
    public var stuck: Int
    /// The questions that stopped them (step id → respondents).
    public var stuckAt: [String: Int]
    /// Share of respondents who saw each step (leaf step id → 0…1), in document order.
    public var reach: [(stepID: String, share: Double)]
    /// Number of units on the path → respondents.
    public var pathLengths: [Int: Int]
    /// The most common paths, most common first.
    public var topPaths: [(path: [String], count: Int)]
    /// Estimated seconds per respondent.
    public var meanSeconds: Double
    public var medianSeconds: Double

    public var completionShare: Double { respondents == 0 ? 0 : Double(completed) / Double(respondents) }

    init(survey: Survey, tally: Tally, respondents: Int, seed: UInt64) {
        surveyID = survey.id
        self.respondents = respondents
        self.seed = seed
        completed = tally.completed
        stuck = tally.stuck
        stuckAt = tally.stuckAt
        let stepIDs = survey.stepIDs
        let unitIDs = survey.unitIDs
        reach = stepIDs.indices.map {
            (stepIDs[$0], respondents == 0 ? 0 : Double(tally.seen[$0]) / Double(respondents))
        }
        pathLengths = tally.pathLengths
        topPaths = tally.paths.sorted {
            $0.value > $1.value || ($0.value == $1.value && $0.key.lexicographicallyPrecedes($1.key))
        }.prefix(10).map { ($0.key.map { unitIDs[$0] }, $0.value) }
        let seconds = tally.seconds.sorted()
        meanSeconds = seconds.isEmpty ? 0 : seconds.reduce(0, +) / Double(seconds.count)
        medianSeconds = seconds.isEmpty ? 0 : seconds[seconds.count / 2]
    }

    public var jsonValue: JSONValue {
        func rounded(_ value: Double) -> JSONValue { .number((value * 10_000).rounded() / 10_000) }
        return [
            "surveyId": .string(surveyID), "respondents": .number(Double(respondents)), "seed": .string(String(seed)),
            "completed": .number(Double(completed)), "completionShare": rounded(completionShare),
            "stuck": .number(Double(stuck)),
            "stuckAt": .object(stuckAt.mapValues { .number(Double($0)) }),
            "reach": .object(Dictionary(uniqueKeysWithValues: reach.map { ($0.stepID, rounded($0.share)) })),
            "pathLengths": .object(
                Dictionary(
                    uniqueKeysWithValues: pathLengths.map { (String($0.key), JSONValue.number(Double($0.value))) })),
            "topPaths": .array(
                topPaths.map { ["path": .array($0.path.map { .string($0) }), "count": .number(Double($0.count))] }),
            "meanSeconds": rounded(meanSeconds), "medianSeconds": rounded(medianSeconds),
        ]
    }

    public var text: String {
        var lines = [
            "Survey \(surveyID): \(respondents) simulated respondents (seed \(seed)), "
                + "\(completed) completed (\(Int((completionShare * 100).rounded()))%)"
                + (stuck > 0 ? ", \(stuck) stuck on a question no generated answer passes" : ""),
            String(format: "Estimated time per respondent: mean %.0f s, median %.0f s", meanSeconds, medianSeconds),
        ]
        if !stuckAt.isEmpty {
            lines.append(
                "Stuck at: "
                    + stuckAt.sorted { $0.value > $1.value }.map { "\($0.key) (\($0.value))" }.joined(separator: ", "))
        }
        lines += ["", "Reach per question:"]
        let width = reach.map(\.stepID.count).max() ?? 0
        for (step, share) in reach {
            let bar = String(repeating: "█", count: Int((share * 20).rounded()))
            lines.append(
                "  " + step + String(repeating: " ", count: width - step.count)
                    + String(format: "  %5.1f%%  ", share * 100) + bar)
        }
        lines += ["", "Path lengths (units shown → respondents):"]
        for length in pathLengths.keys.sorted() { lines.append("  \(length): \(pathLengths[length] ?? 0)") }
        lines += ["", "Most common paths:"]
        for (path, count) in topPaths { lines.append("  \(count)  " + path.joined(separator: " → ")) }
        return lines.joined(separator: "\n") + "\n"
    }
}

// MARK: - The work

/// Each step's answer options, prepared once for all respondents.
struct SimulationPlan: Sendable {
    struct StepPlan: Sendable {
        var candidates: [JSONValue]
        /// Cumulative weights of `candidates` (empty: uniform).
        var cumulative: [Double]
        var isRequired: Bool
        var seconds: Double
    }

    let survey: Survey
    let steps: [StepPlan]
    let indexByID: [String: Int]
    let skipOptional: Double

    init(survey: Survey, profile: SimulationProfile) {
        self.survey = survey
        let context = PresentationContext(
            locale: survey.definition.defaultLocale, defaultLocale: survey.definition.defaultLocale)
        var plans: [StepPlan] = []
        var index: [String: Int] = [:]
        for (position, id) in survey.stepIDs.enumerated() {
            index[id] = position
            let question = survey.question(forStep: id)
            let input = question?.input(in: context) ?? .none
            var candidates = Self.candidates(for: input)
            if let question, let validators = survey.stepDefinition(id)?.validators, !validators.isEmpty {
                candidates = Self.passing(
                    candidates + ValidatorHints(validators, input: input).candidates, question: question,
                    survey: survey, step: position)
            }
            var cumulative: [Double] = []
            if let weights = profile.weights[id], case .singleChoice = input {
                candidates = candidates.filter { weights[$0.choiceKey ?? ""] ?? 0 > 0 }
                var sum = 0.0
                cumulative = candidates.map {
                    sum += weights[$0.choiceKey ?? ""] ?? 0; return sum
                }
            }
            let definition = survey.stepDefinition(id)
            let seconds =
                profile.secondsPerQuestion[question?.typeID ?? ""] ?? profile.secondsPerQuestion[input.kindName]
                ?? SimulationProfile.defaultSeconds[input.kindName] ?? 5
            plans.append(
                StepPlan(
                    candidates: candidates, cumulative: cumulative, isRequired: definition?.isRequired ?? false,
                    seconds: seconds))
        }
        steps = plans
        indexByID = index
        skipOptional = profile.skipOptional
    }

    /// The distinct candidates whose normal form passes the step's validators (those that look at
    /// the answer alone); none when none does, so respondents are counted stuck there.
    static func passing(_ candidates: [JSONValue], question: ConfiguredQuestion, survey: Survey, step: Int)
        -> [JSONValue]
    {
        var result: [JSONValue] = []
        for candidate in candidates where !result.contains(candidate) {
            guard let value = try? question.normalize(candidate), survey.validatorsAccept(value, step: step) else {
                continue
            }
            result.append(candidate)
        }
        return result
    }

    /// A few valid-looking answers per input primitive.
    static func candidates(for input: InputPrimitive) -> [JSONValue] {
        switch input {
        case .none: return []
        case .freeText(let text):
            if text.presentation == "email" { return ["sim@example.com", "respondent@example.org"] }
            if text.presentation == "phone" { return ["+1 555 0100", "+44 20 7946 0000"] }
            // Several shapes, so that one passes whatever pattern the question has.
            let minimum = max(text.minimumLength ?? 1, 1)
            let maximum = max(text.maximumLength ?? 200, minimum)
            let shapes = [
                "Simulated answer", "respondent@example.com", "+1 555 0100", "42", "yes",
                String(repeating: "a", count: minimum),
            ]
            return shapes.filter { (minimum...maximum).contains($0.count) }.map { .string($0) }
        case .singleChoice(let choices):
            return choices.choices.filter { !$0.isOther }.map { .string($0.value) }
        case .multipleChoice(let choices):
            let values = choices.choices.filter { !$0.isOther }.map { JSONValue.string($0.value) }
            if choices.isOrdered { return [.array(values), .array(values.reversed())] }
            let minimum = max(choices.minimumSelections ?? 1, 1)
            guard values.count >= minimum else { return values.isEmpty ? [] : [.array(values)] }
            var sets: [JSONValue] = []
            for start in 0..<values.count {
                var set: [JSONValue] = []
                var offset = 0
                while set.count < minimum { set.append(values[(start + offset) % values.count]); offset += 1 }
                sets.append(.array(set))
            }
            return sets
        case .number(let number):
            let minimum = number.minimum ?? 0
            let maximum = number.maximum ?? (minimum + 10)
            let step = number.step ?? (number.isInteger ? 1 : (maximum - minimum) / 10)
            guard step > 0, maximum >= minimum else { return [.number(minimum)] }
            let count = min(Int(((maximum - minimum) / step).rounded(.down)), 50)
            return (0...max(count, 0)).map { .number(minimum + Double($0) * step) }
        case .boolean(let input): return [input.storedValue(true), input.storedValue(false)]
        case .date(let date): return [.string(date.earliest ?? date.latest ?? "2000-01-01")]
        case .composite(let composite):
            var answer: [String: JSONValue] = [:]
            for field in composite.fields {
                if let first = candidates(for: field.input).first { answer[field.name] = first }
            }
            return [.object(answer)]
        case .fileReference(let file):
            return [file.sampleAnswer(name: "recordings/simulated")]
        case .repeating(let group):
            // As many instances as are asked for (or the fewest allowed, at least one), each filled in.
            var instance: [String: JSONValue] = [:]
            for field in group.fields {
                if let first = candidates(for: field.input).first { instance[field.name] = first }
            }
            let count = group.count ?? max(group.minimumCount, min(1, group.maximumCount ?? 1))
            return [.array(Array(repeating: .object(instance), count: count))]
        }
    }

    /// Runs the respondent `session` is the start of (its seed also drives the answers picked).
    func simulate(_ session: inout SurveySession, into tally: inout Tally) {
        var random = SeededGenerator(seed: session.seed ^ 0x5EED_5EED_5EED_5EED)
        var units: [Int] = []
        var seconds = 0.0
        var rounds = 0
        tally.respondentStamp &+= 1
        let stamp = tally.respondentStamp
        var retried = false
        while let current = session.currentUnit, rounds < 10 * (survey.unitCount + 1) {
            rounds += 1
            if units.last != current.rawValue { units.append(current.rawValue) }
            // Plans are in the survey's step order: a step's position is its plan's index.
            for step in session.currentSteps {
                let index = step.rawValue
                guard steps.indices.contains(index) else { continue }
                if tally.lastSeenBy[index] != stamp {
                    tally.lastSeenBy[index] = stamp
                    tally.seen[index] += 1
                    seconds += steps[index].seconds
                }
                let plan = steps[index]
                guard !plan.candidates.isEmpty else { continue }
                if !plan.isRequired, random.unit() < skipOptional { continue }
                // The drawn answer first; when the question refuses it, the other candidates in turn.
                for attempt in 0..<min(plan.candidates.count, 8) {
                    let value = pick(plan, attempt: attempt, random: &random)
                    if (try? session.answer(value, at: step)) != nil { break }
                }
            }
            switch session.advance() {
            case .moved:
                retried = false
                continue
            case .blocked(let errors) where !retried:
                // Told to answer (a requiredIf, a skipped question), the respondent answers and goes on.
                retried = true
                var answered = Set<String>()
                for error in errors where answered.insert(error.stepID).inserted {
                    guard let index = indexByID[error.stepID], !steps[index].candidates.isEmpty else { continue }
                    for attempt in 0..<min(steps[index].candidates.count + 1, 9) {
                        let value = pick(steps[index], attempt: attempt, random: &random)
                        var trial = session
                        if (try? trial.answer(value, for: error.stepID)) != nil,
                            trial.validatorErrors(forStep: error.stepID).isEmpty
                        {
                            session = trial
                            break
                        }
                    }
                }
                continue
            case .completed:
                tally.completed += 1
                tally.record(path: units, seconds: seconds)
                return
            case .blocked(let errors):
                // A required question no generated answer passed: the respondent is stuck.
                tally.stuck += 1
                for error in errors { tally.stuckAt[error.stepID, default: 0] += 1 }
                tally.record(path: units, seconds: seconds)
                return
            }
        }
        tally.record(path: units, seconds: seconds)
    }

    func pick(_ plan: StepPlan, attempt: Int, random: inout SeededGenerator) -> JSONValue {
        if attempt > 0 { return plan.candidates[(attempt - 1) % plan.candidates.count] }
        guard let total = plan.cumulative.last, total > 0 else {
            return plan.candidates[Int(random.next() % UInt64(plan.candidates.count))]
        }
        let target = random.unit() * total
        let index = plan.cumulative.firstIndex { $0 > target } ?? plan.candidates.count - 1
        return plan.candidates[index]
    }
}

/// Counts one worker gathers.
struct Tally: Sendable {
    var seen: [Int]
    var completed = 0
    var stuck = 0
    var stuckAt: [String: Int] = [:]
    var pathLengths: [Int: Int] = [:]
    var paths: [[Int]: Int] = [:]
    var seconds: [Double] = []
    /// Which respondent last saw each step (to count a step once per respondent without a set).
    var lastSeenBy: [UInt64]
    var respondentStamp: UInt64 = 0

    init(stepCount: Int) {
        seen = Array(repeating: 0, count: stepCount)
        lastSeenBy = Array(repeating: 0, count: stepCount)
    }

    mutating func record(path units: [Int], seconds: Double) {
        pathLengths[units.count, default: 0] += 1
        if paths.count < 100_000 || paths[units] != nil { paths[units, default: 0] += 1 }
        self.seconds.append(seconds)
    }

    mutating func merge(_ other: Tally) {
        for index in seen.indices { seen[index] += other.seen[index] }
        completed += other.completed
        stuck += other.stuck
        for (step, count) in other.stuckAt { stuckAt[step, default: 0] += count }
        for (length, count) in other.pathLengths { pathLengths[length, default: 0] += count }
        for (key, count) in other.paths { paths[key, default: 0] += count }
        seconds += other.seconds
    }
}

final class PartialSlots: @unchecked Sendable {
    private var slots: [Tally?]
    private let lock = NSLock()
    init(count: Int) { slots = Array(repeating: nil, count: count) }
    subscript(index: Int) -> Tally? {
        get { lock.withLock { slots[index] } }
        set { lock.withLock { slots[index] = newValue } }
    }
    var values: [Tally] { lock.withLock { slots.compactMap { $0 } } }
}

import Dispatch
import Foundation
import SurveyBuiltins
import SurveyCore

/// One unit (page or step outside a page) as the walk sees it: its leaf steps in document order,
/// `count` of them from position `first` of the plan's step columns.
struct PlanUnit {
    let first: Int
    let count: Int

    /// The position in the plan's step columns of the unit's step `k`.
    @inline(__always) func position(_ k: Int) -> Int { first + k }
}

/// The survey's units, with the answer script and random-answer pools, built before timing.
///
/// The steps' fields are columns over all the survey's steps, in document order, and a unit is a
/// range of them: the harness reads its own data as densely as the engine does. (One object per
/// unit, with arrays of its own, was a cache miss or four on every page of a large survey, and
/// counted as the engine's.)
struct Plan {
    var units: [PlanUnit] = []
    var unitIndexByID: [String: Int] = [:]
    var ids: [String] = []
    /// The steps' positions in the compiled survey, for the index-keyed session API.
    var steps: [StepIndex] = []
    /// The scripted answer of each step (`nil`: no answer in the script).
    var scripted: [JSONValue?] = []
    /// Each step's pool of valid answers to pick from at random (a position in ``pools``; -1: the step
    /// takes no answer here).
    var poolOfStep: [Int32] = []
    /// The pools, one for each type and options (steps alike share theirs).
    var pools: [[JSONValue]] = []

    init(survey: Survey, script: [String: JSONValue]) throws(BenchError) {
        let definition = survey.definition
        // Pools are shared between steps with the same type and options, so that the harness adds
        // little to the peak memory of huge surveys.
        var shared: [String: Int32] = [:]
        func pool(_ step: StepDefinition) -> Int32 {
            let key = step.type + "|" + JSONWriter.string(from: step.options)
            if let pool = shared[key] { return pool }
            let values = Self.pool(step)
            let position = values.isEmpty ? -1 : Int32(pools.count)
            if !values.isEmpty { pools.append(values) }
            shared[key] = position
            return position
        }
        for step in definition.steps {
            let leaves = step.isPage ? step.steps : [step]
            unitIndexByID[step.id] = units.count
            // Plan units are the survey's units in order, so a `UnitIndex` is a plan position.
            guard survey.unitIndex(of: step.id) == UnitIndex(units.count) else {
                throw BenchError("unit \(step.id) is not at position \(units.count) of the compiled survey")
            }
            units.append(PlanUnit(first: steps.count, count: leaves.count))
            for leaf in leaves {
                guard let index = survey.stepIndex(of: leaf.id) else { throw BenchError("no step \(leaf.id)") }
                ids.append(leaf.id)
                steps.append(index)
                scripted.append(script[leaf.id])
                poolOfStep.append(pool(leaf))
            }
        }
    }

    /// The pool of the step at `position` (empty when it takes no answer here).
    @inline(__always) func pool(at position: Int) -> [JSONValue] {
        let pool = Int(poolOfStep[position])
        return pool < 0 ? [] : pools[pool]
    }

    /// This plan with answer pools of its own: the same answers in new storage. Each worker thread of
    /// the multi-core run walks its own copy, as each real respondent's answers are its own (parsed
    /// from its own input); shared, the stored answers' reference counts would be updated by both
    /// cores at once, a contention the engine itself does not have.
    func withOwnPools() -> Plan {
        var copy = self
        copy.pools = pools.map { $0.map(\.deepCopy) }
        return copy
    }

    /// Every valid answer for the generator's kinds (a sample for text).
    static func pool(_ step: StepDefinition) -> [JSONValue] {
        let choices =
            step.options["choices"]?.arrayValue?.compactMap { $0.stringValue ?? $0["value"]?.stringValue } ?? []
        switch step.type {
        case "single-choice": return choices.map { .string($0) }
        case "multiple-choice":
            guard !choices.isEmpty, choices.count < 16 else { return choices.map { .array([.string($0)]) } }
            return (1..<(1 << choices.count)).map { mask in
                .array(choices.indices.filter { mask & (1 << $0) != 0 }.map { .string(choices[$0]) })
            }
        case "rating":
            let stars = step.options["stars"]?.intValue ?? 5
            return (1...stars).map { .number(Double($0)) }
        case "text": return (0..<10).map { .string("t\($0)") }
        default: return []
        }
    }
}

/// Counts and timings of one walk.
struct WalkResult {
    var answers = 0
    var nexts = 0
    var visited: [String] = []
    var completion: CompletionResult?
    var evaluations = 0
    var answerNs: [UInt64] = []
    var nextNs: [UInt64] = []
    var sessionInitNs: UInt64 = 0
    /// How long building the completion result took (timed walks).
    var completionNs: UInt64 = 0
}

enum Walker {
    /// Walks the survey answering every shown question: for the current unit, answer its visible
    /// questions in order, re-reading visibility after each answer and repeating passes while a
    /// pass answered something (a condition may point at a later question of the same page), then
    /// Next. `answer` picks the value (scripted or random); `timed` records each call's duration.
    @inline(__always)
    static func walk<Picker: AnswerPicker>(
        survey: Survey, plan: Plan, seed: UInt64, timed: Bool, record: Bool, answer: inout Picker
    ) throws(BenchError) -> WalkResult {
        let started = timed ? nowNs() : 0
        var session = SurveySession(survey: survey, seed: seed, today: "2024-06-01")
        let initNs = timed ? nowNs() &- started : 0
        var result = try walk(
            session: &session, survey: survey, plan: plan, timed: timed, record: record, answer: &answer)
        result.sessionInitNs = initNs
        return result
    }

    /// A walk of the respondent `session` is at its start (new, or ``SurveySession/restart(seed:)``).
    @inline(__always)
    static func walk<Picker: AnswerPicker>(
        session: inout SurveySession, survey: Survey, plan: Plan, timed: Bool, record: Bool, answer: inout Picker
    ) throws(BenchError) -> WalkResult {
        var result = WalkResult()
        var done = DoneSet()
        // The index-keyed API, as the simulator uses it: no unit id is built or hashed on the way.
        var current = session.currentUnit
        while let position = current {
            guard plan.units.indices.contains(position.rawValue) else {
                throw BenchError("unknown unit #\(position.rawValue)")
            }
            let unit = plan.units[position.rawValue]
            if record { result.visited.append(survey.unitID(at: position) ?? "#\(position.rawValue)") }
            done.reset(count: unit.count)
            var changed = true
            while changed {
                changed = false
                for k in 0..<unit.count where !done.contains(k) {
                    let step = plan.steps[unit.position(k)]
                    guard session.isVisible(at: step), let value = answer.pick(plan, unit, k) else { continue }
                    do {
                        if timed {
                            let t0 = nowNs()
                            try session.answer(value, at: step)
                            result.answerNs.append(nowNs() &- t0)
                        } else {
                            try session.answer(value, at: step)
                        }
                    } catch {
                        throw BenchError("answer \(value) for \(plan.ids[unit.position(k)]) refused: \(error)")
                    }
                    done.insert(k)
                    changed = true
                    result.answers += 1
                }
            }
            let outcome: Advance
            if timed {
                let t0 = nowNs()
                outcome = session.advance()
                result.nextNs.append(nowNs() &- t0)
            } else {
                outcome = session.advance()
            }
            result.nexts += 1
            switch outcome {
            case .moved(let to): current = to
            case .completed:
                if record { result.completion = session.completionResult() }
                if timed {
                    // What `next()` would add: collecting the answers by id.
                    let t0 = nowNs()
                    let completion = session.completionResult()
                    result.completionNs = nowNs() &- t0
                    withExtendedLifetime(completion) {}
                }
                current = nil
            case .blocked(let errors): throw BenchError("blocked on \(survey.unitID(at: position) ?? "?"): \(errors)")
            }
        }
        result.evaluations = session.evaluationCount
        return result
    }
}

/// `SurveyBench load FILE`: only the load (read, parse, decode, compile), repeated; the median,
/// the fastest, and the peak memory. For profiling the load alone (`perf record`, callgrind).
func runLoad(_ arguments: Arguments) throws(BenchError) {
    guard let file = arguments.positional.first else { throw BenchError("load needs a survey file") }
    let repeats = max(1, try arguments.int("repeat", default: 5))
    let loader = SurveyLoader(registry: .builtins())
    var loadMs: [Double] = []
    var steps = 0
    for _ in 0..<repeats {
        let t0 = nowNs()
        let bytes = try readBytes(file)
        let survey: Survey
        do { survey = try loader.load(bytes: bytes, source: file) } catch { throw BenchError("\(error)") }
        loadMs.append(ms(nowNs() - t0))
        steps = survey.stepCount
    }
    var out = OrderedJSON()
    out.set("file", file)
    out.set("questions", steps)
    out.set("repeats", repeats)
    out.set("load_ms", rounded(median(loadMs)))
    out.set("load_ms_min", rounded(loadMs.min() ?? 0))
    out.set("peak_rss_mb", rounded(peakRSSMB(), 1))
    print(out.text)
}

func runBench(_ arguments: Arguments) throws(BenchError) {
    guard let file = arguments.positional.first else { throw BenchError("bench needs a survey file") }
    let repeats = max(1, try arguments.int("repeat", default: 5))
    let directory = (file as NSString).deletingLastPathComponent
    let answersPath =
        arguments.options["answers"]
        ?? (FileManager.default.fileExists(atPath: directory + "/answers.json") ? directory + "/answers.json" : nil)

    // Load: read + parse + decode + compile, repeated; the median is reported.
    let loader = SurveyLoader(registry: .builtins())
    var loadMs: [Double] = []
    var readMs: [Double] = []
    var parseMs: [Double] = []
    var decodeMs: [Double] = []
    var compileMs: [Double] = []
    var loaded: Survey?
    var jsonBytes = 0
    var rssSteps: [Double] = []
    let cold = arguments.flags.contains("cold")
    for round in 0..<repeats {
        loaded = nil
        if cold { evictCaches() }
        // The load users get: `SurveyLoader.load(bytes:)` streams steps from the bytes (no JSON tree).
        let t0 = nowNs()
        let bytes = try readBytes(file)
        let t1 = nowNs()
        do { loaded = try loader.load(bytes: bytes, source: file) } catch { throw BenchError("\(error)") }
        let t2 = nowNs()
        jsonBytes = bytes.count
        if round == repeats - 1 { rssSteps = [currentRSSMB()] }
        loadMs.append(ms(t2 - t0))
        readMs.append(ms(t1 - t0))
    }
    // With --phases: where load time goes, measured once more on the general (tree-building) path:
    // JSON parse, decode, compile. Off by default because that path's JSON tree would count in the
    // process's peak memory, which the real load never builds.
    let peakAfterTimedLoads = peakRSSMB()
    if arguments.flags.contains("phases") {
        let bytes = try readBytes(file)
        let t1 = nowNs()
        let json: JSONValue
        do { json = try JSONParser.parse(bytes: bytes) } catch { throw BenchError("\(file): \(error)") }
        let t2 = nowNs()
        let definition: SurveyDefinition
        do { definition = try SurveyDefinition(json: json) } catch { throw BenchError("\(file): \(error)") }
        let t3 = nowNs()
        do { _ = try loader.compile(definition) } catch { throw BenchError("\(file): \(error)") }
        let t4 = nowNs()
        parseMs.append(ms(t2 - t1))
        decodeMs.append(ms(t3 - t2))
        compileMs.append(ms(t4 - t3))
    }
    guard let survey = loaded else { throw BenchError("no survey") }
    let rssLoadedOnly = currentRSSMB()
    let rssAfterLoad = peakAfterTimedLoads

    var script: [String: JSONValue] = [:]
    if let answersPath {
        let bytes = try readBytes(answersPath)
        guard case .object(let members)? = try? JSONParser.parse(bytes: bytes) else {
            throw BenchError("\(answersPath) must be a JSON object {stepId: answer}")
        }
        script = members
    }
    let plan = try Plan(survey: survey, script: script)

    // The deterministic walk: scripted answers when given, else seeded random ones.
    let scripted = answersPath != nil
    var pick = ClosurePicker { plan, unit, k in
        if scripted { return plan.scripted[unit.position(k)] }
        let pool = plan.pool(at: unit.position(k))
        return pool.isEmpty ? nil : pool[(k &* 7919 &+ unit.count) % pool.count]
    }
    var walkMs: [Double] = []
    var reference = WalkResult()
    for round in 0..<repeats {
        if cold { evictCaches() }
        let t0 = nowNs()
        let result = try Walker.walk(
            survey: survey, plan: plan, seed: 1, timed: false, record: round == 0, answer: &pick)
        walkMs.append(ms(nowNs() - t0))
        if round == 0 { reference = result }
    }
    // Per-call distribution, in a separate walk (clock reads excluded from walk_ms).
    var timedWalk = try Walker.walk(survey: survey, plan: plan, seed: 1, timed: true, record: false, answer: &pick)
    let completingNextNs = timedWalk.nextNs.last ?? 0
    let answerStats = percentiles(&timedWalk.answerNs)
    let nextStats = percentiles(&timedWalk.nextNs)
    var allSteps = timedWalk.answerNs + timedWalk.nextNs
    let stepStats = percentiles(&allSteps)

    if let dump = arguments.options["dump-result"] {
        var members: [String: JSONValue] = [:]
        members["visited"] = .array(reference.visited.map { .string($0) })
        members["data"] = .object(reference.completion?.answers ?? [:])
        members["completed"] = .bool(reference.completion != nil)
        try writeText(JSONWriter.string(from: .object(members)) + "\n", to: dump)
    }

    // Random respondents: seeded random valid answers, one session each.
    let respondents = try arguments.int(
        "respondents", default: max(4, min(20_000, 1_000_000 / max(1, survey.stepCount))))
    let cores = ProcessInfo.processInfo.activeProcessorCount
    var singleActions = 0
    // One session per thread, restarted for each respondent (as the simulator runs them).
    let singleStart = nowNs()
    var single = SurveySession(survey: survey, today: "2024-06-01")
    for r in 0..<respondents {
        single.restart(seed: UInt64(r))
        var picker = RandomPicker(seed: UInt64(r))
        let result = try Walker.walk(
            session: &single, survey: survey, plan: plan, timed: false, record: false, answer: &picker)
        singleActions += result.answers + result.nexts
    }
    let singleNs = nowNs() - singleStart
    let perWorker = WorkerSlots(count: cores)
    let failures = WorkerSlots(count: cores)
    let parallelStart = nowNs()
    let workerPlans = (0..<cores).map { _ in plan.withOwnPools() }
    DispatchQueue.concurrentPerform(iterations: cores) { worker in
        let plan = workerPlans[worker]
        var actions = 0
        var session = SurveySession(survey: survey, today: "2024-06-01")
        for r in stride(from: worker, to: respondents, by: cores) {
            do {
                session.restart(seed: UInt64(r))
                var picker = RandomPicker(seed: UInt64(r))
                let result = try Walker.walk(
                    session: &session, survey: survey, plan: plan, timed: false, record: false, answer: &picker)
                actions += result.answers + result.nexts
            } catch {
                failures[worker] += 1
            }
        }
        perWorker[worker] = actions
    }
    let parallelNs = nowNs() - parallelStart
    if failures.total > 0 { throw BenchError("\(failures.total) respondents failed") }
    let parallelActions = perWorker.total

    var out = OrderedJSON()
    out.set("engine", "survey-engine (Swift)")
    out.set("file", file)
    out.set("questions", survey.stepCount)
    out.set("units", survey.unitCount)
    out.set("expressions", survey.expressionCount)
    out.set("json_bytes", jsonBytes)
    out.set("repeats", repeats)
    out.set("cold", cold)
    // A --cold run's RSS figures include the buffer that empties the caches.
    if cold { out.set("eviction_buffer_mb", 64) }
    out.set("load_ms", rounded(median(loadMs)))
    out.set("read_ms", rounded(median(readMs)))
    if !parseMs.isEmpty {
        out.set("parse_ms", rounded(median(parseMs)))
        out.set("decode_ms", rounded(median(decodeMs)))
        out.set("compile_ms", rounded(median(compileMs)))
    }
    out.set("answers_script", answersPath ?? "none (deterministic pseudo-random answers)")
    out.set("answers", reference.answers)
    out.set("steps", reference.answers + reference.nexts)
    out.set("visited_units", reference.nexts)
    out.set("completed", reference.completion != nil)
    out.set("data_keys", reference.completion?.answers.count ?? 0)
    out.set("walk_ms", rounded(median(walkMs)))
    out.set("walk_ms_min", rounded(walkMs.min() ?? 0))
    out.set("walk_ms_runs", walkMs.count)
    out.set("ns_per_answer_median", answerStats.median)
    out.set("ns_per_answer_p99", answerStats.p99)
    out.set("ns_per_next_median", nextStats.median)
    out.set("ns_per_next_p99", nextStats.p99)
    out.set("ns_per_step_median", stepStats.median)
    out.set("ns_per_step_p99", stepStats.p99)
    out.set("session_init_ms", rounded(ms(timedWalk.sessionInitNs)))
    out.set("completing_next_ms", rounded(ms(completingNextNs)))
    out.set("completion_result_ms", rounded(ms(timedWalk.completionNs)))
    out.set("walk_ns_per_answer", rounded(median(walkMs) * 1e6 / Double(max(1, reference.answers)), 1))
    out.set("evaluations", reference.evaluations)
    out.set("evaluations_per_answer", rounded(Double(reference.evaluations) / Double(max(1, reference.answers))))
    out.set("respondents", respondents)
    out.set("respondent_steps", singleActions)
    out.set("respondents_per_s_1_thread", rounded(Double(respondents) / (Double(singleNs) / 1e9), 1))
    out.set("respondents_per_s_all_cores", rounded(Double(respondents) / (Double(parallelNs) / 1e9), 1))
    out.set("cores", cores)
    out.set("steps_per_s_per_core", rounded(Double(singleActions) / (Double(singleNs) / 1e9), 0))
    out.set(
        "steps_per_s_per_core_all_cores",
        rounded(Double(parallelActions) / (Double(parallelNs) / 1e9) / Double(cores), 0))
    out.set("rss_during_load_mb", rounded(rssSteps.first ?? 0, 1))
    out.set("rss_survey_only_mb", rounded(rssLoadedOnly, 1))
    out.set("peak_rss_after_load_mb", rounded(rssAfterLoad, 1))
    out.set("peak_rss_mb", rounded(peakRSSMB(), 1))
    print(out.text)
}

/// What answers a walk gives: the value for step `k` of `unit`, or `nil` to leave it unanswered.
/// Walks take their picker `inout` and are generic over it, so that a picker's state is a plain
/// stored value (a closure's captured `var` is a heap box checked for exclusive access on every
/// call, which the respondent loop measured at about 1,100 instructions a respondent).
protocol AnswerPicker {
    mutating func pick(_ plan: Plan, _ unit: PlanUnit, _ k: Int) -> JSONValue?
}

/// An answer picker for one random respondent: seeded random valid answers.
struct RandomPicker: AnswerPicker {
    var rng: SeededGenerator

    init(seed: UInt64) { rng = SeededGenerator(seed: seed) }

    @inline(__always)
    mutating func pick(_ plan: Plan, _ unit: PlanUnit, _ k: Int) -> JSONValue? {
        let pool = Int(plan.poolOfStep[unit.position(k)])
        guard pool >= 0 else { return nil }
        return plan.pools[pool][rng.below(plan.pools[pool].count)]
    }
}

/// A picker that asks a closure (the deterministic reference walk).
struct ClosurePicker: AnswerPicker {
    let body: (Plan, PlanUnit, Int) -> JSONValue?

    mutating func pick(_ plan: Plan, _ unit: PlanUnit, _ k: Int) -> JSONValue? { body(plan, unit, k) }
}

/// ``RandomPicker`` as a closure, for loops that answer by id (the store benchmarks).
func randomPick(_ seed: UInt64) -> (Plan, PlanUnit, Int) -> JSONValue? {
    var picker = RandomPicker(seed: seed)
    return { plan, unit, k in picker.pick(plan, unit, k) }
}

/// The steps of a unit a walk has answered: a bit mask for units of up to 64 steps (every generated
/// page), a list of flags beyond; reset per unit without allocating.
struct DoneSet {
    private var mask: UInt64 = 0
    private var flags: [Bool] = []
    private var isLarge = false

    @inline(__always)
    mutating func reset(count: Int) {
        mask = 0
        isLarge = count > 64
        if isLarge {
            flags.removeAll(keepingCapacity: true)
            flags.append(contentsOf: repeatElement(false, count: count))
        }
    }

    @inline(__always)
    func contains(_ k: Int) -> Bool { isLarge ? flags[k] : mask & (1 << UInt64(k)) != 0 }

    @inline(__always)
    mutating func insert(_ k: Int) {
        if isLarge { flags[k] = true } else { mask |= 1 << UInt64(k) }
    }
}

extension JSONValue {
    /// The same value in new storage (no list, object or long text shared with `self`).
    var deepCopy: JSONValue {
        switch self {
        case .array(let elements): return .array(elements.map(\.deepCopy))
        case .object(let members): return .object(members.mapValues(\.deepCopy))
        case .string(let text): return .string(String(decoding: Array(text.utf8), as: UTF8.self))
        default: return self
        }
    }
}

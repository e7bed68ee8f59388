import Dispatch
import Foundation
import SurveyBuiltins
import SurveyCore
import SurveyReports
import SurveyResponses
import SurveyStorePostgres
import SurveyStoreSQLite

/// `SurveyBench store`: what the response store costs and how much it carries.
///
/// - overhead: the same random respondents walked without a store and with one (every answer and
///   Next recorded durably before the next action), as ns per action and their ratio;
/// - throughput: durable actions per second with 1, 8 and 64 respondents answering at once, each
///   on its own connection (threads, not cores: the machine has 2);
/// - funnel, report and export over `--responses` stored responses (default 1,000,000) of a 20-question
///   survey from the generator, answered by random respondents and written in bulk first.
func runStoreBench(_ arguments: Arguments) throws(BenchError) {
    let questions = try arguments.int("questions", default: 20)
    let responses = try arguments.int("responses", default: 1_000_000)
    let seconds = try arguments.double("seconds", default: 3)
    let concurrency = (arguments.options["respondents"] ?? "1,8,64").split(separator: ",").compactMap { Int($0) }
    let work = arguments.options["work"] ?? (FileManager.default.temporaryDirectory.path + "/survey-store-bench")
    let location = arguments.options["store"]
    let skip = Set((arguments.options["skip"] ?? "").split(separator: ",").map(String.init))
    guard
        let synchronous = SQLiteResponseStore.Synchronous(
            rawValue: (arguments.options["synchronous"] ?? "full").uppercased())
    else { throw BenchError("--synchronous must be full or normal") }
    do {
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
    } catch {
        throw BenchError("cannot create \(work): \(error)")
    }
    var options = GeneratorOptions()
    options.questions = questions
    options.perPage = 5
    options.writeSurveyJS = false
    let generated = GeneratedSurvey(options)
    let text = generated.ourJSON()
    let survey: Survey
    do {
        survey = try SurveyLoader(registry: .builtins()).load(text: text, source: "generated")
    } catch {
        throw BenchError("the generated survey does not load: \(error)")
    }
    let plan = try Plan(survey: survey, script: [:])
    let kind = location.map { $0.hasPrefix("postgres") ? "postgresql" : "sqlite" } ?? "sqlite"
    var out = OrderedJSON()
    out.set("store", kind)
    if kind == "sqlite" { out.set("synchronous", synchronous.rawValue) }
    out.set("questions", questions)

    @Sendable func open(_ path: String) throws(BenchError) -> any ResponseStore {
        do {
            if let location, location.hasPrefix("postgres") { return try openPostgresBenchStore(location) }
            return try SQLiteResponseStore(path: location ?? path, synchronous: synchronous)
        } catch {
            throw BenchError("cannot open the store: \(error)")
        }
    }

    // Overhead per action: no store vs store, same respondents.
    if !skip.contains("overhead") {
        let respondents = 300
        var plain: UInt64 = 0
        var stored: UInt64 = 0
        var actions = 0
        let store = try open(work + "/overhead.sqlite")
        for round in 0..<2 {
            for respondent in 0..<respondents {
                let seed = UInt64(round * respondents + respondent)
                let t0 = nowNs()
                let count = try walkRecorded(survey: survey, plan: plan, seed: seed, store: nil, respondent: "")
                plain &+= nowNs() &- t0
                let t1 = nowNs()
                _ = try walkRecorded(survey: survey, plan: plan, seed: seed, store: store, respondent: "o\(seed)")
                stored &+= nowNs() &- t1
                actions += count
            }
        }
        let plainNs = Double(plain) / Double(actions)
        let storedNs = Double(stored) / Double(actions)
        out.set("action_ns_no_store", rounded(plainNs, 0))
        out.set("action_ns_store", rounded(storedNs, 0))
        out.set("store_added_us_per_action", rounded((storedNs - plainNs) / 1000, 1))
        out.set("ratio_store_to_no_store", rounded(storedNs / plainNs, 1))
    }

    // Durable actions per second with 1, 8, 64 concurrent respondents.
    if !skip.contains("throughput") {
        for threads in concurrency {
            let path = work + "/throughput-\(threads).sqlite"
            if location == nil { try? FileManager.default.removeItem(atPath: path) }
            _ = try open(path)  // create the schema before the clock starts
            let counters = WorkerSlots(count: threads)
            let deadline = nowNs() + UInt64(seconds * 1e9)
            let group = DispatchGroup()
            let errors = BenchErrors()
            let started = nowNs()
            for thread in 0..<threads {
                group.enter()
                let worker = Thread {
                    defer { group.leave() }
                    do {
                        let store = try open(path)
                        var respondent = 0
                        while nowNs() < deadline {
                            let seed = UInt64(thread * 1_000_000 + respondent)
                            counters[thread] +=
                                (try walkRecorded(
                                    survey: survey, plan: plan, seed: seed, store: store,
                                    respondent: "t\(threads)-\(thread)-\(respondent)", deadline: deadline))
                            respondent += 1
                        }
                    } catch {
                        errors.append("\(error)")
                    }
                }
                worker.stackSize = 1 << 20
                worker.start()
            }
            group.wait()
            let elapsed = Double(nowNs() - started) / 1e9
            if let first = errors.first { throw BenchError(first) }
            out.set("durable_actions_per_s_\(threads)_respondents", rounded(Double(counters.total) / elapsed, 0))
        }
    }

    // Funnel and export over many stored responses.
    if !skip.contains("bulk") {
        let path = work + "/bulk-\(questions)q-\(responses).sqlite"
        let store = try open(path)
        var existing = 0
        do {
            existing = try store.funnelCounts(survey: survey.id).survey[.invitationShown] ?? 0
        } catch {
            throw BenchError("\(error)")
        }
        if existing < responses {
            let t0 = nowNs()
            try populate(store: store, survey: survey, plan: plan, from: existing, to: responses)
            out.set("populate_s", rounded(Double(nowNs() - t0) / 1e9, 1))
        }
        out.set("stored_responses", responses)
        var funnelMs: [Double] = []
        var report: FunnelReport?
        for _ in 0..<3 {
            let t0 = nowNs()
            do {
                report = FunnelReport(counts: try store.funnelCounts(survey: survey.id), survey: survey)
            } catch {
                throw BenchError("\(error)")
            }
            funnelMs.append(ms(nowNs() - t0))
        }
        out.set("funnel_ms", rounded(median(funnelMs), 1))
        out.set("funnel_completed", report?.completed ?? 0)
        // The report (issue 14's scale target): every response streamed once, one tally per question.
        do {
            // The store's share: the same responses read and decoded, nothing done with them.
            let scan0 = nowNs()
            var scanned = 0
            try store.forEachResponse(matching: ResponseQuery(surveyID: survey.id)) { _ in scanned += 1 }
            out.set("report_scan_s", rounded(Double(nowNs() - scan0) / 1e9, 2))
            let before = currentRSSMB()
            let t0 = nowNs()
            let report = try SurveyReport(survey: survey, store: store)
            let built = nowNs()
            let html = HTMLReport.page(report)
            let json = JSONWriter.string(from: report.json)
            let t1 = nowNs()
            out.set("report_s", rounded(Double(built - t0) / 1e9, 2))
            out.set("report_html_json_ms", rounded(ms(t1 - built), 1))
            out.set("report_responses", report.responses)
            out.set("report_html_kb", rounded(Double(html.utf8.count + json.utf8.count) / 1e3, 0))
            out.set("report_rss_growth_mb", rounded(currentRSSMB() - before, 1))
        } catch {
            throw BenchError("\(error)")
        }
        let columns = ResponseExport.stepColumns(of: survey)
        // The export as `survey responses export` and `survey report --format csv` run it: in parts on
        // every core, and in one part, in the same run.
        for format in ResponseExport.Format.allCases where !skip.contains("export") {
            for parallelism in [ProcessInfo.processInfo.activeProcessorCount, 1] {
                let t0 = nowNs()
                var bytes = 0
                do {
                    _ = try ResponseExport.write(
                        format, from: store, matching: ResponseQuery(surveyID: survey.id), columns: columns,
                        parallelism: parallelism
                    ) { bytes += $0.count }
                } catch {
                    throw BenchError("\(error)")
                }
                let key = "export_\(format.rawValue)" + (parallelism == 1 ? "_one_part" : "")
                out.set(key + "_s", rounded(Double(nowNs() - t0) / 1e9, 2))
                out.set("export_\(format.rawValue)_mb", rounded(Double(bytes) / 1e6, 0))
            }
        }
        if location == nil, let size = try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int {
            out.set("store_file_mb", rounded(Double(size) / 1e6, 0))
        }
    }
    out.set("peak_rss_mb", rounded(peakRSSMB(), 1))
    print(out.text)
}

/// Walks one random respondent, recording each accepted action into `store` (none when `nil`).
/// - Returns: the number of actions taken.
func walkRecorded(
    survey: Survey, plan: Plan, seed: UInt64, store: (any ResponseStore)?, respondent: String,
    deadline: UInt64 = .max
) throws(BenchError) -> Int {
    var session = SurveySession(survey: survey, seed: seed, today: "2026-06-01")
    var recorder: ResponseRecorder?
    do {
        if let store { recorder = try ResponseRecorder(store: store, respondentID: respondent, session: session) }
    } catch {
        throw BenchError("\(error)")
    }
    let pick = randomPick(seed)
    var actions = 0
    while let id = session.currentUnitID, nowNs() < deadline {
        guard let unit = plan.unitIndexByID[id].map({ plan.units[$0] }) else { throw BenchError("unknown unit \(id)") }
        for k in 0..<unit.count where session.isVisible(plan.ids[unit.position(k)]) {
            guard let value = pick(plan, unit, k) else { continue }
            let id = plan.ids[unit.position(k)]
            do {
                try session.answer(value, for: id)
                try recorder?.record(session)
            } catch {
                throw BenchError("answer for \(id): \(error)")
            }
            actions += 1
        }
        if case .blocked(let errors) = session.next() { throw BenchError("blocked on \(id): \(errors)") }
        do {
            try recorder?.record(session)
        } catch {
            throw BenchError("\(error)")
        }
        actions += 1
    }
    return actions
}

/// Collects a recorder's writes in memory, one merged write per response, for bulk loading.
final class CollectingStore: ResponseStore, @unchecked Sendable {
    let name = "collector"
    var writes: [ResponseWrite] = []
    var index: [ResponseID: Int] = [:]

    func write(_ write: ResponseWrite) throws(StoreError) {
        if let at = index[write.response.id] {
            writes[at].response = write.response
            writes[at].actions += write.actions
            writes[at].funnelEvents += write.funnelEvents
            writes[at].deliveries += write.deliveries
        } else {
            index[write.response.id] = writes.count
            writes.append(write)
        }
    }

    func drain() -> [ResponseWrite] {
        defer {
            writes.removeAll(keepingCapacity: true)
            index.removeAll(keepingCapacity: true)
        }
        return writes
    }

    func response(_ id: ResponseID) throws(StoreError) -> Response? { nil }
    func actions(of id: ResponseID) throws(StoreError) -> [RecordedAction] { [] }
    func funnelEvents(of id: ResponseID) throws(StoreError) -> [FunnelEvent] { [] }
    func forEachResponse(matching query: ResponseQuery, _ body: (Response) throws -> Void) throws {}
    func latestResponse(respondent: String, survey: String) throws(StoreError) -> Response? { nil }
    func lastFinished(respondent: String, survey: String) throws(StoreError) -> (status: ResponseStatus, at: Date)? {
        nil
    }
    func funnelCounts(survey: String) throws(StoreError) -> FunnelCounts { FunnelCounts() }
    func deleteResponses(respondent: String) throws(StoreError) -> Int { 0 }
    func dueDeliveries(at now: Date, limit: Int) throws(StoreError) -> [DeliveryJob] { [] }
    func updateDelivery(_ job: DeliveryJob) throws(StoreError) {}
    func deliveries(status: DeliveryStatus?) throws(StoreError) -> [DeliveryJob] { [] }
    func retryFailedDeliveries(at now: Date) throws(StoreError) -> Int { 0 }
}

/// Stores random respondents `from..<to` of `survey`: 85 % complete it, 10 % stop part way, 5 % dismiss,
/// created over 90 days, written 2,000 responses per transaction.
func populate(store: any ResponseStore, survey: Survey, plan: Plan, from: Int, to: Int) throws(BenchError) {
    let collector = CollectingStore()
    let start = Date(timeIntervalSince1970: 1_790_000_000)
    var clockValue = start
    let batch = 2_000
    var respondent = from
    while respondent < to {
        let end = min(to, respondent + batch)
        for number in respondent..<end {
            var rng = SeededGenerator(seed: UInt64(number) &* 0x9E37_79B9)
            clockValue = start.addingTimeInterval(Double(number) * 90 * 86_400 / Double(max(to, 1)))
            let moment = clockValue
            var session = SurveySession(survey: survey, seed: UInt64(number), today: "2026-06-01")
            do {
                var recorder = try ResponseRecorder(
                    store: collector, respondentID: "r\(number)", session: session,
                    id: ResponseID.make(at: moment, using: &rng), clock: { moment })
                let fate = rng.below(100)
                let stopAfter = fate < 85 ? Int.max : (fate < 95 ? rng.below(plan.units.count) : -1)
                let pick = randomPick(UInt64(number))
                var units = 0
                if stopAfter < 0 {
                    session.dismiss()
                    try recorder.record(session)
                }
                while let id = session.currentUnitID, units <= stopAfter {
                    guard let unit = plan.unitIndexByID[id].map({ plan.units[$0] }) else { break }
                    for k in 0..<unit.count where session.isVisible(plan.ids[unit.position(k)]) {
                        guard let value = pick(plan, unit, k) else { continue }
                        try session.answer(value, for: plan.ids[unit.position(k)])
                        try recorder.record(session)
                    }
                    units += 1
                    if units > stopAfter { break }
                    session.next()
                    try recorder.record(session)
                }
            } catch {
                throw BenchError("respondent \(number): \(error)")
            }
        }
        do {
            try store.write(batch: collector.drain())
        } catch {
            throw BenchError("\(error)")
        }
        respondent = end
        if respondent % 100_000 == 0 {
            FileHandle.standardError.write(Data("stored \(respondent) responses\n".utf8))
        }
    }
}

final class BenchErrors: @unchecked Sendable {
    let lock = NSLock()
    var values: [String] = []
    func append(_ value: String) { lock.withLock { values.append(value) } }
    var first: String? { lock.withLock { values.first } }
}

func openPostgresBenchStore(_ url: String) throws -> any ResponseStore {
    try PostgresResponseStore(url: url)
}

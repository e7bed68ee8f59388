import Foundation
import SurveyBuiltins
import SurveyCore
import SurveyResponses
import SurveyStoreSQLite

/// `SurveyBench eligibility`: what the targeting decision (``Eligibility/decide``) adds to starting a
/// session, on a store of `--responses` responses (default 1,000,000) spread over `--respondents`
/// respondents (default 200,000) and 10 surveys, every respondent with two attributes.
///
/// The survey decided uses every rule that reads the store: `display: untilSubmitted`, a recontact
/// wait, the store's 7-day global cooldown, a 25 % rollout and an audience over attributes and
/// history. Timed per call, for `--decisions` random respondents: the decision alone, and a session
/// start (the respondent's latest response read and a new response written) without and with it.
func runEligibilityBench(_ arguments: Arguments) throws(BenchError) {
    let total = try arguments.int("responses", default: 1_000_000)
    let respondents = try arguments.int("respondents", default: 200_000)
    let decisions = try arguments.int("decisions", default: 5_000)
    let work = arguments.options["work"] ?? (FileManager.default.temporaryDirectory.path + "/survey-eligibility-bench")
    let path = arguments.options["store"] ?? (work + "/eligibility.sqlite")
    do {
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
    } catch {
        throw BenchError("cannot create \(work): \(error)")
    }
    let surveyText = """
        {"formatVersion": 1, "id": "nps", "title": "NPS",
         "settings": {"display": "untilSubmitted", "recontactDays": 14, "rollout": 25,
                      "audience": "{@plan} = 'pro' and {@country} anyof ['fr','de'] and completed('s1', 'P30D') and not dismissed('s2')"},
         "steps": [{"id": "score", "type": "rating", "title": "Score", "options": {"stars": 5}}]}
        """
    let survey: Survey
    let store: SQLiteResponseStore
    do {
        survey = try SurveyLoader(registry: .builtins()).load(text: surveyText, source: "nps")
        store = try SQLiteResponseStore(path: path, synchronous: .normal)
    } catch {
        throw BenchError("\(error)")
    }
    let base = Date(timeIntervalSince1970: 1_780_000_000)
    let now = base.addingTimeInterval(Double(total) + 60 * 86_400)
    do {
        let stored = try store.responses(matching: ResponseQuery(limit: 1)).count
        if stored == 0 {
            let statuses: [ResponseStatus] = [.completed, .dismissed, .inProgress, .abandoned]
            var batch: [ResponseWrite] = []
            batch.reserveCapacity(10_000)
            for index in 0..<total {
                // A deterministic spread: respondent, survey and status from the index.
                let respondent = "user-\((index &* 7_919) % respondents)"
                let created = base.addingTimeInterval(Double(index))
                var response = Response(
                    id: .make(), respondentID: respondent, surveyID: "s\(index % 10)", surveyVersion: nil,
                    locale: "en", seed: 1, today: "2026-05-28", createdAt: created)
                response.status = statuses[index % 4]
                response.updatedAt = created.addingTimeInterval(30)
                if response.status == .completed { response.completedAt = response.updatedAt }
                batch.append(ResponseWrite(response: response))
                if batch.count == 10_000 {
                    try store.write(batch: batch)
                    batch.removeAll(keepingCapacity: true)
                }
                if (index + 1) % 200_000 == 0 {
                    FileHandle.standardError.write(Data("stored \(index + 1) responses\n".utf8))
                }
            }
            try store.write(batch: batch)
            for number in 0..<respondents {
                try store.setAttributes(
                    [
                        "plan": .string(number % 3 == 0 ? "pro" : "free"),
                        "country": .string(["fr", "de", "us"][number % 3]),
                    ],
                    of: "user-\(number)", at: base)
            }
            try store.setSetting(named: Eligibility.cooldownSetting, to: "P7D")
        }
    } catch {
        throw BenchError("cannot fill the store: \(error)")
    }
    var generator = SystemRandomNumberGenerator()
    func sample() -> String { "user-\(Int.random(in: 0..<respondents, using: &generator))" }
    func percentile(_ values: [UInt64], _ share: Double) -> Double {
        let sorted = values.sorted()
        return Double(sorted[min(sorted.count - 1, Int(Double(sorted.count) * share))]) / 1_000
    }
    var decide: [UInt64] = []
    var startWithout: [UInt64] = []
    var startWith: [UInt64] = []
    var asked = 0
    do {
        // Warm the page cache and the statements.
        for _ in 0..<500 { _ = try Eligibility.decide(respondent: sample(), survey: survey, store: store, at: now) }
        for _ in 0..<decisions {
            let respondent = sample()
            var begin = DispatchTime.now().uptimeNanoseconds
            let report = try Eligibility.decide(respondent: respondent, survey: survey, store: store, at: now)
            decide.append(DispatchTime.now().uptimeNanoseconds - begin)
            if report.asks { asked += 1 }
            // A session start without the decision: the latest response, then a new one written.
            let other = sample()
            begin = DispatchTime.now().uptimeNanoseconds
            _ = try store.latestResponse(respondent: other, survey: "bench-start")
            _ = try ResponseRecorder(
                store: store, respondentID: other, session: SurveySession(survey: survey), clock: { now })
            startWithout.append(DispatchTime.now().uptimeNanoseconds - begin)
            let third = sample()
            begin = DispatchTime.now().uptimeNanoseconds
            switch try ResponseStart.begin(survey: survey, respondent: third, store: store, now: now) {
            case .new(let new): _ = try new.start(SurveySession(survey: survey), clock: { now })
            default: break
            }
            startWith.append(DispatchTime.now().uptimeNanoseconds - begin)
        }
    } catch {
        throw BenchError("\(error)")
    }
    var out = OrderedJSON()
    out.set("store", "sqlite (synchronous NORMAL)")
    out.set("responses", total)
    out.set("respondents", respondents)
    out.set("decisions", decisions)
    out.set("askedShare", Double(asked) / Double(decisions))
    out.set("decideMedianMicroseconds", percentile(decide, 0.5))
    out.set("decideP99Microseconds", percentile(decide, 0.99))
    out.set("startWithoutDecisionMedianMicroseconds", percentile(startWithout, 0.5))
    out.set("startWithDecisionMedianMicroseconds", percentile(startWith, 0.5))
    print(out.text)
}

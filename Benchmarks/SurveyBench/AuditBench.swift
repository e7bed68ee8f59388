import Foundation
import SurveyAnalysis
import SurveyBuiltins
import SurveyCore

/// `SurveyBench audit`: ``ResponseAudit`` on a generated survey (issue 48). One response of a
/// `--questions`-question survey (conditions on earlier answers, calculated values) audited
/// `--single` times in a row (median of `--repeat` rounds, in microseconds), then `--responses`
/// responses audited on every core in parts of 65,536 (seconds, fastest of `--repeat` rounds).
func runAuditBench(_ arguments: Arguments) throws(BenchError) {
    var options = GeneratorOptions()
    options.questions = try arguments.int("questions", default: 50)
    options.perPage = try arguments.int("per-page", default: 10)
    options.calculated = try arguments.int("calculated", default: 5)
    options.writeSurveyJS = false
    let responses = try arguments.int("responses", default: 1_000_000)
    let single = try arguments.int("single", default: 20_000)
    let rounds = try arguments.int("repeat", default: 3)
    let threads = try arguments.int("threads", default: ProcessInfo.processInfo.activeProcessorCount)
    guard options.questions >= 1, responses >= 1, single >= 1, rounds >= 1, threads >= 1 else {
        throw BenchError("--questions, --responses, --single, --repeat and --threads must be ≥ 1")
    }
    let generated = GeneratedSurvey(options)
    let survey: Survey
    let answers: JSONValue
    do {
        survey = try SurveyLoader(registry: .builtins()).load(text: generated.ourJSON(), source: "audit-bench")
        answers = try JSONParser.parse(generated.answersJSON())
    } catch {
        throw BenchError("\(error)")
    }
    let audit = ResponseAudit(survey: survey, today: "2026-12-07")
    // The response a respondent giving the generated answers submits: the replay's own result.
    let response = JSONValue.object(audit.audit(response: answers).cleaned)
    let check = audit.audit(response: response)
    guard check.isClean, check.isCompleted else { throw BenchError("the benchmark's response is not clean: \(check)") }

    var perResponse: [Double] = []
    for _ in 0..<rounds {
        let begin = nowNs()
        var problems = 0
        for _ in 0..<single { problems += audit.audit(response: response).problems.count }
        perResponse.append(Double(nowNs() - begin) / 1000 / Double(single))
        if problems != 0 { throw BenchError("problems found in a clean response") }
    }
    // In parts of 65,536 (each part's reports are dropped before the next: a million reports with
    // their cleaned answers would not fit in memory).
    let partSize = min(responses, 65_536)
    // Each a response of its own (parsed from the same text), as submissions are: one shared value
    // would make the threads count references on the same storage.
    let responseText = JSONWriter.string(from: response, pretty: false)
    var part: [JSONValue] = []
    part.reserveCapacity(partSize)
    for _ in 0..<partSize {
        guard let copy = try? JSONParser.parse(responseText) else { throw BenchError("cannot read back the response") }
        part.append(copy)
    }
    var seconds: [Double] = []
    var cpuSeconds: [Double] = []
    for _ in 0..<rounds {
        let begin = nowNs()
        let cpuBegin = processCPUSeconds()
        var left = responses
        while left > 0 {
            let batch = left >= partSize ? part : Array(part.prefix(left))
            let reports = audit.audit(responses: batch, parallelism: threads)
            guard reports.count == batch.count, reports.allSatisfy({ $0.isClean }) else {
                throw BenchError("the batch audit lost or failed responses")
            }
            left -= batch.count
        }
        seconds.append(Double(nowNs() - begin) / 1e9)
        cpuSeconds.append(processCPUSeconds() - cpuBegin)
    }
    var out = OrderedJSON()
    out.set("questions", options.questions)
    out.set("calculatedValues", options.calculated)
    out.set("answered", check.cleaned.count)
    out.set("singleResponseMedianMicroseconds", median(perResponse))
    out.set("responses", responses)
    out.set("threads", threads)
    out.set("batchSecondsFastest", seconds.min() ?? 0)
    out.set("batchResponsesPerSecond", Double(responses) / (seconds.min() ?? 1))
    // The CPU time of the batch (every thread), which other work on a shared machine does not inflate
    // as it does the wall-clock time: divided by the cores, the time on cores of its own.
    out.set("batchCPUSecondsFastest", cpuSeconds.min() ?? 0)
    out.set("cpuMicrosecondsPerResponse", (cpuSeconds.min() ?? 0) * 1e6 / Double(responses))
    print(out.text)
}

/// The CPU time this process has used so far, every thread, in seconds.
func processCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

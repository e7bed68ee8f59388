import Foundation
import SurveyBuiltins
import SurveyCore

/// `repeat`: the cost of answering inside a repeat as its number of instances grows. A survey asks
/// a count, then a repeat of `--items` items (numbers, texts, yes/no, choices; each item after the
/// first shown only when the one before it is answered, `{panel.x} notempty`), then a question
/// reading `sumInArray`. For each instance count it times (1) filling the whole repeat one instance
/// per answer, each answer being the whole array so far, and (2) changing one
/// item of the last instance of a complete answer (what a protocol client does when the respondent
/// corrects one field). Prints one JSON object with the ratios between the counts.
func runRepeatBench(_ arguments: Arguments) throws(BenchError) {
    let items = try arguments.int("items", default: 20)
    let repeats = max(1, try arguments.int("repeat", default: 3))
    let counts = (arguments.options["instances"] ?? "100,1000").split(separator: ",").compactMap { Int($0) }
    guard items > 0, !counts.isEmpty, counts.allSatisfy({ $0 > 0 && $0 <= 10_000 }) else {
        throw BenchError("--items must be positive and --instances a list of counts from 1 to 10000")
    }
    var runs: [JSONValue] = []
    var out = OrderedJSON()
    for reader in ["none", "sum"] {
        var perAnswer: [Double] = []
        var perCorrection: [Double] = []
        for count in counts {
            let survey = try repeatSurvey(items: items, maximum: count, sumReader: reader == "sum")
            var fillTimes: [Double] = []
            var correctionTimes: [Double] = []
            var answers = 0
            for _ in 0..<repeats {
                var session = SurveySession(survey: survey)
                do {
                    try session.answer(.number(Double(count)), for: "count")
                } catch { throw BenchError("answering the count failed: \(error)") }
                session.next()
                var draft: [[String: JSONValue]] = []
                answers = 0
                let start = DispatchTime.now().uptimeNanoseconds
                // One answer per instance, `group[k]`, as the terminal and a protocol client send them.
                for instance in 0..<count {
                    draft.append([:])
                    for item in 0..<items { draft[instance]["i\(item)"] = value(item: item, instance: instance) }
                    do {
                        try session.answer(.object(draft[instance]), for: "group[\(instance)]")
                    } catch { throw BenchError("an answer was refused: \(error)") }
                    answers += 1
                }
                fillTimes.append(Double(DispatchTime.now().uptimeNanoseconds - start) / Double(answers))
                // One correction in the last instance, many times.
                let corrections = 200
                let correctionStart = DispatchTime.now().uptimeNanoseconds
                for round in 0..<corrections {
                    draft[count - 1]["i0"] = .number(Double(round % 90))
                    do {
                        try session.answer(.object(draft[count - 1]), for: "group[\(count - 1)]")
                    } catch { throw BenchError("a correction was refused: \(error)") }
                }
                correctionTimes.append(
                    Double(DispatchTime.now().uptimeNanoseconds - correctionStart) / Double(corrections))
                guard case .completed = session.next().completedOrNext(&session) else {
                    throw BenchError("the benchmark survey did not complete with \(count) instances")
                }
            }
            let fill = median(fillTimes)
            let correction = median(correctionTimes)
            perAnswer.append(fill)
            perCorrection.append(correction)
            var row = OrderedJSON()
            row.set("reader", reader)
            row.set("instances", count)
            row.set("items", items)
            row.set("answers", answers)
            row.set("ns_per_answer_filling_median", rounded(fill, 0))
            row.set("ns_per_correction_median", rounded(correction, 0))
            runs.append(.object(Dictionary(uniqueKeysWithValues: row.members)))
            FileHandle.standardError.write(
                Data(
                    "[repeat, reader \(reader)] \(count) instances × \(items) items: \(Int(fill)) ns per answer, \(Int(correction)) ns per correction\n"
                        .utf8))
        }
        if counts.count > 1, let first = perAnswer.first, let last = perAnswer.last, first > 0,
            let firstCorrection = perCorrection.first, let lastCorrection = perCorrection.last, firstCorrection > 0
        {
            out.set("answer_cost_ratio_largest_over_smallest_reader_\(reader)", rounded(last / first, 2))
            out.set(
                "correction_cost_ratio_largest_over_smallest_reader_\(reader)",
                rounded(lastCorrection / firstCorrection, 2))
        }
    }
    out.set("instances_ratio", rounded(Double(counts.last ?? 1) / Double(counts.first ?? 1), 2))
    out["runs"] = .array(runs)
    print(out.text)
}

/// The benchmark survey: a count, a repeat of `items` items, and a last question (shown when
/// `sumInArray` over the repeat is positive, with `sumReader`).
func repeatSurvey(items: Int, maximum: Int, sumReader: Bool) throws(BenchError) -> Survey {
    var list: [JSONValue] = []
    for item in 0..<items {
        var entry: [String: JSONValue] = ["name": .string("i\(item)")]
        switch item % 4 {
        case 0: entry["type"] = "number"
        case 1: entry["type"] = "text"
        case 2: entry["type"] = "boolean"
        default:
            entry["type"] = "single-choice"
            entry["options"] = ["choices": ["a", "b", "c"]]
        }
        if item > 0 { entry["visibleIf"] = .string("{panel.i\(item - 1)} notempty") }
        list.append(.object(entry))
    }
    let definition: JSONValue = [
        "formatVersion": 1, "id": "repeat-bench", "title": "Repeat benchmark",
        "steps": [
            ["id": "count", "type": "number", "options": ["min": 0, "max": .number(Double(maximum))]],
            ["id": "group", "type": "repeat", "options": ["count": "{count}", "items": .array(list)]],
            sumReader
                ? ["id": "total", "type": "text", "visibleIf": "sumInArray({group}, 'i0') > 0"]
                : ["id": "total", "type": "text"],
        ],
    ]
    do {
        return try SurveyLoader(registry: .builtins()).load(text: JSONWriter.string(from: definition))
    } catch {
        throw BenchError("the benchmark survey does not load: \(error)")
    }
}

/// The answer of item `item` in instance `instance`.
func value(item: Int, instance: Int) -> JSONValue {
    switch item % 4 {
    case 0: return .number(Double((instance + item) % 90))
    case 1: return .string("answer \(instance)")
    case 2: return .bool(instance % 2 == 0)
    default: return .string(["a", "b", "c"][instance % 3])
    }
}

extension NextOutcome {
    /// Goes on past the repeat to completion (the last question is left unanswered).
    func completedOrNext(_ session: inout SurveySession) -> NextOutcome {
        var outcome = self
        var steps = 0
        while case .moved = outcome, steps < 10 {
            outcome = session.next()
            steps += 1
        }
        return outcome
    }
}

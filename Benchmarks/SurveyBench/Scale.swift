import Foundation
import SurveyCore

/// `--scale`: generate and benchmark N = 1k, 10k, 100k, 1M in child processes (so each N has its
/// own peak RSS), then print a table and one JSON object with the ratio per 10× of N.
func runScale(_ arguments: Arguments) throws(BenchError) {
    let maxN = try arguments.int("max-n", default: 1_000_000)
    let seed = try arguments.int("seed", default: 20_240_601)
    let repeats = try arguments.int("repeat", default: 3)
    let work = arguments.options["work"] ?? NSTemporaryDirectory() + "survey-bench-scale"
    let sizes = [1_000, 10_000, 100_000, 1_000_000].filter { $0 <= maxN }
    let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path

    var rows: [[String: JSONValue]] = []
    for n in sizes {
        let dir = "\(work)/n\(n)"
        _ = try child(
            executable, ["generate", "--questions", "\(n)", "--seed", "\(seed)", "--out", dir, "--no-surveyjs"])
        // A small survey's load and walk take a millisecond or less: three of them measure the timer
        // and the first touches of cold memory more than the engine. Below 100k questions each is
        // repeated so that its median is over about as much work as the 100k survey's (3 runs there:
        // 300 at 1k, 30 at 10k), which keeps the ratio per 10x about the engine.
        let runs = max(repeats, repeats * 100_000 / n)
        let text = try child(
            executable,
            ["bench", dir + "/survey.json", "--answers", dir + "/answers.json", "--repeat", "\(runs)"]
                + (arguments.options["respondents"].map { ["--respondents", $0] } ?? [])
                + (arguments.flags.contains("cold") ? ["--cold"] : []))
        guard case .object(let row)? = try? JSONParser.parse(text) else {
            throw BenchError("bench for N=\(n) printed no JSON: \(text)")
        }
        rows.append(row)
        FileHandle.standardError.write(Data("[scale] N=\(n) done\n".utf8))
    }

    let columns: [(key: String, header: String)] = [
        ("questions", "N"), ("load_ms", "load ms"), ("parse_ms", "parse ms"), ("decode_ms", "decode ms"),
        ("compile_ms", "compile ms"), ("answers", "answers"), ("visited_units", "pages"), ("walk_ms", "walk ms"),
        ("walk_ns_per_answer", "walk ns/answer"), ("ns_per_answer_median", "answer ns p50"),
        ("ns_per_answer_p99", "answer ns p99"), ("ns_per_next_median", "next ns p50"),
        ("evaluations_per_answer", "evals/answer"), ("steps_per_s_per_core", "steps/s/core"),
        ("peak_rss_mb", "peak RSS MB"),
    ]
    func cell(_ value: JSONValue?) -> String {
        guard let number = value?.numberValue else { return "-" }
        return number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(format: "%.2f", number)
    }
    print("| " + columns.map(\.header).joined(separator: " | ") + " |")
    print("|" + String(repeating: " ---: |", count: columns.count))
    for row in rows {
        print("| " + columns.map { cell(row[$0.key]) }.joined(separator: " | ") + " |")
    }
    let ratioKeys = ["load_ms", "walk_ms", "walk_ns_per_answer", "ns_per_answer_median", "answers", "peak_rss_mb"]
    var ratios: [JSONValue] = []
    if rows.count > 1 {
        print("\nratio per 10× of N (10 = linear, 1 = flat):")
        print("| from → to | " + ratioKeys.joined(separator: " | ") + " |")
        print("|" + String(repeating: " ---: |", count: ratioKeys.count + 1))
        for index in 1..<rows.count {
            var ratio = OrderedJSON()
            ratio.set("from", sizes[index - 1])
            ratio.set("to", sizes[index])
            var cells: [String] = []
            for key in ratioKeys {
                let a = rows[index - 1][key]?.numberValue ?? 0
                let b = rows[index][key]?.numberValue ?? 0
                let value = a > 0 ? rounded(b / a, 2) : 0
                ratio.set(key, value)
                cells.append(String(format: "%.2f", value))
            }
            ratios.append(.object(Dictionary(uniqueKeysWithValues: ratio.members)))
            print("| \(sizes[index - 1]) → \(sizes[index]) | " + cells.joined(separator: " | ") + " |")
        }
    }
    var out = OrderedJSON()
    out["runs"] = .array(rows.map { .object($0) })
    out["ratio_per_10x"] = .array(ratios)
    if let first = rows.first?["ns_per_answer_median"]?.numberValue,
        let last = rows.last?["ns_per_answer_median"]?.numberValue, first > 0
    {
        out.set("answer_cost_largest_over_smallest", rounded(last / first, 2))
    }
    print(out.text)
}

/// Runs this program with `arguments`, returning its standard output; fails on a non-zero exit.
func child(_ executable: String, _ arguments: [String]) throws(BenchError) -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    do { try process.run() } catch { throw BenchError("cannot run \(executable): \(error)") }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        throw BenchError("\(arguments.prefix(2).joined(separator: " ")) exited with \(process.terminationStatus)")
    }
    return String(decoding: data, as: UTF8.self)
}

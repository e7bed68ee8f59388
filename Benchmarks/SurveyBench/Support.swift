import Foundation
import SurveyCore
import SurveyImport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Monotonic time in nanoseconds.
@inline(__always)
func nowNs() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
}

func ms(_ ns: UInt64) -> Double { Double(ns) / 1e6 }

/// Peak resident set size of this process, in MB (getrusage; Linux reports KiB).
func peakRSSMB() -> Double {
    var usage = rusage()
    #if os(Linux)
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return Double(usage.ru_maxrss) / 1024
    #else
        getrusage(RUSAGE_SELF, &usage)
        return Double(usage.ru_maxrss) / 1_048_576
    #endif
}

/// Current resident set size in MB (/proc/self/statm; 0 where unavailable).
func currentRSSMB() -> Double {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Double(fields[1]) else { return 0 }
    return pages * Double(sysconf(Int32(_SC_PAGESIZE))) / 1_048_576
}

/// Empties the processor caches of everything this process touched (`bench --cold`): writes then
/// reads a 64 MB buffer, twice the largest last-level cache of the machines we measure on, so that
/// what is timed next starts from memory, as a process's first load and walk do. The buffer is made
/// on the first call (it counts in the peak RSS of a `--cold` run).
func evictCaches() {
    if evictionBuffer.isEmpty { evictionBuffer = [UInt64](repeating: 0, count: 64 << 20 / 8) }
    var sum: UInt64 = 0
    evictionBuffer.withUnsafeMutableBufferPointer { words in
        // One word a 64-byte line.
        for index in stride(from: 0, to: words.count, by: 8) { words[index] &+= 1 }
        for index in stride(from: 0, to: words.count, by: 8) { sum &+= words[index] }
    }
    evictionChecksum &+= sum
}
nonisolated(unsafe) private var evictionBuffer: [UInt64] = []
/// Read by nobody; kept so that the reads of the buffer are not optimized away.
nonisolated(unsafe) var evictionChecksum: UInt64 = 0

/// Median and 99th percentile of a sample (sorted in place).
func percentiles(_ sample: inout [UInt64]) -> (median: Double, p99: Double) {
    guard !sample.isEmpty else { return (0, 0) }
    sample.sort()
    let p99Index = min(sample.count - 1, Int((Double(sample.count) * 0.99).rounded(.down)))
    return (Double(sample[sample.count / 2]), Double(sample[p99Index]))
}

func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return 0 }
    let sorted = values.sorted()
    return sorted.count % 2 == 1
        ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

func rounded(_ value: Double, _ places: Int = 3) -> Double {
    let scale = pow(10, Double(places))
    return (value * scale).rounded() / scale
}

/// Reads a whole file as bytes (SurveyImport's reader: a large file is read in pieces on several
/// threads, `pread` into each piece of one buffer).
func readBytes(_ path: String) throws(BenchError) -> [UInt8] {
    do {
        return try TextFile.readBytes(path)
    } catch {
        throw BenchError(error.description)
    }
}

/// Writes text to a file.
func writeText(_ text: String, to path: String) throws(BenchError) {
    guard let file = fopen(path, "wb") else { throw BenchError("cannot create \(path)") }
    defer { fclose(file) }
    var text = text
    let written = text.withUTF8 { fwrite($0.baseAddress, 1, $0.count, file) }
    guard written == text.utf8.count else { throw BenchError("short write on \(path)") }
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A JSON object whose members keep the order they were added in (for readable output).
struct OrderedJSON {
    private(set) var members: [(String, JSONValue)] = []

    subscript(key: String) -> JSONValue? {
        get { members.first { $0.0 == key }?.1 }
        set {
            guard let newValue else { return }
            if let index = members.firstIndex(where: { $0.0 == key }) {
                members[index].1 = newValue
            } else {
                members.append((key, newValue))
            }
        }
    }

    mutating func set(_ key: String, _ value: Double) { self[key] = .number(value) }
    mutating func set(_ key: String, _ value: Int) { self[key] = .number(Double(value)) }
    mutating func set(_ key: String, _ value: String) { self[key] = .string(value) }
    mutating func set(_ key: String, _ value: Bool) { self[key] = .bool(value) }

    var text: String {
        "{"
            + members.map { JSONWriter.string(from: .string($0.0)) + ":" + JSONWriter.string(from: $0.1) }
            .joined(separator: ",") + "}"
    }
}

/// Command-line options: `--name value` and `--flag`.
struct Arguments {
    var positional: [String] = []
    var options: [String: String] = [:]
    var flags: Set<String> = []

    init(_ arguments: ArraySlice<String>, flags known: Set<String>) throws(BenchError) {
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            if argument.hasPrefix("--") {
                var name = String(argument.dropFirst(2))
                if let equals = name.firstIndex(of: "=") {
                    options[String(name[..<equals])] = String(name[name.index(after: equals)...])
                    index += 1
                    continue
                }
                if known.contains(name) {
                    flags.insert(name)
                } else {
                    index += 1
                    guard index < arguments.endIndex else { throw BenchError("--\(name) needs a value") }
                    name = String(name)
                    options[name] = arguments[index]
                }
            } else {
                positional.append(argument)
            }
            index += 1
        }
    }

    func int(_ name: String, default value: Int) throws(BenchError) -> Int {
        guard let text = options[name] else { return value }
        guard let parsed = Int(text.replacingOccurrences(of: "_", with: "")) else {
            throw BenchError("--\(name) must be an integer, got '\(text)'")
        }
        return parsed
    }

    func double(_ name: String, default value: Double) throws(BenchError) -> Double {
        guard let text = options[name] else { return value }
        guard let parsed = Double(text) else { throw BenchError("--\(name) must be a number, got '\(text)'") }
        return parsed
    }
}

extension SeededGenerator {
    /// A number in 0..<bound, for the benchmark's own random respondents.
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}

/// Per-worker counters written by `concurrentPerform` workers, each to its own slot.
final class WorkerSlots: @unchecked Sendable {
    let slots: UnsafeMutableBufferPointer<Int>

    init(count: Int) {
        slots = .allocate(capacity: count)
        slots.initialize(repeating: 0)
    }

    deinit { slots.deallocate() }

    subscript(index: Int) -> Int {
        get { slots[index] }
        set { slots[index] = newValue }
    }

    var total: Int { slots.reduce(0, +) }
}

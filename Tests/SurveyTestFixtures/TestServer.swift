import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The delivery tests' HTTP server (`Tests/Servers/http_server.py`, Python's standard library) on
/// 127.0.0.1 and a random port, serving a temporary directory. It stops when this object goes
/// away (its stdin closes), or by itself after a minute without requests.
public final class TestServer {
    let process = Process()
    let input = Pipe()
    public let port: Int
    let root: URL

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Servers/http_server.py")

    public struct Failure: Error, CustomStringConvertible { public var description: String }

    /// Starts a server over `files` (path → content).
    public init(files: [String: String]) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("survey-server-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        for (path, content) in files {
            try Data(content.utf8).write(to: root.appendingPathComponent(path))
        }
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.script.path, "--root", root.path, "--idle", "60"]
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        var line = Data()
        while !line.contains(10) {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw Failure(description: "the test server did not start") }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard
            let port = text.split(separator: " ").last.flatMap({
                Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
            })
        else { throw Failure(description: "the test server said \(text)") }
        self.port = port
    }

    deinit {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: root)
    }

    /// `http://127.0.0.1:PORT/path`.
    public func url(_ path: String) -> String { "http://127.0.0.1:\(port)/\(path)" }

    /// Sends a control command (`{"fail": 503}`, `{"down": true}`, `{"put": …, "body": …}`).
    public func control(_ command: [String: Any]) throws {
        var request = URLRequest(url: URL(string: url("_control"))!)
        request.httpMethod = "POST"
        request.httpBody = try JSONSerialization.data(withJSONObject: command)
        _ = try Self.send(request)
    }

    /// How many requests each path got.
    public func requests(_ path: String) throws -> Int {
        let data = try Self.send(URLRequest(url: URL(string: url("_stats"))!))
        let stats = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        return ((stats?["byPath"] as? [String: Any])?["/" + path] as? Int) ?? 0
    }

    /// What the delivery endpoints stored: how many times each record was created (1 when nothing
    /// was duplicated), the replays the idempotency key absorbed, the faults injected by kind, and
    /// the delivery requests received.
    public func stored() throws -> Stored {
        let data = try Self.send(URLRequest(url: URL(string: url("_stored"))!))
        let json = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
        return Stored(
            records: json["records"] as? [String: Int] ?? [:], replays: json["replays"] as? Int ?? 0,
            faults: json["faults"] as? [String: Int] ?? [:], requests: json["requests"] as? Int ?? 0,
            upserts: json["upserts"] as? [String: Int] ?? [:],
            upsertFields: json["upsertFields"] as? [String: [String: Any]] ?? [:],
            bodies: json["bodies"] as? [String: [String: Any]] ?? [:],
            busiestSecond: json["busiestSecond"] as? Int ?? 0, largestBatch: json["largestBatch"] as? Int ?? 0)
    }

    /// What ``stored()`` reports.
    public struct Stored {
        public var records: [String: Int]
        public var replays: Int
        public var faults: [String: Int]
        public var requests: Int
        /// AirTable upserts: creations per merge key ("responseId|id"), and each record's fields.
        public var upserts: [String: Int]
        public var upsertFields: [String: [String: Any]]
        /// The webhook's and Firebase's records as JSON objects, by key (the last body stored).
        public var bodies: [String: [String: Any]]
        /// The most AirTable requests within one second, and the most records in one.
        public var busiestSecond: Int
        public var largestBatch: Int
    }

    static func send(_ request: URLRequest) throws -> Data {
        final class Box: @unchecked Sendable { var data: Data? }
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        URLSession.shared.dataTask(with: request) { data, _, _ in
            box.data = data
            done.signal()
        }.resume()
        _ = done.wait(timeout: .now() + 10)
        guard let data = box.data else { throw Failure(description: "the test server did not answer") }
        return data
    }
}

import Foundation
import SurveyBuiltins
import SurveyCore
import SurveyResponses
import SurveyServer
import SurveyStoreSQLite
import SurveyTestFixtures
import Testing

/// A response as the tiny client read it.
struct ClientResponse {
    var status: Int
    var headers: [String: String]
    var body: [UInt8]

    var json: JSONValue? { try? JSONParser.parse(bytes: body) }
    var events: [JSONValue] { json?["events"]?.arrayValue ?? [] }
    var eventKinds: [String] { events.compactMap { $0["event"]?.stringValue } }
    var errorCode: String? { json?["error"]?["code"]?.stringValue }
}

/// A tiny blocking HTTP/1.1 client over one TCP connection per request (`Connection: close`), so that
/// a test says exactly which bytes go out: malformed and oversized requests included.
struct TinyClient {
    let port: UInt16

    /// Sends `raw` as is and reads the response until the server closes the connection.
    func send(raw: [UInt8]) throws -> ClientResponse {
        try Self.parse(LoopbackExchange.send(raw, port: port))
    }

    /// Sends a request with `body` (and its `Content-Length`).
    func request(_ method: String, _ path: String, body: [UInt8]? = nil, headers: [String: String] = [:]) throws
        -> ClientResponse
    {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if let body { head += "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n" }
        head += "\r\n"
        return try send(raw: Array(head.utf8) + (body ?? []))
    }

    /// Sends `json` as the body.
    func post(_ path: String, _ json: JSONValue) throws -> ClientResponse {
        try request("POST", path, body: Array(JSONWriter.string(from: json, pretty: false).utf8))
    }

    func get(_ path: String) throws -> ClientResponse { try request("GET", path) }

    static func parse(_ bytes: [UInt8]) throws -> ClientResponse {
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        guard let end = bytes.indices.first(where: { bytes[$0...].starts(with: separator) }) else {
            throw ClientError("no complete response: \(String(decoding: bytes, as: UTF8.self))")
        }
        let head = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = head[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else {
            throw ClientError("bad status line: \(head[0])")
        }
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            // A repeated header (Set-Cookie) keeps every value, one per line.
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers[name] = headers[name].map { $0 + "\n" + value } ?? value
        }
        var body = Array(bytes[(end + 4)...])
        if let length = headers["content-length"].flatMap(Int.init), length <= body.count {
            body = Array(body[..<length])
        }
        return ClientResponse(status: status, headers: headers, body: body)
    }
}

struct ClientError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A service on 127.0.0.1 with a port the system chose, over a SQLite store in a temporary
/// directory; `stop()` ends it and removes the directory (call it in a `defer`).
struct TestServer {
    let service: SurveyService
    let store: any ResponseStore
    let directory: URL
    var client: TinyClient { TinyClient(port: service.port) }

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func survey(_ relativePath: String) throws -> Survey {
        let text = try String(contentsOf: repository.appendingPathComponent(relativePath), encoding: .utf8)
        return try SurveyLoader(registry: .builtins()).load(text: text, source: relativePath)
    }

    init(
        surveys: [String] = ["Examples/onboarding.json"], maximumBodyBytes: Int = 1 << 20,
        idleSessionSeconds: Int = 1800, threadCount: Int = 2, access: SurveyAPI.Access = .init()
    ) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        store = try SQLiteResponseStore(path: directory.appendingPathComponent("responses.sqlite").path)
        service = try SurveyService(
            surveys: try surveys.map(Self.survey), store: store,
            configuration: .init(
                address: ListenAddress(host: "127.0.0.1", port: 0), threadCount: threadCount, timeoutSeconds: 10,
                maximumBodyBytes: maximumBodyBytes), idleSessionSeconds: idleSessionSeconds, access: access)
    }

    func stop() {
        service.stop()
        try? FileManager.default.removeItem(at: directory)
    }
}

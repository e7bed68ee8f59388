import Foundation
import SurveyCore
import SurveyServer
import Testing

/// The exchanges of docs/http-api.md ("A session, step by step"), sent in order to a real server:
/// each response has the status, the headers and at least the body members the page shows.
@Suite("docs/http-api.md")
struct HTTPAPIDocumentationTests {
    struct Exchange: CustomStringConvertible {
        var method: String
        var path: String
        var requestHeaders: [String: String]
        var body: String?
        var status: Int
        var headers: [(String, String)]
        var expected: JSONValue?
        var description: String { "\(method) \(path) \(body ?? "")" }
    }

    /// The page's `http` blocks, paired: a request, then its response.
    static func exchanges() throws -> [Exchange] {
        let text = try String(
            contentsOf: TestServer.repository.appendingPathComponent("docs/http-api.md"), encoding: .utf8)
        let blocks = text.components(separatedBy: "```").enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
            .filter { $0.hasPrefix("http\n") }.map { String($0.dropFirst(5)) }
        var result: [Exchange] = []
        var index = 0
        while index + 1 < blocks.count {
            let (requestHead, requestBody) = split(blocks[index])
            let (responseHead, responseBody) = split(blocks[index + 1])
            let requestLine = requestHead[0].split(separator: " ")
            let statusLine = responseHead[0].split(separator: " ")
            guard requestLine.count == 2, statusLine.count >= 2, let status = Int(statusLine[1]) else {
                throw ClientError("not a request and its response: \(blocks[index]) / \(blocks[index + 1])")
            }
            result.append(
                Exchange(
                    method: String(requestLine[0]), path: String(requestLine[1]),
                    requestHeaders: Dictionary(headerLines(requestHead.dropFirst()), uniquingKeysWith: { $1 }),
                    body: requestBody, status: status, headers: headerLines(responseHead.dropFirst()),
                    expected: try responseBody.map { try JSONParser.parse($0) }))
            index += 2
        }
        return result
    }

    /// `Name: value` lines, names lower-cased.
    static func headerLines(_ lines: ArraySlice<String>) -> [(String, String)] {
        lines.compactMap { line -> (String, String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (
                line[..<colon].lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            )
        }
    }

    /// The value of `export NAME=value` in the page.
    static func exported(_ name: String, in text: String) throws -> String {
        let prefix = "export \(name)="
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }) else {
            throw ClientError("docs/http-api.md exports no \(name)")
        }
        return String(line.dropFirst(prefix.count))
    }

    /// A block's head lines and its body (after the first blank line), if any.
    static func split(_ block: String) -> ([String], String?) {
        let parts = block.components(separatedBy: "\n\n")
        let head = parts[0].split(separator: "\n").map(String.init)
        let body = parts.dropFirst().joined(separator: "\n\n").trimmingCharacters(in: .whitespacesAndNewlines)
        return (head, body.isEmpty ? nil : body)
    }

    /// Whether `actual` has everything `expected` shows: objects at least its members, arrays the same
    /// elements, `"…"` anything.
    static func matches(_ expected: JSONValue, _ actual: JSONValue) -> Bool {
        if expected == "…" { return true }
        switch (expected, actual) {
        case (.object(let wanted), .object(let got)):
            return wanted.allSatisfy { key, value in got[key].map { matches(value, $0) } ?? false }
        case (.array(let wanted), .array(let got)):
            return wanted.count == got.count && zip(wanted, got).allSatisfy { matches($0, $1) }
        default:
            return expected == actual
        }
    }

    @Test func theExamplesAreWhatTheServerAnswers() throws {
        let exchanges = try Self.exchanges()
        #expect(exchanges.count >= 15)
        let text = try String(
            contentsOf: TestServer.repository.appendingPathComponent("docs/http-api.md"), encoding: .utf8)
        // The server is started as the page says: its API token and respondent secret.
        let secret = Array(try Self.exported("SURVEY_SERVE_RESPONDENT_SECRET", in: text).utf8)
        let server = try TestServer(
            access: .init(
                apiTokens: [try Self.exported("SURVEY_SERVE_API_TOKENS", in: text)], respondentSecret: secret))
        defer { server.stop() }
        // The signature the page shows is the one RespondentSignature and openssl make.
        #expect(text.contains("SHA2-256(stdin)= " + RespondentSignature.sign("user-42", secret: secret)))
        var token = ""
        var entityTags = ["", ""]
        for exchange in exchanges {
            let path = exchange.path.replacingOccurrences(of: "{token}", with: token)
            let headers = exchange.requestHeaders.mapValues {
                $0.replacingOccurrences(of: "{previous-etag}", with: entityTags[0])
                    .replacingOccurrences(of: "{etag}", with: entityTags[1])
            }
            let response = try server.client.request(
                exchange.method, path, body: exchange.body.map { Array($0.utf8) }, headers: headers)
            let body = String(decoding: response.body, as: UTF8.self)
            #expect(response.status == exchange.status, "\(exchange): \(body)")
            for (name, value) in exchange.headers {
                let prefix = value.hasSuffix("…") ? String(value.dropLast()) : value
                let got = response.headers[name] ?? ""
                #expect(value.hasSuffix("…") ? got.hasPrefix(prefix) : got == value, "\(exchange): \(name): \(got)")
            }
            if let expected = exchange.expected {
                let actual = try #require(response.json, "\(exchange): \(body)")
                #expect(Self.matches(expected, actual), "\(exchange):\n\(body)")
            }
            if let next = response.json?["token"]?.stringValue { token = next }
            if let entityTag = response.headers["etag"] { entityTags = [entityTags[1], entityTag] }
        }
    }
}

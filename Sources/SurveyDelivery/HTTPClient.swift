import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A response to an HTTP request: the status, the headers (names lower-cased) and the body.
public struct HTTPResponse: Sendable, Hashable {
    public var status: Int
    public var headers: [String: String]
    public var body: Data

    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The value of header `name` (any case).
    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// HTTP over Foundation's `URLSession` (libcurl through FoundationNetworking on Linux), one
/// request at a time, with a timeout and TLS certificate verification always on. No response is
/// cached by the system: ``FetchCache`` does that, explicitly.
public struct HTTPClient: Sendable {
    /// How long a request may take, connection and body together, in whole seconds (at least 1):
    /// FoundationNetworking on Linux times a request out at once when given a fraction of a second.
    public var timeout: TimeInterval

    public init(timeout: TimeInterval = 10) {
        self.timeout = max(1, timeout.rounded(.up))
    }

    /// Sends a request and waits for its response.
    /// - Throws: ``FetchError`` when there is no response (an HTTP error status is a response); its
    /// reason never includes the request's headers, which may hold a token.
    public func send(
        _ method: String = "GET", _ url: URL, headers: [String: String] = [:], body: Data? = nil
    ) throws(FetchError) -> HTTPResponse {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.httpMethod = method
        request.httpBody = body
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        final class Outcome: @unchecked Sendable {
            var response: HTTPResponse?
            var failure: String?
        }
        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        session.dataTask(with: request) { data, response, error in
            if let http = response as? HTTPURLResponse {
                var headers: [String: String] = [:]
                for (key, value) in http.allHeaderFields {
                    if let key = key as? String, let value = value as? String { headers[key.lowercased()] = value }
                }
                outcome.response = HTTPResponse(status: http.statusCode, headers: headers, body: data ?? Data())
            } else {
                outcome.failure = Self.describe(error)
            }
            done.signal()
        }.resume()
        // The session's own timeout ends the task; this is a backstop should it not.
        if done.wait(timeout: .now() + timeout + 5) == .timedOut {
            throw FetchError(url: url.absoluteString, reason: "no response within \(Int(timeout)) s")
        }
        guard let response = outcome.response else {
            throw FetchError(url: url.absoluteString, reason: outcome.failure ?? "no response")
        }
        return response
    }

    /// A short reason for a failed request (never the request's headers, which may hold a token).
    static func describe(_ error: (any Error)?) -> String {
        guard let error = error as? URLError else {
            return error.map { "\($0.localizedDescription)" } ?? "no response"
        }
        switch error.code {
        case .timedOut: return "timed out"
        case .cannotConnectToHost: return "the connection was refused"
        case .cannotFindHost, .dnsLookupFailed: return "the host was not found"
        case .notConnectedToInternet, .networkConnectionLost: return "the network is not available"
        case .serverCertificateUntrusted, .serverCertificateHasBadDate, .serverCertificateNotYetValid,
            .serverCertificateHasUnknownRoot, .secureConnectionFailed:
            return "the server's TLS certificate was not accepted"
        case .badServerResponse: return "the server's response was not HTTP"
        default: return "the request failed (URL error \(error.code.rawValue))"
        }
    }
}

import Foundation
import Synchronization

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
    /// The largest response body accepted, in bytes (default 512 MiB, the largest survey file
    /// `TextFile` reads): a longer one is refused as it arrives, so memory stays bounded.
    public var maximumBodySize: Int

    /// The default ``maximumBodySize``: 512 MiB.
    public static let defaultMaximumBodySize = 512 << 20

    public init(timeout: TimeInterval = 10, maximumBodySize: Int = HTTPClient.defaultMaximumBodySize) {
        self.timeout = max(1, timeout.rounded(.up))
        self.maximumBodySize = max(0, maximumBodySize)
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
        let collector = BodyCollector(limit: maximumBodySize)
        let session = URLSession(configuration: configuration, delegate: collector, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        session.dataTask(with: request).resume()
        // The session's own timeout ends the task; this is a backstop should it not.
        if collector.done.wait(timeout: .now() + timeout + 5) == .timedOut {
            throw FetchError(url: url.absoluteString, reason: "no response within \(Int(timeout)) s")
        }
        let outcome = collector.outcome.withLock { $0 }
        if outcome.isTooLarge {
            throw FetchError(
                url: url.absoluteString,
                reason: "the response is larger than \(Self.describeSize(maximumBodySize)), the most accepted")
        }
        guard let response = outcome.response else {
            throw FetchError(url: url.absoluteString, reason: outcome.failure ?? "no response")
        }
        return response
    }

    /// `512 MiB`, `1000 bytes`.
    static func describeSize(_ bytes: Int) -> String {
        bytes >= 1 << 20 && bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : "\(bytes) bytes"
    }

    /// Collects one task's response and body, cancelling it once the body is over `limit` bytes
    /// (or announced so by its Content-Length).
    final class BodyCollector: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        struct Outcome {
            var response: HTTPResponse?
            var failure: String?
            var isTooLarge = false
        }

        let limit: Int
        let outcome = Mutex(Outcome())
        let done = DispatchSemaphore(value: 0)

        init(limit: Int) {
            self.limit = limit
        }

        func urlSession(
            _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
            completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
        ) {
            guard let http = response as? HTTPURLResponse else {
                completionHandler(.allow)
                return
            }
            if http.expectedContentLength > Int64(limit) {
                outcome.withLock { $0.isTooLarge = true }
                completionHandler(.cancel)
                return
            }
            var headers: [String: String] = [:]
            for (key, value) in http.allHeaderFields {
                if let key = key as? String, let value = value as? String { headers[key.lowercased()] = value }
            }
            outcome.withLock { $0.response = HTTPResponse(status: http.statusCode, headers: headers) }
            completionHandler(.allow)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            let isTooLarge = outcome.withLock { outcome in
                guard !outcome.isTooLarge else { return true }
                let size = (outcome.response?.body.count ?? 0) + data.count
                if size > limit {
                    outcome.isTooLarge = true
                    outcome.response = nil
                    return true
                }
                outcome.response?.body.append(data)
                return false
            }
            if isTooLarge { dataTask.cancel() }
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            outcome.withLock { outcome in
                if outcome.isTooLarge {
                    outcome.response = nil
                } else if let error {
                    outcome.response = nil
                    outcome.failure = HTTPClient.describe(error)
                } else if outcome.response == nil {
                    outcome.failure = "no response"
                }
            }
            done.signal()
        }
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

import Foundation
import SurveyCore

/// A request that got no response, a fetch that failed with nothing cached to fall back on, or a
/// copy that could not be stored.
public struct FetchError: Error, Sendable, Hashable, CustomStringConvertible {
    public var url: String
    public var reason: String

    public init(url: String, reason: String) {
        self.url = url
        self.reason = reason
    }

    public var description: String { "\(url): \(reason)" }
}

/// Fetches documents (survey definitions, choice lists) over HTTP through a ``FetchCache``:
/// conditionally (`If-None-Match`, `If-Modified-Since`) when a copy is cached; a body is kept only
/// when the caller's check accepts it, so a broken document never replaces a good one; offline, on
/// a server error or on a rejected body, the cached copy is used and a one-line warning says how old
/// it is.
public struct RemoteFetcher: Sendable {
    public var client: HTTPClient
    public var cache: FetchCache
    /// Where the time comes from (the cache's ages).
    public var now: @Sendable () -> Date
    /// Documents already fetched by this fetcher (and its copies), so one run asks for each URL once.
    let memo = Memo()

    public init(
        client: HTTPClient = HTTPClient(), cache: FetchCache = FetchCache(directory: FetchCache.defaultDirectory()),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.client = client
        self.cache = cache
        self.now = now
    }

    /// What this fetcher has fetched, by URL.
    final class Memo: @unchecked Sendable {
        let lock = NSLock()
        var documents: [String: Document] = [:]

        func get(_ url: String) -> Document? {
            lock.lock()
            defer { lock.unlock() }
            return documents[url]
        }

        func set(_ url: String, _ document: Document) {
            lock.lock()
            defer { lock.unlock() }
            documents[url] = document
        }
    }

    /// Where a fetched document came from.
    public enum Origin: Sendable, Hashable {
        /// A new body from the server (now cached).
        case fetched
        /// The server said the cached copy is current (304).
        case notModified
        /// The cached copy, because the server could not be used.
        case cached
    }

    /// A document, where it came from, and a one-line warning for the user when something went
    /// wrong (the cached copy was used and why, or the new copy could not be cached).
    public struct Document: Sendable, Hashable {
        public var body: Data
        public var origin: Origin
        public var warning: String?
    }

    /// Whether `text` is a URL this fetcher handles (`http://` or `https://`).
    public static func isRemote(_ text: String) -> Bool {
        text.hasPrefix("https://") || text.hasPrefix("http://")
    }

    /// Fetches `address` (once per fetcher: asked again, it gives the same document).
    /// - Parameter accept: checks a new body before it is used and cached; throw to refuse it (the
    ///   message becomes part of the warning or error).
    /// - Throws: ``FetchError`` when nothing can be fetched and nothing is cached.
    public func fetch(_ address: String, accept: (Data) throws -> Void = { _ in }) throws(FetchError) -> Document {
        // Asked for again in the same run: the same document, its warning already given.
        if var known = memo.get(address) {
            known.warning = nil
            return known
        }
        let document = try fetchOnce(address, accept: accept)
        memo.set(address, document)
        return document
    }

    func fetchOnce(_ address: String, accept: (Data) throws -> Void) throws(FetchError) -> Document {
        guard let url = URL(string: address), Self.isRemote(address), url.host != nil else {
            throw FetchError(url: address, reason: "not an http:// or https:// URL")
        }
        let cached = cache.entry(for: address)
        var headers: [String: String] = ["Accept": "application/json"]
        if let cached {
            if let etag = cached.etag { headers["If-None-Match"] = etag }
            if let modified = cached.lastModified { headers["If-Modified-Since"] = modified }
        }
        let problem: String
        do {
            let response = try client.send("GET", url, headers: headers)
            switch response.status {
            case 304:
                guard let cached else {
                    problem = "the server answered 304 Not Modified to a request that had no copy to compare"
                    break
                }
                return Document(body: cached.body, origin: .notModified, warning: nil)
            case 200..<300:
                do {
                    try accept(response.body)
                } catch {
                    problem = "the server's copy was refused: \(error)"
                    break
                }
                let warning = cache.keep(
                    FetchCache.Entry(
                        url: address, body: response.body, etag: response.header("ETag"),
                        lastModified: response.header("Last-Modified"), fetchedAt: now()))
                return Document(body: response.body, origin: .fetched, warning: warning)
            default:
                problem = "the server answered \(response.status)"
            }
        } catch {
            problem = error.reason
        }
        let fallback = try cache.fallback(address, for: address, after: problem, now: now())
        return Document(body: fallback.entry.body, origin: .cached, warning: fallback.warning)
    }
}

import Foundation
import SurveyCore
import SurveyDelivery
import SurveyTestFixtures
import Testing

/// Fetching through the cache from a real HTTP server on 127.0.0.1: conditional requests, the
/// cached copy offline and on server errors, and a refused body never replacing a good one.
@Suite struct RemoteFetcherTests {
    static func cacheDirectory() -> String {
        Scratch.file("survey-cache").path
    }

    @Test func aSecondFetchIsConditionalAndTheServerSaysNotModified() throws {
        let server = try TestServer(files: ["doc.json": #"{"a": 1}"#])
        let cache = FetchCache(directory: Self.cacheDirectory())
        let first = try RemoteFetcher(cache: cache).fetch(server.url("doc.json"))
        #expect(first.origin == .fetched && first.warning == nil)
        #expect(String(decoding: first.body, as: UTF8.self) == #"{"a": 1}"#)
        #expect(cache.entry(for: server.url("doc.json"))?.etag != nil)
        // A new fetcher (a new run): the cached copy's ETag makes the server answer 304.
        let second = try RemoteFetcher(cache: cache).fetch(server.url("doc.json"))
        #expect(second.origin == .notModified && second.body == first.body)
        // The same fetcher asks once per URL.
        let fetcher = RemoteFetcher(cache: cache)
        _ = try fetcher.fetch(server.url("doc.json"))
        _ = try fetcher.fetch(server.url("doc.json"))
        #expect(try server.requests("doc.json") == 3)
        // A changed document is fetched again.
        try server.control(["put": "doc.json", "body": #"{"a": 2}"#])
        let third = try RemoteFetcher(cache: cache).fetch(server.url("doc.json"))
        #expect(third.origin == .fetched && String(decoding: third.body, as: UTF8.self) == #"{"a": 2}"#)
    }

    @Test func offlineOrOnAServerErrorTheCachedCopyIsUsedWithAWarning() throws {
        let server = try TestServer(files: ["doc.json": #"{"a": 1}"#])
        let cache = FetchCache(directory: Self.cacheDirectory())
        _ = try RemoteFetcher(cache: cache).fetch(server.url("doc.json"))
        try server.control(["fail": 503])
        let failing = try RemoteFetcher(cache: cache).fetch(server.url("doc.json"))
        #expect(failing.origin == .cached && String(decoding: failing.body, as: UTF8.self) == #"{"a": 1}"#)
        #expect(failing.warning?.contains("the server answered 503; using the copy cached") == true)
        try server.control(["fail": 0, "down": true])
        let down = try RemoteFetcher(cache: cache).fetch(server.url("doc.json"))
        #expect(down.origin == .cached && down.warning != nil)
        // Nothing cached and nothing fetched: an error naming the URL and why.
        do {
            _ = try RemoteFetcher(cache: FetchCache(directory: Self.cacheDirectory())).fetch(server.url("doc.json"))
            Issue.record("a fetch from a closed server succeeded")
        } catch {
            #expect(error.url == server.url("doc.json") && error.reason.hasSuffix("and no copy is cached"))
        }
    }

    @Test func aRefusedBodyNeverReplacesTheCachedGoodCopy() throws {
        let server = try TestServer(files: ["doc.json": #"{"good": true}"#])
        let cache = FetchCache(directory: Self.cacheDirectory())
        struct Bad: Error {}
        let accept: (Data) throws -> Void = { body in
            if String(decoding: body, as: UTF8.self).contains("broken") { throw Bad() }
        }
        _ = try RemoteFetcher(cache: cache).fetch(server.url("doc.json"), accept: accept)
        try server.control(["put": "doc.json", "body": #"{"broken": true}"#])
        let document = try RemoteFetcher(cache: cache).fetch(server.url("doc.json"), accept: accept)
        #expect(document.origin == .cached && String(decoding: document.body, as: UTF8.self) == #"{"good": true}"#)
        #expect(document.warning?.contains("the server's copy was refused") == true)
        #expect(cache.entry(for: server.url("doc.json"))?.body == Data(#"{"good": true}"#.utf8))
    }

    @Test func onlyHTTPURLsAreFetched() {
        #expect(throws: FetchError.self) {
            try RemoteFetcher(cache: FetchCache(directory: Self.cacheDirectory())).fetch("file:///etc/passwd")
        }
        #expect(RemoteFetcher.isRemote("https://example.com/s.json") && !RemoteFetcher.isRemote("s.json"))
    }
}

/// A response body has a ceiling: a longer one is refused as it arrives, never held whole.
@Suite struct ResponseSizeTests {
    @Test func aBodyOverTheLimitIsRefusedWithTheLimitNamed() throws {
        let server = try TestServer(files: [
            "small.json": #"{"a": 1}"#, "large.json": "[" + String(repeating: "1,", count: 50_000) + "1]",
        ])
        let client = HTTPClient(maximumBodySize: 1_000)
        let smallURL = try #require(URL(string: server.url("small.json")))
        let largeURL = try #require(URL(string: server.url("large.json")))
        let small = try client.send("GET", smallURL)
        #expect(small.status == 200 && small.body == Data(#"{"a": 1}"#.utf8))
        let refused = FetchError(
            url: largeURL.absoluteString, reason: "the response is larger than 1000 bytes, the most accepted")
        #expect(throws: refused) { try client.send("GET", largeURL) }
        let fetcher = RemoteFetcher(client: client, cache: FetchCache(directory: RemoteFetcherTests.cacheDirectory()))
        #expect {
            try fetcher.fetch(server.url("large.json"))
        } throws: { error in
            (error as? FetchError)?.description.contains("larger than 1000 bytes") == true
        }
        #expect(HTTPClient().maximumBodySize == 512 << 20)
    }
}

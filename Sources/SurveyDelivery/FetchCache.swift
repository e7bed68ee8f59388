import Foundation
import SurveyCore

/// A directory of the last good copy of each fetched URL, with its `ETag` and `Last-Modified`, so
/// that a fetch can be conditional and, offline or when the server fails, the copy can be used.
///
/// Each URL has two files named by a hash of the URL: `<hash>.body` and `<hash>.json` (`url`,
/// `etag`, `lastModified`, `fetchedAt` as an ISO 8601 time). A copy is replaced only by a body that
/// the caller accepted, written to a temporary file and renamed, so a crash never leaves half of one.
public struct FetchCache: Sendable {
    /// The directory; created when the first copy is stored.
    public var directory: String

    public init(directory: String) {
        self.directory = directory
    }

    /// The default directory: `$SURVEY_CACHE_DIR`, else `$XDG_CACHE_HOME/survey-engine`, else
    /// `~/.cache/survey-engine`.
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment)
        -> String
    {
        if let explicit = environment["SURVEY_CACHE_DIR"], !explicit.isEmpty { return explicit }
        if let xdg = environment["XDG_CACHE_HOME"], !xdg.isEmpty { return xdg + "/survey-engine" }
        return (environment["HOME"] ?? NSTemporaryDirectory()) + "/.cache/survey-engine"
    }

    /// A stored copy.
    public struct Entry: Sendable, Hashable {
        public var url: String
        public var body: Data
        public var etag: String?
        public var lastModified: String?
        public var fetchedAt: Date
    }

    /// The stored copy of `url`, if any (an unreadable or foreign entry counts as none).
    public func entry(for url: String) -> Entry? {
        let base = directory + "/" + Self.key(url)
        guard let meta = FileManager.default.contents(atPath: base + ".json"),
            let body = FileManager.default.contents(atPath: base + ".body"),
            let text = String(data: meta, encoding: .utf8), let json = try? JSONParser.parse(text),
            json["url"]?.stringValue == url, let time = json["fetchedAt"]?.stringValue,
            let fetchedAt = ISO8601DateFormatter().date(from: time)
        else { return nil }
        return Entry(
            url: url, body: body, etag: json["etag"]?.stringValue, lastModified: json["lastModified"]?.stringValue,
            fetchedAt: fetchedAt)
    }

    /// Stores `entry`, replacing the previous copy.
    /// - Throws: a message naming the directory when it cannot be written.
    public func store(_ entry: Entry) throws(FetchError) {
        let base = directory + "/" + Self.key(entry.url)
        var meta: [String: JSONValue] = [
            "url": .string(entry.url), "fetchedAt": .string(ISO8601DateFormatter().string(from: entry.fetchedAt)),
        ]
        if let etag = entry.etag { meta["etag"] = .string(etag) }
        if let modified = entry.lastModified { meta["lastModified"] = .string(modified) }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            // Body first, then the metadata that points at it: a crash between the two leaves a
            // body whose metadata still names the old copy's validators, which a fetch then refreshes.
            try entry.body.write(to: URL(fileURLWithPath: base + ".body"), options: .atomic)
            try Data(JSONWriter.string(from: .object(meta)).utf8).write(
                to: URL(fileURLWithPath: base + ".json"), options: .atomic)
        } catch {
            throw FetchError(url: entry.url, reason: "the cache directory \(directory) cannot be written")
        }
    }

    /// Stores `entry` as the new good copy; returns the warning to give when it cannot be cached
    /// (the copy is still used).
    func keep(_ entry: Entry) -> String? {
        do {
            try store(entry)
            return nil
        } catch {
            return "\(error.description); it is used without being cached"
        }
    }

    /// The cached copy under `key` to use instead of `url` after `problem`, with the warning that says
    /// why and how old it is (`what` names the copy in it).
    /// - Throws: ``FetchError`` naming `url` when nothing is cached.
    func fallback(_ key: String, for url: String, after problem: String, now: Date, what: String = "copy")
        throws(FetchError) -> (
            entry: Entry, warning: String
        )
    {
        guard let cached = entry(for: key) else {
            throw FetchError(url: url, reason: problem + ", and no copy is cached")
        }
        return (
            cached, "\(url): \(problem); using the \(what) cached \(Self.age(since: cached.fetchedAt, now: now)) ago"
        )
    }

    /// "3 h", "2 days": how long ago `date` was, roughly.
    static func age(since date: Date, now: Date) -> String {
        let seconds = max(0, Int(now.timeIntervalSince(date)))
        switch seconds {
        case ..<60: return "\(seconds) s"
        case ..<3600: return "\(seconds / 60) min"
        case ..<(48 * 3600): return "\(seconds / 3600) h"
        default: return "\(seconds / 86400) days"
        }
    }

    /// A file name for `url`: 16 hex digits of its FNV-1a hash.
    static func key(_ url: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in url.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}

import Foundation
import SurveyCore
import SurveyResponses

/// AirTable-compatible tables: a question table a survey is read from, and an answers table
/// responses are upserted into (the in-app survey design this engine grew from).
public enum AirTable {
    // MARK: The question table

    /// The question table's columns, by their role (each may be renamed with a `fields` mapping).
    public static let questionColumns = [
        "id", "shouldDisplayQuestion", "questionText", "possibleAnswers", "numberOfRatingChoices", "questionType",
    ]

    /// A question-table survey source: the JSON file that names the table.
    ///
    /// ```json
    /// { "airtable": { "url": "https://api.airtable.com/v0/appXXXX/Questions", "tokenEnv": "AIRTABLE_TOKEN",
    ///                 "surveyId": "in-app", "title": "Quick question",
    ///                 "fields": { "questionText": "Question" } } }
    /// ```
    public struct Source: Sendable, Hashable {
        public var url: URL
        public var tokenEnvironment: String?
        public var surveyID: String
        public var title: String
        /// Column name for each role in ``AirTable/questionColumns``.
        public var columns: [String: String]

        /// Whether `json` is a question-table source (an object whose only member is `airtable`).
        public static func isSource(_ json: JSONValue) -> Bool {
            guard case .object(let members) = json else { return false }
            return members.count == 1 && members["airtable"] != nil
        }

        /// Reads a source file's JSON (`file` names it in errors).
        public init(json: JSONValue, file: String) throws(SurveyLoadError) {
            func fail(_ path: JSONPath, _ message: String) -> SurveyLoadError {
                SurveyLoadError(errors: [SurveyError(.invalidValue, message, path: path, file: file)])
            }
            let at = JSONPath().appending("airtable")
            guard case .object(let members) = json["airtable"] ?? .null else {
                throw fail(at, "'airtable' must be an object with the table's 'url'")
            }
            let known = ["url", "tokenEnv", "surveyId", "title", "fields"]
            for key in members.keys.sorted() where !known.contains(key) {
                let hint =
                    key.lowercased().contains("token") || key.lowercased().contains("key")
                    ? "credentials are not read from the file: name an environment variable in 'tokenEnv'"
                    : "unknown member (known: \(known.joined(separator: ", ")))"
                throw fail(at.appending(key), hint)
            }
            guard let address = members["url"]?.stringValue, RemoteFetcher.isRemote(address),
                let url = URL(string: address), url.host != nil, url.query == nil
            else {
                throw fail(
                    at.appending("url"),
                    "'url' must be the table's http(s) address, such as https://api.airtable.com/v0/BASE/TABLE")
            }
            self.url = url
            tokenEnvironment = members["tokenEnv"]?.stringValue
            surveyID = members["surveyId"]?.stringValue ?? url.lastPathComponent
            title = members["title"]?.stringValue ?? surveyID
            var columns = Dictionary(uniqueKeysWithValues: AirTable.questionColumns.map { ($0, $0) })
            if let mapping = members["fields"] {
                guard case .object(let names) = mapping else {
                    throw fail(at.appending("fields"), "'fields' must map roles to column names")
                }
                for (role, name) in names {
                    guard AirTable.questionColumns.contains(role) else {
                        throw fail(
                            at.appending("fields").appending(role),
                            "unknown role (known: \(AirTable.questionColumns.joined(separator: ", ")))")
                    }
                    guard let column = name.stringValue, !column.isEmpty else {
                        throw fail(at.appending("fields").appending(role), "a column name must be a text")
                    }
                    columns[role] = column
                }
            }
            self.columns = columns
        }
    }

    /// The table's records, every page (`offset`), with the source's token.
    static func records(of source: Source, client: HTTPClient, token: String?) throws(FetchError) -> [JSONValue] {
        var records: [JSONValue] = []
        var offset: String?
        for _ in 0..<1_000 {
            var components = URLComponents(url: source.url, resolvingAgainstBaseURL: false)
            components?.queryItems = [URLQueryItem(name: "pageSize", value: "100")]
            if let offset { components?.queryItems?.append(URLQueryItem(name: "offset", value: offset)) }
            guard let url = components?.url else {
                throw FetchError(url: source.url.absoluteString, reason: "the table's URL cannot be paged")
            }
            var headers = ["Accept": "application/json"]
            if let token { headers["Authorization"] = "Bearer " + token }
            let response: HTTPResponse
            do {
                response = try client.send("GET", url, headers: headers)
            } catch {
                throw FetchError(url: source.url.absoluteString, reason: error.reason)
            }
            guard (200..<300).contains(response.status) else {
                throw FetchError(url: source.url.absoluteString, reason: "the server answered \(response.status)")
            }
            guard let text = String(data: response.body, encoding: .utf8), let page = try? JSONParser.parse(text),
                case .array(let list) = page["records"] ?? .null
            else {
                throw FetchError(url: source.url.absoluteString, reason: "the response is not a list of records")
            }
            records += list
            guard let next = page["offset"]?.stringValue, !next.isEmpty else { return records }
            offset = next
        }
        throw FetchError(url: source.url.absoluteString, reason: "more than 1,000 pages")
    }

    /// The survey the question table describes: one step per record, in the table's order; a
    /// record's `shouldDisplayQuestion` (an AirTable checkbox: absent means unchecked) switches it on.
    /// - Throws: every record that cannot be a question, naming its record id and column.
    public static func survey(from records: [JSONValue], source: Source) throws(SurveyLoadError) -> JSONValue {
        var steps: [JSONValue] = []
        var problems: [SurveyError] = []
        let column = { (role: String) in source.columns[role] ?? role }
        for (index, record) in records.enumerated() {
            let recordID = record["id"]?.stringValue ?? "#\(index + 1)"
            func problem(_ role: String, _ message: String) {
                problems.append(
                    SurveyError(
                        .invalidValue, "record \(recordID), column '\(column(role))': \(message)",
                        path: JSONPath().appending("records").appending(index).appending("fields")
                            .appending(column(role)), file: source.url.absoluteString))
            }
            guard case .object(let fields) = record["fields"] ?? .null else {
                problems.append(
                    SurveyError(
                        .invalidValue, "record \(recordID) has no fields",
                        path: JSONPath().appending("records").appending(index), file: source.url.absoluteString))
                continue
            }
            let id: String
            switch fields[column("id")] {
            case .string(let text) where !text.isEmpty: id = text
            case .number(let number): id = JSONValue.number(number).displayText
            default:
                problem("id", "a question needs an id")
                continue
            }
            var step: [String: JSONValue] = ["id": .string(id)]
            step["title"] = fields[column("questionText")].map { .string($0.displayText) } ?? .string(id)
            step["enabled"] = .bool(fields[column("shouldDisplayQuestion")]?.boolValue ?? false)
            switch fields[column("questionType")]?.stringValue {
            case "multipleChoice":
                let answers: [JSONValue]
                switch fields[column("possibleAnswers")] {
                case .array(let list): answers = list.map { .string($0.displayText) }
                case .string(let text):
                    answers = text.split(whereSeparator: { $0 == "," || $0 == "\n" }).map {
                        .string($0.trimmingCharacters(in: .whitespaces))
                    }.filter { !($0.stringValue ?? "").isEmpty }
                default: answers = []
                }
                guard !answers.isEmpty else {
                    problem("possibleAnswers", "a multipleChoice question needs its possible answers")
                    continue
                }
                step["type"] = "single-choice"
                step["options"] = ["choices": .array(answers)]
            case "fillInTheBlank":
                step["type"] = "text"
            case "rating":
                let count = fields[column("numberOfRatingChoices")]?.intValue ?? 5
                guard (2...10).contains(count) else {
                    problem("numberOfRatingChoices", "a rating needs from 2 to 10 choices, got \(count)")
                    continue
                }
                step["type"] = "rating"
                step["options"] = ["stars": .number(Double(count))]
            case let other:
                problem(
                    "questionType",
                    "'\(other ?? "(none)")' is not a question type (multipleChoice, fillInTheBlank or rating)")
                continue
            }
            steps.append(.object(step))
        }
        guard problems.isEmpty else { throw SurveyLoadError(errors: problems) }
        return [
            "formatVersion": 1, "id": .string(source.surveyID), "title": .string(source.title), "steps": .array(steps),
        ]
    }

    /// Reads the question table into a survey (JSON text), through the cache: a survey that
    /// `accept` refuses is not cached, and offline or on a server error the last good one is used.
    public static func load(
        _ source: Source, cache: FetchCache, client: HTTPClient = HTTPClient(),
        environment: [String: String] = ProcessInfo.processInfo.environment, now: Date = Date(),
        accept: (String) throws -> Void
    ) throws(FetchError) -> (text: String, warning: String?) {
        let key = "airtable:" + source.url.absoluteString
        let problem: String
        do throws(FetchError) {
            let token = source.tokenEnvironment.flatMap { environment[$0] }
            if let variable = source.tokenEnvironment, token == nil {
                throw FetchError(
                    url: source.url.absoluteString, reason: "the environment variable \(variable) is not set")
            }
            let records = try records(of: source, client: client, token: token)
            do {
                let text = JSONWriter.string(from: try survey(from: records, source: source), pretty: true)
                try accept(text)
                let warning = cache.keep(
                    FetchCache.Entry(url: key, body: Data(text.utf8), etag: nil, lastModified: nil, fetchedAt: now))
                return (text, warning)
            } catch {
                problem = "the table does not make a survey: \(error)"
            }
        } catch {
            problem = error.reason
        }
        let fallback = try cache.fallback(
            key, for: source.url.absoluteString, after: problem, now: now, what: "survey")
        guard let text = String(data: fallback.entry.body, encoding: .utf8) else {
            throw FetchError(url: source.url.absoluteString, reason: problem + ", and the cached copy is unreadable")
        }
        return (text, fallback.warning)
    }

    // MARK: The answers table

    /// The answers table's columns, by their role.
    public static let answerColumns = [
        "responseId", "id", "questionText", "answer", "sawThisComponent", "sawThisQuestion", "dismissedThisComponent",
        "answeredThisQuestion",
    ]

    /// The records of one response: one per question it showed or answered, with the seed's counters.
    static func answerRecords(
        _ response: Response, events: [FunnelEvent], titles: [String: String], columns: [String: String]
    ) -> [JSONValue] {
        let seen = Set(events.filter { $0.kind == .stepSeen }.compactMap(\.stepID))
        let answered = Set(events.filter { $0.kind == .answered }.compactMap(\.stepID))
        let steps = seen.union(answered).union(response.answers.keys).sorted()
        let dismissed = response.status == .dismissed ? 1 : 0
        let column = { (role: String) in columns[role] ?? role }
        return steps.map { step in
            var fields: [String: JSONValue] = [
                column("responseId"): .string(response.id.rawValue), column("id"): .string(step),
                column("questionText"): .string(titles[step] ?? step),
                column("sawThisComponent"): 1, column("sawThisQuestion"): .number(seen.contains(step) ? 1 : 0),
                column("dismissedThisComponent"): .number(Double(dismissed)),
                column("answeredThisQuestion"): .number(response.answers[step] == nil ? 0 : 1),
            ]
            if let answer = response.answers[step] {
                switch answer {
                case .string(let text): fields[column("answer")] = .string(text)
                case .array(let list) where list.allSatisfy({ $0.stringValue != nil }):
                    fields[column("answer")] = .string(list.map(\.displayText).joined(separator: ", "))
                default: fields[column("answer")] = .string(answer.displayText)
                }
            }
            return ["fields": .object(fields)]
        }
    }

    /// At most `perSecond` requests in any second, per target, across threads.
    final class RateLimiter: @unchecked Sendable {
        let lock = NSLock()
        var sent: [String: [Date]] = [:]

        static let shared = RateLimiter()

        /// Waits until a request to `target` may go.
        func wait(_ target: String, perSecond: Int) {
            while true {
                let delay: TimeInterval = lock.withLock {
                    let now = Date()
                    var times = (sent[target] ?? []).filter { now.timeIntervalSince($0) < 1 }
                    if times.count < perSecond {
                        times.append(now)
                        sent[target] = times
                        return 0
                    }
                    sent[target] = times
                    return 1 - now.timeIntervalSince(times[0]) + 0.001
                }
                if delay <= 0 { return }
                Thread.sleep(forTimeInterval: delay)
            }
        }
    }
}

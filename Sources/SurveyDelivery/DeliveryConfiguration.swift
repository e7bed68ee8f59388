import Foundation
import SurveyCore

/// Where completed responses are sent: the delivery targets, read from a JSON file.
///
/// ```json
/// { "targets": [
///     { "name": "crm", "type": "webhook", "url": "https://example.com/hooks/survey",
///       "tokenEnv": "CRM_TOKEN", "maxAttempts": 8 },
///     { "name": "firebase", "type": "firebase", "url": "https://my-app.firebaseio.com", "tokenEnv": "FIREBASE_TOKEN" } ],
///   "backoff": { "initialSeconds": 1, "maximumSeconds": 3600 },
///   "deliverDismissed": false, "deliverPartial": false }
/// ```
///
/// A credential is never in the file or on the command line: `tokenEnv` names the environment
/// variable that holds it, read when a response is sent, and never printed.
public struct DeliveryConfiguration: Sendable, Hashable {
    /// One target.
    public struct Target: Sendable, Hashable {
        /// What the target speaks.
        public enum Kind: String, Sendable, Hashable, CaseIterable {
            /// POST the payload to `url`, with an `Idempotency-Key` header.
            case webhook
            /// Firebase Realtime Database REST: `PUT {url}/responses/{id}.json` (idempotent by construction).
            case firebase
            /// An AirTable-compatible answers table: `PATCH {url}` upserting one record per question,
            /// merged on (response id, question id), at most 10 records a request.
            case airtable
        }

        public var name: String
        public var kind: Kind
        public var url: URL
        /// The environment variable holding the credential (a bearer token; Firebase's `auth`).
        public var tokenEnvironment: String?
        /// Attempts before a job is parked as failed.
        public var maximumAttempts: Int
        /// Seconds a request may take.
        public var timeout: TimeInterval
        /// AirTable: the column for each role in ``AirTable/answerColumns`` (default: the role's name).
        public var columns: [String: String] = [:]
        /// AirTable: at most this many requests a second (AirTable allows 5 per base).
        public var requestsPerSecond = 5
    }

    public var targets: [Target]
    /// The wait before the second attempt; it doubles each time (with ±50 % jitter), up to ``maximumBackoff``.
    public var initialBackoff: TimeInterval
    public var maximumBackoff: TimeInterval
    /// Whether dismissed responses are delivered too (completed ones always are).
    public var deliversDismissed: Bool
    /// Whether unfinished responses are delivered too, each version once: after every answer, with
    /// their answers so far (`"finished": false`), then completed (see ``ResponseRecorder/deliversPartial``).
    public var deliversPartial: Bool

    public init(
        targets: [Target], initialBackoff: TimeInterval = 1, maximumBackoff: TimeInterval = 3600,
        deliversDismissed: Bool = false, deliversPartial: Bool = false
    ) {
        self.targets = targets
        self.initialBackoff = initialBackoff
        self.maximumBackoff = maximumBackoff
        self.deliversDismissed = deliversDismissed
        self.deliversPartial = deliversPartial
    }

    /// A configuration problem, with the file and JSON path.
    public struct Problem: Error, Sendable, Hashable, CustomStringConvertible {
        public var description: String
    }

    /// Reads a configuration from JSON text (`file` names it in errors).
    public init(text: String, file: String) throws(Problem) {
        let json: JSONValue
        do {
            json = try JSONParser.parse(text)
        } catch {
            throw Problem(description: "\(file):\(error.position): invalid JSON: \(error.message)")
        }
        func fail(_ path: String, _ message: String) -> Problem {
            Problem(description: "\(file): \(path): \(message)")
        }
        guard case .object(let members) = json else { throw fail("$", "the configuration must be an object") }
        for key in members.keys.sorted()
        where !["targets", "backoff", "deliverDismissed", "deliverPartial"].contains(key) {
            throw fail("$.\(key)", "unknown member (known: targets, backoff, deliverDismissed, deliverPartial)")
        }
        guard case .array(let list) = members["targets"] ?? .null, !list.isEmpty else {
            throw fail("$.targets", "'targets' must be a non-empty array of targets")
        }
        var targets: [Target] = []
        for (index, entry) in list.enumerated() {
            let at = "$.targets[\(index)]"
            guard case .object(let target) = entry else { throw fail(at, "a target must be an object") }
            let known = [
                "name", "type", "url", "tokenEnv", "maxAttempts", "timeoutSeconds", "fields", "requestsPerSecond",
            ]
            for key in target.keys.sorted() where !known.contains(key) {
                if key.lowercased().contains("token") || key.lowercased().contains("secret") || key == "auth" {
                    throw fail(
                        "\(at).\(key)",
                        "credentials are not read from the file: name an environment variable in 'tokenEnv'")
                }
                throw fail("\(at).\(key)", "unknown member (known: \(known.joined(separator: ", ")))")
            }
            guard let name = target["name"]?.stringValue, !name.isEmpty else {
                throw fail("\(at).name", "'name' is required (a text)")
            }
            guard !targets.contains(where: { $0.name == name }) else {
                throw fail("\(at).name", "another target is already called '\(name)'")
            }
            guard let type = target["type"]?.stringValue, let kind = Target.Kind(rawValue: type) else {
                throw fail(
                    "\(at).type",
                    "'type' must be one of \(Target.Kind.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            guard let address = target["url"]?.stringValue, RemoteFetcher.isRemote(address),
                let url = URL(string: address), url.host != nil
            else { throw fail("\(at).url", "'url' must be an http:// or https:// URL") }
            guard url.query == nil, url.user == nil, url.password == nil else {
                throw fail("\(at).url", "the URL must not carry a query or credentials: use 'tokenEnv'")
            }
            var tokenEnvironment: String?
            if let value = target["tokenEnv"] {
                guard let variable = value.stringValue, !variable.isEmpty else {
                    throw fail("\(at).tokenEnv", "'tokenEnv' must name an environment variable")
                }
                tokenEnvironment = variable
            }
            var attempts = 8
            if let value = target["maxAttempts"] {
                guard let number = value.intValue, (1...100).contains(number) else {
                    throw fail("\(at).maxAttempts", "'maxAttempts' must be a whole number from 1 to 100")
                }
                attempts = number
            }
            var timeout: TimeInterval = 10
            if let value = target["timeoutSeconds"] {
                guard let number = value.intValue, (1...300).contains(number) else {
                    throw fail(
                        "\(at).timeoutSeconds", "'timeoutSeconds' must be a whole number of seconds from 1 to 300")
                }
                timeout = TimeInterval(number)
            }
            var built = Target(
                name: name, kind: kind, url: url, tokenEnvironment: tokenEnvironment, maximumAttempts: attempts,
                timeout: timeout)
            if let mapping = target["fields"] {
                guard kind == .airtable, case .object(let names) = mapping else {
                    throw fail("\(at).fields", "'fields' (an object from role to column) is for airtable targets")
                }
                for (role, value) in names {
                    guard AirTable.answerColumns.contains(role), let column = value.stringValue, !column.isEmpty else {
                        throw fail(
                            "\(at).fields.\(role)",
                            "a role (\(AirTable.answerColumns.joined(separator: ", "))) mapped to a column name")
                    }
                    built.columns[role] = column
                }
            }
            if let value = target["requestsPerSecond"] {
                guard kind == .airtable, let number = value.intValue, (1...100).contains(number) else {
                    throw fail("\(at).requestsPerSecond", "'requestsPerSecond' (1 to 100) is for airtable targets")
                }
                built.requestsPerSecond = number
            }
            targets.append(built)
        }
        var initial: TimeInterval = 1
        var maximum: TimeInterval = 3600
        if let backoff = members["backoff"] {
            guard case .object(let settings) = backoff else { throw fail("$.backoff", "'backoff' must be an object") }
            for key in settings.keys.sorted() where !["initialSeconds", "maximumSeconds"].contains(key) {
                throw fail("$.backoff.\(key)", "unknown member (known: initialSeconds, maximumSeconds)")
            }
            if let value = settings["initialSeconds"] {
                guard let number = value.numberValue, number > 0, number <= 86_400 else {
                    throw fail("$.backoff.initialSeconds", "must be a number of seconds above 0")
                }
                initial = number
            }
            if let value = settings["maximumSeconds"] {
                guard let number = value.numberValue, number >= initial, number <= 7 * 86_400 else {
                    throw fail("$.backoff.maximumSeconds", "must be a number of seconds, at least initialSeconds")
                }
                maximum = number
            }
        }
        var dismissed = false
        if let value = members["deliverDismissed"] {
            guard case .bool(let flag) = value else { throw fail("$.deliverDismissed", "must be true or false") }
            dismissed = flag
        }
        var partial = false
        if let value = members["deliverPartial"] {
            guard case .bool(let flag) = value else { throw fail("$.deliverPartial", "must be true or false") }
            partial = flag
        }
        self.init(
            targets: targets, initialBackoff: initial, maximumBackoff: maximum, deliversDismissed: dismissed,
            deliversPartial: partial)
    }
}

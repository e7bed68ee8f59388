import Foundation
import SurveyCore
import SurveyResponses
import SurveyServer
import SurveyStoreSQLite
import Testing

/// Several servers over one store: a respondent's requests may reach any of them, each rebuilding the
/// session from the store when it does not hold it (or holds it out of date).
@Suite struct ScaleOutTests {
    static let secret = Array("a test secret, at least thirty-two bytes long".utf8)

    /// `count` services on one SQLite file (each with its own connection), signing tokens with `secrets`.
    struct Cluster {
        let directory: URL
        let services: [SurveyService]
        let store: any ResponseStore

        init(secrets: [[UInt8]?]) throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("scale-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let path = directory.appendingPathComponent("responses.sqlite").path
            let survey = try TestServer.survey("Examples/onboarding.json")
            services = try secrets.map { secret in
                try SurveyService(
                    surveys: [survey], store: try SQLiteResponseStore(path: path),
                    configuration: .init(
                        address: ListenAddress(host: "127.0.0.1", port: 0), threadCount: 2, timeoutSeconds: 10),
                    sessionSecret: secret,
                    // Two connections each: a respondent's requests may go through either.
                    moreConnections: [try SQLiteResponseStore(path: path)])
            }
            store = try SQLiteResponseStore(path: path)
        }

        func client(_ index: Int) -> TinyClient { TinyClient(port: services[index % services.count].port) }

        func stop() {
            for service in services { service.stop() }
            try? FileManager.default.removeItem(at: directory)
        }
    }

    /// The onboarding survey's longest path, with a refused answer and a Back on the way.
    static let script: [JSONValue] = [
        "next", ["command": "answer", "stepId": "discovery", "value": "google"], "next",
        ["command": "answer", "stepId": "goals", "value": ["fitness", "sleep"]], "next",
        ["command": "answer", "stepId": "experience", "value": "sometimes"], "next",
        ["command": "answer", "stepId": "tips-opt-in", "value": true], "next",
        ["command": "answer", "stepId": "tips-email", "value": "nope"],
        ["command": "answer", "stepId": "tips-email", "value": "ada@example.com"], "back", "next", "next", "next",
    ]

    /// What each command of the script gave (event kinds and the unit shown), sending command `i`
    /// through `client(i)`.
    static func run(_ respondent: String, client: (Int) -> TinyClient) throws -> [String] {
        let (token, _) = try JSONAPITests.start(client(0), respondent: respondent)
        var seen: [String] = []
        for (index, command) in script.enumerated() {
            let response = try client(index + 1).post("/v1/sessions/\(token)/commands", command)
            #expect(response.status == 200, "command \(index): \(String(decoding: response.body, as: UTF8.self))")
            seen.append(response.eventKinds.joined(separator: ",") + " " + (JSONAPITests.unit(response) ?? "-"))
        }
        return seen
    }

    @Test func twoServersServeOneRespondentAlternatelyAsOneServerWould() throws {
        let cluster = try Cluster(secrets: [Self.secret, Self.secret])
        defer { cluster.stop() }
        let alone = try Self.run("alone") { _ in cluster.client(0) }
        let alternating = try Self.run("alternating") { cluster.client($0) }
        #expect(alternating == alone)
        #expect(alone.last?.hasPrefix("completed") == true)
        let one = try #require(try cluster.store.latestResponse(respondent: "alone", survey: JSONAPITests.surveyID))
        let two = try #require(
            try cluster.store.latestResponse(respondent: "alternating", survey: JSONAPITests.surveyID))
        #expect(two.status == .completed)
        #expect(two.answers == one.answers)
        #expect(two.path == one.path)
        #expect(two.actionCount == one.actionCount)
        #expect(try cluster.store.actions(of: two.id).map(\.action) == cluster.store.actions(of: one.id).map(\.action))
        #expect(two.answers["tips-email"] == "ada@example.com")
    }

    @Test func aServerThatFellBehindRebuildsTheSessionFromTheStore() throws {
        let cluster = try Cluster(secrets: [Self.secret, Self.secret])
        defer { cluster.stop() }
        let (token, _) = try JSONAPITests.start(cluster.client(0), respondent: "behind")
        // Server 0 holds the session; server 1 takes it on for two commands.
        _ = try JSONAPITests.command(cluster.client(0), token, "next")
        _ = try JSONAPITests.command(
            cluster.client(1), token, ["command": "answer", "stepId": "discovery", "value": "reddit"])
        #expect(JSONAPITests.unit(try JSONAPITests.command(cluster.client(1), token, "next")) == "about-you")
        // Server 0's session is out of date: it sees so and shows where the respondent is.
        let current = try cluster.client(0).get("/v1/sessions/\(token)")
        #expect(JSONAPITests.unit(current) == "about-you")
        let back = try JSONAPITests.command(cluster.client(0), token, "back")
        #expect(
            back.events.first { $0["event"] == "step" }?["step"]?["questions"]?.arrayValue?.first?["answer"] == "reddit"
        )
        let stored = try #require(try cluster.store.latestResponse(respondent: "behind", survey: JSONAPITests.surveyID))
        #expect(try cluster.store.actions(of: stored.id).count == stored.actionCount)
        // Starting again on either server continues the same response under the same token.
        let (again, resumed) = try JSONAPITests.start(cluster.client(1), respondent: "behind")
        #expect(again == token)
        #expect(resumed.events.first?["resumed"] == true)
        #expect(JSONAPITests.unit(resumed) == "discovery")
    }

    @Test func aTokenSignedWithAnotherKeyOrChangedReachesNothing() throws {
        let cluster = try Cluster(secrets: [Self.secret, Array("another secret, also thirty-two bytes long".utf8)])
        defer { cluster.stop() }
        let (token, _) = try JSONAPITests.start(cluster.client(0), respondent: "keyed")
        let elsewhere = try cluster.client(1).post("/v1/sessions/\(token)/commands", "next")
        #expect(elsewhere.status == 404)
        #expect(elsewhere.errorCode == "sessionNotFound")
        let parts = token.split(separator: ".")
        #expect(parts.count == 2)
        // Another response's id under this token's signature, a signature cut short, a changed one.
        let other = try #require(
            try cluster.store.latestResponse(respondent: "keyed", survey: JSONAPITests.surveyID))
        var changed = Array(parts[1])
        changed[0] = changed[0] == "A" ? "B" : "A"
        let otherID = Data("00000000-0000-7000-8000-000000000000".utf8).base64EncodedString()
            .replacingOccurrences(of: "=", with: "").replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
        for forged in [
            otherID + "." + parts[1], parts[0] + "." + parts[1].dropLast(),
            parts[0] + "." + String(changed), String(parts[0]), other.id.rawValue,
        ] {
            #expect(try cluster.client(0).get("/v1/sessions/\(forged)").status == 404, "\(forged)")
        }
        #expect(try cluster.client(0).get("/v1/sessions/\(token)").status == 200)
    }

    @Test func aBrowserMayReachEitherServer() throws {
        let cluster = try Cluster(secrets: [Self.secret, Self.secret])
        defer { cluster.stop() }
        var browser = WebFrontEndTests.Browser(client: cluster.client(0))
        _ = try browser.get()
        for (index, fields) in [
            [("action", "next")], [("a:discovery", "google"), ("action", "next")],
            [("a:goals", "sleep"), ("action", "next")],
        ].enumerated() {
            var next = WebFrontEndTests.Browser(client: cluster.client(index + 1))
            next.cookies = browser.cookies
            next.formToken = browser.formToken
            #expect(try next.post(fields).status == 303)
            _ = try next.get()
            browser = next
        }
        #expect(WebFrontEndTests.text(try browser.get()).contains("Have you used a habit tracker before?"))
        let respondent = try #require(browser.cookies["survey-respondent"])
        let stored = try #require(
            try cluster.store.latestResponse(respondent: "web-" + respondent, survey: JSONAPITests.surveyID))
        #expect(stored.currentUnitID == "experience")
    }
}

/// SHA-256 and HMAC-SHA-256 against published test vectors (FIPS 180-4 examples, RFC 4231).
@Suite struct SignatureTests {
    static func hex(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            bytes.append(UInt8(text[index..<next], radix: 16) ?? 0)
            index = next
        }
        return bytes
    }

    @Test func sha256() {
        #expect(
            SHA256.hex(SHA256.hash(Array("abc".utf8)))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            SHA256.hex(SHA256.hash([]))
                == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(
            SHA256.hex(
                SHA256.hash(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test func hmacRFC4231() {
        #expect(
            SHA256.hex(
                SHA256.hmac(key: [UInt8](repeating: 0x0b, count: 20), message: Array("Hi There".utf8)))
                == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        #expect(
            SHA256.hex(
                SHA256.hmac(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8)))
                == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        // A key longer than the block is hashed first (test case 6).
        #expect(
            SHA256.hex(
                SHA256.hmac(
                    key: [UInt8](repeating: 0xaa, count: 131),
                    message: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8)))
                == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    }
}

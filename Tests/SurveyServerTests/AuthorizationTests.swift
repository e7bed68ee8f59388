import Foundation
import SurveyCore
import SurveyResponses
import SurveyServer
import Testing

/// API tokens in `Authorization: Bearer` and respondent ids signed by the app's backend.
@Suite struct AuthorizationTests {
    static let tokens = ["first-api-token-0123456789", "second-api-token-0123456789"]
    static let secret = Array("the respondent secret, 32 bytes or more".utf8)

    static func server() throws -> TestServer {
        try TestServer(access: .init(apiTokens: tokens, respondentSecret: secret))
    }

    static func start(
        _ client: TinyClient, respondent: String, signature: String?, token: String? = tokens[0]
    ) throws -> ClientResponse {
        var body: [String: JSONValue] = [
            "surveyId": .string(JSONAPITests.surveyID), "respondentId": .string(respondent),
        ]
        if let signature { body["respondentSignature"] = .string(signature) }
        return try client.request(
            "POST", "/v1/sessions", body: Array(JSONWriter.string(from: .object(body), pretty: false).utf8),
            headers: token.map { ["Authorization": "Bearer \($0)"] } ?? [:])
    }

    @Test func everyAPIRequestNeedsOneOfTheTokens() throws {
        let server = try Self.server()
        defer { server.stop() }
        let client = server.client
        let signature = RespondentSignature.sign("ada", secret: Self.secret)
        let started = try Self.start(client, respondent: "ada", signature: signature)
        #expect(started.status == 201)
        let token = try #require(started.json?["token"]?.stringValue)
        let requests: [(String, String, [UInt8]?)] = [
            ("POST", "/v1/sessions", Array(#"{"respondentId": "ada"}"#.utf8)),
            ("GET", "/v1/sessions/\(token)", nil),
            ("POST", "/v1/sessions/\(token)/commands", Array(#""next""#.utf8)),
        ]
        for (method, path, body) in requests {
            let missing = try client.request(method, path, body: body)
            #expect(missing.status == 401, "\(method) \(path)")
            #expect(missing.errorCode == "missingAPIToken")
            #expect(missing.headers["www-authenticate"] == #"Bearer realm="survey""#)
            for header in [
                "Bearer wrong-token-0123456789", "Bearer " + Self.tokens[0] + "x", "Basic " + Self.tokens[0],
            ] {
                let wrong = try client.request(method, path, body: body, headers: ["Authorization": header])
                #expect(wrong.status == 401, "\(header)")
                #expect(wrong.errorCode == (header.hasPrefix("Basic") ? "missingAPIToken" : "invalidAPIToken"))
            }
        }
        // Nothing was applied: the session is still on its first page. Either token works.
        let current = try client.request(
            "GET", "/v1/sessions/\(token)", headers: ["Authorization": "Bearer " + Self.tokens[1]])
        #expect(current.status == 200)
        #expect(JSONAPITests.unit(current) == "welcome")
        // Health and readiness need no token.
        #expect(try client.get("/v1/health").status == 200)
        #expect(try client.get("/v1/ready").status == 200)
    }

    @Test func onlyASignedRespondentIdStartsOrContinuesAResponse() throws {
        let server = try Self.server()
        defer { server.stop() }
        let client = server.client
        let signature = RespondentSignature.sign("victim", secret: Self.secret)
        let started = try Self.start(client, respondent: "victim", signature: signature)
        #expect(started.status == 201)
        let token = try #require(started.json?["token"]?.stringValue)
        let auth = ["Authorization": "Bearer " + Self.tokens[0]]
        let next = try client.request(
            "POST", "/v1/sessions/\(token)/commands", body: Array(#""next""#.utf8), headers: auth)
        #expect(next.status == 200)
        // Someone with an API token but not the secret tries to continue the victim.
        let unsigned = try Self.start(client, respondent: "victim", signature: nil)
        #expect(unsigned.status == 401)
        #expect(unsigned.errorCode == "missingRespondentSignature")
        let otherSecret = RespondentSignature.sign("victim", secret: Array("another secret, 32 bytes or more!!".utf8))
        let forgeries = [
            RespondentSignature.sign("attacker", secret: Self.secret), otherSecret, String(signature.dropLast()),
            signature + "00", "", "not hex at all",
        ]
        for forged in forgeries {
            let refused = try Self.start(client, respondent: "victim", signature: forged)
            #expect(refused.status == 403, "\(forged)")
            #expect(refused.errorCode == "invalidRespondentSignature")
            #expect(refused.json?["token"] == nil)
            #expect(!String(decoding: refused.body, as: UTF8.self).contains("discovery"))
        }
        // The victim's response is as they left it, and they (signed, in either case) continue it.
        let stored = try #require(try server.store.latestResponse(respondent: "victim", survey: JSONAPITests.surveyID))
        #expect(stored.actionCount == 1)
        let again = try Self.start(client, respondent: "victim", signature: signature.uppercased())
        #expect(again.status == 201)
        #expect(JSONAPITests.unit(again) == "discovery")
        // An anonymous respondent needs no signature (nobody can continue it).
        let anonymous = try client.request(
            "POST", "/v1/sessions", body: Array("{}".utf8), headers: auth)
        #expect(anonymous.status == 201)
        #expect(anonymous.json?["respondentId"]?.stringValue?.hasPrefix("anonymous-") == true)
    }

    @Test func theWebPagesNeedNeitherTokenNorSignature() throws {
        let server = try Self.server()
        defer { server.stop() }
        var browser = WebFrontEndTests.Browser(client: server.client)
        let welcome = try browser.get()
        #expect(welcome.status == 200)
        #expect(WebFrontEndTests.text(welcome).contains("Welcome to Habitly"))
        #expect(try browser.post([("action", "next")]).status == 303)
        #expect(WebFrontEndTests.text(try browser.get()).contains("How did you hear about us?"))
    }

    @Test func theSignatureIsHMACSHA256InHex() {
        // printf %s user-42 | openssl dgst -sha256 -hmac example-respondent-secret-at-least-32-bytes
        #expect(
            RespondentSignature.sign("user-42", secret: Array("example-respondent-secret-at-least-32-bytes".utf8))
                == "f7fed0f23d6a44bd263e1730fca548aa92b931f0bddb9037729695be4833a2cb")
        #expect(
            RespondentSignature.isValid(
                "F7FED0F23D6A44BD263E1730FCA548AA92B931F0BDDB9037729695BE4833A2CB", for: "user-42",
                secret: Array("example-respondent-secret-at-least-32-bytes".utf8)))
    }
}

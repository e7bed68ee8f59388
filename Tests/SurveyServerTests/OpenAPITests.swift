import Foundation
import SurveyCore
import SurveyServer
import Testing

/// docs/openapi.json against the server: the document served is the file, and it lists exactly the
/// server's endpoints, each answered with its method (and only it), each protected as the server does.
@Suite struct OpenAPITests {
    static func document() throws -> (text: String, json: JSONValue) {
        let text = try String(
            contentsOf: TestServer.repository.appendingPathComponent("docs/openapi.json"), encoding: .utf8)
        return (text, try JSONParser.parse(text))
    }

    static let methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

    /// (method, path) of every operation of the document.
    static func operations(_ document: JSONValue) -> Set<String> {
        var result: Set<String> = []
        for (path, item) in document["paths"]?.objectValue ?? [:] {
            for method in methods where item[method] != nil { result.insert(method.uppercased() + " " + path) }
        }
        return result
    }

    @Test func theServedDocumentIsDocsOpenAPIJSON() throws {
        let (text, json) = try Self.document()
        #expect(json["openapi"] == "3.1.0")
        let server = try TestServer()
        defer { server.stop() }
        let served = try server.client.get("/v1/openapi.json")
        #expect(served.status == 200)
        #expect(served.headers["content-type"]?.hasPrefix("application/json") == true)
        // Byte for byte (the file's final line break aside): scripts/openapi.py copies it into the server.
        #expect(
            String(decoding: served.body, as: UTF8.self) == text.trimmingCharacters(in: .newlines),
            "Sources/SurveyServer/OpenAPIDocument.swift is out of date: run python3 scripts/openapi.py")
    }

    @Test func everyEndpointIsDocumentedAndEveryDocumentedOperationIsAnEndpoint() throws {
        let (_, json) = try Self.document()
        let documented = Self.operations(json)
        let served = Set(SurveyAPI.Endpoint.allCases.map { $0.method + " " + $0.path })
        #expect(
            documented == served,
            "only documented: \(documented.subtracting(served)); only served: \(served.subtracting(documented))")
        for endpoint in SurveyAPI.Endpoint.allCases {
            let operation = json["paths"]?[endpoint.path]?[endpoint.method.lowercased()]
            let isSecured = !(operation?["security"]?.arrayValue ?? []).isEmpty
            #expect(isSecured == endpoint.isProtected, "\(endpoint.path)")
        }
    }

    @Test func theLiveServerAnswersExactlyTheDocumentedOperations() throws {
        let (_, json) = try Self.document()
        let server = try TestServer()
        defer { server.stop() }
        let client = server.client
        let paths = json["paths"]?.objectValue ?? [:]
        #expect(paths.count >= 5)
        for (template, item) in paths {
            let path = template.replacingOccurrences(of: "{token}", with: "some-token")
            for method in ["GET", "POST", "PUT", "DELETE", "PATCH"] {
                let response = try client.request(method, path, body: method == "GET" ? nil : Array("{}".utf8))
                if item[method.lowercased()] != nil {
                    // The route exists with this method: no 404 for the path, no 405.
                    #expect(response.errorCode != "notFound", "\(method) \(path)")
                    #expect(response.status != 405, "\(method) \(path)")
                } else {
                    #expect(response.status == 405, "\(method) \(path): \(response.status)")
                    #expect(response.headers["allow"].map { item[$0.lowercased()] != nil } == true)
                }
            }
        }
        // Paths the document does not have are not there.
        for path in ["/v1", "/v1/sessions/a/b", "/v1/sessions/a/commands/b", "/v1/other", "/v2/health"] {
            let response = try client.request("GET", path)
            #expect(response.status == 404, "\(path)")
            #expect(response.errorCode == "notFound", "\(path)")
        }
    }
}

import SurveyCore
import SurveyResponses

/// `survey serve`: surveys behind HTTP. The JSON API (``SurveyAPI``) under `/v1`, and web pages for
/// respondents' browsers at `/` and `/s/{surveyId}`, on an ``HTTPServer``.
///
/// ```swift
/// let service = try SurveyService(
///     surveys: [survey], store: try SQLiteResponseStore(path: "responses.sqlite"),
///     configuration: .init(address: try ListenAddress(parsing: "127.0.0.1:8080")))
/// print(service.url)  // http://127.0.0.1:8080
/// // … until the process is told to stop:
/// service.stop()
/// ```
public final class SurveyService: Sendable {
    /// The JSON API the server answers with.
    public let api: SurveyAPI
    let server: HTTPServer

    /// Starts serving `surveys`, keeping responses in `store`.
    /// - Parameters:
    ///   - idleSessionSeconds: how long a session stays in memory without a request.
    ///   - sessionSecret: the key session tokens are signed with, the same in every process serving
    ///     one store (``SurveyAPI/init(surveys:store:idleSessionSeconds:sessionSecret:access:moreConnections:)``).
    ///   - access: the API tokens and the respondent secret the JSON API requires (``SurveyAPI/Access``).
    ///   - moreConnections: further store objects on the same store, that sessions are spread over.
    /// - Throws: ``ServerError``: two surveys with one id, none at all, or the address cannot be listened on.
    public init(
        surveys: [Survey], store: any ResponseStore, configuration: HTTPServer.Configuration,
        idleSessionSeconds: Int = 1800, sessionSecret: [UInt8]? = nil, access: SurveyAPI.Access = .init(),
        moreConnections: [any ResponseStore] = []
    ) throws(ServerError) {
        let api = try SurveyAPI(
            surveys: surveys, store: store, idleSessionSeconds: idleSessionSeconds, sessionSecret: sessionSecret,
            access: access, moreConnections: moreConnections)
        self.api = api
        let web = WebFrontEnd(api: api)
        server = try HTTPServer(configuration: configuration) { request in
            if request.pathSegments.first == "v1" { return api.respond(to: request) }
            return web.respond(to: request) ?? api.respond(to: request)
        }
    }

    /// The base URL, `http://host:port`, with the port actually listened on.
    public var url: String { server.url }

    /// The port listened on.
    public var port: UInt16 { server.port }

    /// Stops: waits for the requests being answered (their actions are in the store), then closes
    /// every connection. Calling it again does nothing.
    public func stop() {
        server.stop()
    }
}

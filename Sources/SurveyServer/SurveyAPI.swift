import Foundation
import SurveyCore
import SurveyRendering
import SurveyResponses
import Synchronization

/// The JSON API, version 1: the JSON-event protocol over HTTP (see `docs/http-api.md`).
///
/// A thin client of the same library calls the JSON-event front end makes: ``ResponseStart`` decides
/// whether a respondent is asked, resumes their unfinished response or starts a new one; an
/// ``EventExchange`` applies the protocol's commands to the session and gives back their events; the
/// session's recorder writes each accepted action to the store (a request's actions together, as one
/// write: ``HeldWrites``), committed before the events are returned, so a response is only sent for
/// what is kept.
///
/// | method and path | does |
/// |---|---|
/// | `POST /v1/sessions` | starts (or resumes) a respondent's session: a token and the first events |
/// | `POST /v1/sessions/{token}/commands` | applies commands, returns their events |
/// | `GET /v1/sessions/{token}` | the current unit again: `started`, `step`, `progress` |
/// | `GET /v1/health`, `GET /v1/ready` | the process answers; the store can be read |
/// | `GET /v1/openapi.json` | the OpenAPI 3.1 document of the API (`docs/openapi.json`) |
///
/// The API holds no socket: ``respond(to:)`` is called by ``SurveyService``'s HTTP server, or by a
/// test directly.
public final class SurveyAPI: Sendable {
    /// The surveys served, by id.
    public let surveys: [String: Survey]
    /// Where responses go.
    public let store: any ResponseStore
    /// Connections to the store the sessions are spread over (``store`` first): each store object
    /// serves one request at a time, so several let a database such as PostgreSQL commit several
    /// respondents' actions at once.
    public let stores: [any ResponseStore]
    /// ``stores``, each holding back a request's writes to the response it is about until the request
    /// is done, then committing them as one write (``HeldWrites``); sessions record through these.
    let heldWrites: [HeldWrites]
    /// Who may use the API.
    public let access: Access
    let sessions = Mutex(SessionTable())
    /// Signs and reads session tokens (the same key in every process of one deployment).
    let tokens: SessionTokens
    /// Starts of one respondent's session are taken one at a time in this process (a lock per stripe
    /// of respondents), so that two requests never start two responses for one respondent.
    let startLocks: [StartLock] = (0..<64).map { _ in StartLock() }
    /// The most commands one request may carry.
    public static let maximumCommandsPerRequest = 100
    /// Seconds after which a session no request used is let go of (its response stays in the store,
    /// and `POST /v1/sessions` continues it).
    public let idleSessionSeconds: Int
    /// When idle sessions were last looked for (``SessionClock`` seconds).
    let lastSweep = Atomic<Int64>(0)

    /// An API serving `surveys`, keeping responses in `store`.
    /// - Parameters:
    ///   - idleSessionSeconds: how long a session stays in memory without a request (default 30
    ///     minutes); it is rebuilt from the store on its next request.
    ///   - sessionSecret: the key session tokens are signed with. Every process serving one store
    ///     must have the same one for a respondent's requests to reach any of them; `nil` takes a
    ///     random key, so tokens are valid in this process only, until it stops.
    ///   - access: the API tokens and the respondent secret required, if any (default: none).
    ///   - moreConnections: further store objects on the same store (other connections to one
    ///     database); sessions are spread over them and `store` by response and respondent.
    /// - Throws: ``ServerError`` (`invalidSurveys`) when there is no survey, or two have one id.
    public init(
        surveys: [Survey], store: any ResponseStore, idleSessionSeconds: Int = 1800, sessionSecret: [UInt8]? = nil,
        access: Access = Access(), moreConnections: [any ResponseStore] = []
    ) throws(ServerError) {
        var byID: [String: Survey] = [:]
        for survey in surveys {
            guard byID[survey.id] == nil else {
                throw ServerError(.invalidSurveys, "two surveys have the id '\(survey.id)'; each must have its own")
            }
            byID[survey.id] = survey
        }
        guard !byID.isEmpty else { throw ServerError(.invalidSurveys, "there is no survey to serve") }
        self.surveys = byID
        self.store = store
        stores = [store] + moreConnections
        let held = HeldWrites.Table()
        heldWrites = stores.map { HeldWrites(base: $0, table: held) }
        self.idleSessionSeconds = max(0, idleSessionSeconds)
        tokens = SessionTokens(key: sessionSecret)
        self.access = access
    }

    /// Who may use the API: the app (or its backend) with an API token, for respondent ids it signed.
    public struct Access: Sendable {
        /// The API tokens one of which every request of the app API must carry in
        /// `Authorization: Bearer TOKEN` (health, readiness and the OpenAPI document excepted); none
        /// required when empty. Several allow a token to be replaced without a stop.
        public var apiTokens: [String]
        /// The secret respondent ids are signed with (``RespondentSignature``): when set,
        /// `POST /v1/sessions` with a `respondentId` must carry its `respondentSignature`.
        public var respondentSecret: [UInt8]?

        /// Access as given; the default requires nothing.
        public init(apiTokens: [String] = [], respondentSecret: [UInt8]? = nil) {
            self.apiTokens = apiTokens
            self.respondentSecret = respondentSecret
        }

        /// Why `request` may not use the app API, when it may not.
        func refusal(of request: HTTPRequest) -> APIError? {
            guard !apiTokens.isEmpty else { return nil }
            guard let header = request.header("Authorization"), !header.isEmpty else {
                return APIError(
                    status: 401, code: "missingAPIToken",
                    message: "this server requires an API token: send Authorization: Bearer TOKEN")
            }
            let parts = header.split(separator: " ", maxSplits: 1)
            guard parts.count == 2, parts[0].lowercased() == "bearer" else {
                return APIError(
                    status: 401, code: "missingAPIToken",
                    message: "the Authorization header must be Bearer TOKEN")
            }
            let given = Array(parts[1].trimmingCharacters(in: .whitespaces).utf8)
            // Every token is compared (in constant time each), so the time says nothing of which matched.
            var matched = false
            for token in apiTokens where SHA256.constantTimeEqual(given, Array(token.utf8)) { matched = true }
            return matched
                ? nil
                : APIError(status: 401, code: "invalidAPIToken", message: "the API token is not one of this server's")
        }
    }

    /// How many sessions this process holds in memory now.
    public var sessionsInMemory: Int { sessions.withLock { $0.byResponse.count } }

    /// Lets go of the sessions idle for longer than ``idleSessionSeconds``, at most once per minute
    /// (or per idle limit, when shorter).
    func releaseIdleSessions() {
        let now = SessionClock.now
        let last = lastSweep.load(ordering: .relaxed)
        let interval = Int64(min(60, idleSessionSeconds))
        guard now - last >= interval,
            lastSweep.compareExchange(expected: last, desired: now, ordering: .relaxed).exchanged
        else { return }
        let idle = sessions.withLock { $0.removeIdle(usedBefore: now - Int64(idleSessionSeconds)) }
        for handle in idle { handle.retire() }
    }

    /// The answer to one request; never traps, whatever the request holds.
    public func respond(to request: HTTPRequest) -> HTTPResponse {
        guard let (endpoint, parameters) = Endpoint.matching(request.pathSegments) else {
            return APIError.notFound(request.path).response
        }
        guard request.method == endpoint.method else {
            var response = APIError.methodNotAllowed(request.method, allowed: endpoint.method).response
            response.headers.append(("Allow", endpoint.method))
            return response
        }
        if endpoint.isProtected, let refusal = access.refusal(of: request) {
            var response = refusal.response
            response.headers.append(
                (
                    "WWW-Authenticate",
                    refusal.code == "invalidAPIToken"
                        ? #"Bearer realm="survey", error="invalid_token""#
                        : #"Bearer realm="survey""#
                ))
            return response
        }
        let token = parameters["token"] ?? ""
        switch endpoint {
        case .health: return .json(["status": "ok"])
        case .ready: return ready()
        case .openAPI:
            return HTTPResponse(
                status: 200,
                headers: [("Content-Type", "application/json; charset=utf-8"), ("X-Content-Type-Options", "nosniff")],
                body: Array(OpenAPIDocument.text.utf8))
        case .startSession: return startSession(request)
        case .currentUnit: return currentUnit(token: token)
        case .commands: return perform(request, token: token)
        }
    }

    /// The endpoints of the API, version 1: what `docs/openapi.json` describes (a test checks that
    /// both list the same).
    public enum Endpoint: String, CaseIterable, Sendable {
        /// `GET /v1/health`.
        case health
        /// `GET /v1/ready`.
        case ready
        /// `GET /v1/openapi.json`: the OpenAPI 3.1 document of this API.
        case openAPI
        /// `POST /v1/sessions`.
        case startSession
        /// `GET /v1/sessions/{token}`.
        case currentUnit
        /// `POST /v1/sessions/{token}/commands`.
        case commands

        /// The method it answers.
        public var method: String {
            switch self {
            case .health, .ready, .openAPI, .currentUnit: "GET"
            case .startSession, .commands: "POST"
            }
        }

        /// Its path, with parameters as the OpenAPI document writes them (`/v1/sessions/{token}`).
        public var path: String {
            switch self {
            case .health: "/v1/health"
            case .ready: "/v1/ready"
            case .openAPI: "/v1/openapi.json"
            case .startSession: "/v1/sessions"
            case .currentUnit: "/v1/sessions/{token}"
            case .commands: "/v1/sessions/{token}/commands"
            }
        }

        /// Whether it needs an API token, when the server has some.
        public var isProtected: Bool {
            switch self {
            case .health, .ready, .openAPI: false
            case .startSession, .currentUnit, .commands: true
            }
        }

        /// The endpoint whose path `segments` match, and the values of its parameters.
        static func matching(_ segments: [Substring]) -> (Endpoint, [String: String])? {
            for endpoint in allCases {
                let template = endpoint.path.split(separator: "/")
                guard template.count == segments.count else { continue }
                var parameters: [String: String] = [:]
                let matches = zip(template, segments).allSatisfy { part, segment in
                    if part.hasPrefix("{"), part.hasSuffix("}") {
                        parameters[String(part.dropFirst().dropLast())] = String(segment)
                        return true
                    }
                    return part == segment
                }
                if matches { return (endpoint, parameters) }
            }
            return nil
        }
    }

    /// The connection the requests about `key` (a response, a respondent) go through.
    func store(for key: some Hashable) -> HeldWrites {
        heldWrites.count == 1
            ? heldWrites[0] : heldWrites[Int(UInt(bitPattern: key.hashValue) % UInt(heldWrites.count))]
    }

    /// `GET /v1/ready`: the store can be read.
    func ready() -> HTTPResponse {
        do {
            _ = try store.latestResponse(respondent: "-", survey: surveys.keys.sorted()[0])
        } catch {
            return APIError(
                status: 503, code: "storeUnavailable", message: "the response store cannot be read: \(error)"
            )
            .response
        }
        return .json(["status": "ready", "surveys": .array(surveys.keys.sorted().map { .string($0) })])
    }

    /// `POST /v1/sessions`.
    func startSession(_ request: HTTPRequest) -> HTTPResponse {
        let start: SessionStart
        do {
            start = try SessionStart(
                body: try Self.json(request.body), surveys: surveys, respondentSecret: access.respondentSecret)
        } catch {
            return error.response
        }
        var body: [String: JSONValue] = [
            "surveyId": .string(start.survey.id), "respondentId": .string(start.respondentID),
        ]
        switch open(start) {
        case .failure(let error):
            return error.response
        case .notAsked(let event):
            body["events"] = [event]
            return .json(.object(body))
        case .finished(let events):
            body["events"] = .array(events)
            return .json(.object(body))
        case .session(let handle, let events, let revision):
            body["events"] = .array(events)
            body["token"] = .string(handle.token)
            var response = HTTPResponse.json(.object(body), status: 201)
            response.headers.append(("Location", "/v1/sessions/\(handle.token)"))
            if let revision { response.headers.append(("ETag", Revision.entityTag(revision))) }
            return response
        }
    }

    /// What opening a respondent's session gave.
    enum Opened {
        /// A session goes on under `handle` (its token), with its first events and its response's
        /// ``Revision``.
        case session(handle: SessionHandle, events: [JSONValue], revision: String?)
        /// The survey ended at once (it shows nothing); no session is kept.
        case finished([JSONValue])
        /// The respondent is not asked; the `not-asked` event.
        case notAsked(JSONValue)
        /// The store could not be used.
        case failure(APIError)
    }

    /// Opens `start`'s respondent's session (the one library decision, ``ResponseStart``) and keeps it
    /// in memory under its response.
    func open(_ start: SessionStart) -> Opened {
        releaseIdleSessions()
        let key = RespondentKey(surveyID: start.survey.id, respondentID: start.respondentID)
        return startLocks[Int(UInt(bitPattern: key.hashValue) % UInt(startLocks.count))].mutex.withLock { _ in
            var exchange: EventExchange
            switch beginResponse(start) {
            case .failure(let error): return .failure(error)
            case .success(.notAsked(let event)): return .notAsked(event)
            case .success(.exchange(let started)): exchange = started
            }
            let events = exchange.start()
            guard !exchange.isFinished, let id = exchange.recordedResponse?.id else { return .finished(events) }
            let handle = sessions.withLock { $0.handle(id, tokens: tokens) }
            let revision = Revision.of(exchange)
            handle.replace(with: exchange)
            return .session(handle: handle, events: events, revision: revision)
        }
    }

    /// The session `token` names: its handle in memory, made when there is none (the exchange is
    /// rebuilt from the store when it is used).
    func handle(token: String) -> SessionHandle? {
        releaseIdleSessions()
        guard let id = tokens.responseID(of: token) else { return nil }
        return sessions.withLock { $0.handle(id, tokens: tokens) }
    }

    /// Runs `body` on the session of `handle`, brought up to date with the store; lets go of the
    /// session when it ended.
    func use<T>(_ handle: SessionHandle, _ body: (inout EventExchange) -> T) -> Result<T, APIError> {
        let result = handle.use(
            refresh: { (exchange) throws(APIError) in try refresh(&exchange, id: handle.responseID) },
            writes: store(for: handle.responseID), body)
        switch result {
        case .success(let done):
            if !done.goesOn { sessions.withLock { $0.remove(handle) } }
            return .success(done.value)
        case .failure(let error):
            if error.code == APIError.sessionNotFound.code { sessions.withLock { $0.remove(handle) } }
            return .failure(error)
        }
    }

    /// Brings `exchange` up to date with response `id` in the store: kept when the store holds what
    /// it last wrote, else rebuilt by replaying the stored actions (another process went on with the
    /// response, or this one never had it in memory).
    /// - Throws: `sessionNotFound` when the response is not in the store, is finished, or is for a
    ///   survey not served here; `storeUnavailable` when the store cannot be read.
    func refresh(_ exchange: inout EventExchange?, id: ResponseID) throws(APIError) {
        // The session in memory goes on when the store holds what it last wrote: only the columns
        // every write changes are read (not the answers).
        if let current = exchange?.recordedResponse, current.id == id {
            let version: ResponseVersion?
            do {
                version = try store(for: id).responseVersion(id)
            } catch {
                throw APIError(
                    status: 503, code: "storeUnavailable", message: "the response store cannot be read: \(error)")
            }
            if let version, version == ResponseVersion(of: current), version.status == .inProgress,
                surveys[version.surveyID] != nil
            {
                return
            }
        }
        let stored: Response?
        do {
            stored = try store(for: id).response(id)
        } catch {
            throw APIError(
                status: 503, code: "storeUnavailable", message: "the response store cannot be read: \(error)")
        }
        guard let stored, stored.status == .inProgress, let survey = surveys[stored.surveyID] else {
            throw APIError.sessionNotFound
        }
        if let current = exchange?.recordedResponse, Self.isSameVersion(current, stored) { return }
        do {
            let (session, recorder) = try ResponseRecorder.resume(stored, from: store(for: id), survey: survey)
            var rebuilt = EventExchange(driver: SurveyDriver(session: session, isResumed: true, recorder: recorder))
            _ = rebuilt.start()
            exchange = rebuilt
        } catch let error as StoreError {
            throw APIError(
                status: 503, code: "storeUnavailable", message: "the response store cannot be used: \(error)")
        } catch {
            // It cannot be continued as it is (its survey changed): POST /v1/sessions decides.
            throw APIError.sessionNotFound
        }
    }

    /// Whether `recorded` (what this process last wrote) is the stored response as it is now.
    static func isSameVersion(_ recorded: Response, _ stored: Response) -> Bool {
        recorded.id == stored.id && recorded.actionCount == stored.actionCount && recorded.status == stored.status
            && milliseconds(recorded.updatedAt) == milliseconds(stored.updatedAt)
    }

    static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }

    enum Begun {
        case exchange(EventExchange)
        case notAsked(JSONValue)
    }

    /// The respondent's response as `ResponseStart` decides: continued, new, or not asked.
    func beginResponse(_ start: SessionStart) -> Result<Begun, APIError> {
        do {
            let key = RespondentKey(surveyID: start.survey.id, respondentID: start.respondentID)
            switch try ResponseStart.begin(
                survey: start.survey, respondent: start.respondentID, store: store(for: key),
                attributes: start.attributes)
            {
            case .resumed(let session, let recorder, _):
                return .success(
                    .exchange(
                        EventExchange(driver: SurveyDriver(session: session, isResumed: true, recorder: recorder))))
            case .new(let new):
                let session = SurveySession(
                    survey: start.survey, seed: UInt64.random(in: 0...UInt64.max), locale: start.locale,
                    variables: start.variables)
                let recorder = try new.start(session)
                return .success(.exchange(EventExchange(driver: SurveyDriver(session: session, recorder: recorder))))
            case .notAsked(let reason):
                return .success(.notAsked(reason.event(respondent: start.respondentID)))
            }
        } catch {
            return .failure(
                APIError(status: 503, code: "storeUnavailable", message: "the response store cannot be used: \(error)"))
        }
    }

    /// `GET /v1/sessions/{token}`.
    func currentUnit(token: String) -> HTTPResponse {
        guard let handle = handle(token: token) else { return APIError.sessionNotFound.response }
        switch use(handle, { ($0.restate(), Revision.of($0)) }) {
        case .success(let (events, revision)): return .json(["events": .array(events)], revision: revision)
        case .failure(let error): return error.response
        }
    }

    /// `POST /v1/sessions/{token}/commands`.
    func perform(_ request: HTTPRequest, token: String) -> HTTPResponse {
        guard let handle = handle(token: token) else { return APIError.sessionNotFound.response }
        let actions: [RendererAction]
        do {
            actions = try Self.commands(from: try Self.json(request.body))
        } catch {
            return error.response
        }
        let precondition = request.headers["if-match"]
        let result = use(handle) { exchange -> (events: [JSONValue], revision: String?, isStale: Bool) in
            // A command sent again (its reply was lost) finds the response moved on: nothing is applied.
            if let precondition, !Revision.matches(precondition, Revision.of(exchange)) {
                return (exchange.restate(), Revision.of(exchange), true)
            }
            var events: [JSONValue] = []
            for action in actions where !exchange.isFinished { events += exchange.perform(action) }
            return (events, exchange.isFinished ? nil : Revision.of(exchange), false)
        }
        switch result {
        case .success(let done) where done.isStale:
            var body = APIError.revisionChanged.body
            body["events"] = .array(done.events)
            return .json(.object(body), status: APIError.revisionChanged.status, revision: done.revision)
        case .success(let done): return .json(["events": .array(done.events)], revision: done.revision)
        case .failure(let error): return error.response
        }
    }

    /// A request body as JSON.
    static func json(_ body: [UInt8]) throws(APIError) -> JSONValue {
        guard let text = String(validating: body, as: UTF8.self) else {
            throw APIError(status: 400, code: "invalidUTF8", message: "the request body is not UTF-8 text")
        }
        do {
            return try JSONParser.parse(text)
        } catch {
            throw APIError(
                status: 400, code: "invalidJSON", message: "invalid JSON at \(error.position): \(error.message)")
        }
    }

    /// The commands of a request body: one command, or an array of them.
    static func commands(from json: JSONValue) throws(APIError) -> [RendererAction] {
        let values = json.arrayValue ?? [json]
        guard !values.isEmpty else {
            throw APIError(status: 400, code: "noCommand", message: "the array holds no command")
        }
        guard values.count <= maximumCommandsPerRequest else {
            throw APIError(
                status: 400, code: "tooManyCommands",
                message: "\(values.count) commands in one request; at most \(maximumCommandsPerRequest)")
        }
        var actions: [RendererAction] = []
        for (index, value) in values.enumerated() {
            let place = json.arrayValue == nil ? "" : " (command \(index))"
            let action: RendererAction
            do {
                action = try EventProtocol.command(from: value)
            } catch {
                throw APIError(status: 400, code: error.code, message: error.message + place)
            }
            if case .resume = action {
                throw APIError(
                    status: 400, code: "unsupportedCommand",
                    message: "resume is not taken over HTTP; POST /v1/sessions continues a respondent's response"
                        + place)
            }
            actions.append(action)
        }
        return actions
    }
}

/// One stripe of ``SurveyAPI/startLocks``.
final class StartLock: Sendable {
    let mutex = Mutex(())
}

/// What `POST /v1/sessions` asks for, checked.
struct SessionStart {
    let survey: Survey
    let respondentID: String
    let locale: String?
    let variables: [String: JSONValue]
    /// What the host says about the respondent, stored for the survey's audience (docs/targeting.md).
    var attributes: [String: JSONValue] = [:]

    static let members: Set<String> = [
        "surveyId", "respondentId", "respondentSignature", "locale", "variables", "attributes",
    ]

    init(survey: Survey, respondentID: String, locale: String?, variables: [String: JSONValue] = [:]) {
        self.survey = survey
        self.respondentID = respondentID
        self.locale = locale
        self.variables = variables
    }

    init(body: JSONValue, surveys: [String: Survey], respondentSecret: [UInt8]? = nil) throws(APIError) {
        guard let object = body.objectValue else {
            throw APIError(status: 400, code: "notAnObject", message: "the body must be a JSON object")
        }
        if let extra = object.keys.sorted().first(where: { !Self.members.contains($0) }) {
            throw APIError(status: 400, code: "unknownField", message: "unknown member '\(extra)'")
        }
        let surveyID: String
        switch object["surveyId"] {
        case .string(let id)?: surveyID = id
        case nil where surveys.count == 1: surveyID = surveys.keys.sorted()[0]
        case nil: throw APIError(status: 400, code: "missingField", message: "\"surveyId\" is needed")
        case let other?:
            throw APIError(
                status: 400, code: "wrongType", message: "\"surveyId\" must be a string, got \(other.kindDescription)")
        }
        guard let survey = surveys[surveyID] else {
            throw APIError(status: 404, code: "unknownSurvey", message: "no survey with the id '\(surveyID)' is served")
        }
        self.survey = survey
        switch object["respondentId"] {
        case .string(let id)? where Self.isUsable(id, limit: 256): respondentID = id
        case nil: respondentID = "anonymous-" + SessionToken.make(bytes: 16)
        case let other?:
            throw APIError(
                status: 400, code: "invalidRespondent",
                message: "\"respondentId\" must be a string of 1 to 256 characters without control characters, got "
                    + other.kindDescription)
        }
        switch object["respondentSignature"] {
        case nil: break
        case .string(let signature)?:
            guard object["respondentId"] != nil else {
                throw APIError(
                    status: 400, code: "unknownField",
                    message: "\"respondentSignature\" signs a \"respondentId\", and there is none")
            }
            if let secret = respondentSecret, !RespondentSignature.isValid(signature, for: respondentID, secret: secret)
            {
                throw APIError(
                    status: 403, code: "invalidRespondentSignature",
                    message: "\"respondentSignature\" is not the signature of this respondent id under the server's "
                        + "respondent secret")
            }
        case let other?:
            throw APIError(
                status: 400, code: "wrongType",
                message: "\"respondentSignature\" must be a string, got \(other.kindDescription)")
        }
        if respondentSecret != nil, object["respondentId"] != nil, object["respondentSignature"] == nil {
            throw APIError(
                status: 401, code: "missingRespondentSignature",
                message: "this server requires respondent ids signed by the app's backend: send "
                    + "\"respondentSignature\" with \"respondentId\" (docs/http-api.md, Authorization)")
        }
        switch object["locale"] {
        case .string(let locale)? where Self.isLocale(locale): self.locale = locale
        case nil: locale = nil
        case let other?:
            throw APIError(
                status: 400, code: "invalidLocale",
                message: "\"locale\" must be a language tag such as fr or pt-BR, got \(other)")
        }
        var variables: [String: JSONValue] = [:]
        switch object["variables"] {
        case .object(let given)?:
            let declared = Set(survey.definition.variables.map(\.name))
            if let unknown = given.keys.sorted().first(where: { !declared.contains($0) }) {
                throw APIError(
                    status: 400, code: "unknownVariable",
                    message: "the survey declares no variable '\(unknown)' ("
                        + (declared.isEmpty
                            ? "it declares none" : "it declares \(declared.sorted().joined(separator: ", "))")
                        + ")")
            }
            variables = given
        case nil: break
        case let other?:
            throw APIError(
                status: 400, code: "wrongType", message: "\"variables\" must be an object, got \(other.kindDescription)"
            )
        }
        self.variables = variables
        switch object["attributes"] {
        case .object(let given)?: attributes = given
        case nil: break
        case let other?:
            throw APIError(
                status: 400, code: "wrongType",
                message: "\"attributes\" must be an object, got \(other.kindDescription)")
        }
    }

    static func isUsable(_ text: String, limit: Int) -> Bool {
        !text.isEmpty && text.unicodeScalars.count <= limit
            && !text.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    static func isLocale(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 35
            && text.unicodeScalars.allSatisfy {
                ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) || $0 == "-"
            }
    }
}

/// An error answer: a status and `{"error": {"code", "message"}}`.
struct APIError: Error {
    var status: Int
    var code: String
    var message: String

    /// The body of an error response: `{"error": {"code", "message"}}`.
    var body: [String: JSONValue] { ["error": ["code": .string(code), "message": .string(message)]] }

    var response: HTTPResponse { .json(.object(body), status: status) }

    static func notFound(_ path: String) -> APIError {
        APIError(status: 404, code: "notFound", message: "nothing is at \(path); the API is under /v1")
    }

    static let sessionNotFound = APIError(
        status: 404, code: "sessionNotFound",
        message: "no session has this token (it ended, or it was never handed out by a server of this store)")

    static let revisionChanged = APIError(
        status: 412, code: "revisionChanged",
        message:
            "the response is no longer at the revision in If-Match (the commands were applied before, or another"
            + " client went on); nothing was applied: the events are the current unit, the ETag its revision")

    static func methodNotAllowed(_ method: String, allowed: String) -> APIError {
        APIError(status: 405, code: "methodNotAllowed", message: "\(method) is not allowed here; use \(allowed)")
    }
}

extension HTTPResponse {
    /// A JSON response that no cache keeps; with an `ETag` when a session's `revision` is given.
    static func json(_ value: JSONValue, status: Int = 200, revision: String? = nil) -> HTTPResponse {
        var response = HTTPResponse(
            status: status,
            headers: [
                ("Content-Type", "application/json; charset=utf-8"), ("Cache-Control", "no-store"),
                ("X-Content-Type-Options", "nosniff"),
            ],
            body: Array(JSONWriter.string(from: value, pretty: false).utf8))
        if let revision { response.headers.append(("ETag", Revision.entityTag(revision))) }
        return response
    }
}

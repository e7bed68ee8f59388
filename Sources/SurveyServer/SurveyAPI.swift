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
/// session's recorder writes each accepted action to the store, committed, before the events are
/// returned, so a response is only sent for what is kept.
///
/// | method and path | does |
/// |---|---|
/// | `POST /v1/sessions` | starts (or resumes) a respondent's session: a token and the first events |
/// | `POST /v1/sessions/{token}/commands` | applies commands, returns their events |
/// | `GET /v1/sessions/{token}` | the current unit again: `started`, `step`, `progress` |
/// | `GET /v1/health`, `GET /v1/ready` | the process answers; the store can be read |
///
/// The API holds no socket: ``respond(to:)`` is called by ``SurveyService``'s HTTP server, or by a
/// test directly.
public final class SurveyAPI: Sendable {
    /// The surveys served, by id.
    public let surveys: [String: Survey]
    /// Where responses go.
    public let store: any ResponseStore
    let sessions = Mutex(SessionTable())
    /// Starts of one respondent's session are taken one at a time (a lock per stripe of respondents),
    /// so that two requests never continue one stored response twice.
    let startLocks: [StartLock] = (0..<64).map { _ in StartLock() }
    /// The most commands one request may carry.
    public static let maximumCommandsPerRequest = 100
    /// Seconds after which a session no request used is let go of (its response stays in the store,
    /// and `POST /v1/sessions` continues it).
    public let idleSessionSeconds: Int
    /// When idle sessions were last looked for (``SessionClock`` seconds).
    let lastSweep = Atomic<Int64>(0)

    /// An API serving `surveys`, keeping responses in `store`.
    /// - Parameter idleSessionSeconds: how long a session stays in memory without a request (default
    ///   30 minutes).
    /// - Throws: ``ServerError`` (`invalidSurveys`) when there is no survey, or two have one id.
    public init(surveys: [Survey], store: any ResponseStore, idleSessionSeconds: Int = 1800) throws(ServerError) {
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
        self.idleSessionSeconds = max(0, idleSessionSeconds)
    }

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
        let segments = request.pathSegments
        guard segments.first == "v1", let route = route(Array(segments.dropFirst()), request: request) else {
            return APIError.notFound(request.path).response
        }
        guard request.method == route.method else {
            var response = APIError.methodNotAllowed(request.method, allowed: route.method).response
            response.headers.append(("Allow", route.method))
            return response
        }
        return route.answer()
    }

    /// The endpoint at `path` (after `/v1`): its method and what answers it.
    func route(_ path: [Substring], request: HTTPRequest) -> (method: String, answer: () -> HTTPResponse)? {
        switch path.count {
        case 1 where path[0] == "health": ("GET", { .json(["status": "ok"]) })
        case 1 where path[0] == "ready": ("GET", { self.ready() })
        case 1 where path[0] == "sessions": ("POST", { self.startSession(request) })
        case 2 where path[0] == "sessions": ("GET", { self.currentUnit(token: String(path[1])) })
        case 3 where path[0] == "sessions" && path[2] == "commands":
            ("POST", { self.perform(request, token: String(path[1])) })
        default: nil
        }
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
            start = try SessionStart(body: try Self.json(request.body), surveys: surveys)
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
        case .session(let token, _, let events):
            body["events"] = .array(events)
            body["token"] = .string(token)
            var response = HTTPResponse.json(.object(body), status: 201)
            response.headers.append(("Location", "/v1/sessions/\(token)"))
            return response
        }
    }

    /// What opening a respondent's session gave.
    enum Opened {
        /// A session in memory under `token`, with its first events.
        case session(token: String, handle: SessionHandle, events: [JSONValue])
        /// The survey ended at once (it shows nothing); no session is kept.
        case finished([JSONValue])
        /// The respondent is not asked; the `not-asked` event.
        case notAsked(JSONValue)
        /// The store could not be used.
        case failure(APIError)
    }

    /// Opens `start`'s respondent's session (the one library decision, ``ResponseStart``) and keeps it
    /// in memory, ending the respondent's previous session of the survey if one is there.
    func open(_ start: SessionStart) -> Opened {
        releaseIdleSessions()
        let key = RespondentKey(surveyID: start.survey.id, respondentID: start.respondentID)
        return startLocks[Int(UInt(bitPattern: key.hashValue) % UInt(startLocks.count))].mutex.withLock { _ in
            // The respondent's session held here ends: its response continues from the store.
            let previous = sessions.withLock { $0.remove(key) }
            previous?.retire()
            var exchange: EventExchange
            switch beginResponse(start) {
            case .failure(let error): return .failure(error)
            case .success(.notAsked(let event)): return .notAsked(event)
            case .success(.exchange(let started)): exchange = started
            }
            let events = exchange.start()
            guard !exchange.isFinished else { return .finished(events) }
            let token = SessionToken.make()
            let handle = SessionHandle(key: key, exchange: exchange)
            sessions.withLock { $0.insert(handle, token: token) }
            return .session(token: token, handle: handle, events: events)
        }
    }

    enum Begun {
        case exchange(EventExchange)
        case notAsked(JSONValue)
    }

    /// The respondent's response as `ResponseStart` decides: continued, new, or not asked.
    func beginResponse(_ start: SessionStart) -> Result<Begun, APIError> {
        do {
            switch try ResponseStart.begin(
                survey: start.survey, respondent: start.respondentID, store: store, attributes: start.attributes)
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
        guard let handle = sessions.withLock({ $0.handle(token) }) else {
            return APIError.sessionNotFound.response
        }
        guard let events = handle.restate() else { return APIError.sessionNotFound.response }
        return .json(["events": .array(events)])
    }

    /// `POST /v1/sessions/{token}/commands`.
    func perform(_ request: HTTPRequest, token: String) -> HTTPResponse {
        guard let handle = sessions.withLock({ $0.handle(token) }) else {
            return APIError.sessionNotFound.response
        }
        let actions: [RendererAction]
        do {
            actions = try Self.commands(from: try Self.json(request.body))
        } catch {
            return error.response
        }
        guard let (events, isFinished) = handle.perform(actions) else { return APIError.sessionNotFound.response }
        if isFinished { sessions.withLock { $0.remove(handle.key, ifHandle: handle) } }
        return .json(["events": .array(events)])
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

    static let members: Set<String> = ["surveyId", "respondentId", "locale", "variables", "attributes"]

    init(survey: Survey, respondentID: String, locale: String?, variables: [String: JSONValue] = [:]) {
        self.survey = survey
        self.respondentID = respondentID
        self.locale = locale
        self.variables = variables
    }

    init(body: JSONValue, surveys: [String: Survey]) throws(APIError) {
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
        !text.isEmpty && text.count <= limit
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

    var response: HTTPResponse {
        .json(["error": ["code": .string(code), "message": .string(message)]], status: status)
    }

    static func notFound(_ path: String) -> APIError {
        APIError(status: 404, code: "notFound", message: "nothing is at \(path); the API is under /v1")
    }

    static let sessionNotFound = APIError(
        status: 404, code: "sessionNotFound",
        message: "no session has this token (it ended, or the server restarted: POST /v1/sessions continues it)")

    static func methodNotAllowed(_ method: String, allowed: String) -> APIError {
        APIError(status: 405, code: "methodNotAllowed", message: "\(method) is not allowed here; use \(allowed)")
    }
}

extension HTTPResponse {
    /// A JSON response that no cache keeps.
    static func json(_ value: JSONValue, status: Int = 200) -> HTTPResponse {
        HTTPResponse(
            status: status,
            headers: [
                ("Content-Type", "application/json; charset=utf-8"), ("Cache-Control", "no-store"),
                ("X-Content-Type-Options", "nosniff"),
            ],
            body: Array(JSONWriter.string(from: value, pretty: false).utf8))
    }
}

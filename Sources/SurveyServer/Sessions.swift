import Foundation
import SurveyCore
import SurveyRendering
import Synchronization

/// A respondent's session token: 256 random bits from the system's cryptographic generator,
/// base64url without padding (43 characters). It is the session's only credential.
enum SessionToken {
    static func make(bytes count: Int = 32) -> String {
        var generator = SystemRandomNumberGenerator()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        for _ in 0..<count { bytes.append(UInt8.random(in: 0...255, using: &generator)) }
        return base64URL(bytes)
    }

    static func base64URL(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            var value = 0
            for byte in chunk { value = value << 8 | Int(byte) }
            value <<= 8 * (3 - chunk.count)
            for place in 0...chunk.count { out.append(alphabet[(value >> (18 - 6 * place)) & 63]) }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// Who a session is for: one respondent of one survey has at most one session in memory.
struct RespondentKey: Hashable, Sendable {
    let surveyID: String
    let respondentID: String
}

/// One respondent's session in memory: its exchange, behind a lock so that its commands are
/// applied one request at a time. A retired handle (its respondent started again, or it ended)
/// holds no exchange and answers nothing.
final class SessionHandle: Sendable {
    let key: RespondentKey
    let exchange: Mutex<EventExchange?>
    /// When a request last used the session, in whole seconds of ``SessionClock``.
    let lastUsed: Atomic<Int64>
    /// The web front end's form token (CSRF): a form posted without it changes nothing.
    let formToken = SessionToken.make(bytes: 16)

    init(key: RespondentKey, exchange: consuming sending EventExchange) {
        self.key = key
        self.exchange = Mutex(exchange)
        lastUsed = Atomic(SessionClock.now)
    }

    /// Applies `actions` in order, stopping at the one that ends the session.
    /// - Returns: their events and whether the session ended; `nil` when the handle is retired.
    func perform(_ actions: [RendererAction]) -> (events: [JSONValue], isFinished: Bool)? {
        lastUsed.store(SessionClock.now, ordering: .relaxed)
        return exchange.withLock { exchange in
            guard var current = exchange.take() else { return nil }
            var events: [JSONValue] = []
            for action in actions where !current.isFinished {
                events += current.perform(action)
            }
            let isFinished = current.isFinished
            if !isFinished { exchange = current }
            return (events, isFinished)
        }
    }

    /// The current unit's events from the start; `nil` when the handle is retired.
    func restate() -> [JSONValue]? {
        lastUsed.store(SessionClock.now, ordering: .relaxed)
        return exchange.withLock { exchange in
            guard var current = exchange.take() else { return nil }
            let events = current.restate()
            exchange = current
            return events
        }
    }

    /// The survey's title and the current unit as the front ends present it (`step` is `nil` once the
    /// session ended); `nil` when the handle is retired.
    func presentation() -> (title: String, step: StepPresentation?)? {
        lastUsed.store(SessionClock.now, ordering: .relaxed)
        return exchange.withLock { exchange in
            guard let session = exchange?.session else { return nil }
            let definition = session.survey.definition
            let context = PresentationContext(locale: session.locale, defaultLocale: definition.defaultLocale)
            return (session.pipe(context.text(definition.title)), session.currentStep)
        }
    }

    /// Lets go of the exchange, after any command being applied to it.
    func retire() {
        exchange.withLock { $0 = nil }
    }
}

/// Whole seconds since an arbitrary start, never going back.
enum SessionClock {
    static var now: Int64 { Int64(ProcessInfo.processInfo.systemUptime) }
}

/// The sessions in memory, by token and by respondent.
struct SessionTable {
    var byToken: [String: SessionHandle] = [:]
    var tokenByRespondent: [RespondentKey: String] = [:]

    func handle(_ token: String) -> SessionHandle? { byToken[token] }

    mutating func insert(_ handle: SessionHandle, token: String) {
        byToken[token] = handle
        tokenByRespondent[handle.key] = token
    }

    /// Takes out the respondent's session, if one is in memory.
    mutating func remove(_ key: RespondentKey) -> SessionHandle? {
        guard let token = tokenByRespondent.removeValue(forKey: key) else { return nil }
        return byToken.removeValue(forKey: token)
    }

    /// Takes out every session no request used since `limit`.
    mutating func removeIdle(usedBefore limit: Int64) -> [SessionHandle] {
        let idle = byToken.filter { $0.value.lastUsed.load(ordering: .relaxed) < limit }
        for (token, handle) in idle {
            byToken[token] = nil
            if tokenByRespondent[handle.key] == token { tokenByRespondent[handle.key] = nil }
        }
        return Array(idle.values)
    }

    /// Takes out the respondent's session if it is still `handle` (not one started since).
    mutating func remove(_ key: RespondentKey, ifHandle handle: SessionHandle) {
        guard let token = tokenByRespondent[key], byToken[token] === handle else { return }
        tokenByRespondent[key] = nil
        byToken[token] = nil
    }
}

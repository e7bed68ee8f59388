import Foundation
import SurveyCore
import SurveyRendering
import SurveyResponses
import Synchronization

/// Random values (respondent cookies, nonces) from the system's cryptographic generator, and
/// base64url without padding.
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

    /// The bytes of base64url text without padding; `nil` when it is not the canonical text of bytes.
    static func bytes(base64URL text: Substring) -> [UInt8]? {
        var values: [Int] = []
        values.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): values.append(Int(byte - UInt8(ascii: "A")))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): values.append(Int(byte - UInt8(ascii: "a")) + 26)
            case UInt8(ascii: "0")...UInt8(ascii: "9"): values.append(Int(byte - UInt8(ascii: "0")) + 52)
            case UInt8(ascii: "-"): values.append(62)
            case UInt8(ascii: "_"): values.append(63)
            default: return nil
            }
        }
        guard values.count % 4 != 1 else { return nil }
        var out: [UInt8] = []
        var index = 0
        while index < values.count {
            let chunk = values[index..<min(index + 4, values.count)]
            var value = 0
            for (place, digit) in chunk.enumerated() { value |= digit << (18 - 6 * place) }
            for place in 0..<(chunk.count - 1) { out.append(UInt8((value >> (16 - 8 * place)) & 255)) }
            index += 4
        }
        return base64URL(out) == text ? out : nil
    }
}

/// Session tokens: a response's id with its HMAC-SHA-256 under the server's session key, so that any
/// server process holding the key finds the session a token names (in its memory, or rebuilt from
/// the store), and a token nobody was handed reaches nothing.
///
/// A token is `base64url(response id) "." base64url(the first 16 bytes of HMAC(key, "session" 0x00
/// id))`. The web pages' form token (CSRF) is derived from the session token the same way.
struct SessionTokens: Sendable {
    let key: [UInt8]

    /// Tokens under `key`; under a random 256-bit key (valid in this process only) when `nil`.
    init(key: [UInt8]?) {
        if let key {
            self.key = key
        } else {
            var generator = SystemRandomNumberGenerator()
            self.key = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        }
    }

    func token(for id: ResponseID) -> String {
        let payload = Array(id.rawValue.utf8)
        return SessionToken.base64URL(payload) + "." + SessionToken.base64URL(mac("session", payload))
    }

    /// The response `token` names, when its signature is right.
    func responseID(of token: String) -> ResponseID? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].utf8.count <= 200, let payload = SessionToken.bytes(base64URL: parts[0]),
            let signature = SessionToken.bytes(base64URL: parts[1]),
            SHA256.constantTimeEqual(signature, mac("session", payload))
        else { return nil }
        return String(validating: payload, as: UTF8.self).flatMap(ResponseID.init)
    }

    /// The web form token (CSRF) of the session with `token`.
    func formToken(for token: String) -> String {
        SessionToken.base64URL(mac("form", Array(token.utf8)))
    }

    func mac(_ purpose: String, _ payload: [UInt8]) -> [UInt8] {
        Array(SHA256.hmac(key: key, message: Array(purpose.utf8) + [0] + payload).prefix(16))
    }
}

/// Who a session is for.
struct RespondentKey: Hashable, Sendable {
    let surveyID: String
    let respondentID: String
}

/// One response's session in this process: its exchange, behind a lock so that its commands are
/// applied one request at a time, and brought up to date with the store before each use (another
/// process may have continued the response since). A handle whose exchange is `nil` is rebuilt from
/// the store on its next use.
///
/// `@unchecked Sendable`: ``exchange`` is only read or written while ``lock`` is held.
final class SessionHandle: @unchecked Sendable {
    let responseID: ResponseID
    let token: String
    let formToken: String
    private let lock = NSLock()
    private var exchange: EventExchange?
    /// When a request last used the session, in whole seconds of ``SessionClock``.
    let lastUsed: Atomic<Int64>

    init(responseID: ResponseID, token: String, formToken: String) {
        self.responseID = responseID
        self.token = token
        self.formToken = formToken
        lastUsed = Atomic(SessionClock.now)
    }

    /// Runs `body` on the exchange once `refresh` has brought it up to date with the store, holding
    /// the response's writes in `writes` while it runs and committing them as one write after it.
    ///
    /// When that write fails, nothing of it is kept: the session is rebuilt from the store (`refresh`)
    /// and `body` runs again on it without holding, so that each action is committed on its own and
    /// one the store cannot keep gets its `storeFailed` reply, as it would have without holding. When
    /// a write of the request had already gone to the store (a quota place was claimed), running it
    /// again could repeat that part: the request fails with `storeFailed` instead, and the rebuilt
    /// session tells where the response stands.
    /// - Returns: what `body` returned, and whether the session goes on.
    func use<T>(
        refresh: (inout EventExchange?) throws(APIError) -> Void, writes: HeldWrites,
        _ body: (inout EventExchange) -> T
    ) -> Result<(value: T, goesOn: Bool), APIError> {
        lastUsed.store(SessionClock.now, ordering: .relaxed)
        lock.lock()
        defer { lock.unlock() }
        do throws(APIError) {
            try refresh(&exchange)
        } catch {
            exchange = nil
            return .failure(error)
        }
        guard var current = exchange.take() else { return .failure(.sessionNotFound) }
        writes.hold(responseID)
        var result = body(&current)
        if let failure = writes.release(responseID) {
            do throws(APIError) {
                try refresh(&exchange)
            } catch {
                return .failure(error)
            }
            guard var rebuilt = exchange.take() else { return .failure(.sessionNotFound) }
            if failure.wroteEarly {
                exchange = rebuilt
                return .failure(
                    APIError(
                        status: 503, code: "storeFailed",
                        message:
                            "the response store failed while keeping these commands, after keeping part of them:"
                            + " read the session to see where it stands (\(failure.error))"))
            }
            result = body(&rebuilt)
            current = rebuilt
        }
        let goesOn = !current.isFinished
        if goesOn { exchange = current }
        return .success((result, goesOn))
    }

    /// Replaces the exchange (a session just opened from the store).
    func replace(with new: EventExchange) {
        lastUsed.store(SessionClock.now, ordering: .relaxed)
        lock.withLock { exchange = new }
    }

    /// Lets go of the exchange, after any command being applied to it.
    func retire() {
        lock.withLock { exchange = nil }
    }
}

extension EventExchange {
    /// The response the session records into (every exchange of the server has a recorder).
    var recordedResponse: Response? { (recorder as? ResponseRecorder)?.response }
}

/// Whole seconds since an arbitrary start, never going back.
enum SessionClock {
    static var now: Int64 { Int64(ProcessInfo.processInfo.systemUptime) }
}

/// The sessions in this process's memory, by response.
struct SessionTable {
    var byResponse: [ResponseID: SessionHandle] = [:]

    /// The response's handle, made (empty, to be rebuilt from the store) when there is none.
    mutating func handle(_ id: ResponseID, tokens: SessionTokens) -> SessionHandle {
        if let found = byResponse[id] { return found }
        let token = tokens.token(for: id)
        let made = SessionHandle(responseID: id, token: token, formToken: tokens.formToken(for: token))
        byResponse[id] = made
        return made
    }

    /// Takes out every session no request used since `limit`.
    mutating func removeIdle(usedBefore limit: Int64) -> [SessionHandle] {
        let idle = byResponse.filter { $0.value.lastUsed.load(ordering: .relaxed) < limit }
        for id in idle.keys { byResponse[id] = nil }
        return Array(idle.values)
    }

    /// Takes out the response's session if it is still `handle`.
    mutating func remove(_ handle: SessionHandle) {
        if byResponse[handle.responseID] === handle { byResponse[handle.responseID] = nil }
    }
}

import CMicroHTTPD
import Foundation
import Synchronization

/// One HTTP request, read whole: what a handler answers.
public struct HTTPRequest: Sendable {
    /// The method, as sent (`GET`, `POST`, …).
    public var method: String
    /// The path, percent-decoded, without the query (`/v1/sessions`).
    public var path: String
    /// The query's arguments, decoded (the last one wins when a name repeats).
    public var query: [String: String]
    /// The headers, by lower-cased name.
    public var headers: [String: String]
    /// The body, at most ``HTTPServer/Configuration/maximumBodyBytes``.
    public var body: [UInt8]

    /// A request; used by the server, and by tests of a handler without a server.
    public init(
        method: String, path: String, query: [String: String] = [:], headers: [String: String] = [:],
        body: [UInt8] = []
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { $1 })
        self.body = body
    }

    /// The value of header `name` (any case), or `nil`.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// The path's segments: `/v1/sessions/abc` → `["v1", "sessions", "abc"]` (empty ones left out).
    public var pathSegments: [Substring] { path.split(separator: "/") }
}

/// One HTTP response.
public struct HTTPResponse: Sendable {
    /// The status code.
    public var status: Int
    /// Headers besides `Content-Length`, in order.
    public var headers: [(name: String, value: String)]
    /// The body.
    public var body: [UInt8]

    /// A response.
    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The value of header `name` (any case), or `nil`.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

/// Where a server listens: an IP address and a port.
///
/// ```swift
/// let address = try ListenAddress(parsing: "127.0.0.1:8080")  // also "[::1]:8080", "localhost:0"
/// ```
public struct ListenAddress: Sendable, Hashable, CustomStringConvertible {
    /// The IPv4 or IPv6 address, as written (without brackets).
    public var host: String
    /// The port; 0 lets the system choose a free one.
    public var port: UInt16

    /// An address; `host` is an IPv4 or IPv6 literal, or `localhost` (127.0.0.1).
    public init(host: String, port: UInt16) {
        self.host = host == "localhost" ? "127.0.0.1" : host
        self.port = port
    }

    /// Reads `HOST:PORT`, `[IPV6]:PORT` or `localhost:PORT`.
    /// - Throws: ``ServerError`` (`invalidAddress`) saying what is wrong.
    public init(parsing text: String) throws(ServerError) {
        var host: Substring
        var portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                throw ServerError(.invalidAddress, "'\(text)' is not [IPV6]:PORT")
            }
            host = text[text.index(after: text.startIndex)..<close]
            portText = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":") else {
                throw ServerError(.invalidAddress, "'\(text)' has no port; write HOST:PORT, e.g. 127.0.0.1:8080")
            }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        }
        guard let port = UInt16(portText) else {
            throw ServerError(.invalidAddress, "'\(portText)' in '\(text)' is not a port (0 to 65535)")
        }
        self.init(host: String(host), port: port)
        guard isIPv6 || Self.ipv4(self.host) != nil else {
            throw ServerError(
                .invalidAddress, "'\(host)' is not an IP address (use 127.0.0.1, 0.0.0.0, [::1] or localhost)")
        }
        if isIPv6, Self.ipv6(self.host) == nil {
            throw ServerError(.invalidAddress, "'\(host)' is not an IPv6 address")
        }
    }

    /// Whether the address is IPv6.
    public var isIPv6: Bool { host.contains(":") }

    /// Whether only this machine can connect (127.0.0.0/8 or ::1).
    public var isLoopback: Bool { host == "::1" || host.hasPrefix("127.") }

    /// `host:port`, IPv6 in brackets.
    public var description: String { isIPv6 ? "[\(host)]:\(port)" : "\(host):\(port)" }

    static func ipv4(_ host: String) -> in_addr? {
        var address = in_addr()
        return inet_pton(AF_INET, host, &address) == 1 ? address : nil
    }

    static func ipv6(_ host: String) -> in6_addr? {
        var address = in6_addr()
        return inet_pton(AF_INET6, host, &address) == 1 ? address : nil
    }
}

/// Why a server could not start, or a request could not be served.
public struct ServerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of problem it is.
    public enum Kind: String, Sendable, Hashable {
        /// A listen address that cannot be read.
        case invalidAddress
        /// The server could not listen (the port is taken, the address is not this machine's).
        case cannotListen
        /// The surveys cannot be served together (two with one id).
        case invalidSurveys
    }

    /// What kind of problem it is.
    public var kind: Kind
    /// What went wrong, in a sentence.
    public var message: String

    /// An error.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}

/// A running HTTP server on GNU libmicrohttpd: a pool of threads answers requests with one handler.
///
/// The handler receives each request whole (its body read up to the limit) on one of the pool's
/// threads, so it must be safe to call from several threads at once. A body larger than
/// ``Configuration/maximumBodyBytes`` is answered `413` without calling the handler; headers larger
/// than ``Configuration/maximumHeaderBytes`` are refused by libmicrohttpd itself.
///
/// ```swift
/// let server = try HTTPServer(configuration: .init(address: ListenAddress(host: "127.0.0.1", port: 0))) { request in
///     HTTPResponse(status: 200, body: Array("hello".utf8))
/// }
/// print(server.port)
/// server.stop()
/// ```
public final class HTTPServer: Sendable {
    /// How a server listens and what it accepts.
    public struct Configuration: Sendable {
        /// Where to listen. Loopback unless the user chose otherwise.
        public var address: ListenAddress
        /// Threads answering requests.
        public var threadCount: Int
        /// Connections open at once; more are refused.
        public var connectionLimit: Int
        /// Seconds an idle connection is kept open.
        public var timeoutSeconds: Int
        /// The largest request body; larger ones are answered `413 Content Too Large`.
        public var maximumBodyBytes: Int
        /// Memory per connection for the request line and headers; larger ones are refused.
        public var maximumHeaderBytes: Int

        /// A configuration; the defaults suit a small server.
        public init(
            address: ListenAddress, threadCount: Int = 8, connectionLimit: Int = 1_000, timeoutSeconds: Int = 30,
            maximumBodyBytes: Int = 1 << 20, maximumHeaderBytes: Int = 64 << 10
        ) {
            self.address = address
            self.threadCount = threadCount
            self.connectionLimit = connectionLimit
            self.timeoutSeconds = timeoutSeconds
            self.maximumBodyBytes = maximumBodyBytes
            self.maximumHeaderBytes = maximumHeaderBytes
        }
    }

    /// What the server was started with.
    public let configuration: Configuration
    /// The port it listens on (the one the system chose when the configuration said 0).
    public let port: UInt16
    let daemon: Mutex<Daemon?>
    let core: Core

    /// Starts listening and answering requests with `handler`.
    /// - Throws: ``ServerError`` (`cannotListen`) when the address cannot be listened on.
    public init(configuration: Configuration, handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse)
        throws(ServerError)
    {
        self.configuration = configuration
        let core = Core(handler: handler, maximumBodyBytes: configuration.maximumBodyBytes)
        self.core = core
        let context = Unmanaged.passRetained(core).toOpaque()
        var settings = survey_mhd_settings(
            address: nil, isIPv6: configuration.address.isIPv6 ? 1 : 0,
            threadCount: UInt32(clamping: max(1, configuration.threadCount)),
            connectionLimit: UInt32(clamping: max(1, configuration.connectionLimit)),
            timeoutSeconds: UInt32(clamping: max(0, configuration.timeoutSeconds)),
            connectionMemoryLimit: max(4096, configuration.maximumHeaderBytes))
        let started: OpaquePointer?
        if configuration.address.isIPv6 {
            var socket = sockaddr_in6()
            socket.sin6_family = sa_family_t(AF_INET6)
            socket.sin6_port = configuration.address.port.bigEndian
            socket.sin6_addr = ListenAddress.ipv6(configuration.address.host) ?? in6addr_loopback
            started = withUnsafePointer(to: &socket) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                    settings.address = address
                    return survey_mhd_start(settings, accessHandler, context, requestCompleted, nil)
                }
            }
        } else {
            var socket = sockaddr_in()
            socket.sin_family = sa_family_t(AF_INET)
            socket.sin_port = configuration.address.port.bigEndian
            socket.sin_addr =
                ListenAddress.ipv4(configuration.address.host) ?? in_addr(s_addr: INADDR_LOOPBACK.bigEndian)
            started = withUnsafePointer(to: &socket) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                    settings.address = address
                    return survey_mhd_start(settings, accessHandler, context, requestCompleted, nil)
                }
            }
        }
        guard let started else {
            Unmanaged<Core>.fromOpaque(context).release()
            throw ServerError(
                .cannotListen,
                "cannot listen on \(configuration.address) (the port may be in use, or the address not this machine's)"
            )
        }
        port = survey_mhd_bound_port(started)
        daemon = Mutex(Daemon(pointer: started, context: context))
    }

    deinit {
        stop()
    }

    /// `http://host:port`, with the port actually listened on.
    public var url: String {
        var address = configuration.address
        address.port = port
        return "http://\(address)"
    }

    /// Stops listening, waits for the requests being answered, and closes every connection. Calling
    /// it again does nothing.
    public func stop() {
        guard let daemon = daemon.withLock({ $0.take() }) else { return }
        MHD_stop_daemon(daemon.pointer)
        Unmanaged<Core>.fromOpaque(daemon.context).release()
    }

    /// The running daemon and the retained core its callbacks receive.
    struct Daemon: @unchecked Sendable {
        let pointer: OpaquePointer
        let context: UnsafeMutableRawPointer
    }

    /// What the C callbacks reach: the handler and the limits.
    final class Core: Sendable {
        let handler: @Sendable (HTTPRequest) -> HTTPResponse
        let maximumBodyBytes: Int

        init(handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse, maximumBodyBytes: Int) {
            self.handler = handler
            self.maximumBodyBytes = maximumBodyBytes
        }
    }

    /// One request being read: its body so far.
    final class RequestBody {
        var bytes: [UInt8] = []
        var isTooLarge = false
    }
}

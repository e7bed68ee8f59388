import Foundation

/// One HTTP exchange with a server on 127.0.0.1, as raw bytes over its own TCP connection: the
/// request goes out exactly as given (malformed and oversized ones included) and the response is
/// read until the server closes the connection. Receives time out after 10 seconds.
public enum LoopbackExchange {
    /// Why the exchange could not start.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Sends `request` to `port` and returns every byte the server sent back. A server that answers
    /// (413) and closes before the whole request is sent is not an error: its answer is returned.
    public static func send(_ request: [UInt8], port: UInt16) throws -> [UInt8] {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Failure(description: "socket: \(errno)") }
        defer { close(socket) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr = in_addr(s_addr: inet_addr("127.0.0.1"))
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw Failure(description: "connect: \(errno)") }
        var sent = 0
        while sent < request.count {
            let count = request[sent...].withUnsafeBytes {
                Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if count <= 0 { break }
            sent += count
        }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            received += buffer[0..<count]
        }
        return received
    }
}

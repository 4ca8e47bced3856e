import Foundation
import Glibc
import ParleyBasics

/// A plain TCP client on the loopback interface, for what an HTTP client library never does: byte-exact requests,
/// slow trickles, half-closed connections, a stream read byte for byte as the server wrote it.
///
/// Its blocking socket calls run on a thread of their own, never on the cooperative pool that runs the server under
/// test (with two cores, a blocked pool thread could stall the very server the test waits for). Reads give up after
/// `timeout` without data, so a broken server fails a test instead of hanging it; the default, `patience`, is long
/// enough for a correct server on a machine busy with compiles beside the tests.
public final class RawClient: Sendable {
    /// How long a read waits for data before it calls the server broken: ten minutes. Every request to a server
    /// under test waits for the cooperative pool the whole suite shares; on two cores with two compiles beside the
    /// suite, a trivial request has taken more than a minute to be answered. A timeout a test expects to fire is
    /// given explicitly and short.
    public static let patience: Duration = .seconds(600)

    /// The connected socket.
    public let descriptor: Int32

    /// Connects to 127.0.0.1 (or `::1` with `ipv6`).
    ///
    /// - Parameters:
    ///   - port: The server's port.
    ///   - ipv6: Whether to connect over IPv6.
    ///   - timeout: How long a read or a send waits before it gives up.
    /// - Throws: `SocketError` when the socket cannot be made or the server does not accept.
    public init(port: Int, ipv6: Bool = false, timeout: Duration = RawClient.patience) throws {
        descriptor = socket(ipv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw SocketError("socket") }
        let seconds = timeout.components.seconds
        var limit = timeval(tv_sec: Int(seconds), tv_usec: Int(timeout.components.attoseconds / 1_000_000_000_000))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var on: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        let connected: Int32
        if ipv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = UInt16(port).bigEndian
            address.sin6_addr = in6addr_loopback
            connected = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = UInt16(port).bigEndian
            address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
            connected = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        guard connected == 0 else {
            let error = SocketError("connect")
            close(descriptor)
            throw error
        }
    }

    deinit {
        close(descriptor)
    }

    /// Sends bytes.
    ///
    /// - Parameter bytes: What to send.
    /// - Returns: `false` when the connection is gone.
    @discardableResult
    public func send(_ bytes: [UInt8]) async -> Bool {
        await offThePool { [descriptor] in
            var offset = 0
            while offset < bytes.count {
                let sent = bytes[offset...].withUnsafeBytes {
                    Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                }
                if sent < 0 && errno == EINTR { continue }
                guard sent > 0 else { return false }
                offset += sent
            }
            return true
        }
    }

    /// Sends text as UTF-8.
    ///
    /// - Parameter text: What to send.
    /// - Returns: `false` when the connection is gone.
    @discardableResult
    public func send(_ text: String) async -> Bool {
        await send(Array(text.utf8))
    }

    /// What a read got.
    public struct Received: Sendable {
        /// The bytes, as they arrived.
        public var bytes: [UInt8]
        /// Whether the server closed (end of stream or reset); `false` when the read stopped because it had enough,
        /// or gave up on the timeout.
        public var closed: Bool
        /// The bytes as UTF-8 text.
        public var text: String { String(decoding: bytes, as: UTF8.self) }
    }

    /// Reads until `isEnough` holds for what arrived, the server closes, or the timeout passes without data.
    ///
    /// - Parameter isEnough: Whether what arrived so far is all the test needs.
    /// - Returns: What arrived.
    public func read(until isEnough: @escaping @Sendable ([UInt8]) -> Bool) async -> Received {
        await offThePool { [descriptor] in
            var received: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 64 * 1024)
            while !isEnough(received) {
                let count = recv(descriptor, &chunk, chunk.count, 0)
                if count < 0 && errno == EINTR { continue }
                if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                    return Received(bytes: received, closed: false)
                }
                guard count > 0 else { return Received(bytes: received, closed: true) }
                received += chunk[..<count]
            }
            return Received(bytes: received, closed: false)
        }
    }

    /// Reads until what arrived contains `marker` as UTF-8 text, the server closes, or the timeout passes.
    ///
    /// - Parameter marker: The text to wait for.
    /// - Returns: What arrived, as text.
    public func read(untilText marker: String) async -> String {
        await read { String(decoding: $0, as: UTF8.self).contains(marker) }.text
    }

    /// Reads until the server closes the connection.
    ///
    /// - Returns: What arrived.
    public func readToEnd() async -> Received {
        await read { _ in false }
    }

    /// Whether the server has closed the connection, without waiting: `nil` when bytes are waiting instead.
    public func isClosedNow() -> Bool? {
        var byte: UInt8 = 0
        let count = recv(descriptor, &byte, 1, Int32(MSG_PEEK) | Int32(MSG_DONTWAIT))
        if count == 0 { return true }
        if count > 0 { return nil }
        return errno != EAGAIN && errno != EWOULDBLOCK
    }

    /// Ends the client's sending side (the server reads end of stream) while still reading.
    public func shutDownWriting() {
        shutdown(descriptor, Int32(SHUT_WR))
    }

    /// Closes with a reset instead of an orderly close.
    public func reset() {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        shutdown(descriptor, Int32(SHUT_RDWR))
    }
}

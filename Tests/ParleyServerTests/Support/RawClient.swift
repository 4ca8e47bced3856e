import Foundation
import Glibc

/// A TCP client for what libcurl never sends: byte-exact requests, slow trickles, half-closed connections.
///
/// Its blocking socket calls run on a thread of their own, never on the cooperative pool that runs the server
/// under test (with two cores, a blocked pool thread could stall the very server the test waits for). Reads give
/// up after `timeout` without data, so a broken server fails a test instead of hanging it; the default, `patience`,
/// is long enough for a server on a machine busy with compiles beside the tests.
final class RawClient: Sendable {
    let descriptor: Int32

    /// Connects to 127.0.0.1 (or `::1` with `ipv6`).
    init(port: Int, ipv6: Bool = false, timeout: Duration = patience) throws {
        descriptor = socket(ipv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw ClientError("socket") }
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
            let error = ClientError("connect")
            close(descriptor)
            throw error
        }
    }

    deinit {
        close(descriptor)
    }

    /// Runs a blocking call on a new thread and waits for it without holding a cooperative thread.
    static func offPool<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: body()) }
            thread.start()
        }
    }

    /// Sends bytes; `false` when the connection is gone.
    @discardableResult
    func send(_ bytes: [UInt8]) async -> Bool {
        await Self.offPool { [descriptor] in
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
    @discardableResult
    func send(_ text: String) async -> Bool {
        await send(Array(text.utf8))
    }

    /// What a read got.
    struct Received: Sendable {
        var bytes: [UInt8]
        /// Whether the server closed (end of stream or reset); `false` when the read gave up on the timeout.
        var closed: Bool
        var text: String { String(decoding: bytes, as: UTF8.self) }
    }

    /// Reads until `isEnough` holds for what arrived, the server closes, or the timeout passes without data.
    func read(until isEnough: @escaping @Sendable ([UInt8]) -> Bool) async -> Received {
        await Self.offPool { [descriptor] in
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

    /// Reads until the server closes the connection.
    func readToEnd() async -> Received {
        await read { _ in false }
    }

    /// Reads exactly `count` complete responses (or fewer, if the server closes first or sends something
    /// malformed); the first `headRequests` answer `HEAD` requests.
    func readResponses(_ count: Int, headRequests: Int = 0) async -> [RawResponse] {
        let received = await read { bytes in
            (try? RawResponse.parseAll(bytes, headRequests: headRequests).responses.count) ?? 0 >= count
        }
        return (try? RawResponse.parseAll(received.bytes, headRequests: headRequests).responses) ?? []
    }

    /// Reads one complete response; `nil` when the server closed or timed out first, or it is malformed.
    func readResponse() async -> RawResponse? {
        await readResponses(1).first
    }

    /// Whether the server has closed the connection, without waiting: `nil` when bytes are waiting instead.
    func isClosedNow() -> Bool? {
        var byte: UInt8 = 0
        let count = recv(descriptor, &byte, 1, Int32(MSG_PEEK) | Int32(MSG_DONTWAIT))
        if count == 0 { return true }
        if count > 0 { return nil }
        return errno != EAGAIN && errno != EWOULDBLOCK
    }

    /// Ends the client's sending side (the server reads end of stream) while still reading.
    func shutDownWriting() {
        shutdown(descriptor, Int32(SHUT_WR))
    }

    /// Closes with a reset instead of an orderly close.
    func reset() {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        shutdown(descriptor, Int32(SHUT_RDWR))
    }

    struct ClientError: Error, CustomStringConvertible {
        let description: String
        init(_ call: String) { description = "\(call)() failed with errno \(errno)" }
    }
}

import Foundation
import Glibc

/// One request over a new TCP connection to 127.0.0.1, sent byte for byte as given (no client library between, so a
/// fuzzer can send anything), and the response's status and body, read until the server closes. The blocking calls
/// run on a thread of their own, never on the cooperative pool that runs the server; a read gives up after two
/// minutes without data. An event stream's answer ends at its head.
struct RawExchange: Sendable {
    /// The status code.
    var status: Int
    /// The bytes after the head (as sent: chunked framing is not decoded).
    var body: [UInt8]

    /// Sends `request` and reads the answer; `nil` when the connection failed or no status line came.
    static func send(_ request: String, port: Int) async -> RawExchange? {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: exchange(Array(request.utf8), port: port)) }.start()
        }
    }

    private static func exchange(_ bytes: [UInt8], port: Int) -> RawExchange? {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var limit = timeval(tv_sec: 120, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { return nil }
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if sent < 0 && errno == EINTR { continue }
            // The server may answer (and close) before reading a body it refuses: read what it said.
            guard sent > 0 else { break }
            offset += sent
        }
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        var headEnd: Int?
        while true {
            let count = recv(descriptor, &chunk, chunk.count, 0)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            received += chunk[..<count]
            if headEnd == nil, let end = find([0x0D, 0x0A, 0x0D, 0x0A], in: received) {
                headEnd = end + 4
                let head = String(decoding: received[..<end], as: UTF8.self).lowercased()
                if head.contains("content-type: text/event-stream") { break }
            }
        }
        guard let line = String(decoding: received.prefix(64), as: UTF8.self).split(separator: "\r\n").first,
            line.hasPrefix("HTTP/1."), line.count >= 12, let status = Int(line.dropFirst(9).prefix(3))
        else { return nil }
        return RawExchange(status: status, body: Array(received[(headEnd ?? received.count)...]))
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        return (0...(haystack.count - needle.count)).first {
            haystack[$0..<$0 + needle.count].elementsEqual(needle)
        }
    }
}

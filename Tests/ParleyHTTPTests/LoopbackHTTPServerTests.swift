import Foundation
import Glibc
import HTTPTestSupport
import Testing

/// The test server's own request handling, driven over a raw socket for what libcurl never sends.
@Suite(.timeLimit(.minutes(10))) struct LoopbackHTTPServerTests {
    @Test func decodesAChunkedRequestBody() async throws {
        let server = try LoopbackHTTPServer(.text("got it"))
        let connection = try RawConnection(port: server.port)

        connection.send(
            "POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
                + "5\r\nhello\r\n7;ext=1\r\n, world\r\n0\r\nX-Trailer: t\r\n\r\n")
        let reply = connection.readToEnd()

        #expect(reply.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(reply.hasSuffix("\r\n\r\ngot it"))
        let request = try #require(server.requests.first)
        #expect(request.method == "POST")
        #expect(request.bodyText == "hello, world")
    }

    @Test func answersExpectContinueBeforeReadingTheBody() async throws {
        let server = try LoopbackHTTPServer(.text("done"))
        let connection = try RawConnection(port: server.port)

        connection.send("PUT /x HTTP/1.1\r\nContent-Length: 4\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n")
        #expect(connection.read(until: "\r\n\r\n").hasPrefix("HTTP/1.1 100 Continue"))
        connection.send("body")

        #expect(connection.readToEnd().hasSuffix("done"))
        #expect(server.requests.first?.bodyText == "body")
    }

    @Test func refusesBytesThatAreNotHTTP() async throws {
        let server = try LoopbackHTTPServer(.text("unused"))
        let connection = try RawConnection(port: server.port)

        connection.send("\u{16}\u{3}\u{1}binary")

        #expect(connection.readToEnd().hasPrefix("HTTP/1.1 400 Bad Request"))
        #expect(server.requests.isEmpty)
    }

    @Test func stopEndsHangingConnectionsPromptly() async throws {
        let server = try LoopbackHTTPServer(.hang)
        let connection = try RawConnection(port: server.port)
        connection.send("GET / HTTP/1.1\r\n\r\n")
        #expect(await server.wait { $0.requests.count == 1 })

        // The connection hangs until the server ends it: reading to its end returns only because stop() closed it.
        server.stop()
        server.stop()

        #expect(connection.readToEnd() == "")
        #expect(server.connectionsOpen == 0)
    }
}

/// A blocking TCP client for the tests above; reads give up after 5 seconds.
final class RawConnection {
    private let descriptor: Int32

    init(port: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw SocketError("socket") }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
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

    func send(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Reads until the peer closes the connection (or 5 seconds pass without data).
    func readToEnd() -> String {
        read(until: nil)
    }

    /// Reads until `marker` has arrived, the peer closes, or 5 seconds pass without data.
    func read(until marker: String?) -> String {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            if let marker, String(decoding: received, as: UTF8.self).contains(marker) { break }
            let count = recv(descriptor, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            received += buffer[..<count]
        }
        return String(decoding: received, as: UTF8.self)
    }
}

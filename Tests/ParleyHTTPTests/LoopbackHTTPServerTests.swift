import Foundation
import HTTPTestSupport
import Testing

/// The test server's own request handling, driven over a raw socket for what libcurl never sends.
@Suite(.timeLimit(.minutes(10))) struct LoopbackHTTPServerTests {
    @Test func decodesAChunkedRequestBody() async throws {
        let server = try LoopbackHTTPServer(.text("got it"))
        let connection = try RawClient(port: server.port)

        await connection.send(
            "POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
                + "5\r\nhello\r\n7;ext=1\r\n, world\r\n0\r\nX-Trailer: t\r\n\r\n")
        let reply = await connection.readToEnd().text

        #expect(reply.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(reply.hasSuffix("\r\n\r\ngot it"))
        let request = try #require(server.requests.first)
        #expect(request.method == "POST")
        #expect(request.bodyText == "hello, world")
    }

    @Test func answersExpectContinueBeforeReadingTheBody() async throws {
        let server = try LoopbackHTTPServer(.text("done"))
        let connection = try RawClient(port: server.port)

        await connection.send("PUT /x HTTP/1.1\r\nContent-Length: 4\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n")
        #expect(await connection.read(untilText: "\r\n\r\n").hasPrefix("HTTP/1.1 100 Continue"))
        await connection.send("body")

        #expect(await connection.readToEnd().text.hasSuffix("done"))
        #expect(server.requests.first?.bodyText == "body")
    }

    @Test func refusesBytesThatAreNotHTTP() async throws {
        let server = try LoopbackHTTPServer(.text("unused"))
        let connection = try RawClient(port: server.port)

        await connection.send("\u{16}\u{3}\u{1}binary")

        #expect(await connection.readToEnd().text.hasPrefix("HTTP/1.1 400 Bad Request"))
        #expect(server.requests.isEmpty)
    }

    @Test func stopEndsHangingConnectionsPromptly() async throws {
        let server = try LoopbackHTTPServer(.hang)
        let connection = try RawClient(port: server.port)
        await connection.send("GET / HTTP/1.1\r\n\r\n")
        #expect(await server.wait { $0.requests.count == 1 })

        // The connection hangs until the server ends it: reading to its end returns only because stop() closed it.
        server.stop()
        server.stop()

        let end = await connection.readToEnd()
        #expect(end.closed && end.bytes.isEmpty)
        #expect(server.connectionsOpen == 0)
    }
}

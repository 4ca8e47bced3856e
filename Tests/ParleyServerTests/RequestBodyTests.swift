import Foundation
import HTTPTestSupport
import ParleyHTTP
import ParleyServer
import Testing

/// Request bodies over real connections: Content-Length, chunked in odd pieces, Expect: 100-continue.
@Suite(.timeLimit(.minutes(10))) struct RequestBodyTests {
    static let chunked =
        "POST /echo HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n"
        + "5\r\nhello\r\n7;ext=1\r\n, world\r\n000\r\nX-Trailer: ignored\r\n\r\n"

    @Test func decodesAChunkedBodySentOneByteAtATime() async throws {
        try await withServer(router: echoRouter()) { server in
            let connection = try RawClient(port: server.port)
            for byte in Array(Self.chunked.utf8) {
                await connection.send([byte])
            }
            let response = try #require(await connection.readResponse())
            #expect(response.bodyText == "hello, world")
            // The connection stays usable after a chunked body.
            await connection.send("GET /hello HTTP/1.1\r\nHost: localhost\r\n\r\n")
            #expect(await connection.readResponse()?.bodyText == "hello")
        }
    }

    /// The request split in two at every byte, each half in its own write.
    @Test func decodesAChunkedBodySplitAnywhere() async throws {
        let bytes = Array(Self.chunked.utf8)
        try await withServer(router: echoRouter()) { server in
            let connection = try RawClient(port: server.port)
            for split in stride(from: 1, to: bytes.count, by: 3) {
                await connection.send(Array(bytes[..<split]))
                await connection.send(Array(bytes[split...]))
                let response = try #require(await connection.readResponse(), "split at \(split)")
                #expect(response.bodyText == "hello, world", "split at \(split)")
            }
        }
    }

    @Test func answersExpectContinueBeforeTheBody() async throws {
        try await withServer(router: echoRouter()) { server in
            let connection = try RawClient(port: server.port)
            await connection.send(
                "POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Length: 4\r\nExpect: 100-continue\r\n\r\n")
            let interim = await connection.read { String(decoding: $0, as: UTF8.self).hasSuffix("\r\n\r\n") }
            #expect(interim.text == "HTTP/1.1 100 Continue\r\n\r\n")
            await connection.send("body")
            #expect(await connection.readResponse()?.bodyText == "body")
        }
    }

    /// libcurl sends `Expect: 100-continue` for large bodies and waits for the interim response.
    @Test func takesALargeBodyFromLibcurl() async throws {
        let body = Data((0..<900_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let client = try HTTPClient()
        try await withServer(router: echoRouter()) { server in
            var request = HTTPRequest(method: .post, url: server.url("/echo"), body: body)
            request.headers["Expect"] = "100-continue"
            let response = try await client.execute(request)
            #expect(response.status == 200)
            #expect(response.body == body)
        }
    }

    @Test func refusesAnExpectationItCannotMeet() async throws {
        try await withServer(router: echoRouter()) { server in
            let connection = try RawClient(port: server.port)
            await connection.send("POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Length: 4\r\nExpect: magic\r\n\r\n")
            let response = try #require(await connection.readResponse())
            #expect(response.status == 417)
            // The body was not read, so the connection closes.
            #expect(response.closesConnection)
        }
    }
}

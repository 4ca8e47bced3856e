import Foundation
import HTTPTestSupport
import ParleyHTTP
import ParleyServer
import Testing

/// Many requests on one connection: in turn, pipelined, with libcurl's connection reuse, and HTTP/1.0.
@Suite(.timeLimit(.minutes(10))) struct KeepAliveTests {
    @Test func servesManyRequestsInTurnOnOneConnection() async throws {
        try await withServer(router: echoRouter()) { server in
            let connection = try RawClient(port: server.port)
            for index in 0..<100 {
                let body = "request \(index)"
                await connection.send(
                    "POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
                let response = try #require(await connection.readResponse(), "request \(index)")
                #expect(response.status == 200)
                #expect(response.bodyText == body)
                #expect(!response.closesConnection)
            }
            #expect(server.acceptedConnections == 1)
        }
    }

    @Test func answersPipelinedRequestsInOrder() async throws {
        try await withServer(router: echoRouter()) { server in
            let connection = try RawClient(port: server.port)
            var requests = ""
            for index in 0..<20 {
                requests += "POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Length: \(String(index).count)\r\n\r\n\(index)"
            }
            await connection.send(requests + "GET /hello HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
            let received = await connection.readToEnd()
            let responses = try RawResponse.parseAll(received.bytes).responses
            #expect(responses.map(\.bodyText) == (0..<20).map(String.init) + ["hello"])
            #expect(responses.last?.closesConnection == true)
            #expect(received.closed)
        }
    }

    @Test func libcurlReusesTheConnection() async throws {
        let client = try HTTPClient()
        try await withServer(router: echoRouter()) { server in
            for index in 0..<20 {
                let response = try await client.execute(.postJSON(server.url("/echo"), body: Data("\(index)".utf8)))
                #expect(response.bodyText == "\(index)")
            }
            #expect(server.acceptedConnections == 1)
        }
    }

    @Test func http10ClosesUnlessAskedToKeepAlive() async throws {
        try await withServer(router: echoRouter()) { server in
            let kept = try RawClient(port: server.port)
            await kept.send("GET /hello HTTP/1.0\r\nConnection: keep-alive\r\n\r\nGET /hello HTTP/1.0\r\n\r\n")
            let received = await kept.readToEnd()
            let responses = try RawResponse.parseAll(received.bytes).responses
            #expect(responses.count == 2)
            #expect(responses.first?.header("Connection") == "keep-alive")
            #expect(responses.last?.closesConnection == true)
            #expect(received.closed)
        }
    }

    @Test func closesAnIdleConnectionAfterTheIdleTimeout() async throws {
        let log = LogRecorder()
        let configuration = HTTPServer.Configuration(
            timeouts: .generous { $0.idle = .milliseconds(300) }, log: log.sink)
        try await withServer(configuration, router: echoRouter()) { server in
            let connection = try RawClient(port: server.port)
            await connection.send("GET /hello HTTP/1.1\r\nHost: localhost\r\n\r\n")
            #expect(await connection.readResponse()?.status == 200)
            // Nothing more is sent: the server closes, without a response.
            let rest = await connection.readToEnd()
            #expect(rest.closed)
            #expect(rest.bytes.isEmpty)
            #expect(await log.wait { $0.event == .connectionCut && $0.message.contains("idle") })
            #expect(await eventually { server.openConnections == 0 })
        }
    }
}

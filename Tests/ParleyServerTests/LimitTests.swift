import Foundation
import HTTPTestSupport
import ParleyHTTP
import ParleyJSON
import ParleyServer
import Testing

/// Every limit, and every malformed request, over a real connection: the status, a problem body, and whether the
/// connection closes.
@Suite(.timeLimit(.minutes(10))) struct LimitTests {
    static let limits = HTTPServer.Limits(
        maximumHeaderSize: 1024, maximumHeaderCount: 10, maximumTargetLength: 256, maximumBodySize: 100,
        maximumConnections: 100)

    static func configuration(log: LogRecorder? = nil) -> HTTPServer.Configuration {
        HTTPServer.Configuration(limits: limits, timeouts: .generous, log: log?.sink)
    }

    struct Case: Sendable, CustomStringConvertible {
        let name: String
        let request: String
        let status: Int
        /// Whether the server must close the connection after the response (the body was left unread, or the
        /// request could not be framed).
        let closes: Bool

        var description: String { name }
    }

    static let cases: [Case] = [
        Case(name: "fine", request: "GET /hello HTTP/1.1\r\nHost: localhost\r\n\r\n", status: 200, closes: false),
        Case(
            name: "header count",
            request: "GET /hello HTTP/1.1\r\nHost: localhost\r\n" + String(repeating: "X: y\r\n", count: 10)
                + "\r\n", status: 431, closes: true),
        Case(
            name: "header size",
            request: "GET /hello HTTP/1.1\r\nHost: localhost\r\nX: \(String(repeating: "v", count: 1100))\r\n\r\n", status: 431,
            closes: true),
        Case(
            name: "target length", request: "GET /\(String(repeating: "a", count: 300)) HTTP/1.1\r\nHost: localhost\r\n\r\n",
            status: 414, closes: true),
        Case(
            name: "Content-Length too large",
            request: "POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Length: 101\r\n\r\n", status: 413, closes: true),
        Case(
            name: "chunked body too large",
            request: "POST /echo HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n40\r\n"
                + String(repeating: "a", count: 64) + "\r\n40\r\n", status: 413, closes: true),
        Case(name: "no length: an empty body", request: "POST /echo HTTP/1.1\r\nHost: localhost\r\n\r\n", status: 200, closes: false),
        Case(
            name: "gzip", request: "POST /echo HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: gzip, chunked\r\n\r\n",
            status: 501, closes: true),
        Case(
            name: "both framings",
            request: "POST /echo HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n",
            status: 400, closes: true),
        Case(
            name: "two lengths",
            request: "POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd",
            status: 400,
            closes: true),
        Case(
            name: "negative length", request: "POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Length: -1\r\n\r\n",
            status: 400, closes: true),
        Case(
            name: "bad chunk", request: "POST /echo HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
            status: 400, closes: true),
        Case(name: "HTTP/2", request: "GET /hello HTTP/2.0\r\nHost: localhost\r\n\r\n", status: 505, closes: true),
        Case(name: "bad request line", request: "GET /hello\r\n\r\n", status: 400, closes: true),
        Case(name: "no host", request: "GET /hello HTTP/1.1\r\n\r\n", status: 400, closes: false),
        Case(
            name: "two hosts", request: "GET /hello HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", status: 400, closes: false),
        Case(name: "bad escape", request: "GET /he%zzllo HTTP/1.1\r\nHost: localhost\r\n\r\n", status: 400, closes: false),
        Case(name: "encoded slash", request: "GET /a%2Fb HTTP/1.1\r\nHost: localhost\r\n\r\n", status: 400, closes: false),
        Case(name: "dot segment", request: "GET /a/../hello HTTP/1.1\r\nHost: localhost\r\n\r\n", status: 400, closes: false),
        Case(name: "not found", request: "GET /nope HTTP/1.1\r\nHost: localhost\r\n\r\n", status: 404, closes: false),
        Case(
            name: "not found with an unread body",
            request: "POST /nope HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\n\r\nhello", status: 404, closes: true),
        Case(name: "method", request: "DELETE /hello HTTP/1.1\r\nHost: localhost\r\n\r\n", status: 405, closes: false),
        Case(name: "asterisk", request: "GET * HTTP/1.1\r\nHost: localhost\r\n\r\n", status: 400, closes: false),
        Case(name: "options asterisk", request: "OPTIONS * HTTP/1.1\r\nHost: localhost\r\n\r\n", status: 204, closes: false),
        Case(name: "TLS handshake", request: "\u{16}\u{3}\u{1}\u{2}\u{0}\u{1}", status: 400, closes: true),
    ]

    @Test(arguments: cases)
    func answersWithTheRightStatus(_ test: Case) async throws {
        try await withServer(Self.configuration(), router: echoRouter()) { server in
            let connection = try RawClient(port: server.port)
            await connection.send(test.request)
            let response = try #require(await connection.readResponse())
            #expect(response.status == test.status)
            #expect(response.closesConnection == test.closes)
            if test.status >= 400 {
                #expect(response.header("Content-Type") == "application/problem+json")
                let problem = try JSONValue(parsing: response.body)
                #expect(problem["status"]?.intValue == test.status)
                #expect(problem["detail"]?.stringValue?.isEmpty == false)
            }
            if test.closes {
                #expect(await connection.readToEnd().closed)
            } else {
                // Still in step: the next request on the same connection is answered.
                await connection.send("GET /hello HTTP/1.1\r\nHost: localhost\r\n\r\n")
                #expect(await connection.readResponse()?.bodyText == "hello")
            }
        }
    }

    /// 413 arrives while the client has sent only the head: the server never waits for a body it will refuse.
    @Test func refusesAnOversizedBodyBeforeReadingIt() async throws {
        let handled = Signal()
        var router = echoRouter()
        router.post("/upload") { _ in
            handled.fire()
            return .text("stored")
        }
        try await withServer(Self.configuration(), router: router) { server in
            let connection = try RawClient(port: server.port)
            await connection.send("POST /upload HTTP/1.1\r\nHost: localhost\r\nContent-Length: 10737418240\r\n\r\n")
            await connection.send(String(repeating: "a", count: 50))
            let response = try #require(await connection.readResponse())
            #expect(response.status == 413)
            #expect(response.closesConnection)
            #expect(!handled.hasFired)
        }
    }

    /// The same through libcurl, which stops sending when the refusal arrives.
    @Test func libcurlGets413ForALargeBody() async throws {
        let client = try HTTPClient()
        try await withServer(Self.configuration(), router: echoRouter()) { server in
            let response = try await client.execute(
                HTTPRequest(method: .post, url: server.url("/echo"), body: Data(count: 2_000_000)))
            #expect(response.status == 413)
            #expect(response.headers["Content-Type"] == "application/problem+json")
        }
    }

    // Beyond the connection limit: IdleConnectionTests (an idle connection makes room; when every connection is
    // answering a request, a polite 503).

    @Test func refusesAnInvalidConfiguration() {
        #expect(throws: HTTPServerError.invalidConfiguration) {
            try HTTPServer(configuration: .init(limits: .init(maximumBodySize: 0)), router: HTTPRouter())
        }
        #expect(throws: HTTPServerError.invalidConfiguration) {
            try HTTPServer(configuration: .init(timeouts: .all(.zero)), router: HTTPRouter())
        }
        #expect(throws: HTTPServerError.invalidConfiguration) {
            try HTTPServer(configuration: .init(port: 70_000), router: HTTPRouter())
        }
        #expect(throws: HTTPServerError.cannotResolveHost) {
            try HTTPServer(configuration: .init(host: "no.such.host.invalid"), router: HTTPRouter())
        }
    }

    @Test func saysWhenThePortIsTaken() async throws {
        try await withServer(router: echoRouter()) { server in
            let error = try #require(throws: HTTPServerError.self) {
                try HTTPServer(configuration: .init(port: server.port), router: HTTPRouter())
            }
            #expect(error == .addressInUse)
            #expect(error.description.contains("127.0.0.1:\(server.port)"))
            #expect(error.description.contains("port 0 picks a free one"))
        }
    }
}

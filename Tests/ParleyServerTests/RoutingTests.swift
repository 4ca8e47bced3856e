import Foundation
import HTTPTestSupport
import ParleyHTTP
import ParleyJSON
import ParleyServer
import Testing

/// Routing over real connections, with the project's libcurl client: parameters, specificity, HEAD, OPTIONS,
/// 404 and 405, problems, handler errors, request ids and peers.
@Suite(.timeLimit(.minutes(10))) struct RoutingTests {
    static func router() -> HTTPRouter {
        var router = echoRouter()
        router.get("/games/new/transcript/{npc}") { _ in .text("literal wins") }
        router.delete("/games/{id}") { request in .text("deleted \(request.pathParameters["id"]!)") }
        router.put("/games/{id}") { request in .text("put \(request.bodyText)") }
        router.get("/who") { request in
            .json(#"{"peer":"\#(request.peer.host)","id":"\#(request.id)","route":"\#(request.route)"}"#)
        }
        router.get("/query") { request in .text(request.query.values(for: "q").joined(separator: "|")) }
        router.get("/problem") { _ in
            throw ProblemDetails(
                .conflict, detail: "The game is busy. Retry once its turn ended.", type: "urn:parley:busy",
                instance: "/games/g1", extensions: JSONObject([("retryAfter", .integer(2))]))
        }
        router.get("/fails") { _ in
            struct Broken: Error {}
            throw Broken()
        }
        router.get("/bad-header") { _ in .text("x", headers: ["X-Injected": "a\r\nSet-Cookie: evil=1"]) }
        router.get("/bad-status") { _ in HTTPServerResponse(status: 99) }
        router.get("/no-content") { _ in .noContent() }
        return router
    }

    @Test(arguments: [
        ("/games/g1/transcript/mira", #"{"id":"g1","npc":"mira"}"#),
        ("/games/Mira%20Vale/transcript/caf%C3%A9", #"{"id":"Mira Vale","npc":"café"}"#),
        ("/games/new/transcript/mira", "literal wins"),
        ("/query?q=a&q=b+c&q=%26", "a|b c|&"),
        ("/hello", "hello"),
    ])
    func routesToTheMatchingHandler(path: String, body: String) async throws {
        let client = try HTTPClient()
        try await withServer(router: Self.router()) { server in
            let response = try await client.execute(.get(server.url(path)))
            #expect(response.status == 200)
            #expect(response.bodyText == body)
        }
    }

    @Test func answersHeadWithTheGetRouteWithoutABody() async throws {
        try await withServer(router: Self.router()) { server in
            let connection = try RawClient(port: server.port)
            await connection.send("HEAD /hello HTTP/1.1\r\nHost: localhost\r\n\r\nGET /hello HTTP/1.1\r\nHost: localhost\r\n\r\n")
            let responses = await connection.readResponses(2, headRequests: 1)
            try #require(responses.count == 2)
            #expect(responses[0].status == 200)
            #expect(responses[0].header("Content-Length") == "5")
            #expect(responses[0].body.isEmpty)
            #expect(responses[1].bodyText == "hello")
        }
    }

    @Test func answersOptionsAndWrongMethodsWithTheAllowedOnes() async throws {
        let client = try HTTPClient()
        try await withServer(router: Self.router()) { server in
            let options = try await client.execute(HTTPRequest(method: .options, url: server.url("/games/g1")))
            #expect(options.status == 204)
            #expect(options.headers["Allow"] == "DELETE, PUT, OPTIONS")

            let wrong = try await client.execute(.postJSON(server.url("/hello"), body: Data("{}".utf8)))
            #expect(wrong.status == 405)
            #expect(wrong.headers["Allow"] == "GET, HEAD, OPTIONS")
            #expect(wrong.headers["Content-Type"] == "application/problem+json")
            let problem = try JSONValue(parsing: wrong.body)
            #expect(problem["status"]?.intValue == 405)
            #expect(problem["detail"]?.stringValue?.contains("GET, HEAD, OPTIONS") == true)
        }
    }

    @Test(arguments: ["/nothing", "/hello/", "/hello/extra", "//hello", "/games//transcript/mira", "/HELLO"])
    func answers404WhenNoPatternMatches(path: String) async throws {
        let client = try HTTPClient()
        try await withServer(router: Self.router()) { server in
            let response = try await client.execute(.get(server.url(path)))
            #expect(response.status == 404)
            #expect(response.headers["Content-Type"] == "application/problem+json")
        }
    }

    /// RFC 9457's members, in order, with the handler's extension member after them.
    @Test func problemsHaveTheRFC9457Shape() async throws {
        let client = try HTTPClient()
        try await withServer(router: Self.router()) { server in
            let response = try await client.execute(.get(server.url("/problem")))
            #expect(response.status == 409)
            #expect(response.headers["Content-Type"] == "application/problem+json")
            #expect(
                response.bodyText
                    == #"{"type":"urn:parley:busy","title":"Conflict","status":409,"#
                    + #""detail":"The game is busy. Retry once its turn ended.","instance":"/games/g1","retryAfter":2}"#
            )

            let notFound = try JSONValue(parsing: try await client.execute(.get(server.url("/none"))).body)
            let keys = notFound.objectValue.map { Array($0.keys) }
            #expect(keys == ["type", "title", "status", "detail"])
            #expect(notFound["type"]?.stringValue == "about:blank")
            #expect(notFound["title"]?.stringValue == "Not Found")
        }
    }

    @Test func aFailingHandlerGives500AndTheErrorGoesToTheLog() async throws {
        let log = LogRecorder()
        let client = try HTTPClient()
        let configuration = HTTPServer.Configuration(timeouts: .generous, log: log.sink)
        try await withServer(configuration, router: Self.router()) { server in
            let response = try await client.execute(.get(server.url("/fails"), headers: ["X-Request-Id": "trace-1"]))
            #expect(response.status == 500)
            #expect(response.headers["X-Request-Id"] == "trace-1")
            let problem = try JSONValue(parsing: response.body)
            #expect(problem["detail"]?.stringValue?.contains("trace-1") == true)
            #expect(problem["detail"]?.stringValue?.contains("Broken") == false)
            let failure = try #require(log.events(.handlerFailed).first)
            #expect(failure.requestID == "trace-1")
            #expect(failure.message.contains("Broken"))
        }
    }

    @Test(arguments: ["/bad-header", "/bad-status"])
    func anInvalidResponseBecomes500InsteadOfBeingSent(path: String) async throws {
        try await withServer(router: Self.router()) { server in
            let connection = try RawClient(port: server.port)
            await connection.send("GET \(path) HTTP/1.1\r\nHost: localhost\r\n\r\n")
            let response = try #require(await connection.readResponse())
            #expect(response.status == 500)
            #expect(response.header("Set-Cookie") == nil)
            #expect(response.header("X-Injected") == nil)
        }
    }

    @Test func noContentHasNoLengthAndNoBody() async throws {
        try await withServer(router: Self.router()) { server in
            let connection = try RawClient(port: server.port)
            await connection.send("GET /no-content HTTP/1.1\r\nHost: localhost\r\n\r\nGET /hello HTTP/1.1\r\nHost: localhost\r\n\r\n")
            let responses = await connection.readResponses(2)
            try #require(responses.count == 2)
            #expect(responses[0].status == 204)
            #expect(responses[0].header("Content-Length") == nil)
            #expect(responses[1].bodyText == "hello")
        }
    }

    @Test func handlersSeeThePeerTheRouteAndARequestID() async throws {
        let client = try HTTPClient()
        try await withServer(router: Self.router()) { server in
            let first = try JSONValue(parsing: try await client.execute(.get(server.url("/who"))).body)
            let second = try await client.execute(.get(server.url("/who")))
            #expect(first["peer"]?.stringValue == "127.0.0.1")
            #expect(first["route"]?.stringValue == "/who")
            let firstID = try #require(first["id"]?.stringValue)
            #expect(!firstID.isEmpty)
            #expect(second.headers["X-Request-Id"] != firstID)
            // An id the client offers is kept only when it is short and plain.
            let odd = try await client.execute(.get(server.url("/who"), headers: ["X-Request-Id": "has spaces"]))
            #expect(odd.headers["X-Request-Id"] != "has spaces")
        }
    }

    @Test func servesIPv6Loopback() async throws {
        var configuration = HTTPServer.Configuration(host: "::1", timeouts: .generous)
        configuration.port = 0
        try await withServer(configuration, router: Self.router()) { server in
            #expect(server.baseURL.hasPrefix("http://[::1]:"))
            let connection = try RawClient(port: server.port, ipv6: true)
            await connection.send("GET /who HTTP/1.1\r\nHost: localhost\r\n\r\n")
            let response = try #require(await connection.readResponse())
            #expect(response.bodyText.contains(#""peer":"::1""#))
        }
    }
}

extension RoutingTests {
    @Test func aContentTypeInTheHeadersWins() {
        let response = HTTPServerResponse.json("{}", headers: ["content-type": "application/vnd.parley+json"])
        #expect(response.headers.values(for: "Content-Type") == ["application/vnd.parley+json"])
        #expect(HTTPServerResponse.json("{}").headers["Content-Type"] == "application/json")
    }
}

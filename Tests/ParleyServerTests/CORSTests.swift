import Foundation
import ParleyHTTP
import ParleyServer
import Synchronization
import Testing

/// Cross-origin requests (`HTTPServer.Configuration.allowedOrigins`): pages from the allowed origins get the
/// `Access-Control-*` header fields and their preflights answered; any other origin gets none, and no origin is
/// allowed by default.
@Suite(.timeLimit(.minutes(10))) struct CORSTests {
    static let game = "http://localhost:8000"
    static let token = "a-long-enough-test-token"

    static func configuration(origins: [String], token: String? = nil) -> HTTPServer.Configuration {
        HTTPServer.Configuration(bearerToken: token, timeouts: .generous, allowedOrigins: origins)
    }

    static func router() -> HTTPRouter {
        var router = echoRouter()
        router.get("/events") { _ in
            .eventStream { writer in try await writer.send(ParleyServer.ServerSentEvent(event: "one", data: "{}")) }
        }
        router.add(.options, "/own") { _ in .text("my own OPTIONS") }
        return router
    }

    /// A request with an `Origin`, and for a preflight the method it asks for.
    static func request(
        _ method: HTTPMethod, _ url: String, origin: String?, asking: String? = nil, headers: HTTPHeaders = [:]
    ) -> HTTPRequest {
        var all = headers
        if let origin { all["Origin"] = origin }
        if let asking {
            all["Access-Control-Request-Method"] = asking
            all["Access-Control-Request-Headers"] = "content-type, authorization"
        }
        return HTTPRequest(method: method, url: url, headers: all)
    }

    @Test func noOriginIsAllowedByDefault() async throws {
        let client = try HTTPClient()
        try await withServer(Self.configuration(origins: []), router: Self.router()) { server in
            let plain = try await client.execute(Self.request(.get, server.url("/hello"), origin: Self.game))
            #expect(plain.status == 200)
            #expect(plain.headers["Access-Control-Allow-Origin"] == nil)
            #expect(plain.headers["Vary"] == nil)
            let preflight = try await client.execute(
                Self.request(.options, server.url("/echo"), origin: Self.game, asking: "POST"))
            #expect(preflight.status == 403)
            #expect(preflight.headers["Access-Control-Allow-Origin"] == nil)
            #expect(preflight.bodyText.contains("--cors-origin"), "\(preflight.bodyText)")
            // OPTIONS that is no preflight is answered as before.
            let options = try await client.execute(Self.request(.options, server.url("/echo"), origin: nil))
            #expect(options.status == 204 && options.headers["Allow"] == "POST, OPTIONS")
        }
    }

    @Test func anAllowedOriginGetsItsPreflightAndItsAnswers() async throws {
        let client = try HTTPClient()
        try await withServer(Self.configuration(origins: [Self.game, "https://game.example"]), router: Self.router()) {
            server in
            let preflight = try await client.execute(
                Self.request(.options, server.url("/echo"), origin: Self.game, asking: "POST"))
            #expect(preflight.status == 204)
            #expect(preflight.headers["Access-Control-Allow-Origin"] == Self.game)
            #expect(preflight.headers["Access-Control-Allow-Methods"] == "POST, OPTIONS")
            let allowedHeaders = preflight.headers["Access-Control-Allow-Headers"] ?? ""
            for name in ["Content-Type", "Authorization", "Last-Event-ID"] {
                #expect(allowedHeaders.contains(name), "\(allowedHeaders)")
            }
            #expect(preflight.headers["Access-Control-Max-Age"] == "600")
            #expect(preflight.headers["Vary"] == "Origin")

            let posted = try await client.execute(
                HTTPRequest(
                    method: .post, url: server.url("/echo"), headers: ["Origin": "https://game.example"],
                    body: Data("hi".utf8)))
            #expect(posted.status == 200)
            #expect(posted.headers["Access-Control-Allow-Origin"] == "https://game.example")
            #expect(posted.headers["Access-Control-Expose-Headers"]?.contains("Location") == true)
            // Errors are readable too, and so is a stream.
            let missing = try await client.execute(Self.request(.get, server.url("/nowhere"), origin: Self.game))
            #expect(missing.status == 404 && missing.headers["Access-Control-Allow-Origin"] == Self.game)
            let stream = try await client.stream(Self.request(.get, server.url("/events"), origin: Self.game))
            #expect(stream.headers["Access-Control-Allow-Origin"] == Self.game)
            stream.cancel()
        }
    }

    @Test func anotherOriginGetsNothingItCouldRead() async throws {
        let client = try HTTPClient()
        try await withServer(Self.configuration(origins: [Self.game]), router: Self.router()) { server in
            for origin in ["http://evil.example", "http://localhost:8001", "https://localhost:8000", "null"] {
                let plain = try await client.execute(Self.request(.get, server.url("/hello"), origin: origin))
                #expect(plain.status == 200)
                #expect(plain.headers["Access-Control-Allow-Origin"] == nil, "\(origin)")
                #expect(plain.headers["Vary"] == "Origin")
                let preflight = try await client.execute(
                    Self.request(.options, server.url("/echo"), origin: origin, asking: "POST"))
                #expect(preflight.status == 403, "\(origin)")
                #expect(preflight.headers["Access-Control-Allow-Origin"] == nil)
            }
        }
    }

    /// A page of another site may send a `POST` without a preflight (a form, `text/plain`): it is refused with `403`
    /// before its handler runs, whatever the method that may change something; reading, the server's own pages, an
    /// allowed origin and programs that send no `Origin` are not affected.
    @Test func aRequestThatMayChangeSomethingFromAnotherSiteIsRefused() async throws {
        let client = try HTTPClient()
        let ran = Counter()
        var router = Self.router()
        router.put("/count") { _ in
            ran.increment()
            return .noContent()
        }
        try await withServer(Self.configuration(origins: [Self.game]), router: router) { server in
            let own = server.baseURL
            let refused: [HTTPHeaders] = [
                ["Origin": "http://evil.example"], ["Origin": "null"], ["Origin": "http://localhost:8001"],
                ["Sec-Fetch-Site": "cross-site"], ["Origin": own, "Sec-Fetch-Site": "cross-site"],
            ]
            for headers in refused {
                for (method, path) in [(HTTPMethod.post, "/echo"), (.put, "/count")] {
                    var all = headers
                    all["Content-Type"] = "text/plain"
                    let response = try await client.execute(
                        HTTPRequest(method: method, url: server.url(path), headers: all, body: Data("hi".utf8)))
                    #expect(response.status == 403, "\(method) \(headers)")
                    #expect(response.bodyText.contains("cross-site-request"), "\(response.bodyText)")
                }
                let read = try await client.execute(Self.request(.get, server.url("/hello"), origin: headers["Origin"]))
                #expect(read.status == 200)
            }
            #expect(ran.value == 0)
            let allowed: [HTTPHeaders] = [
                [:], ["Origin": own], ["Origin": own, "Sec-Fetch-Site": "same-origin"],
                ["Origin": Self.game, "Sec-Fetch-Site": "cross-site"], ["Sec-Fetch-Site": "none"],
            ]
            for headers in allowed {
                let response = try await client.execute(
                    HTTPRequest(method: .put, url: server.url("/count"), headers: headers))
                #expect(response.status == 204, "\(headers): \(response.bodyText)")
            }
            #expect(ran.value == allowed.count)
        }
    }

    @Test func aPreflightNeedsNoTokenButEverythingElseDoes() async throws {
        let client = try HTTPClient()
        try await withServer(Self.configuration(origins: [Self.game], token: Self.token), router: Self.router()) {
            server in
            let preflight = try await client.execute(
                Self.request(.options, server.url("/echo"), origin: Self.game, asking: "POST"))
            #expect(preflight.status == 204)
            // Without the token the page is refused, and can read why.
            let refused = try await client.execute(Self.request(.get, server.url("/hello"), origin: Self.game))
            #expect(refused.status == 401 && refused.headers["Access-Control-Allow-Origin"] == Self.game)
            let allowed = try await client.execute(
                Self.request(
                    .get, server.url("/hello"), origin: Self.game, headers: ["Authorization": "Bearer \(Self.token)"]))
            #expect(allowed.status == 200)
            // Another origin's preflight is not exempt; nor is a route's own OPTIONS handler.
            let other = try await client.execute(
                Self.request(.options, server.url("/echo"), origin: "http://evil.example", asking: "POST"))
            #expect(other.status == 401)
            let own = try await client.execute(
                Self.request(.options, server.url("/own"), origin: Self.game, asking: "GET"))
            #expect(own.status == 401)
        }
    }

    @Test(arguments: [
        ("HTTP://Localhost:8000/", "http://localhost:8000"), ("https://game.example", "https://game.example"),
        ("http://[::1]:8080", "http://[::1]:8080"),
    ])
    func originsAreNormalized(written: String, origin: String) {
        #expect(HTTPServer.Configuration.origin(written) == origin)
    }

    @Test(arguments: ["localhost:8000", "*", "null", "http://a.example/path", "http://user@a.example", "http://", ""])
    func whatIsNoOriginIsRefusedAtStart(written: String) {
        #expect(HTTPServer.Configuration.origin(written) == nil)
        #expect(throws: HTTPServerError.self) {
            _ = try HTTPServer(configuration: Self.configuration(origins: [written]), router: HTTPRouter())
        }
    }

    @Test func anOriginWrittenDifferentlyStillMatches() async throws {
        let client = try HTTPClient()
        try await withServer(Self.configuration(origins: ["HTTP://LOCALHOST:8000/"]), router: Self.router()) { server in
            let plain = try await client.execute(Self.request(.get, server.url("/hello"), origin: Self.game))
            #expect(plain.headers["Access-Control-Allow-Origin"] == Self.game)
        }
    }
}

/// How many times a handler ran.
private final class Counter: Sendable {
    private let count = Mutex(0)

    var value: Int { count.withLock { $0 } }

    func increment() { count.withLock { $0 += 1 } }
}

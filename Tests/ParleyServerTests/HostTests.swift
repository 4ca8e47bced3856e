import Foundation
import HTTPTestSupport
import ParleyJSON
import ParleyServer
import Testing

/// DNS rebinding: a page of another site makes its own name resolve to 127.0.0.1, and its browser then sends the
/// page's requests to the server on the player's machine with the page's name in `Host` (and, for a `POST`, the page's
/// origin in `Origin`, which matches). A server on loopback serves only requests addressed to a loopback name or to
/// its configured host; the others get `421`, and a page's `Origin` is compared with the names the server answers to,
/// never with the `Host` the page chose.
@Suite(.timeLimit(.minutes(10))) struct HostTests {
    static func router() -> HTTPRouter {
        var router = echoRouter()
        router.get("/same-origin") { request in .text(request.isSameOrigin ? "same" : "other") }
        return router
    }

    /// Sends one raw request and reads its response.
    static func exchange(_ server: HTTPServer, _ request: String, ipv6: Bool = false) async throws -> RawResponse? {
        let connection = try RawClient(port: server.port, ipv6: ipv6)
        await connection.send(request)
        return await connection.readResponse()
    }

    @Test func servesLoopbackNamesWithOrWithoutThePort() async throws {
        try await withServer(router: Self.router()) { server in
            let port = server.port
            for host in [
                "127.0.0.1", "127.0.0.1:\(port)", "localhost", "localhost:\(port)", "LocalHost:\(port)", "localhost.",
                "[::1]", "[::1]:\(port)", "127.1.2.3:\(port)", "localhost:9000",
            ] {
                let response = try await Self.exchange(server, "GET /hello HTTP/1.1\r\nHost: \(host)\r\n\r\n")
                #expect(response?.status == 200, "\(host): \(response?.description ?? "no answer")")
            }
            // HTTP/1.0 needs no Host; HTTP/1.1 does.
            let old = try await Self.exchange(server, "GET /hello HTTP/1.0\r\n\r\n")
            #expect(old?.status == 200)
            let missing = try await Self.exchange(server, "GET /hello HTTP/1.1\r\n\r\n")
            #expect(missing?.status == 400)
        }
    }

    @Test func refusesOtherNamesWith421() async throws {
        try await withServer(router: Self.router()) { server in
            let port = server.port
            for host in [
                "evil.example", "evil.example:\(port)", "127.0.0.1.evil.example:\(port)", "localhost.evil.example",
                "10.0.0.1:\(port)", "[::2]:\(port)", "", "localhost:port", "localhost:\(port):\(port)",
                "user@localhost", "::1",
            ] {
                for request in [
                    "GET /hello HTTP/1.1\r\nHost: \(host)\r\n\r\n",
                    "POST /echo HTTP/1.1\r\nHost: \(host)\r\nOrigin: http://\(host)\r\nContent-Length: 2\r\n\r\nhi",
                    "GET /hello HTTP/1.0\r\nHost: \(host)\r\n\r\n",
                ] {
                    let response = try #require(try await Self.exchange(server, request), "\(request)")
                    #expect(response.status == 421, "\(host): \(response)")
                    #expect(response.header("Content-Type") == ProblemDetails.mediaType)
                    let problem = try JSONValue(parsing: response.body)
                    #expect(problem["type"] == "urn:parley:problem:misdirected-request", "\(problem)")
                    let detail = problem["detail"]?.stringValue ?? ""
                    #expect(detail.contains("http://127.0.0.1:\(port)/"), "\(detail)")
                    #expect(detail.contains("DNS rebinding"), "\(detail)")
                }
            }
        }
    }

    @Test func servesTheConfiguredHost() async throws {
        let configuration = HTTPServer.Configuration(host: "::1", timeouts: .generous)
        try await withServer(configuration, router: Self.router()) { server in
            for (host, status) in [("[::1]:\(server.port)", 200), ("localhost", 200), ("evil.example", 421)] {
                let response = try await Self.exchange(
                    server, "GET /hello HTTP/1.1\r\nHost: \(host)\r\n\r\n", ipv6: true)
                #expect(response?.status == status, "\(host): \(response?.description ?? "no answer")")
            }
        }
    }

    /// The server's own origin is one of its names with its port, or the `Host` it was checked under; any other page
    /// is another site, whatever `Host` it sends.
    @Test func theOwnOriginIsOneTheServerAnswersTo() async throws {
        try await withServer(router: Self.router()) { server in
            let port = server.port
            let cases: [(host: String, origin: String?, same: Bool)] = [
                ("127.0.0.1:\(port)", nil, true),
                ("127.0.0.1:\(port)", "http://127.0.0.1:\(port)", true),
                ("127.0.0.1:\(port)", "http://localhost:\(port)", true),
                ("localhost:9000", "http://localhost:9000", true),  // a tunnel on this machine
                ("127.0.0.1:\(port)", "http://localhost:3000", false),  // another program's page on this machine
                ("127.0.0.1:\(port)", "https://127.0.0.1:\(port)", false),
                ("127.0.0.1:\(port)", "http://evil.example:\(port)", false),
                ("127.0.0.1:\(port)", "null", false),
            ]
            for (host, origin, same) in cases {
                let originLine = origin.map { "Origin: \($0)\r\n" } ?? ""
                let read = try await Self.exchange(
                    server, "GET /same-origin HTTP/1.1\r\nHost: \(host)\r\n\(originLine)\r\n")
                #expect(read?.bodyText == (same ? "same" : "other"), "\(host) \(origin ?? "-")")
                let post = try await Self.exchange(
                    server, "POST /echo HTTP/1.1\r\nHost: \(host)\r\n\(originLine)Content-Length: 2\r\n\r\nhi")
                #expect(post?.status == (same ? 200 : 403), "\(host) \(origin ?? "-"): \(post?.description ?? "")")
            }
        }
    }
}

import Foundation
import HTTPTestSupport
import ParleyHTTP
import ParleyJSON
import ParleyServer
import Testing

@testable import ParleyServer

/// The bearer token: which requests get in, what the others get, and the rule that only a loopback server may
/// run without one.
@Suite(.timeLimit(.minutes(10))) struct AuthenticationTests {
    static let token = "s3cret-token-0123456789abcdef"

    @Test(
        arguments: [
            (nil, 401, "Bearer"),
            ("Bearer wrong-token-0123456789abcdef", 401, #"Bearer error="invalid_token""#),
            ("Bearer \(token)x", 401, #"Bearer error="invalid_token""#),
            ("Bearer \(String(token.dropLast()))", 401, #"Bearer error="invalid_token""#),
            ("Basic \(token)", 401, #"Bearer error="invalid_token""#),
            ("Bearer", 401, #"Bearer error="invalid_token""#),
            ("Bearer \(token)", 200, nil),
            ("bearer   \(token)", 200, nil),
        ] as [(String?, Int, String?)])
    func letsInOnlyTheRightToken(authorization: String?, status: Int, challenge: String?) async throws {
        let client = try HTTPClient()
        let configuration = HTTPServer.Configuration(bearerToken: Self.token, timeouts: .generous)
        try await withServer(configuration, router: echoRouter()) { server in
            var headers: HTTPHeaders = [:]
            if let authorization { headers["Authorization"] = authorization }
            let response = try await client.execute(.get(server.url("/hello"), headers: headers))
            #expect(response.status == status)
            #expect(response.headers["WWW-Authenticate"] == challenge)
            if status == 401 {
                #expect(response.headers["Content-Type"] == "application/problem+json")
                let detail = try JSONValue(parsing: response.body)["detail"]?.stringValue ?? ""
                #expect(detail.contains("Authorization: Bearer"))
                #expect(!detail.contains(Self.token))
            } else {
                #expect(response.bodyText == "hello")
            }
        }
    }

    /// An unauthenticated client learns nothing about the routes (401, not 404 or 405) and its body is not read.
    @Test func refusesBeforeRoutingAndBeforeTheBody() async throws {
        let configuration = HTTPServer.Configuration(bearerToken: Self.token, timeouts: .generous)
        try await withServer(configuration, router: echoRouter()) { server in
            for request in [
                "GET /no-such-route HTTP/1.1\r\nHost: localhost\r\n\r\n",
                "POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100000\r\n\r\n",
            ] {
                let connection = try RawClient(port: server.port)
                await connection.send(request)
                #expect(await connection.readResponse()?.status == 401, "\(request)")
            }
        }
    }

    @Test(arguments: ["0.0.0.0", "::"])
    func refusesToListenBeyondLoopbackWithoutAToken(host: String) {
        let error = #expect(throws: HTTPServerError.tokenRequired) {
            try HTTPServer(configuration: .init(host: host), router: echoRouter())
        }
        #expect(error?.description.contains("token") == true)
    }

    @Test(arguments: ["127.0.0.1", "localhost", "::1"])
    func listensOnLoopbackWithoutAToken(host: String) async throws {
        try await withServer(.init(host: host, timeouts: .generous), router: echoRouter()) { server in
            #expect(server.port > 0)
        }
    }

    @Test(arguments: ["short", "has spaces in it, long enough", "tab\there-0123456789", "ünïcode-0123456789abc"])
    func refusesTokensThatCannotBeUsed(token: String) {
        #expect(throws: HTTPServerError.invalidToken) {
            try HTTPServer(configuration: .init(bearerToken: token), router: echoRouter())
        }
    }

    /// The loopback rule itself, on resolved addresses: 127.0.0.0/8, ::1 and IPv4-mapped loopback only.
    @Test(arguments: [
        ("127.0.0.1", true), ("127.1.2.3", true), ("::1", true), ("::ffff:127.0.0.1", true), ("localhost", true),
        ("0.0.0.0", false), ("::", false), ("192.168.1.10", false), ("10.0.0.1", false), ("::ffff:10.0.0.1", false),
        ("fe80::1", false), ("128.0.0.1", false),
    ])
    func knowsWhichAddressesAreLoopback(host: String, isLoopback: Bool) throws {
        #expect(try ListeningSocket.resolve(host: host, port: 0).isLoopback == isLoopback)
    }

    @Test func comparesTokensWithoutStoppingAtTheFirstDifference() {
        let expected = Array(Self.token.utf8)
        #expect(BearerToken.constantTimeEquals(expected, expected))
        #expect(!BearerToken.constantTimeEquals(expected + [0x61], expected))
        #expect(!BearerToken.constantTimeEquals(Array(expected.dropLast()), expected))
        #expect(!BearerToken.constantTimeEquals([], expected))
        var changed = expected
        changed[changed.count - 1] ^= 1
        #expect(!BearerToken.constantTimeEquals(changed, expected))
    }
}

extension AuthenticationTests {
    @Test func dumpingTheConfigurationShowsNoToken() {
        var printed = ""
        dump(HTTPServer.Configuration(bearerToken: Self.token), to: &printed)
        #expect(!printed.contains(Self.token))
        #expect(printed.contains("<redacted>"))
    }
}

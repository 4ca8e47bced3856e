import Foundation
import HTTPTestSupport
import ParleyHTTP
import Testing

@Suite(.timeLimit(.minutes(10))) struct HTTPClientFailureTests {
    @Test func connectionRefusedNamesTheURLWithoutSecrets() async throws {
        let closed = try LoopbackHTTPServer(.text("unused"))
        closed.stop()
        let client = try HTTPClient()
        var request = HTTPRequest.get(closed.url("/v1/models?api_key=hunter2"))
        request.headers["Authorization"] = "Bearer sk-secret-value"

        let error = try await #require(throws: HTTPClientError.self) { try await client.execute(request) }

        #expect(error == .connectionRefused)
        #expect(error.url == closed.url("/v1/models"))
        #expect(error.description.contains(closed.url("/v1/models")))
        #expect(error.description.contains("running"))
        #expect(!error.description.contains("hunter2"))
        #expect(!error.description.contains("sk-secret-value"))
    }

    @Test(arguments: [
        ("reset", LoopbackResponse.reset),
        ("empty reply", .close),
        ("cut body", .cutBody(status: 200, headers: [], declaredLength: 100, partialBody: Data("only this".utf8))),
        ("cut chunked body", .stream(chunks: ["one\n", "tw"], ending: .cut)),
    ])
    func brokenConnectionsAreConnectionResets(name: String, response: LoopbackResponse) async throws {
        let server = try LoopbackHTTPServer(response)
        let client = try HTTPClient()

        let error = try await #require(throws: HTTPClientError.self, "\(name)") {
            try await client.execute(.get(server.url("/broken")))
        }

        #expect(error == .connectionReset, "\(name): \(error)")
        #expect(error.description.contains(server.url("/broken")))
    }

    @Test func garbageIsAnInvalidResponse() async throws {
        let server = try LoopbackHTTPServer(.garbage(Data("SSH-2.0-OpenSSH_9.2\r\n\u{1}\u{2}\u{3}".utf8)))
        let client = try HTTPClient()

        let error = try await #require(throws: HTTPClientError.self) {
            try await client.execute(.get(server.url("/")))
        }

        #expect(error == .invalidResponse, "\(error)")
    }

    @Test func httpsToAPlainHTTPServerIsATLSFailure() async throws {
        let server = try LoopbackHTTPServer(.text("plain"))
        let client = try HTTPClient()

        let error = try await #require(throws: HTTPClientError.self) {
            try await client.execute(.get("https://127.0.0.1:\(server.port)/"))
        }

        #expect(error == .tlsFailure, "\(error)")
        #expect(error.description.contains("verification stays on"))
    }

    @Test(arguments: ["ftp://127.0.0.1/file", "file:///etc/passwd", "127.0.0.1:8080/v1", "http://exa mple.com/", ""])
    func unsupportedOrMalformedURLsAreRejected(url: String) async throws {
        let client = try HTTPClient()

        let error = try await #require(throws: HTTPClientError.self) { try await client.execute(.get(url)) }

        #expect(error == .invalidURL)
    }

    @Test func headerInjectionIsRejectedWithoutQuotingTheValue() async throws {
        let server = try LoopbackHTTPServer(.text("unused"))
        let client = try HTTPClient()
        var request = HTTPRequest.get(server.url("/"))
        request.headers["Authorization"] = "Bearer secret\r\nX-Injected: yes"

        let error = try await #require(throws: HTTPClientError.self) { try await client.execute(request) }

        #expect(error == .invalidRequest)
        #expect(error.description.contains("Authorization"))
        #expect(!error.description.contains("secret"))
        #expect(server.requests.isEmpty)
    }

    @Test func invalidMethodIsRejected() async throws {
        let client = try HTTPClient()

        let error = try await #require(throws: HTTPClientError.self) {
            try await client.execute(
                HTTPRequest(method: HTTPMethod(rawValue: "GET /x HTTP/1.1\r\n"), url: "http://127.0.0.1:1/"))
        }

        #expect(error == .invalidRequest)
    }
}

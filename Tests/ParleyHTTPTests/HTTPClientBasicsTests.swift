import Foundation
import HTTPTestSupport
import ParleyHTTP
import Testing

@Suite(.timeLimit(.minutes(10))) struct HTTPClientBasicsTests {
    @Test func getReturnsStatusHeadersAndBody() async throws {
        let server = try LoopbackHTTPServer(
            .respond(status: 200, headers: [("Content-Type", "text/plain"), ("X-Slot", "3")], body: Data("ok".utf8)))
        let client = try HTTPClient()

        let response = try await client.execute(.get(server.url("/health")))

        #expect(response.status == 200)
        #expect(response.bodyText == "ok")
        #expect(response.headers["x-slot"] == "3")
        #expect(response.headers["Content-Type"] == "text/plain")
        let request = try #require(server.requests.first)
        #expect(request.method == "GET")
        #expect(request.path == "/health")
        #expect(request.body.isEmpty)
    }

    @Test func postJSONSendsBodyAndHeaders() async throws {
        let server = try LoopbackHTTPServer(.json(#"{"ok":true}"#))
        let client = try HTTPClient()
        let body = Data(#"{"messages":[{"role":"user","content":"Grüß dich"}]}"#.utf8)

        var request = HTTPRequest.postJSON(server.url("/v1/chat/completions"), body: body)
        request.headers["Authorization"] = "Bearer sk-test"
        let response = try await client.execute(request).checkStatus()

        #expect(response.bodyText == #"{"ok":true}"#)
        let received = try #require(server.requests.first)
        #expect(received.method == "POST")
        #expect(received.path == "/v1/chat/completions")
        #expect(received.body == body)
        #expect(received.header("Content-Type") == "application/json")
        #expect(received.header("Accept") == "application/json")
        #expect(received.header("Authorization") == "Bearer sk-test")
        #expect(received.header("Content-Length") == String(body.count))
        // libcurl's `Expect: 100-continue` would stall servers that ignore it.
        #expect(received.header("Expect") == nil)
    }

    @Test func postJSONEncodesAValue() async throws {
        struct Greeting: Codable, Equatable { var text: String }
        let server = try LoopbackHTTPServer(.json("{}"))
        let client = try HTTPClient()

        _ = try await client.execute(try .postJSON(server.url("/greet"), encoding: Greeting(text: "hi")))

        let received = try #require(server.requests.first)
        #expect(try JSONDecoder().decode(Greeting.self, from: received.body) == Greeting(text: "hi"))
    }

    @Test(arguments: [
        (HTTPMethod.put, "PUT", true), (.patch, "PATCH", true), (.delete, "DELETE", false), (.post, "POST", false),
        (.options, "OPTIONS", false),
    ])
    func otherMethodsAreSentAsNamed(method: HTTPMethod, name: String, hasBody: Bool) async throws {
        let server = try LoopbackHTTPServer(.text("done"))
        let client = try HTTPClient()
        let body = hasBody ? Data("payload".utf8) : nil

        let response = try await client.execute(HTTPRequest(method: method, url: server.url("/thing"), body: body))

        #expect(response.bodyText == "done")
        let received = try #require(server.requests.first)
        #expect(received.method == name)
        #expect(received.body == (body ?? Data()))
    }

    @Test func headRequestHasNoBody() async throws {
        let server = try LoopbackHTTPServer(.text("this body is not sent for HEAD"))
        let client = try HTTPClient()

        let response = try await client.execute(HTTPRequest(method: .head, url: server.url("/")))

        #expect(response.status == 200)
        #expect(response.body.isEmpty)
        #expect(server.requests.first?.method == "HEAD")
    }

    @Test(arguments: [404, 500, 503])
    func errorStatusComesWithItsBody(status: Int) async throws {
        let server = try LoopbackHTTPServer(
            .json(#"{"error":{"message":"model not loaded"}}"#, status: status))
        let client = try HTTPClient()
        let url = server.url("/v1/chat/completions?api_key=hunter2")

        let response = try await client.execute(.get(url))
        #expect(response.status == status)

        let error = try #require(throws: HTTPStatusError.self) { try response.checkStatus() }
        #expect(error.status == status)
        #expect(error.bodyText == #"{"error":{"message":"model not loaded"}}"#)
        #expect(error.headers["Content-Type"] == "application/json")
        #expect(error.description.contains("HTTP \(status)"))
        #expect(error.description.contains("model not loaded"))
        #expect(error.description.contains(server.url("/v1/chat/completions")))
        #expect(!error.description.contains("hunter2"))
    }

    @Test func streamingCheckStatusThrowsWithTheBody() async throws {
        let server = try LoopbackHTTPServer(
            .stream(
                status: 500, headers: [], chunks: [Data("Cannot use tools".utf8), Data(" with stream".utf8)],
                interval: .milliseconds(5), ending: .complete))
        let client = try HTTPClient()

        let response = try await client.stream(.get(server.url("/v1/chat/completions")))

        let error = try await #require(throws: HTTPStatusError.self) { try await response.checkStatus() }
        #expect(error.status == 500)
        #expect(error.bodyText == "Cannot use tools with stream")
    }

    @Test func connectionsAreReused() async throws {
        let server = try LoopbackHTTPServer(.text("again"))
        let client = try HTTPClient()

        for _ in 0..<3 {
            #expect(try await client.execute(.get(server.url("/"))).bodyText == "again")
        }

        #expect(server.requests.count == 3)
        #expect(server.connectionsAccepted == 1)
    }

    @Test func largeBodyArrivesIntact() async throws {
        let body = Data((0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let server = try LoopbackHTTPServer(.respond(status: 200, headers: [], body: body))
        let client = try HTTPClient()

        let response = try await client.execute(.get(server.url("/big")))

        #expect(response.body == body)
    }

    @Test func bodyOverTheLimitIsRefused() async throws {
        let server = try LoopbackHTTPServer(.respond(status: 200, headers: [], body: Data(count: 10_000)))
        let client = try HTTPClient()

        let error = try await #require(throws: HTTPClientError.self) {
            try await client.execute(.get(server.url("/big")), maximumBodySize: 1_000)
        }
        #expect(error == .responseTooLarge)
    }
}

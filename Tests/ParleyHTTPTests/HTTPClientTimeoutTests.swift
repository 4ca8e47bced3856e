import Foundation
import HTTPTestSupport
import ParleyHTTP
import Testing

/// Time limits are short so the suite stays fast. Each server here never answers, so only the timeout can end a
/// request: the error it ends with proves the timeout fired, and the suite's time limit catches one that never
/// does. Durations are checked only from below (a timeout never fires early), since machines are shared and a busy
/// one is late by seconds.
@Suite(.timeLimit(.minutes(10))) struct HTTPClientTimeoutTests {
    @Test func idleTimeoutBeforeTheHeaders() async throws {
        let server = try LoopbackHTTPServer(.hang)
        let client = try HTTPClient()
        var request = HTTPRequest.get(server.url("/slow"))
        request.idleTimeout = .milliseconds(200)

        let start = ContinuousClock.now
        let error = try await #require(throws: HTTPClientError.self) { try await client.execute(request) }

        #expect(error == .idleTimeout)
        #expect(error.limit == .milliseconds(200))
        #expect(error.description.contains("0.2 s"))
        #expect(ContinuousClock.now - start >= .milliseconds(150))
    }

    @Test func idleTimeoutMidStreamComesAfterTheLinesThatArrived() async throws {
        let server = try LoopbackHTTPServer(.stream(chunks: ["first\n", "second\n"], ending: .hang))
        let client = try HTTPClient()
        var request = HTTPRequest.get(server.url("/stream"))
        request.idleTimeout = .milliseconds(250)

        let response = try await client.stream(request)
        var lines: [String] = []
        let error = try await #require(throws: HTTPClientError.self) {
            for try await line in response.lines { lines.append(line) }
        }

        #expect(lines == ["first", "second"])
        #expect(error == .idleTimeout)
    }

    @Test func idleTimeoutRestartsWithEveryChunk() async throws {
        let chunks = (0..<15).map { "tick \($0)\n" }
        let server = try LoopbackHTTPServer(.stream(chunks: chunks, interval: .milliseconds(40)))
        let client = try HTTPClient()
        var request = HTTPRequest.get(server.url("/ticks"))
        request.idleTimeout = .milliseconds(500)

        // The whole stream takes longer than the idle limit, but no gap does.
        let response = try await client.execute(request)

        #expect(response.bodyText == chunks.joined())
    }

    @Test func overallTimeoutWhileWaitingForTheServer() async throws {
        let server = try LoopbackHTTPServer(.hang)
        let client = try HTTPClient()
        var request = HTTPRequest.get(server.url("/slow"))
        request.timeout = .milliseconds(300)

        let start = ContinuousClock.now
        let error = try await #require(throws: HTTPClientError.self) { try await client.execute(request) }

        #expect(error == .overallTimeout, "\(error)")
        #expect(error.isTimeout)
        #expect(error.limit == .milliseconds(300))
        #expect(ContinuousClock.now - start >= .milliseconds(250))
    }

    @Test func overallTimeoutMidStreamEvenWhileDataFlows() async throws {
        let chunks = (0..<200).map { "tick \($0)\n" }
        let server = try LoopbackHTTPServer(.stream(chunks: chunks, interval: .milliseconds(20)))
        let client = try HTTPClient()
        var request = HTTPRequest.get(server.url("/ticks"))
        request.timeout = .milliseconds(300)
        request.idleTimeout = .seconds(5)

        let response = try await client.stream(request)
        var count = 0
        let error = try await #require(throws: HTTPClientError.self) {
            for try await _ in response.lines { count += 1 }
        }

        #expect(error == .overallTimeout, "\(error)")
        #expect(count > 0)
        #expect(count < chunks.count)
    }

    /// A listener whose accept queue is full drops connection attempts, so connecting hangs until the limit:
    /// a connect timeout that needs no network beyond loopback.
    @Test func connectTimeout() async throws {
        let listener = try FullBacklogListener()
        let client = try HTTPClient()
        var request = HTTPRequest.get(listener.baseURL + "/v1/models")
        request.connectTimeout = .milliseconds(300)

        let start = ContinuousClock.now
        let error = try await #require(throws: HTTPClientError.self) { try await client.execute(request) }

        #expect(error == .connectTimeout, "\(error)")
        #expect(error.limit == .milliseconds(300))
        #expect(error.description.contains(listener.baseURL + "/v1/models"))
        #expect(ContinuousClock.now - start >= .milliseconds(250))
    }
}

import Foundation
import HTTPTestSupport
import ParleyHTTP
import Testing

/// A limit that a test waits out is short, so the suite stays fast; the server then never answers, so only the
/// timeout can end the request: the error it ends with proves the timeout fired, and the suite's time limit catches
/// one that never does. Where a test also needs a limit *not* to fire for a while (until the head and the first
/// lines arrive, between chunks), that limit is seconds, many times the pauses the server makes: machines are
/// shared, and a busy one is late by a second or more, so a limit of a few hundred milliseconds would fire there.
/// Durations are checked only from below (a timeout never fires early).
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

    /// The head and both lines go at once, then nothing: the limit must not fire before they arrive (connecting and
    /// the server's first write), which on a loaded machine can take a second, so it is 2 s.
    @Test func idleTimeoutMidStreamComesAfterTheLinesThatArrived() async throws {
        let server = try LoopbackHTTPServer(.stream(chunks: ["first\n", "second\n"], ending: .hang))
        let client = try HTTPClient()
        var request = HTTPRequest.get(server.url("/stream"))
        request.idleTimeout = .seconds(2)

        let response = try await client.stream(request)
        var lines: [String] = []
        let error = try await #require(throws: HTTPClientError.self) {
            for try await line in response.lines { lines.append(line) }
        }

        #expect(lines == ["first", "second"])
        #expect(error == .idleTimeout)
    }

    /// The whole stream takes longer than the idle limit (30 chunks 100 ms apart: at least 2.9 s, since the server
    /// never writes early), but no gap comes near it: a gap is 100 ms plus whatever the machine adds, and only an
    /// added 1.9 s would make it fire. A timer that did not restart with each chunk would fire 2 s in.
    ///
    /// The pauses are the server's, on its own thread, rather than released by the test: a release goes through the
    /// test's task, which the cooperative pool, busy with the tests beside it, may leave waiting far longer.
    @Test func idleTimeoutRestartsWithEveryChunk() async throws {
        let chunks = (0..<30).map { "tick \($0)\n" }
        let server = try LoopbackHTTPServer(.stream(chunks: chunks, interval: .milliseconds(100)))
        let client = try HTTPClient()
        var request = HTTPRequest.get(server.url("/ticks"))
        request.idleTimeout = .seconds(2)

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

    /// Data flows every 20 ms for at least 20 s, then the server hangs, so the overall limit is the only end: it must
    /// come after the first line (2 s leaves room for a loaded machine to connect and answer) and before the last.
    @Test func overallTimeoutMidStreamEvenWhileDataFlows() async throws {
        let chunks = (0..<1_000).map { "tick \($0)\n" }
        let server = try LoopbackHTTPServer(.stream(chunks: chunks, interval: .milliseconds(20), ending: .hang))
        let client = try HTTPClient()
        var request = HTTPRequest.get(server.url("/ticks"))
        request.timeout = .seconds(2)
        request.idleTimeout = .seconds(60)

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

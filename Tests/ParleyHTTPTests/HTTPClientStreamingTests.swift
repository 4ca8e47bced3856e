import Foundation
import HTTPTestSupport
import Testing

@testable import ParleyHTTP

@Suite(.timeLimit(.minutes(10))) struct HTTPClientStreamingTests {
    static let text = LineSplitterTests.text
    static let bytes = Array(text.utf8)

    @Test func streamReturnsAtTheHeadBeforeTheBodyIsComplete() async throws {
        let server = try LoopbackHTTPServer(
            .stream(
                status: 201, headers: [("X-Request-Id", "r1")], chunks: [Data("first\n".utf8)], interval: .zero,
                ending: .hang))
        let client = try HTTPClient()

        let response = try await client.stream(.get(server.url("/")))

        #expect(response.status == 201)
        #expect(response.headers["x-request-id"] == "r1")
        var lines = response.lines.makeAsyncIterator()
        #expect(try await lines.next() == "first")
        response.cancel()
    }

    /// Two chunks split at every byte of a text with CRLF and multi-byte characters, through the real server.
    @Test(arguments: 0...bytes.count)
    func linesAcrossAChunkBoundary(split: Int) async throws {
        let chunks = [Data(Self.bytes[..<split]), Data(Self.bytes[split...])]
        let server = try LoopbackHTTPServer(
            .stream(status: 200, headers: [], chunks: chunks, interval: .milliseconds(2), ending: .complete))
        let client = try HTTPClient()

        let response = try await client.stream(.get(server.url("/split")))
        var lines: [String] = []
        for try await line in response.lines { lines.append(line) }

        #expect(lines == LineSplitterTests.lines)
    }

    @Test func linesFromOneByteChunks() async throws {
        let server = try LoopbackHTTPServer(
            .stream(
                status: 200, headers: [], chunks: Self.bytes.map { Data([$0]) }, interval: .zero, ending: .complete))
        let client = try HTTPClient()

        let response = try await client.stream(.get(server.url("/bytes")))
        var lines: [String] = []
        for try await line in response.lines { lines.append(line) }

        #expect(lines == LineSplitterTests.lines)
    }

    @Test func aStreamCutMidBodyThrowsInsteadOfEnding() async throws {
        let server = try LoopbackHTTPServer(.stream(chunks: ["data: one\n", "data: tw"], ending: .cut))
        let client = try HTTPClient()

        let response = try await client.stream(.get(server.url("/cut")))
        var lines: [String] = []
        let error = try await #require(throws: HTTPClientError.self) {
            for try await line in response.lines { lines.append(line) }
        }

        #expect(lines == ["data: one"])
        #expect(error == .connectionReset)
        #expect(error.description.contains(server.url("/cut")))
    }

    @Test func aContentLengthBodyCutShortThrows() async throws {
        let server = try LoopbackHTTPServer(
            .cutBody(status: 200, headers: [], declaredLength: 1_000, partialBody: Data("line\npart".utf8)))
        let client = try HTTPClient()

        let response = try await client.stream(.get(server.url("/cut")))
        var lines: [String] = []
        await #expect(throws: HTTPClientError.connectionReset) {
            for try await line in response.lines { lines.append(line) }
        }
        #expect(lines == ["line"])
    }

    @Test func serverSentEventsOverHTTP() async throws {
        // Chunks of 7 bytes: boundaries fall inside fields, JSON, multi-byte characters and line ends.
        let bytes = Array(RecordedStreams.llamaServerChat.utf8)
        let chunks = stride(from: 0, to: bytes.count, by: 7).map { Data(bytes[$0..<min($0 + 7, bytes.count)]) }
        let server = try LoopbackHTTPServer(
            .stream(
                status: 200, headers: [("Content-Type", "text/event-stream")], chunks: chunks, interval: .zero,
                ending: .complete))
        let client = try HTTPClient()

        let response = try await client.stream(
            .postJSON(server.url("/v1/chat/completions"), body: Data("{}".utf8), accept: "text/event-stream"))
        var events: [ServerSentEvent] = []
        for try await event in response.serverSentEvents { events.append(event) }

        #expect(events == RecordedStreams.llamaServerChatEvents)
        #expect(server.requests.first?.header("Accept") == "text/event-stream")
    }

    @Test func aBodyCanBeReadOnlyOnce() async throws {
        let server = try LoopbackHTTPServer(.text("once\n"))
        let client = try HTTPClient()

        let response = try await client.stream(.get(server.url("/")))
        var chunks: [Data] = []
        for try await chunk in response.bytes { chunks.append(chunk) }

        #expect(chunks.reduce(Data(), +) == Data("once\n".utf8))
        await #expect(throws: HTTPClientError.bodyAlreadyConsumed) {
            for try await _ in response.lines {}
        }
    }

    /// A reader that lags makes the transfer pause instead of buffering the whole body, and nothing is lost.
    ///
    /// The reader starts only once the transfer has paused (its buffer full), or has ended without pausing, which
    /// the expectations then report: a gate, not a sleep that hopes the buffer filled meanwhile.
    @Test func slowReaderPausesTheTransferWithoutLosingData() async throws {
        let body = Data((0..<2_000_000).map { UInt8(truncatingIfNeeded: $0 % 251) })
        let chunks = stride(from: 0, to: body.count, by: 50_000).map { body[$0..<min($0 + 50_000, body.count)] }
        let server = try LoopbackHTTPServer(
            .stream(status: 200, headers: [], chunks: chunks, interval: .zero, ending: .complete))
        let limit = 64 * 1024
        let client = try HTTPClient(configuration: .init(streamBufferLimit: limit))

        let response = try await client.stream(.get(server.url("/big")))
        let channel = response.bytes.source.channel
        #expect(await Self.eventually { channel.statistics.pauses > 0 || channel.hasEnded })
        #expect(channel.statistics.pauses > 0, "the whole body was buffered without pausing")
        var received = Data()
        for try await chunk in response.bytes {
            received.append(chunk)
            if received.count % 7 == 0 { await Task.yield() }
        }

        #expect(received == body)
        let statistics = channel.statistics
        // libcurl hands over at most a few tens of kilobytes per callback, so one chunk may overshoot the limit.
        #expect(statistics.largestBuffer <= limit + 128 * 1024)
    }

    /// Compiles only if the body sequences can be iterated from an actor, which game code on the main actor does.
    @MainActor @Test func linesCanBeReadOnTheMainActor() async throws {
        let server = try LoopbackHTTPServer(.stream(chunks: ["one\ntwo", "\n"]))
        let client = try HTTPClient()

        let response = try await client.stream(.get(server.url("/")))
        var lines: [String] = []
        for try await line in response.lines { lines.append(line) }

        #expect(lines == ["one", "two"])
    }

    @Test func aStreamedBodyKeepsItsClientAlive() async throws {
        let server = try LoopbackHTTPServer(.stream(chunks: ["a\n", "b\n", "c\n"], interval: .milliseconds(20)))
        var client: HTTPClient? = try HTTPClient()
        let response = try await client!.stream(.get(server.url("/")))
        client = nil

        var lines: [String] = []
        for try await line in response.lines { lines.append(line) }

        #expect(lines == ["a", "b", "c"])
    }

    // MARK: - Helpers

    /// Waits until `condition` holds, checking every few milliseconds; `false` after `timeout`, which is generous:
    /// only a test that fails waits that long, and a loaded machine delays by seconds what a quiet one does at once.
    static func eventually(timeout: Duration = .seconds(120), _ condition: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !condition() {
            guard ContinuousClock.now < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(2))
        }
        return true
    }
}

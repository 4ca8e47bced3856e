import Foundation
import HTTPTestSupport
import ParleyHTTP
import Testing

/// The servers here never finish answering, so only cancellation can end a request: ending with `cancelled` (and
/// not a timeout, nor a hang that the suite's time limit would catch) is what shows it is prompt. No duration is
/// asserted: a busy machine is late by seconds.
@Suite(.timeLimit(.minutes(10))) struct HTTPClientCancellationTests {
    @Test func cancellingARequestToAServerThatNeverAnswersIsPrompt() async throws {
        let server = try LoopbackHTTPServer(.hang)
        let client = try HTTPClient()
        let task = Task { try await client.execute(.get(server.url("/never"))) }
        #expect(await server.wait { $0.requests.count == 1 })

        task.cancel()
        let result = await task.result

        #expect(throws: HTTPClientError.cancelled) { try result.get() }
        // The transfer is aborted, not left running: the server sees the connection close.
        #expect(await server.wait { $0.connectionsOpen == 0 })
    }

    @Test func cancellingTheReaderOfAStreamIsPrompt() async throws {
        let server = try LoopbackHTTPServer(.stream(chunks: ["first\n"], ending: .hang))
        let client = try HTTPClient()
        let (firstLine, firstLineArrived) = AsyncStream.makeStream(of: String.self)
        let task = Task {
            let response = try await client.stream(.get(server.url("/stream")))
            for try await line in response.lines { firstLineArrived.yield(line) }
        }
        var arrived = firstLine.makeAsyncIterator()
        #expect(await arrived.next() == "first")

        task.cancel()
        let result = await task.result

        #expect(throws: HTTPClientError.cancelled) { try result.get() }
        #expect(await server.wait { $0.connectionsOpen == 0 })
    }

    @Test func droppingAStreamedResponseAbortsTheTransfer() async throws {
        let server = try LoopbackHTTPServer(.stream(chunks: ["first\n"], ending: .hang))
        let client = try HTTPClient()

        do {
            let response = try await client.stream(.get(server.url("/stream")))
            var lines = response.lines.makeAsyncIterator()
            #expect(try await lines.next() == "first")
        }

        #expect(await server.wait { $0.connectionsOpen == 0 })
    }

    @Test func explicitCancelEndsTheReaderWithCancelled() async throws {
        let server = try LoopbackHTTPServer(.stream(chunks: ["first\n"], ending: .hang))
        let client = try HTTPClient()

        let response = try await client.stream(.get(server.url("/stream")))
        var lines = response.lines.makeAsyncIterator()
        #expect(try await lines.next() == "first")
        response.cancel()

        await #expect(throws: HTTPClientError.cancelled) { _ = try await lines.next() }
        #expect(try await lines.next() == nil)
    }

    @Test func aTaskCancelledBeforeTheRequestSendsNothing() async throws {
        let server = try LoopbackHTTPServer(.text("unused"))
        let client = try HTTPClient()

        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await client.execute(.get(server.url("/")))
        }

        await #expect(throws: HTTPClientError.cancelled) { try await task.value }
        try await Task.sleep(for: .milliseconds(50))
        #expect(server.requests.isEmpty)
    }
}

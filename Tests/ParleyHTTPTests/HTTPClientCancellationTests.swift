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

    /// Nothing reaches the server: once a later request from the same client has arrived, the server has seen only
    /// that one, on its first connection. Had the cancelled request been started, libcurl would have opened its
    /// connection first (the engine starts transfers in order, and the server accepts connections in order), so a
    /// wait for the later request is a gate that a sleep, however long, is not.
    @Test func aTaskCancelledBeforeTheRequestSendsNothing() async throws {
        let server = try LoopbackHTTPServer { request in .text(request.path) }
        let client = try HTTPClient()

        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await client.execute(.get(server.url("/cancelled")))
        }
        await #expect(throws: HTTPClientError.cancelled) { try await task.value }
        #expect(try await client.execute(.get(server.url("/after"))).bodyText == "/after")

        #expect(server.requests.map(\.path) == ["/after"])
        #expect(server.connectionsAccepted == 1)
    }
}

import Foundation
import HTTPTestSupport
import ParleyHTTP
import ParleyServer
import Testing

/// Streamed responses: chunks and server-sent events arrive as they are produced, and a client that goes away
/// cancels the producer.
@Suite(.timeLimit(.minutes(10))) struct StreamingTests {
    /// The test hands the producer one event at a time and reads it through libcurl and the project's SSE parser
    /// before it hands over the next: a server that buffered the stream would never deliver the first.
    @Test func eventsArriveAsTheyAreProduced() async throws {
        let (events, continuation) = AsyncStream.makeStream(of: ParleyServer.ServerSentEvent.self)
        var router = HTTPRouter()
        router.post("/events") { _ in .eventStream(events) }
        let client = try HTTPClient()
        try await withServer(router: router) { server in
            let response = try await client.stream(
                .postJSON(server.url("/events"), body: Data("{}".utf8), accept: "text/event-stream"))
            #expect(response.status == 200)
            #expect(response.headers["Content-Type"] == "text/event-stream")
            #expect(response.headers["Cache-Control"] == "no-cache")
            #expect(response.headers["Transfer-Encoding"] == "chunked")
            var received = response.serverSentEvents.makeAsyncIterator()
            for index in 0..<5 {
                continuation.yield(
                    ParleyServer.ServerSentEvent(event: "speech", data: "piece \(index)\nsecond line", id: "\(index)"))
                let event = try #require(try await received.next(), "event \(index)")
                #expect(event.event == "speech")
                #expect(event.data == "piece \(index)\nsecond line")
                #expect(event.id == "\(index)")
            }
            continuation.finish()
            #expect(try await received.next() == nil)
        }
    }

    /// A comment (a heartbeat) reaches the client as written, on one line, and a reader dispatches nothing for it.
    @Test func aCommentIsOneLineThatDispatchesNothing() async throws {
        var router = HTTPRouter()
        router.get("/events") { _ in
            .eventStream { writer in
                try await writer.sendComment("heartbeat\nevent: forged")
                try await writer.send(ParleyServer.ServerSentEvent(event: "real", data: "1"))
            }
        }
        let client = try HTTPClient()
        try await withServer(router: router) { server in
            let raw = try await client.execute(HTTPRequest(method: .get, url: server.url("/events")))
            #expect(raw.bodyText == ": heartbeatevent: forged\n\nevent: real\ndata: 1\n\n")
            let response = try await client.stream(HTTPRequest(method: .get, url: server.url("/events")))
            var names: [String?] = []
            for try await event in response.serverSentEvents { names.append(event.event) }
            #expect(names == ["real"])
        }
    }

    /// A client that goes away mid-stream, while the producer waits for its next event, ends the `AsyncStream`:
    /// its `onTermination` runs, which cancels the producer's task.
    @Test func aClientThatGoesAwayCancelsTheProducer() async throws {
        let terminated = Signal()
        let producerCancelled = Signal()
        var router = HTTPRouter()
        router.get("/events") { _ in
            let (events, continuation) = AsyncStream.makeStream(of: ParleyServer.ServerSentEvent.self)
            let producer = Task {
                continuation.yield(ParleyServer.ServerSentEvent(data: "first"))
                // Waits for ever, unless cancelled.
                while !Task.isCancelled { try? await Task.sleep(for: .seconds(60)) }
                producerCancelled.fire()
            }
            continuation.onTermination = { _ in
                producer.cancel()
                terminated.fire()
            }
            return .eventStream(events)
        }
        let client = try HTTPClient()
        try await withServer(router: router) { server in
            let response = try await client.stream(.get(server.url("/events")))
            var received = response.serverSentEvents.makeAsyncIterator()
            #expect(try await received.next()?.data == "first")
            response.cancel()
            #expect(await terminated.wait())
            #expect(await producerCancelled.wait())
            #expect(await eventually { server.openConnections == 0 })
        }
    }

    /// The same with a producer closure: its task is cancelled, so its sleep throws.
    @Test func aClientThatGoesAwayCancelsAProducerClosure() async throws {
        let ended = Signal()
        let sawCancellation = LockedValue(false)
        var router = HTTPRouter()
        router.get("/ticks") { _ in
            .stream(contentType: "text/plain") { writer in
                defer { ended.fire() }
                try await writer.write("tick\n")
                do {
                    try await Task.sleep(for: .seconds(60))
                } catch is CancellationError {
                    sawCancellation.set(true)
                    throw CancellationError()
                }
            }
        }
        try await withServer(router: router) { server in
            let connection = try RawClient(port: server.port)
            await connection.send("GET /ticks HTTP/1.1\r\nHost: localhost\r\n\r\n")
            let first = await connection.read { String(decoding: $0, as: UTF8.self).contains("tick\n") }
            #expect(first.text.contains("Transfer-Encoding: chunked"))
            connection.reset()
            #expect(await ended.wait())
            #expect(sawCancellation.value)
        }
    }

    @Test func aProducerThatThrowsCutsTheBodyShort() async throws {
        struct Failed: Error {}
        let log = LogRecorder()
        var router = HTTPRouter()
        router.get("/broken") { _ in
            .stream(contentType: "text/plain") { writer in
                try await writer.write("partial")
                throw Failed()
            }
        }
        let configuration = HTTPServer.Configuration(timeouts: .generous, log: log.sink)
        let client = try HTTPClient()
        try await withServer(configuration, router: router) { server in
            let response = try await client.stream(.get(server.url("/broken")))
            #expect(response.status == 200)
            await #expect(throws: HTTPClientError.connectionReset) {
                _ = try await response.collect(maximumBodySize: 1 << 20)
            }
            #expect(await log.wait { $0.event == .streamEnded && $0.message.contains("Failed") })
        }
    }

    @Test func chunksOfAnAsyncSequenceArriveWholeAndTheConnectionStaysOpen() async throws {
        var router = echoRouter()
        router.get("/numbers") { _ in
            let chunks = AsyncStream<Data> { continuation in
                for number in 1...50 { continuation.yield(Data("\(number)\n".utf8)) }
                continuation.yield(Data())  // empty pieces are skipped, not taken as the end
                continuation.finish()
            }
            return .stream(chunks, contentType: "text/plain")
        }
        let client = try HTTPClient()
        try await withServer(router: router) { server in
            let response = try await client.stream(.get(server.url("/numbers")))
            var lines: [String] = []
            for try await line in response.lines { lines.append(line) }
            #expect(lines == (1...50).map(String.init))
            #expect(try await client.execute(.get(server.url("/hello"))).bodyText == "hello")
            #expect(server.acceptedConnections == 1)
        }
    }

    /// An HTTP/1.0 client gets the stream without chunked framing, ended by the server closing the connection;
    /// `HEAD` gets the head of a stream without running its producer.
    @Test func streamsToHTTP10AndHead() async throws {
        let produced = LockedValue(0)
        var router = HTTPRouter()
        router.get("/ticks") { _ in
            .stream(contentType: "text/plain") { writer in
                produced.update { $0 += 1 }
                try await writer.write("one ")
                try await writer.write("two")
            }
        }
        try await withServer(router: router) { server in
            let old = try RawClient(port: server.port)
            await old.send("GET /ticks HTTP/1.0\r\n\r\n")
            let received = await old.readToEnd()
            #expect(received.closed)
            #expect(received.text.hasSuffix("\r\n\r\none two"))
            #expect(!received.text.contains("Transfer-Encoding"))
            #expect(received.text.contains("Connection: close"))

            let head = try RawClient(port: server.port)
            await head.send("HEAD /ticks HTTP/1.1\r\nHost: localhost\r\n\r\nGET /ticks HTTP/1.1\r\nHost: localhost\r\n\r\n")
            let responses = await head.readResponses(2, headRequests: 1)
            try #require(responses.count == 2)
            #expect(responses[0].body.isEmpty)
            #expect(responses[0].header("Content-Type") == "text/plain")
            #expect(responses[1].bodyText == "one two")
            #expect(produced.value == 2)
        }
    }

    @Test func aWriterRefusesWritesAfterItsProducerReturned() async throws {
        let kept = LockedValue<ResponseBodyWriter?>(nil)
        var router = HTTPRouter()
        router.get("/once") { _ in
            .stream(contentType: "text/plain") { writer in
                kept.set(writer)
                try await writer.write("done")
            }
        }
        let client = try HTTPClient()
        try await withServer(router: router) { server in
            #expect(try await client.execute(.get(server.url("/once"))).bodyText == "done")
            let writer = try #require(kept.value)
            await #expect(throws: HTTPServerError.bodyWriterMisused) { try await writer.write("late") }
        }
    }
}

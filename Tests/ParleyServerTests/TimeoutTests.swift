import Foundation
import HTTPTestSupport
import ParleyHTTP
import ParleyServer
import Testing

/// Clients that are too slow: they are cut by the deadline of their step, and nobody else waits for them.
///
/// The timeout under test is small; every other timeout is generous. The tests check what happens (a 408, a
/// closed connection, a log entry saying why), never how long it took.
@Suite(.timeLimit(.minutes(10))) struct TimeoutTests {
    /// A client that trickles its head one byte every 100 ms never finishes it within a header timeout of 2 s, yet
    /// a timer reset by each byte would never fire (the head takes over 40 s to trickle). Meanwhile another client's
    /// request is in progress, held in its handler until the test releases it after the cut: the server cuts one
    /// connection while it serves another, and serves it in full afterwards.
    ///
    /// That a client is served *while* a slow one is still unanswered is the next test's, with a header timeout the
    /// test cannot outlast; here it would have to be served within the 2 s, which a loaded machine does not promise.
    @Test func cutsASlowlorisClientAtTheHeaderTimeoutWhileServingOthers() async throws {
        let log = LogRecorder()
        let configuration = HTTPServer.Configuration(
            timeouts: .generous { $0.header = .seconds(2) }, log: log.sink)
        let arrived = Signal()
        let release = Signal()
        var router = echoRouter()
        router.get("/held") { _ in
            arrived.fire()
            _ = await release.wait(timeout: .seconds(600))
            return .text("held")
        }
        let client = try HTTPClient()
        try await withServer(configuration, router: router) { server in
            let other = Task { try await client.execute(.get(server.url("/held"))) }
            #expect(await arrived.wait())

            let slow = try RawClient(port: server.port)
            let head = Array(
                "GET /hello HTTP/1.1\r\nHost: localhost\r\nX-Padding: \(String(repeating: "p", count: 400))\r\n\r\n".utf8)
            await slow.send([head[0]])
            let trickle = Task {
                for byte in head.dropFirst() {
                    try await Task.sleep(for: .milliseconds(100))
                    guard await slow.send([byte]) else { return }
                }
            }
            defer { trickle.cancel() }

            let cut = await slow.readToEnd()
            let answer = try #require(try RawResponse.parseAll(cut.bytes).responses.first)
            #expect(answer.status == 408)
            #expect(answer.header("Content-Type") == "application/problem+json")
            #expect(answer.bodyText.contains("header timeout"))
            #expect(cut.closed)
            #expect(log.events(.connectionCut).contains { $0.status?.code == 408 })

            // The request held all along is answered once released, and the server goes on serving.
            release.fire()
            #expect(try await other.value.bodyText == "held")
            #expect(try await client.execute(.get(server.url("/hello"))).bodyText == "hello")
        }
    }

    /// A client halfway through its head holds nobody up: another is served meanwhile, and the slow one is still
    /// connected and unanswered afterwards, then answered once its head is complete. The header timeout is ten
    /// minutes here, so nothing but a server that waits for the slow client can fail this, however loaded the
    /// machine is.
    @Test func servesOthersWhileAClientIsHalfwayThroughItsHead() async throws {
        let client = try HTTPClient()
        try await withServer(router: echoRouter()) { server in
            let slow = try RawClient(port: server.port)
            #expect(await slow.send("GET /hello HTTP/1.1\r\nHost: loc"))
            // The server holds the slow connection before the other client comes.
            #expect(await eventually { server.openConnections == 1 })

            var request = HTTPRequest.get(server.url("/hello"))
            request.timeout = .seconds(120)
            #expect(try await client.execute(request).bodyText == "hello")
            #expect(slow.isClosedNow() == false, "the slow client was answered or cut before its head was complete")

            #expect(await slow.send("alhost\r\n\r\n"))
            #expect(await slow.readResponse()?.bodyText == "hello")
        }
    }

    @Test func cutsAClientThatSendsItsBodyTooSlowly() async throws {
        let configuration = HTTPServer.Configuration(timeouts: .generous { $0.body = .milliseconds(300) })
        try await withServer(configuration, router: echoRouter()) { server in
            let slow = try RawClient(port: server.port)
            await slow.send("POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100\r\n\r\nonly part of it")
            let cut = await slow.readToEnd()
            let answer = try #require(try RawResponse.parseAll(cut.bytes).responses.first)
            #expect(answer.status == 408)
            #expect(answer.bodyText.contains("body timeout"))
            #expect(cut.closed)
        }
    }

    @Test func closesAConnectionThatNeverSendsARequest() async throws {
        let configuration = HTTPServer.Configuration(timeouts: .generous { $0.idle = .milliseconds(300) })
        try await withServer(configuration, router: echoRouter()) { server in
            let silent = try RawClient(port: server.port)
            let received = await silent.readToEnd()
            #expect(received.closed)
            #expect(received.bytes.isEmpty)
        }
    }

    /// A client that stops reading a stream is cut after the write timeout; the producer's write throws, and the
    /// server goes on serving others.
    @Test func cutsAClientThatStopsReadingAStream() async throws {
        let producerError = Signal()
        let failure = LockedValue<(any Error)?>(nil)
        var router = echoRouter()
        router.get("/flood") { _ in
            .stream(contentType: "application/octet-stream") { writer in
                let chunk = Data(count: 64 * 1024)
                do {
                    while true { try await writer.write(chunk) }
                } catch {
                    failure.set(error)
                    producerError.fire()
                    throw error
                }
            }
        }
        let log = LogRecorder()
        let configuration = HTTPServer.Configuration(
            timeouts: .generous { $0.write = .milliseconds(300) }, log: log.sink)
        let client = try HTTPClient()
        try await withServer(configuration, router: router) { server in
            let reader = try RawClient(port: server.port)
            await reader.send("GET /flood HTTP/1.1\r\nHost: localhost\r\n\r\n")
            // It never reads: the socket buffers fill, the write waits, the write timeout passes.
            #expect(await producerError.wait())
            #expect((failure.value as? HTTPServerError) == .writeTimedOut)
            #expect(await log.wait { $0.event == .streamEnded && $0.message.contains("write timeout") })
            #expect(try await client.execute(.get(server.url("/hello"))).bodyText == "hello")
            withExtendedLifetime(reader) {}
        }
    }
}

import Foundation
import ParleyHTTP
import ParleyServer
import Testing

/// Clients that are too slow: they are cut by the deadline of their step, and nobody else waits for them.
///
/// The timeout under test is small; every other timeout is generous. The tests check what happens (a 408, a
/// closed connection, a log entry saying why), never how long it took.
@Suite(.timeLimit(.minutes(10))) struct TimeoutTests {
    /// A client that trickles its head one byte every 100 ms never finishes it within a header timeout of 2 s, yet
    /// a timer reset by each byte would never fire. Meanwhile another client is served at once.
    @Test func cutsASlowlorisClientAtTheHeaderTimeoutWhileServingOthers() async throws {
        let log = LogRecorder()
        let configuration = HTTPServer.Configuration(
            timeouts: .generous { $0.header = .seconds(2) }, log: log.sink)
        let client = try HTTPClient()
        try await withServer(configuration, router: echoRouter()) { server in
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

            // Another client, served while the slow one is still connected and unanswered.
            let response = try await client.execute(.get(server.url("/hello")))
            #expect(response.bodyText == "hello")
            #expect(slow.isClosedNow() == false, "the slow client was cut before the other was served")

            let cut = await slow.readToEnd()
            let answer = try #require(try RawResponse.parseAll(cut.bytes).responses.first)
            #expect(answer.status == 408)
            #expect(answer.header("Content-Type") == "application/problem+json")
            #expect(answer.bodyText.contains("header timeout"))
            #expect(cut.closed)
            #expect(log.events(.connectionCut).contains { $0.status?.code == 408 })
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

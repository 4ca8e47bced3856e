import Foundation
import Glibc
import HTTPTestSupport
import ParleyHTTP
import ParleyServer
import Testing

/// Stopping a server with connections in every state: it returns, frees the port, finishes what it can within
/// the grace period and cuts the rest.
@Suite(.timeLimit(.minutes(10))) struct StopTests {
    @Test func stopsWithConnectionsOpenAndFreesThePort() async throws {
        let handlerCancelled = Signal()
        let streamTerminated = Signal()
        let handlerEntered = Signal()
        var router = echoRouter()
        router.get("/forever") { _ in
            handlerEntered.fire()
            // Ends only when its task is cancelled, after the grace period.
            while !Task.isCancelled { try? await Task.sleep(for: .seconds(60)) }
            handlerCancelled.fire()
            throw CancellationError()
        }
        router.get("/events") { _ in
            let (events, continuation) = AsyncStream.makeStream(of: ParleyServer.ServerSentEvent.self)
            continuation.yield(ParleyServer.ServerSentEvent(data: "first"))
            continuation.onTermination = { _ in streamTerminated.fire() }
            return .eventStream(events)
        }
        let configuration = HTTPServer.Configuration(
            timeouts: .generous { $0.shutdownGrace = .milliseconds(300) })
        let server = try HTTPServer(configuration: configuration, router: router)
        let port = server.port

        let idle = try RawClient(port: port)
        await idle.send("GET /hello HTTP/1.1\r\nHost: localhost\r\n\r\n")
        #expect(await idle.readResponse()?.status == 200)
        let halfway = try RawClient(port: port)
        await halfway.send("GET /hello HTTP/1.1\r\nHo")
        let streaming = try RawClient(port: port)
        await streaming.send("GET /events HTTP/1.1\r\nHost: localhost\r\n\r\n")
        _ = await streaming.read { String(decoding: $0, as: UTF8.self).contains("data: first") }
        let busy = try RawClient(port: port)
        await busy.send("GET /forever HTTP/1.1\r\nHost: localhost\r\n\r\n")
        #expect(await handlerEntered.wait())
        #expect(server.openConnections == 4)

        await server.stop()

        #expect(server.isStopping)
        #expect(handlerCancelled.hasFired)
        #expect(streamTerminated.hasFired)
        for client in [idle, halfway, streaming, busy] {
            #expect(await client.readToEnd().closed)
        }
        // The port is free at once: a new server binds it.
        let next = try HTTPServer(configuration: .init(port: port, timeouts: .generous), router: echoRouter())
        #expect(next.port == port)
        await next.stop()
        // And nothing listens there any more.
        #expect(throws: SocketError.self) { try RawClient(port: port) }
    }

    /// A request in progress when stop begins is answered, with `Connection: close`, before the server stops.
    @Test func finishesARequestInProgressWithinTheGracePeriod() async throws {
        let gate = Signal()
        let entered = Signal()
        var router = echoRouter()
        router.get("/gated") { _ in
            entered.fire()
            _ = await gate.wait()
            return .text("finished")
        }
        let server = try HTTPServer(configuration: .init(timeouts: .generous), router: router)
        let client = try RawClient(port: server.port)
        await client.send("GET /gated HTTP/1.1\r\nHost: localhost\r\n\r\n")
        #expect(await entered.wait())

        let stopping = Task { await server.stop() }
        #expect(await eventually { server.isStopping })
        gate.fire()
        let response = try #require(await client.readResponse())
        #expect(response.bodyText == "finished")
        #expect(response.closesConnection)
        await stopping.value
        #expect(await client.readToEnd().closed)
    }

    @Test func stoppingTwiceOrConcurrentlyIsFine() async throws {
        let server = try HTTPServer(configuration: .init(timeouts: .generous), router: echoRouter())
        async let first: Void = server.stop()
        async let second: Void = server.stop()
        _ = await (first, second)
        await server.stop()
        await server.waitUntilStopped()
    }

    /// A server released without `stop()` still ends: its port is freed and its thread exits.
    @Test func aReleasedServerFreesItsPort() async throws {
        var server: HTTPServer? = try HTTPServer(configuration: .init(timeouts: .generous), router: echoRouter())
        let port = try #require(server?.port)
        server = nil
        #expect(
            await eventually {
                (try? HTTPServer(configuration: .init(port: port), router: echoRouter())) != nil
            })
    }
}

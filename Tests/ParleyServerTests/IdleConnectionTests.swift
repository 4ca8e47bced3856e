import Foundation
import HTTPTestSupport
import ParleyServer
import Testing

/// Idle connections never lock out a client with a request: at the connection limit the connection idle longest
/// is closed to admit the new one; only when every connection is answering a request is a new one refused (503).
/// An idle connection, new or kept alive, is closed after the idle timeout (10 s by default). No durations are
/// measured: the tests wait for what must happen eventually.
@Suite struct IdleConnectionTests {
    /// The server's defaults: 256 connections, 10 seconds of idleness.
    @Test func theDefaultsAreAShortIdleTimeoutAnd256Connections() {
        #expect(HTTPServer.Timeouts().idle == .seconds(10))
        #expect(HTTPServer.Limits().maximumConnections == 256)
    }

    /// Issue 33: 256 idle connections locked everyone out for 60 s. Now the 257th connection's request is served,
    /// and the connection that was idle longest is the one closed for it.
    @Test func twoHundredFiftySixIdleConnectionsThenARealRequestIsServed() async throws {
        let log = LogRecorder()
        var configuration = HTTPServer.Configuration(timeouts: .generous)
        configuration.log = log.sink
        try await withServer(configuration, router: echoRouter()) { server in
            #expect(configuration.limits.maximumConnections == 256)
            var idle: [RawClient] = []
            for _ in 0..<256 {
                idle.append(try RawClient(port: server.port))
                // One at a time, so the first is the oldest by the server's clock too.
                let count = idle.count
                #expect(await eventually { server.openConnections == count })
            }
            let real = try RawClient(port: server.port)
            await real.send("GET /hello HTTP/1.1\r\nHost: localhost\r\n\r\n")
            let response = try #require(await real.readResponse())
            #expect(response.status == 200)
            #expect(response.bodyText == "hello")
            // The oldest idle connection was closed for it, without a response; the newest still waits.
            let oldest = await idle[0].readToEnd()
            #expect(oldest.closed)
            #expect(oldest.bytes.isEmpty)
            #expect(idle[255].isClosedNow() == false)
            #expect(log.events(.connectionCut).contains { $0.message.contains("idle longest") })
            // And the real connection is kept alive: a second request on it is served too.
            await real.send("GET /hello HTTP/1.1\r\nHost: localhost\r\n\r\n")
            #expect(await real.readResponse()?.bodyText == "hello")
        }
    }

    /// A kept-alive connection that asks again is not idle while its request is answered: only connections
    /// waiting for a request make room, and when none does, a new connection gets 503.
    @Test func connectionsAnsweringRequestsAreNeverClosedForANewOne() async throws {
        let gate = Signal()
        let entered = LockedValue(0)
        var router = echoRouter()
        router.get("/wait") { _ in
            entered.update { $0 += 1 }
            _ = await gate.wait(timeout: .seconds(600))
            return .text("done")
        }
        var limits = HTTPServer.Limits()
        limits.maximumConnections = 2
        try await withServer(HTTPServer.Configuration(limits: limits, timeouts: .generous), router: router) { server in
            let first = try RawClient(port: server.port)
            let second = try RawClient(port: server.port)
            await first.send("GET /wait HTTP/1.1\r\nHost: localhost\r\n\r\n")
            await second.send("GET /wait HTTP/1.1\r\nHost: localhost\r\n\r\n")
            #expect(await eventually { entered.value == 2 })

            let third = try RawClient(port: server.port)
            let refused = await third.readToEnd()
            let response = try #require(try RawResponse.parseAll(refused.bytes).responses.first)
            #expect(response.status == 503)
            #expect(response.header("Retry-After") == "1")
            #expect(response.header("Content-Type") == "application/problem+json")
            #expect(refused.closed)

            gate.fire()
            #expect(await first.readResponse()?.bodyText == "done")
            #expect(await second.readResponse()?.bodyText == "done")
            // Both idle again (kept alive): a new connection takes the slot of the one idle longest.
            let fourth = try RawClient(port: server.port)
            await fourth.send("GET /hello HTTP/1.1\r\nHost: localhost\r\n\r\n")
            #expect(await fourth.readResponse()?.bodyText == "hello")
            #expect(await eventually { first.isClosedNow() == true || second.isClosedNow() == true })
        }
    }

    /// A kept-alive connection is closed once it has been idle for the idle timeout after its response.
    @Test func aKeptAliveConnectionIsClosedAfterTheIdleTimeout() async throws {
        let configuration = HTTPServer.Configuration(timeouts: .generous { $0.idle = .milliseconds(300) })
        try await withServer(configuration, router: echoRouter()) { server in
            let client = try RawClient(port: server.port)
            await client.send("GET /hello HTTP/1.1\r\nHost: localhost\r\n\r\n")
            #expect(await client.readResponse()?.bodyText == "hello")
            let rest = await client.readToEnd()
            #expect(rest.closed)
            #expect(rest.bytes.isEmpty)
        }
    }
}

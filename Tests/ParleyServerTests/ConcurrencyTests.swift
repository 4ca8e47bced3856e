import Foundation
import HTTPTestSupport
import ParleyHTTP
import ParleyServer
import Testing

/// Many clients at once, all answered, with handlers that overlap in time.
@Suite(.timeLimit(.minutes(10))) struct ConcurrencyTests {
    /// A handler that waits until `overlap` requests are inside it at once, so the test fails unless the server
    /// really runs handlers concurrently.
    static func overlappingRouter(overlap: Int, inside: LockedValue<Int>, reached: Signal) -> HTTPRouter {
        var router = echoRouter()
        router.post("/slow") { request in
            let count = inside.update { value -> Int in
                value += 1
                return value
            }
            if count >= overlap { reached.fire() }
            _ = await reached.wait()
            return .bytes(request.body)
        }
        return router
    }

    /// 200 requests over 50 keep-alive connections, 4 each, all in flight together.
    @Test func answersTwoHundredRequestsOverFiftyConnections() async throws {
        let inside = LockedValue(0)
        let reached = Signal()
        let router = Self.overlappingRouter(overlap: 50, inside: inside, reached: reached)
        try await withServer(router: router) { server in
            let answers = try await withThrowingTaskGroup(of: [String].self) { group in
                for connection in 0..<50 {
                    group.addTask {
                        let client = try RawClient(port: server.port)
                        var bodies: [String] = []
                        for request in 0..<4 {
                            let body = "c\(connection)r\(request)"
                            await client.send(
                                "POST /slow HTTP/1.1\r\nHost: localhost\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
                            bodies.append(await client.readResponse()?.bodyText ?? "missing")
                        }
                        return bodies
                    }
                }
                return try await group.reduce(into: [String]()) { $0 += $1 }
            }
            #expect(answers.count == 200)
            #expect(Set(answers) == Set((0..<50).flatMap { c in (0..<4).map { "c\(c)r\($0)" } }))
            #expect(reached.hasFired)
            #expect(server.acceptedConnections == 50)
        }
    }

    @Test func answersTwoHundredConcurrentRequestsFromLibcurl() async throws {
        let client = try HTTPClient()
        try await withServer(router: echoRouter()) { server in
            let bodies = try await withThrowingTaskGroup(of: String.self) { group in
                for index in 0..<200 {
                    group.addTask {
                        try await client.execute(.postJSON(server.url("/echo"), body: Data("\(index)".utf8))).bodyText
                    }
                }
                return try await group.reduce(into: Set<String>()) { $0.insert($1) }
            }
            #expect(bodies == Set((0..<200).map(String.init)))
        }
    }
}

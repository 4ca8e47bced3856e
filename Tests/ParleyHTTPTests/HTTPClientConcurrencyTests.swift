import Foundation
import HTTPTestSupport
import ParleyHTTP
import Testing

@Suite(.timeLimit(.minutes(10))) struct HTTPClientConcurrencyTests {
    /// Fifty requests are held by the server at once while this test's own task keeps running: the client
    /// multiplexes them on its thread instead of blocking threads of the cooperative pool (which has only as
    /// many threads as cores, so a blocking client would stall at two in flight and starve this task).
    @Test func fiftyConcurrentRequestsDoNotBlockTheCooperativePool() async throws {
        let gate = try LoopbackGate()
        let server = try LoopbackHTTPServer { request in
            .gated(gate, timeout: .seconds(90), then: .text("reply to \(request.path)"))
        }
        let client = try HTTPClient()

        try await withThrowingTaskGroup(of: (Int, String).self) { group in
            for index in 0..<50 {
                group.addTask {
                    (index, try await client.execute(.get(server.url("/\(index)"))).checkStatus().bodyText)
                }
            }
            // Generous: on a machine busy with compiles, fifty connections take a while to arrive; a blocking client
            // would never get them all in flight, however long it waited.
            let allHeldAtOnce = await server.wait(timeout: .seconds(80)) { _ in gate.waitingCount == 50 }
            #expect(allHeldAtOnce, "only \(gate.waitingCount) of 50 requests were in flight together")
            gate.open()

            var replies: [Int: String] = [:]
            for try await (index, body) in group { replies[index] = body }
            #expect(replies.count == 50)
            for index in 0..<50 {
                #expect(replies[index] == "reply to /\(index)")
            }
        }
    }

    @Test func requestsFromManyClientsAtOnce() async throws {
        let server = try LoopbackHTTPServer { .text($0.path) }

        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<8 {
                group.addTask {
                    let client = try HTTPClient()
                    for round in 0..<5 {
                        let body = try await client.execute(.get(server.url("/\(index)/\(round)"))).bodyText
                        #expect(body == "/\(index)/\(round)")
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(server.requests.count == 40)
    }
}

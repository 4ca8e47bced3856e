import Foundation
import HTTPTestSupport
import ParleyServer
import Testing

/// Random and malformed bytes, seeded and replayable, against a real server: it never crashes, and every
/// connection gets well-formed responses and a close, never garbage, a truncated response or silence.
///
/// The client does not half-close after its bytes: for a server, a FIN during a stream means the client went
/// away, which would cut an event stream on purpose. The server's short header, body, idle and linger timeouts
/// end every connection instead; a case that is slow to send gets a 408, which is also well-formed.
///
/// Replay a failure with the seed and case it names:
/// `PARLEY_SERVER_FUZZ_SEED=<seed> PARLEY_SERVER_FUZZ_CASE=<case> swift test --filter ParleyServerTests.FuzzTests`.
/// `PARLEY_SERVER_FUZZ_CASES` sets how many cases run (400 by default).
@Suite(.timeLimit(.minutes(10))) struct FuzzTests {
    static let environment = ProcessInfo.processInfo.environment
    static let seed = UInt64(environment["PARLEY_SERVER_FUZZ_SEED"] ?? "") ?? 0x5EED_F00D
    static let caseCount = Int(environment["PARLEY_SERVER_FUZZ_CASES"] ?? "") ?? 400
    static let onlyCase = Int(environment["PARLEY_SERVER_FUZZ_CASE"] ?? "")

    static let templates = [
        "GET /hello HTTP/1.1\r\nHost: localhost\r\n\r\n",
        "GET /games/g1/transcript/mira?annotated=1 HTTP/1.1\r\nHost: localhost\r\nAccept: */*\r\n\r\n",
        "POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\n\r\nhello",
        "POST /echo HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n3;x=y\r\nabc\r\n0\r\nT: v\r\n\r\n",
        "POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Length: 3\r\nExpect: 100-continue\r\n\r\nabc",
        "GET /events HTTP/1.1\r\nHost: localhost\r\n\r\n",
        "GET /fails HTTP/1.1\r\nHost: localhost\r\n\r\n",
        "GET /hello HTTP/1.0\r\nConnection: keep-alive\r\n\r\n",
        "OPTIONS * HTTP/1.1\r\nHost: localhost\r\n\r\n",
        "DELETE /echo HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
    ].map { Array($0.utf8) }

    static let tokens = [
        "\r\n", "\n", "\r", "\0", ":", " ", "\t", "%", "%2F", "%00", "%zz", "/..", "?", "#", "\u{FF}", "é",
        "Transfer-Encoding: chunked\r\n", "Transfer-Encoding: gzip\r\n", "Content-Length: 99999999999999999999\r\n",
        "Content-Length: -1\r\n", "Content-Length: 4, 5\r\n", "ffffffffffffffffff\r\n", "0\r\n\r\n", "1\r\n",
        "Expect: 100-continue\r\n", "Expect: other\r\n", "HTTP/1.0", "HTTP/2.0", "HTTP/1.1", "Host: y\r\n",
        " folded\r\n", "Connection: close\r\n", String(repeating: "A", count: 3000),
    ].map { Array($0.utf8) }

    /// The bytes of one case, from its own generator so that it can be replayed alone.
    static func bytes(ofCase index: Int) -> [UInt8] {
        var random = SeededGenerator(seed: seed &+ UInt64(index) &* 0x9E37_79B9_7F4A_7C15)
        switch Int.random(in: 0..<10, using: &random) {
        case 0..<2:
            // Noise, biased towards the characters of HTTP.
            let alphabet = Array("GETPOST /:\r\n HTTP/1.1Host:0123456789abcdef;%".utf8)
            return (0..<Int.random(in: 0...600, using: &random)).map { _ in
                Bool.random(using: &random)
                    ? alphabet.randomElement(using: &random)! : UInt8.random(in: 0...255, using: &random)
            }
        default:
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                bytes += mutate(templates.randomElement(using: &random)!, using: &random)
            }
            return bytes
        }
    }

    static func mutate(_ template: [UInt8], using random: inout SeededGenerator) -> [UInt8] {
        var bytes = template
        for _ in 0..<Int.random(in: 0...4, using: &random) where !bytes.isEmpty {
            let position = Int.random(in: 0..<bytes.count, using: &random)
            switch Int.random(in: 0..<6, using: &random) {
            case 0: bytes[position] = UInt8.random(in: 0...255, using: &random)
            case 1: bytes.insert(contentsOf: tokens.randomElement(using: &random)!, at: position)
            case 2: bytes.removeSubrange(position..<min(bytes.count, position + Int.random(in: 1...8, using: &random)))
            case 3: bytes.insert(contentsOf: bytes[position..<min(bytes.count, position + 16)], at: position)
            case 4: bytes.removeSubrange(position...)
            default: bytes.swapAt(position, Int.random(in: 0..<bytes.count, using: &random))
            }
        }
        return bytes
    }

    static func router() -> HTTPRouter {
        var router = echoRouter()
        router.get("/events") { _ in
            .eventStream { writer in
                for index in 0..<3 { try await writer.send(ServerSentEvent(event: "n", data: "\(index)\nline")) }
            }
        }
        router.get("/fails") { _ in throw CancellationError() }
        return router
    }

    /// Sends a case in random pieces and checks everything that came back until the server closed.
    static func run(case index: Int, port: Int, statuses: LockedValue<[Int: Int]>) async -> String? {
        let bytes = bytes(ofCase: index)
        let replay =
            "case \(index) (seed \(seed)): \(String(decoding: bytes.prefix(300), as: UTF8.self).debugDescription)"
        guard let client = try? RawClient(port: port) else { return "connect failed, \(replay)" }
        var random = SeededGenerator(seed: seed ^ UInt64(index))
        var offset = 0
        while offset < bytes.count {
            let length = min(bytes.count - offset, Int.random(in: 1...256, using: &random))
            guard await client.send(Array(bytes[offset..<(offset + length)])) else { break }
            offset += length
        }
        let received = await client.readToEnd()
        guard received.closed else { return "the server neither answered in full nor closed, \(replay)" }
        do {
            let (responses, rest) = try RawResponse.parseAll(received.bytes)
            guard rest == 0 else { return "\(rest) bytes after the last complete response, \(replay)" }
            for response in responses {
                statuses.update { $0[response.status, default: 0] += 1 }
                guard (200...599).contains(response.status) else { return "status \(response.status), \(replay)" }
                if response.status >= 400 && response.header("Content-Type") != "application/problem+json" {
                    return "a \(response.status) that is not a problem, \(replay)"
                }
            }
        } catch {
            return "malformed response (\(error)), \(replay)"
        }
        return nil
    }

    @Test func randomAndMalformedBytesNeverBreakTheServer() async throws {
        let limits = HTTPServer.Limits(
            maximumHeaderSize: 2048, maximumHeaderCount: 20, maximumTargetLength: 512, maximumBodySize: 4096,
            maximumConnections: 64)
        let configuration = HTTPServer.Configuration(
            limits: limits,
            timeouts: .generous {
                $0.header = .milliseconds(300)
                $0.body = .milliseconds(300)
                $0.idle = .milliseconds(300)
                $0.linger = .milliseconds(300)
            })
        try await withServer(configuration, router: Self.router()) { server in
            let cases = Self.onlyCase.map { [$0] } ?? Array(0..<Self.caseCount)
            var failures: [String] = []
            let statuses = LockedValue<[Int: Int]>([:])
            for batch in stride(from: 0, to: cases.count, by: 16) {
                let results = await withTaskGroup(of: String?.self) { group in
                    for index in cases[batch..<min(cases.count, batch + 16)] {
                        group.addTask { await Self.run(case: index, port: server.port, statuses: statuses) }
                    }
                    return await group.reduce(into: [String]()) { if let failure = $1 { $0.append(failure) } }
                }
                failures += results
                // The server still serves a well-behaved client after every batch.
                let probe = try RawClient(port: server.port)
                await probe.send("GET /hello HTTP/1.1\r\nHost: localhost\r\n\r\n")
                #expect(await probe.readResponse()?.bodyText == "hello", "after case \(cases[batch])")
            }
            #expect(failures.isEmpty, "\(failures.count) failures, first: \(failures.prefix(3))")
            #expect(await eventually { server.openConnections == 0 }, "connections left open")
            // Not vacuous: the cases reach the handlers and many kinds of refusal.
            let seen = statuses.value
            if Self.onlyCase == nil && Self.caseCount >= 100 {
                #expect(Set([200, 400, 404, 500]).isSubset(of: seen.keys), "statuses seen: \(seen)")
                #expect(seen.count >= 8, "statuses seen: \(seen)")
            }
        }
    }
}

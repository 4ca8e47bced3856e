import Testing

@testable import ParleyServer

/// The request head parser on its own: the grammar, the limits, and heads split at every byte.
@Suite struct RequestHeadParserTests {
    static let limits = HTTPServer.Limits(
        maximumHeaderSize: 200, maximumHeaderCount: 3, maximumTargetLength: 40, maximumBodySize: 1000,
        maximumConnections: 10)

    /// Parses `text` fed all at once; the status of the failure, or `nil` for success.
    static func status(of text: String, limits: HTTPServer.Limits = limits) -> Int? {
        var parser = RequestHeadParser(limits: limits)
        var buffer = InputBuffer()
        buffer.append(contentsOf: Array(text.utf8))
        do {
            _ = try parser.parse(&buffer)
            return nil
        } catch {
            return error.problem.status.code
        }
    }

    @Test func parsesARequestAndLeavesThePipelinedRest() throws {
        var parser = RequestHeadParser(limits: Self.limits)
        var buffer = InputBuffer()
        buffer.append(
            contentsOf: Array("\r\nPOST /a?b=c HTTP/1.1\r\nHost: x\r\nX-Long:  spaced value \t\r\n\r\nNEXT".utf8))
        let head = try #require(try parser.parse(&buffer))
        #expect(head.method == .post)
        #expect(head.target == "/a?b=c")
        #expect(head.version == .http11)
        #expect(head.headers["host"] == "x")
        #expect(head.headers["x-long"] == "spaced value")
        #expect(String(decoding: buffer[0..<buffer.count], as: UTF8.self) == "NEXT")
    }

    /// A head split in two at every byte parses the same as in one piece.
    @Test func parsesAHeadSplitAtEveryByte() throws {
        let bytes = Array("GET /games/g1 HTTP/1.0\r\nHost: example\r\nAccept: */*\r\n\r\n".utf8)
        for split in 0...bytes.count {
            var parser = RequestHeadParser(limits: Self.limits)
            var buffer = InputBuffer()
            buffer.append(contentsOf: bytes[..<split])
            var head = try parser.parse(&buffer)
            #expect(head == nil || split == bytes.count, "split at \(split)")
            if head == nil {
                buffer.append(contentsOf: bytes[split...])
                head = try parser.parse(&buffer)
            }
            let parsed = try #require(head, "split at \(split)")
            #expect(parsed.version == .http10)
            #expect(parsed.headers["accept"] == "*/*")
            #expect(!parsed.wantsKeepAlive)
        }
    }

    @Test(
        arguments: [
            ("GET / HTTP/1.1\r\nHost: x\r\n\r\n", nil),
            ("get / HTTP/1.1\r\nHost: x\r\n\r\n", nil),  // a method is a token; case is the router's business
            ("GET / HTTP/1.9\r\nHost: x\r\n\r\n", nil),  // a later 1.x is served as 1.1
            ("GET  / HTTP/1.1\r\n\r\n", 400),  // two spaces
            ("GET /\r\n\r\n", 400),  // HTTP/0.9
            ("GET / HTTP/1.1 extra\r\n\r\n", 400),
            ("GET / http/1.1\r\n\r\n", 400),
            ("GET / HTTP/11\r\n\r\n", 400),
            ("GET / HTTP/2.0\r\n\r\n", 505),
            ("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", 505),
            ("G(T / HTTP/1.1\r\n\r\n", 400),  // not a token
            ("GET /\u{7F} HTTP/1.1\r\n\r\n", 400),
            ("GET /é HTTP/1.1\r\n\r\n", 400),  // bytes outside ASCII must be percent-encoded
            ("GET / HTTP/1.1\nHost: x\n\n", 400),  // bare LF
            ("GET / HTTP/1.1\r\nHost: x\r\n\n", 400),
            ("GET / HTTP/1.1\r\rHost: x\r\n\r\n", 400),  // bare CR
            ("GET / HTTP/1.1\r\nHost : x\r\n\r\n", 400),  // space before the colon
            ("GET / HTTP/1.1\r\nHost: x\r\n folded\r\n\r\n", 400),  // obsolete line folding
            ("GET / HTTP/1.1\r\nNo colon\r\n\r\n", 400),
            ("GET / HTTP/1.1\r\n: empty name\r\n\r\n", 400),
            ("GET / HTTP/1.1\r\nX: a\u{1}b\r\n\r\n", 400),  // a control character in a value
            ("GET / HTTP/1.1\r\nX: a\r\nY: b\r\nZ: c\r\n\r\n", nil),  // three fields: the limit
            ("GET / HTTP/1.1\r\nX: a\r\nY: b\r\nZ: c\r\nW: d\r\n\r\n", 431),  // four: one too many
            ("GET /\(String(repeating: "a", count: 39)) HTTP/1.1\r\n\r\n", nil),  // a target of 40 bytes: the limit
            ("GET /\(String(repeating: "a", count: 40)) HTTP/1.1\r\n\r\n", 414),
            ("GET / HTTP/1.1\r\nX: \(String(repeating: "v", count: 200))\r\n\r\n", 431),
            ("\r\n\r\n\r\n\r\n\r\n\r\n\r\n\r\n\r\nGET / HTTP/1.1\r\n\r\n", 400),  // nine empty lines first
            ("\u{16}\u{3}\u{1}\u{2}\u{0}", 400),  // a TLS handshake: refused before any line ends
        ] as [(String, Int?)])
    func refusesWhatIsMalformedOrTooLarge(text: String, status: Int?) {
        #expect(Self.status(of: text) == status, "\(text.debugDescription)")
    }

    /// A head that grows past a limit is refused while it is still arriving, without waiting for its end.
    @Test(
        arguments: [
            ("GET /\(String(repeating: "a", count: 200))", 414),
            ("GET / HTTP/1.1\r\nX: \(String(repeating: "v", count: 300))", 431),
            ("GET / HTTP/1.1\r\nHost: x\r\nX-\u{0}", nil),  // a field line is checked when complete
        ] as [(String, Int?)])
    func refusesAnIncompleteHeadPastALimit(text: String, status: Int?) {
        #expect(Self.status(of: text) == status)
    }
}

import Foundation
import Testing

@testable import ParleyServer

/// The chunked body decoder on its own, across every chunk boundary.
@Suite struct ChunkedBodyDecoderTests {
    static let limits = HTTPServer.Limits(
        maximumHeaderSize: 100, maximumHeaderCount: 2, maximumTargetLength: 100, maximumBodySize: 64,
        maximumConnections: 10)
    static let encoded = Array("5\r\nhello\r\n7;name=value\r\n, world\r\n01\r\n!\r\n0\r\nX-Trailer: t\r\n\r\nNEXT".utf8)

    /// Decodes `pieces` fed one after another: the body and what is left once every piece arrived, or the
    /// failure.
    static func decode(_ pieces: [ArraySlice<UInt8>]) -> Result<(String, String), RequestFailure> {
        var decoder = ChunkedBodyDecoder(limits: limits)
        var buffer = InputBuffer()
        var complete = false
        for piece in pieces {
            buffer.append(contentsOf: piece)
            guard !complete else { continue }
            do {
                complete = try decoder.decode(&buffer)
            } catch {
                return .failure(error)
            }
        }
        guard complete else { return .success(("incomplete", "")) }
        return .success(
            (String(decoding: decoder.body, as: UTF8.self), String(decoding: buffer[0..<buffer.count], as: UTF8.self)))
    }

    @Test(arguments: 0...encoded.count)
    func decodesABodySplitAnywhere(split: Int) throws {
        let result = try Self.decode([Self.encoded[..<split], Self.encoded[split...]]).get()
        #expect(result.0 == "hello, world!")
        #expect(result.1 == "NEXT")
    }

    @Test func decodesABodyFedOneByteAtATime() throws {
        let result = try Self.decode(Self.encoded.indices.map { Self.encoded[$0...$0] }).get()
        #expect(result.0 == "hello, world!")
    }

    @Test(arguments: [
        ("x\r\n", 400),  // not hexadecimal
        ("5\r\nhelloXX", 400),  // data not followed by CRLF
        ("5\nhello\r\n0\r\n\r\n", 400),  // bare LF
        ("5 junk\r\nhello\r\n", 400),
        ("41\r\n", 413),  // 65 bytes: one more than the limit, refused before the data
        ("20\r\n\(String(repeating: "a", count: 32))\r\n21\r\n", 413),  // the total passes the limit
        ("ffffffffffffffffffffffffffff\r\n", 413),  // absurd sizes never overflow
        ("-1\r\n", 400),
        ("0\r\nBad trailer\r\n\r\n", 400),
        ("0\r\nA: 1\r\nB: 2\r\nC: 3\r\n\r\n", 431),  // more trailer fields than the header limit
        ("0\r\nA: \(String(repeating: "v", count: 120))\r\n\r\n", 431),
        ("1;\(String(repeating: "e", count: 1100))\r\n", 400),  // a size line longer than 1 KiB
    ])
    func refusesMalformedOrOversizedBodies(text: String, status: Int) {
        switch Self.decode([Array(text.utf8)[...]]) {
        case .success(let result): Issue.record("decoded \(result) from \(text.debugDescription)")
        case .failure(let failure): #expect(failure.problem.status.code == status, "\(text.debugDescription)")
        }
    }
}

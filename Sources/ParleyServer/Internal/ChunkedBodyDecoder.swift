import Foundation

/// Decodes a `Transfer-Encoding: chunked` body (RFC 9112 section 7.1) from bytes as they arrive.
///
/// Feed it the connection's buffer after each read; it consumes what it can and says when the body is complete.
/// A chunk whose size would pass the body limit is refused (413) from its size line, before its data is read.
/// Chunk extensions are ignored; trailer fields are checked against the header limits and dropped.
struct ChunkedBodyDecoder {
    private enum State {
        case sizeLine
        case data(remaining: Int)
        case dataEnd
        case trailers
        case done
    }

    /// The longest chunk size line accepted, extensions included.
    static let maximumSizeLineLength = 1024

    private let limits: HTTPServer.Limits
    private var state = State.sizeLine
    private var trailerBytes = 0
    private var trailerCount = 0
    /// The body decoded so far.
    private(set) var body = Data()

    init(limits: HTTPServer.Limits) {
        self.limits = limits
    }

    /// Consumes what it can of `buffer`.
    ///
    /// - Returns: `true` once the body, its trailers and the final blank line have been read.
    /// - Throws: ``RequestFailure`` with 400 (malformed), 413 (too large) or 431 (trailers too large).
    mutating func decode(_ buffer: inout InputBuffer) throws(RequestFailure) -> Bool {
        while true {
            switch state {
            case .done:
                return true
            case .sizeLine:
                let tooLong = RequestFailure.badRequest(
                    "A chunk size line is longer than \(Self.maximumSizeLineLength) bytes. Send shorter extensions.")
                guard let line = try Self.takeLine(&buffer, limit: Self.maximumSizeLineLength, tooLong: tooLong)
                else { return false }
                let size = try Self.parseSize(line)
                guard size <= limits.maximumBodySize - body.count else {
                    throw RequestFailure(
                        .contentTooLarge,
                        "The chunked request body is larger than \(limits.maximumBodySize) bytes, the most this server "
                            + "takes. Send a smaller body.")
                }
                state = size == 0 ? .trailers : .data(remaining: size)
            case .data(let remaining):
                guard !buffer.isEmpty else { return false }
                let piece = buffer.take(remaining)
                body.append(contentsOf: piece)
                state = piece.count == remaining ? .dataEnd : .data(remaining: remaining - piece.count)
            case .dataEnd:
                guard buffer.count >= 2 else { return false }
                guard buffer[0] == ASCII.cr, buffer[1] == ASCII.lf else {
                    throw .badRequest("A chunk's data is not followed by CRLF: its size line gives the wrong size.")
                }
                buffer.consume(2)
                state = .sizeLine
            case .trailers:
                let tooLarge = RequestFailure(
                    .requestHeaderFieldsTooLarge,
                    "The chunked body's trailer fields are larger than \(limits.maximumHeaderSize) bytes. Send fewer.")
                let room = max(0, limits.maximumHeaderSize - trailerBytes)
                guard let line = try Self.takeLine(&buffer, limit: room, tooLong: tooLarge) else { return false }
                trailerBytes += line.count + 2
                if line.isEmpty {
                    state = .done
                    continue
                }
                _ = try RequestHeadParser.parseField(line)
                trailerCount += 1
                guard trailerCount <= limits.maximumHeaderCount else {
                    throw RequestFailure(
                        .requestHeaderFieldsTooLarge,
                        "The chunked body has more than \(limits.maximumHeaderCount) trailer fields. Send fewer.")
                }
            }
        }
    }

    /// Takes one CRLF-terminated line without its CRLF; `nil` when it is not complete yet.
    ///
    /// - Parameters:
    ///   - limit: The most bytes the line may have, CRLF included.
    ///   - tooLong: The failure when it has more.
    private static func takeLine(
        _ buffer: inout InputBuffer, limit: Int, tooLong: RequestFailure
    ) throws(RequestFailure) -> [UInt8]? {
        guard let lineFeed = buffer.firstIndex(of: ASCII.lf) else {
            // The line, once complete, will have at least one more byte than what is here.
            guard buffer.count < limit else { throw tooLong }
            return nil
        }
        guard lineFeed < limit else { throw tooLong }
        guard lineFeed > 0, buffer[lineFeed - 1] == ASCII.cr else {
            throw .badRequest("A line of the chunked body ends with a bare LF. End every line with CRLF.")
        }
        let line = Array(buffer[0..<(lineFeed - 1)])
        buffer.consume(lineFeed + 1)
        return line
    }

    /// The size of a chunk from its size line: hexadecimal digits, then optional extensions after `;`.
    private static func parseSize(_ line: [UInt8]) throws(RequestFailure) -> Int {
        let digits = line.prefix { ASCII.hexValue($0) != nil }
        guard !digits.isEmpty else {
            throw .badRequest("A chunk size line does not start with a hexadecimal size.")
        }
        let rest = line.dropFirst(digits.count).drop { $0 == ASCII.space || $0 == ASCII.tab }
        guard rest.isEmpty || rest.first == UInt8(ascii: ";"), rest.allSatisfy(ASCII.isFieldValueByte) else {
            throw .badRequest("A chunk size line has something other than a size and extensions.")
        }
        var size = 0
        for digit in digits {
            // Past 2^59 the body is too large anyway: stop growing rather than overflow.
            guard size < 1 << 59 else { return Int.max }
            size = size << 4 | Int(ASCII.hexValue(digit)!)
        }
        return size
    }
}

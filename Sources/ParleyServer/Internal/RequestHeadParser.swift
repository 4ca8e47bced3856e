import ParleyBasics

/// Parses a request's head (request line and header fields) from bytes as they arrive, checking the grammar of
/// RFC 9112 and the server's limits as it goes.
///
/// Feed it the connection's buffer after each read; it consumes complete lines and returns the head once the
/// blank line after the fields arrived. It refuses as early as it can: a byte that cannot be in a request line
/// is refused when it arrives (a TLS handshake gets 400 at once), a head that passes a limit is refused before
/// the rest is read. Lines must end with CRLF; up to 8 empty lines before the request line are skipped, as RFC
/// 9112 section 2.2 suggests.
struct RequestHeadParser {
    private let limits: HTTPServer.Limits
    private var requestLine: (method: HTTPRequestMethod, target: String, version: HTTPVersion)?
    private var fields: [HTTPFields.Field] = []
    /// The head's bytes consumed so far.
    private var consumed = 0
    /// How far the current, incomplete line has been checked.
    private var scanned = 0
    private var emptyLinesSkipped = 0
    /// Whether the space after the method has been seen, in the request line being checked.
    private var methodEnded = false

    /// The longest request line for the target limit: the target, plus room for a method and the version.
    private var maximumRequestLineLength: Int { limits.maximumTargetLength.saturatingAdding(64) }

    init(limits: HTTPServer.Limits) {
        self.limits = limits
    }

    /// Consumes the complete lines in `buffer`.
    ///
    /// - Returns: The head once it is complete; `nil` when more bytes are needed.
    /// - Throws: ``RequestFailure`` with 400, 414, 431 or 505.
    mutating func parse(_ buffer: inout InputBuffer) throws(RequestFailure) -> RequestHead? {
        while true {
            guard let lineFeed = buffer.firstIndex(of: ASCII.lf, from: scanned) else {
                if requestLine == nil { try checkRequestLineBytes(buffer, upTo: buffer.count) }
                // A CR at the end is checked again when the next byte arrives: it must be the LF.
                scanned = buffer.count > 0 && buffer[buffer.count - 1] == ASCII.cr ? buffer.count - 1 : buffer.count
                try checkSize(lineLength: buffer.count, complete: false)
                return nil
            }
            let lineLength = lineFeed + 1
            if requestLine == nil { try checkRequestLineBytes(buffer, upTo: lineFeed) }
            try checkSize(lineLength: lineLength, complete: true)
            guard lineFeed > 0, buffer[lineFeed - 1] == ASCII.cr else {
                throw .badRequest("A line of the request's head ends with a bare LF. End every line with CRLF.")
            }
            let line = Array(buffer[0..<(lineFeed - 1)])
            buffer.consume(lineLength)
            consumed += lineLength
            scanned = 0
            methodEnded = false

            if requestLine == nil {
                if line.isEmpty {
                    emptyLinesSkipped += 1
                    guard emptyLinesSkipped <= 8 else {
                        throw .badRequest("The request starts with too many empty lines. Start with the request line.")
                    }
                    continue
                }
                requestLine = try Self.parseRequestLine(line, limits: limits)
            } else if line.isEmpty {
                let (method, target, version) = requestLine!
                return RequestHead(method: method, target: target, version: version, headers: HTTPFields(fields))
            } else {
                fields.append(try Self.parseField(line))
                guard fields.count <= limits.maximumHeaderCount else {
                    throw RequestFailure(
                        .requestHeaderFieldsTooLarge,
                        "The request has more than \(limits.maximumHeaderCount) header fields. Send fewer.")
                }
            }
        }
    }

    /// Refuses a head, or request line, that passes its limit.
    private func checkSize(lineLength: Int, complete: Bool) throws(RequestFailure) {
        if requestLine == nil, lineLength - (complete ? 2 : 0) > maximumRequestLineLength {
            throw RequestFailure(
                .uriTooLong,
                "The request target is longer than \(limits.maximumTargetLength) bytes. Send a shorter path and query.")
        }
        if consumed.saturatingAdding(lineLength) > limits.maximumHeaderSize {
            throw RequestFailure(
                .requestHeaderFieldsTooLarge,
                "The request's head is larger than \(limits.maximumHeaderSize) bytes. Send fewer or shorter header "
                    + "fields.")
        }
    }

    /// Refuses, as soon as it arrives, a byte that no request line can hold: a control character, a byte
    /// outside ASCII, a CR before the end of the line, or a method that is not a token.
    private mutating func checkRequestLineBytes(_ buffer: InputBuffer, upTo end: Int) throws(RequestFailure) {
        for offset in scanned..<max(scanned, end) {
            let byte = buffer[offset]
            let allowed: Bool
            if byte == ASCII.cr {
                allowed = offset == end - 1
            } else if !methodEnded {
                methodEnded = byte == ASCII.space
                allowed = methodEnded || ASCII.isTokenCharacter(byte)
            } else {
                allowed = (0x21...0x7E).contains(byte) || byte == ASCII.space
            }
            guard allowed else {
                throw .badRequest(
                    "The request line has a byte that cannot be there (\(Self.describe(byte))). "
                        + "Send an HTTP/1.1 request: METHOD /path HTTP/1.1.")
            }
        }
    }

    private static func describe(_ byte: UInt8) -> String {
        let hex = String(byte, radix: 16, uppercase: true)
        return "0x" + (hex.count == 1 ? "0" + hex : hex)
    }

    private static func parseRequestLine(
        _ line: [UInt8], limits: HTTPServer.Limits
    ) throws(RequestFailure) -> (HTTPRequestMethod, String, HTTPVersion) {
        let parts = line.split(separator: ASCII.space, omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty }) else {
            throw .badRequest(
                "The request line is not METHOD SP TARGET SP VERSION with single spaces. "
                    + "Send for example: GET /v1/health HTTP/1.1.")
        }
        let method = String(decoding: parts[0], as: UTF8.self)
        let target = String(decoding: parts[1], as: UTF8.self)
        guard ASCII.isToken(method) else {
            throw .badRequest("The method \"\(method.prefix(32))\" is not a valid HTTP method name.")
        }
        guard parts[1].count <= limits.maximumTargetLength else {
            throw RequestFailure(
                .uriTooLong,
                "The request target is longer than \(limits.maximumTargetLength) bytes. Send a shorter path and query.")
        }
        let version = Array(parts[2])
        let digit: ClosedRange<UInt8> = 0x30...0x39
        guard version.count == 8, version.starts(with: Array("HTTP/".utf8)), digit.contains(version[5]),
            version[6] == UInt8(ascii: "."), digit.contains(version[7])
        else {
            throw .badRequest("The request line's version is not HTTP/1.1 or HTTP/1.0. Send HTTP/1.1.")
        }
        let major = Int(version[5] - 0x30)
        let minor = Int(version[7] - 0x30)
        guard major == 1 else {
            throw RequestFailure(
                .httpVersionNotSupported, "This server speaks HTTP/1.1 only, not HTTP/\(major).\(minor). Send HTTP/1.1."
            )
        }
        return (HTTPRequestMethod(rawValue: method), target, minor == 0 ? .http10 : .http11)
    }

    /// Parses `name: value`, the value without its surrounding whitespace.
    static func parseField(_ line: [UInt8]) throws(RequestFailure) -> HTTPFields.Field {
        if line.first == ASCII.space || line.first == ASCII.tab {
            throw .badRequest(
                "A header line starts with whitespace (obsolete line folding). Send each field on one line.")
        }
        guard let colon = line.firstIndex(of: ASCII.colon) else {
            throw .badRequest("A header line has no colon. Send fields as Name: value.")
        }
        let name = line[..<colon]
        guard !name.isEmpty, name.allSatisfy(ASCII.isTokenCharacter) else {
            throw .badRequest(
                "A header field name is empty or has characters a name cannot have (whitespace before the colon, "
                    + "say). Send fields as Name: value.")
        }
        let value = line[(colon + 1)...]
        guard value.allSatisfy(ASCII.isFieldValueByte) else {
            throw .badRequest(
                "The value of the header field \(String(decoding: name, as: UTF8.self)) has a control character. "
                    + "Remove it.")
        }
        return HTTPFields.Field(
            name: String(decoding: name, as: UTF8.self),
            value: String(decoding: value, as: UTF8.self).trimmingASCIIWhitespace())
    }
}

import Foundation

/// Reads HTTP/1.1 requests from one connection, keeping bytes that belong to the next request.
struct RequestReader {
    /// A request head larger than this is refused: the client is broken or hostile.
    static let maximumHeadSize = 64 * 1024

    enum Failure: Error {
        /// The connection closed, broke or the server stopped: nothing to answer.
        case closed
        /// The request is not valid HTTP: answer 400 and close.
        case malformed(String)
    }

    let descriptor: Int32
    let stop: PipeEvent
    private var buffer: [UInt8] = []

    init(descriptor: Int32, stop: PipeEvent) {
        self.descriptor = descriptor
        self.stop = stop
    }

    /// The next request; `onExpectContinue` runs before the body is read when the client asked for it.
    mutating func next(onExpectContinue: () -> Void) throws(Failure) -> LoopbackRequest {
        let headEnd = try readUntilHeadEnd()
        let head = String(decoding: buffer[..<headEnd], as: UTF8.self)
        buffer.removeFirst(headEnd + 4)

        var lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ", omittingEmptySubsequences: true)
        guard requestLine.count == 3, requestLine[2].hasPrefix("HTTP/1.") else {
            throw .malformed("bad request line")
        }
        var headers: [(name: String, value: String)] = []
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { throw .malformed("bad header line") }
            headers.append(
                (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name }?.value
        }
        if header("expect")?.lowercased() == "100-continue" {
            onExpectContinue()
        }
        let body: [UInt8]
        if header("transfer-encoding")?.lowercased().contains("chunked") == true {
            body = try readChunkedBody()
        } else if let length = header("content-length") {
            guard let count = Int(length), count >= 0 else { throw .malformed("bad Content-Length") }
            body = try take(count)
        } else {
            body = []
        }
        return LoopbackRequest(
            method: String(requestLine[0]), target: String(requestLine[1]), headers: headers, body: Data(body))
    }

    // MARK: - Reading

    private mutating func readUntilHeadEnd() throws(Failure) -> Int {
        var searchFrom = 0
        while true {
            if buffer.count >= 4 {
                for index in max(0, searchFrom - 3)...(buffer.count - 4)
                where buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13
                    && buffer[index + 3] == 10
                {
                    return index
                }
                searchFrom = buffer.count
            }
            guard buffer.count <= Self.maximumHeadSize else { throw .malformed("request head too large") }
            // A method starts with a letter; anything else (a TLS handshake, say) is not HTTP, so answer at once
            // rather than wait for a blank line that never comes.
            if let first = buffer.first, !(UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(first) {
                throw .malformed("not an HTTP request")
            }
            guard SocketIO.read(descriptor, into: &buffer, stops: [stop]) else { throw .closed }
        }
    }

    private mutating func take(_ count: Int) throws(Failure) -> [UInt8] {
        while buffer.count < count {
            guard SocketIO.read(descriptor, into: &buffer, stops: [stop]) else { throw .closed }
        }
        defer { buffer.removeFirst(count) }
        return Array(buffer[..<count])
    }

    private mutating func takeLine() throws(Failure) -> String {
        while true {
            if let index = buffer.indices.dropLast().first(where: { buffer[$0] == 13 && buffer[$0 + 1] == 10 }) {
                defer { buffer.removeFirst(index + 2) }
                return String(decoding: buffer[..<index], as: UTF8.self)
            }
            guard buffer.count <= Self.maximumHeadSize else { throw .malformed("chunk line too long") }
            guard SocketIO.read(descriptor, into: &buffer, stops: [stop]) else { throw .closed }
        }
    }

    private mutating func readChunkedBody() throws(Failure) -> [UInt8] {
        var body: [UInt8] = []
        while true {
            let sizeLine = try takeLine()
            let sizeText = sizeLine.prefix { $0 != ";" }.trimmingCharacters(in: .whitespaces)
            guard let size = Int(sizeText, radix: 16), size >= 0 else { throw .malformed("bad chunk size") }
            if size == 0 {
                // Trailers, up to the blank line.
                while try !takeLine().isEmpty {}
                return body
            }
            body += try take(size)
            guard try takeLine().isEmpty else { throw .malformed("chunk not followed by CRLF") }
        }
    }
}

import Foundation

/// A response read off a raw socket, parsed strictly: the checks of a well-formed HTTP/1.1 response.
struct RawResponse: Sendable, CustomStringConvertible {
    var status: Int
    var reason: String
    var headers: [(name: String, value: String)]
    var body: [UInt8]

    var bodyText: String { String(decoding: body, as: UTF8.self) }

    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    var closesConnection: Bool { header("Connection")?.lowercased() == "close" }

    var description: String { "\(status) \(reason) \(headers.map { "\($0.name): \($0.value)" }) \(bodyText)" }

    struct Malformed: Error, CustomStringConvertible {
        let description: String
    }

    /// Every complete response in `bytes`, and how many bytes are left over (a response still arriving, or garbage).
    ///
    /// - Parameter headRequests: How many of the first responses answer `HEAD` (no body whatever the framing).
    /// - Throws: ``Malformed`` when the bytes are not a sequence of HTTP/1.1 responses.
    static func parseAll(_ bytes: [UInt8], headRequests: Int = 0) throws -> (responses: [RawResponse], rest: Int) {
        var responses: [RawResponse] = []
        var offset = 0
        while offset < bytes.count {
            guard let (response, length) = try parse(bytes[offset...], isHead: responses.count < headRequests) else {
                break
            }
            offset += length
            // Informational responses (100 Continue) come before the final one; keep only final ones.
            if response.status >= 200 { responses.append(response) }
        }
        return (responses, bytes.count - offset)
    }

    /// One response from the front of `bytes`: `nil` when it is not complete yet.
    static func parse(_ bytes: ArraySlice<UInt8>, isHead: Bool) throws -> (RawResponse, Int)? {
        let crlfcrlf: [UInt8] = [13, 10, 13, 10]
        guard let headEnd = bytes.indices.first(where: { bytes[$0...].starts(with: crlfcrlf) }) else {
            if !bytes.starts(with: Array("HTTP/1.1 ".utf8).prefix(bytes.count)) {
                throw Malformed(
                    description: "does not start with HTTP/1.1: \(String(decoding: bytes.prefix(40), as: UTF8.self))")
            }
            return nil
        }
        let head = String(decoding: bytes[bytes.startIndex..<headEnd], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst()
        let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "HTTP/1.1", parts[1].count == 3, let status = Int(parts[1]) else {
            throw Malformed(description: "bad status line: \(statusLine)")
        }
        var headers: [(String, String)] = []
        for line in lines {
            guard let colon = line.firstIndex(of: ":"), !line.hasPrefix(" ") else {
                throw Malformed(description: "bad header line: \(line)")
            }
            headers.append(
                (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        var response = RawResponse(status: status, reason: String(parts[2]), headers: headers, body: [])
        var offset = headEnd + 4
        let noBody = isHead || status < 200 || status == 204 || status == 304
        if noBody {
            return (response, offset - bytes.startIndex)
        }
        if response.header("Transfer-Encoding")?.lowercased() == "chunked" {
            while true {
                guard let lineEnd = bytes[offset...].indices.first(where: { bytes[$0...].starts(with: [13, 10]) })
                else { return nil }
                let sizeText = String(decoding: bytes[offset..<lineEnd], as: UTF8.self)
                guard let size = Int(sizeText, radix: 16) else {
                    throw Malformed(description: "bad chunk size \(sizeText)")
                }
                offset = lineEnd + 2
                if size == 0 {
                    guard bytes.count - (offset - bytes.startIndex) >= 2 else { return nil }
                    guard bytes[offset...].starts(with: [13, 10]) else { throw Malformed(description: "trailers") }
                    return (response, offset + 2 - bytes.startIndex)
                }
                guard bytes.endIndex - offset >= size + 2 else { return nil }
                response.body += bytes[offset..<(offset + size)]
                guard bytes[(offset + size)...].starts(with: [13, 10]) else {
                    throw Malformed(description: "chunk not followed by CRLF")
                }
                offset += size + 2
            }
        }
        guard let lengthText = response.header("Content-Length"), let length = Int(lengthText) else {
            throw Malformed(description: "a response without Content-Length or chunked: \(statusLine)")
        }
        guard bytes.endIndex - offset >= length else { return nil }
        response.body = Array(bytes[offset..<(offset + length)])
        return (response, offset + length - bytes.startIndex)
    }
}

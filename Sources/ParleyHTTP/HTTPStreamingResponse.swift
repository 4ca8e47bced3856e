import Foundation

/// A response whose status and headers have arrived and whose body is still arriving.
///
/// Read the body once, through ``bytes`` or ``lines`` (or ``serverSentEvents``). The transfer runs until the
/// body is complete; cancelling the reading task, calling ``cancel()``, or dropping this response and its
/// iterators aborts it. While the reader lags behind, the transfer pauses once
/// ``HTTPClient/Configuration/streamBufferLimit`` bytes wait, so memory stays bounded.
///
/// ```swift
/// let response = try await client.stream(request)
/// try await response.checkStatus()
/// for try await line in response.lines { … }
/// ```
public struct HTTPStreamingResponse: Sendable {
    /// The status code, for example `200`.
    public let status: Int
    /// The response headers.
    public let headers: HTTPHeaders
    /// The request URL without query string, fragment or user information.
    public let url: String
    /// The body as chunks of bytes.
    public let bytes: HTTPBodyBytes

    init(status: Int, headers: HTTPHeaders, url: String, body: HTTPBodySource) {
        self.status = status
        self.headers = headers
        self.url = url
        bytes = HTTPBodyBytes(source: body)
    }

    /// The body as UTF-8 lines split on `\n` and `\r\n`.
    public var lines: HTTPBodyLines { HTTPBodyLines(bytes: bytes) }

    /// Whether the status is a success (200–299).
    public var isSuccess: Bool { (200..<300).contains(status) }

    /// Aborts the transfer; a reader waiting for the body gets ``HTTPClientError/cancelled``.
    public func cancel() {
        bytes.source.channel.cancel()
    }

    /// Reads the whole body into a complete response.
    ///
    /// - Parameter maximumBodySize: The largest body accepted, in bytes.
    /// - Returns: The status, headers and body.
    /// - Throws: ``HTTPClientError/responseTooLarge`` past the limit, or the transfer's error.
    public func collect(maximumBodySize: Int) async throws -> HTTPResponse {
        let body = try await bytes.collect(maximumBodySize: maximumBodySize)
        return HTTPResponse(status: status, headers: headers, body: body, url: url)
    }

    /// Returns this response when its status is a success; otherwise reads the body and throws it.
    ///
    /// On an error status the body (the server's explanation) is read up to `maximumBodySize` bytes, the rest
    /// is discarded and the transfer aborted.
    ///
    /// - Parameter maximumBodySize: The most bytes of an error body to keep; 64 KiB by default.
    /// - Returns: This response, for chaining; its body is still unread.
    /// - Throws: ``HTTPStatusError`` with status, headers and body when the status is outside 200–299, or an
    ///   ``HTTPClientError`` when reading that body fails.
    @discardableResult
    public func checkStatus(maximumBodySize: Int = 64 << 10) async throws -> HTTPStreamingResponse {
        guard !isSuccess else { return self }
        var body = Data()
        for try await chunk in bytes {
            body.append(chunk.prefix(maximumBodySize - body.count))
            if body.count >= maximumBodySize {
                cancel()
                break
            }
        }
        throw HTTPStatusError(status: status, headers: headers, body: body, url: url)
    }
}

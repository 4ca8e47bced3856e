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
    /// Removes the request's credentials from what the server echoes, in the errors made from this response.
    let redactor: SecretRedactor

    init(status: Int, headers: HTTPHeaders, url: String, body: HTTPBodySource, redactor: SecretRedactor) {
        self.status = status
        self.headers = headers
        self.url = url
        bytes = HTTPBodyBytes(source: body)
        self.redactor = redactor
    }

    private init(_ response: HTTPStreamingResponse, maximumBodySize: Int) {
        status = response.status
        headers = response.headers
        url = response.url
        bytes = HTTPBodyBytes(source: response.bytes.source, maximumSize: maximumBodySize)
        redactor = response.redactor
    }

    /// This response with a limit on its body: reading it (as ``bytes``, ``lines`` or
    /// ``serverSentEvents``) throws ``HTTPClientError/responseTooLarge`` and aborts the transfer as soon as the
    /// body passes `maximumBodySize` bytes, so a server that sends too much cannot fill the memory.
    ///
    /// ```swift
    /// for try await event in try await client.stream(request).limitingBody(to: 1 << 20).serverSentEvents { … }
    /// ```
    ///
    /// - Parameter maximumBodySize: The most bytes the body may have.
    /// - Returns: The response with the limit; read its body instead of this one's (a body is read once).
    public func limitingBody(to maximumBodySize: Int) -> HTTPStreamingResponse {
        HTTPStreamingResponse(self, maximumBodySize: maximumBodySize)
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
        var response = HTTPResponse(status: status, headers: headers, body: body, url: url)
        response.redactor = redactor
        return response
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
        let body = try await bytes.collectPrefix(maximumBytes: maximumBodySize).prefix
        throw HTTPStatusError(status: status, headers: headers, body: body, url: url, redactor: redactor)
    }
}

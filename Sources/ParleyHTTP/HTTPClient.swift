import Foundation

/// An HTTP/1.1 and HTTP/2 client over libcurl, for talking to language model servers and other HTTP APIs.
///
/// One client runs many requests at once. It owns one libcurl multi handle driven by one dedicated background
/// thread, so waiting for the network never blocks Swift's cooperative thread pool. Create one client and
/// share it; releasing the last reference (including those held by streamed bodies still being read) stops the
/// thread and fails requests still in flight with ``HTTPClientError/clientShutDown``.
///
/// ```swift
/// let client = try HTTPClient()
/// let response = try await client.execute(.postJSON(url, body: json)).checkStatus()
///
/// let stream = try await client.stream(.postJSON(url, body: json, accept: "text/event-stream"))
/// try await stream.checkStatus()
/// for try await event in stream.serverSentEvents { … }
/// ```
///
/// HTTPS verifies certificates against the system's CA certificates. Redirects are not followed. Proxies from
/// the environment (`https_proxy`…) are honoured, except for `localhost`, `127.0.0.1` and `::1`. Task
/// cancellation aborts the transfer at once.
public final class HTTPClient: Sendable {
    /// The settings this client was created with.
    public let configuration: Configuration
    private let engine: CurlEngine

    /// Creates a client and starts its background thread.
    ///
    /// - Parameter configuration: The settings shared by every request.
    /// - Throws: ``HTTPClientError/transferFailed`` when libcurl cannot be initialized.
    public init(configuration: Configuration = Configuration()) throws {
        self.configuration = configuration
        engine = try CurlEngine()
    }

    deinit {
        engine.shutDown()
    }

    /// Sends a request and returns as soon as the response's status and headers arrived.
    ///
    /// The body is then read from the returned response's ``HTTPStreamingResponse/bytes`` or
    /// ``HTTPStreamingResponse/lines``, once. Every status is returned, errors included: call
    /// ``HTTPStreamingResponse/checkStatus(maximumBodySize:)`` to throw on them. Cancelling the task, or dropping
    /// the response and its iterators, aborts the transfer.
    ///
    /// - Parameter request: The request to send.
    /// - Returns: The response head, with the body still arriving.
    /// - Throws: ``HTTPClientError`` when the request is invalid, the connection fails, a timeout runs out or
    ///   the task is cancelled before the headers arrived.
    public func stream(_ request: HTTPRequest) async throws -> HTTPStreamingResponse {
        let prepared = try PreparedRequest(request, userAgent: configuration.userAgent)
        let channel = TransferChannel(
            id: engine.makeIdentifier(),
            url: prepared.redactedURL,
            bufferLimit: configuration.streamBufferLimit,
            engine: engine
        )
        let head = try await channel.awaitHead { engine.start(prepared, channel: channel) }
        return HTTPStreamingResponse(
            status: head.status,
            headers: head.headers,
            url: prepared.redactedURL,
            body: HTTPBodySource(channel: channel, client: self),
            redactor: SecretRedactor(headers: request.headers)
        )
    }

    /// Sends a request and returns the whole response.
    ///
    /// Every status is returned, errors included: chain ``HTTPResponse/checkStatus()`` to throw an
    /// ``HTTPStatusError`` (with the body) on them.
    ///
    /// - Parameters:
    ///   - request: The request to send.
    ///   - maximumBodySize: The largest body accepted, in bytes; 64 MiB by default.
    /// - Returns: The status, headers and body.
    /// - Throws: ``HTTPClientError`` when the request is invalid, the connection fails, a timeout runs out,
    ///   the body exceeds `maximumBodySize` (``HTTPClientError/responseTooLarge``) or the task is cancelled.
    public func execute(_ request: HTTPRequest, maximumBodySize: Int = 64 << 20) async throws -> HTTPResponse {
        try await stream(request).collect(maximumBodySize: maximumBodySize)
    }
}

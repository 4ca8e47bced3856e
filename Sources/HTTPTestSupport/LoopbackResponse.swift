import Foundation

/// What the ``LoopbackHTTPServer`` does with one request: a normal answer or an injected fault.
///
/// ```swift
/// let server = try LoopbackHTTPServer { request in
///     switch request.path {
///     case "/health": .text("ok")
///     case "/stream": .eventStream(["data: 1\n\n", ": ping\n\n", "data: 2\n\n"], interval: .milliseconds(10))
///     default: .reset
///     }
/// }
/// ```
public indirect enum LoopbackResponse: Sendable {
    /// How a chunked stream ends.
    public enum Ending: Sendable {
        /// The terminating zero-length chunk: a complete body.
        case complete
        /// The connection closes without the terminating chunk: a body cut mid-stream.
        case cut
        /// Nothing more is sent; the connection stays open until the client closes it or the server stops.
        case hang
    }

    /// A complete response. `Content-Length` is added unless `headers` has it.
    case respond(status: Int, headers: [(String, String)], body: Data)

    /// A chunked (`Transfer-Encoding: chunked`) response: the head and the first chunk at once, then one
    /// chunk per `interval`, then `ending`. Empty chunks are skipped (an empty chunk would end the body).
    case stream(status: Int, headers: [(String, String)], chunks: [Data], interval: Duration, ending: Ending)

    /// The head with `Content-Length: declaredLength`, then only `partialBody`, then the connection closes.
    case cutBody(status: Int, headers: [(String, String)], declaredLength: Int, partialBody: Data)

    /// Reads the request and never answers; the connection stays open until the client closes it or the
    /// server stops.
    case hang

    /// Closes the connection with a TCP reset, without answering.
    case reset

    /// Closes the connection normally, without answering (an empty reply).
    case close

    /// Sends these bytes, which are not HTTP, and closes the connection.
    case garbage(Data)

    /// Waits, then does `response`.
    case delayed(Duration, LoopbackResponse)

    /// Waits until `gate` opens or `timeout` passes, then does `response`.
    case gated(LoopbackGate, timeout: Duration, then: LoopbackResponse)

    // MARK: - Shorthands

    /// A complete `text/plain` response.
    ///
    /// - Parameters:
    ///   - body: The body text.
    ///   - status: The status code.
    /// - Returns: The response.
    public static func text(_ body: String, status: Int = 200) -> LoopbackResponse {
        .respond(status: status, headers: [("Content-Type", "text/plain; charset=utf-8")], body: Data(body.utf8))
    }

    /// A complete `application/json` response.
    ///
    /// - Parameters:
    ///   - body: The JSON text.
    ///   - status: The status code.
    /// - Returns: The response.
    public static func json(_ body: String, status: Int = 200) -> LoopbackResponse {
        .respond(status: status, headers: [("Content-Type", "application/json")], body: Data(body.utf8))
    }

    /// A chunked response of UTF-8 text chunks.
    ///
    /// - Parameters:
    ///   - chunks: The chunks, sent as they are.
    ///   - interval: The pause between chunks.
    ///   - contentType: The `Content-Type`.
    ///   - ending: How the stream ends.
    /// - Returns: The response.
    public static func stream(
        chunks: [String],
        interval: Duration = .zero,
        contentType: String = "text/plain; charset=utf-8",
        ending: Ending = .complete
    ) -> LoopbackResponse {
        .stream(
            status: 200, headers: [("Content-Type", contentType)], chunks: chunks.map { Data($0.utf8) },
            interval: interval, ending: ending)
    }

    /// A chunked `text/event-stream` response, as llama-server streams chat completions.
    ///
    /// - Parameters:
    ///   - chunks: The raw chunks, for example `["data: {…}\n\n", ": ping\n\n"]`.
    ///   - interval: The pause between chunks.
    ///   - ending: How the stream ends.
    /// - Returns: The response.
    public static func eventStream(
        _ chunks: [String], interval: Duration = .zero, ending: Ending = .complete
    ) -> LoopbackResponse {
        stream(chunks: chunks, interval: interval, contentType: "text/event-stream", ending: ending)
    }
}

import Foundation
import ParleyJSON

/// What a handler answers: a status, header fields and a body that is either complete or streamed.
///
/// ```swift
/// router.get("/v1/health") { _ in .json(#"{"status":"ok"}"#) }
/// router.post("/v1/games") { request in
///     .json(encoding: Created(id: id), status: .created)
/// }
/// router.get("/v1/ticks") { _ in
///     .stream(contentType: "text/plain") { writer in
///         for tick in 1...3 { try await writer.write("tick \(tick)\n") }
///     }
/// }
/// ```
///
/// The server adds `Date`, `X-Request-Id`, and the framing: `Content-Length` for complete bodies,
/// `Transfer-Encoding: chunked` for streams (a stream to an HTTP/1.0 client ends by closing the connection).
/// Framing fields a handler sets (`Content-Length`, `Transfer-Encoding`, `Connection`) are replaced, except that
/// `Connection: close` closes the connection after the response. A field whose name is not an HTTP token or whose
/// value holds a line break or another control character is a handler bug: the server answers 500 instead and
/// logs it, so a handler can never split a response.
public struct HTTPServerResponse: Sendable {
    /// The status.
    public var status: HTTPStatus
    /// The header fields the handler chose.
    public var headers: HTTPFields
    /// The body.
    public var body: Body

    /// Creates a response.
    ///
    /// - Parameters:
    ///   - status: The status; 200 by default.
    ///   - headers: The header fields.
    ///   - body: The body; empty by default.
    public init(status: HTTPStatus = .ok, headers: HTTPFields = [:], body: Body = .bytes(Data())) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    // MARK: - Complete bodies

    /// A response with a body of bytes and a `Content-Type` (unless `headers` has one: it wins, as in every
    /// factory here).
    ///
    /// - Parameters:
    ///   - body: The body.
    ///   - contentType: The media type of the body.
    ///   - status: The status.
    ///   - headers: More header fields.
    /// - Returns: The response.
    public static func bytes(
        _ body: Data, contentType: String = "application/octet-stream", status: HTTPStatus = .ok,
        headers: HTTPFields = [:]
    ) -> HTTPServerResponse {
        var all = headers
        if !all.contains(name: "Content-Type") { all["Content-Type"] = contentType }
        return HTTPServerResponse(status: status, headers: all, body: .bytes(body))
    }

    /// An `application/json` response from an encoded JSON document.
    ///
    /// - Parameters:
    ///   - body: The JSON document, UTF-8.
    ///   - status: The status.
    ///   - headers: More header fields.
    /// - Returns: The response.
    public static func json(_ body: Data, status: HTTPStatus = .ok, headers: HTTPFields = [:]) -> HTTPServerResponse {
        bytes(body, contentType: "application/json", status: status, headers: headers)
    }

    /// An `application/json` response from JSON text.
    ///
    /// - Parameters:
    ///   - text: The JSON document.
    ///   - status: The status.
    ///   - headers: More header fields.
    /// - Returns: The response.
    public static func json(_ text: String, status: HTTPStatus = .ok, headers: HTTPFields = [:]) -> HTTPServerResponse {
        json(Data(text.utf8), status: status, headers: headers)
    }

    /// An `application/json` response from a JSON tree.
    ///
    /// - Parameters:
    ///   - value: The JSON document.
    ///   - status: The status.
    ///   - headers: More header fields.
    /// - Returns: The response.
    public static func json(
        _ value: JSONValue, status: HTTPStatus = .ok, headers: HTTPFields = [:]
    )
        -> HTTPServerResponse
    {
        json(Data(value.jsonData()), status: status, headers: headers)
    }

    /// An `application/json` response encoded from a value.
    ///
    /// - Parameters:
    ///   - value: The value to encode.
    ///   - encoder: The encoder.
    ///   - status: The status.
    ///   - headers: More header fields.
    /// - Returns: The response.
    /// - Throws: The encoder's error when `value` cannot be encoded (the server answers 500 if the handler
    ///   lets it through).
    public static func json(
        encoding value: some Encodable, encoder: JSONEncoder = JSONEncoder(), status: HTTPStatus = .ok,
        headers: HTTPFields = [:]
    ) throws -> HTTPServerResponse {
        json(try encoder.encode(value), status: status, headers: headers)
    }

    /// A `text/plain; charset=utf-8` response.
    ///
    /// - Parameters:
    ///   - text: The body.
    ///   - status: The status.
    ///   - headers: More header fields.
    /// - Returns: The response.
    public static func text(_ text: String, status: HTTPStatus = .ok, headers: HTTPFields = [:]) -> HTTPServerResponse {
        bytes(Data(text.utf8), contentType: "text/plain; charset=utf-8", status: status, headers: headers)
    }

    /// An `application/problem+json` response (RFC 9457) with the problem's status.
    ///
    /// - Parameters:
    ///   - problem: The problem.
    ///   - headers: More header fields, for example `Retry-After`.
    /// - Returns: The response.
    public static func problem(_ problem: ProblemDetails, headers: HTTPFields = [:]) -> HTTPServerResponse {
        bytes(problem.jsonData, contentType: ProblemDetails.mediaType, status: problem.status, headers: headers)
    }

    /// A 204 No Content response.
    ///
    /// - Parameter headers: The header fields.
    /// - Returns: The response.
    public static func noContent(headers: HTTPFields = [:]) -> HTTPServerResponse {
        HTTPServerResponse(status: .noContent, headers: headers)
    }

    // MARK: - Streamed bodies

    /// A response whose body a closure writes piece by piece, each piece sent as it is written.
    ///
    /// The server sends the status and headers, then runs `produce` on the connection's task; what it writes
    /// goes out at once as chunks. When the client goes away or the server stops, `produce`'s task is cancelled
    /// and its next write throws. When `produce` returns, the body ends; when it throws, the connection is cut
    /// so that the client sees an incomplete body (the status is already sent). To fail with a proper status,
    /// throw from the handler before returning the stream.
    ///
    /// - Parameters:
    ///   - status: The status.
    ///   - headers: More header fields.
    ///   - contentType: The media type of the body.
    ///   - produce: Writes the body; it receives the writer.
    /// - Returns: The response.
    public static func stream(
        status: HTTPStatus = .ok, headers: HTTPFields = [:], contentType: String = "application/octet-stream",
        _ produce: @escaping @Sendable (ResponseBodyWriter) async throws -> Void
    ) -> HTTPServerResponse {
        var all = headers
        if !all.contains(name: "Content-Type") { all["Content-Type"] = contentType }
        return HTTPServerResponse(status: status, headers: all, body: .stream(ResponseBodyStream(produce)))
    }

    /// A response whose body is the chunks of an asynchronous sequence, each sent as it arrives.
    ///
    /// When the client goes away, the task iterating `chunks` is cancelled: an `AsyncStream`'s `onTermination`
    /// runs, which is where its producer should be cancelled.
    ///
    /// - Parameters:
    ///   - chunks: The pieces of the body.
    ///   - status: The status.
    ///   - headers: More header fields.
    ///   - contentType: The media type of the body.
    /// - Returns: The response.
    public static func stream<Chunks: AsyncSequence & Sendable>(
        _ chunks: Chunks, status: HTTPStatus = .ok, headers: HTTPFields = [:],
        contentType: String = "application/octet-stream"
    ) -> HTTPServerResponse where Chunks.Element == Data {
        var all = headers
        if !all.contains(name: "Content-Type") { all["Content-Type"] = contentType }
        return HTTPServerResponse(status: status, headers: all, body: .stream(ResponseBodyStream(chunks)))
    }
}

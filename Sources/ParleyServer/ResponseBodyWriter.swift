import Foundation

/// Writes the pieces of a streamed response body; given to the producer of a ``ResponseBodyStream``.
///
/// Each write sends its piece at once (as one chunk of `Transfer-Encoding: chunked`) and returns when the
/// kernel took it, so a producer runs at the pace of its client. Write from one task at a time, and only while
/// the producer runs.
///
/// ```swift
/// .stream(contentType: "application/x-ndjson") { writer in
///     for try await line in lines { try await writer.write(line + "\n") }
/// }
/// ```
public struct ResponseBodyWriter: Sendable {
    let channel: BodyChannel

    /// Sends bytes; empty data sends nothing.
    ///
    /// - Parameter bytes: The next piece of the body.
    /// - Throws: ``HTTPServerError/clientDisconnected`` when the client went away,
    ///   ``HTTPServerError/writeTimedOut`` when the client stopped reading for the write timeout,
    ///   ``HTTPServerError/bodyWriterMisused`` when called after the producer returned or from two tasks at
    ///   once, and `CancellationError` when the server is stopping.
    public func write(_ bytes: Data) async throws {
        try await channel.write(bytes)
    }

    /// Sends text as UTF-8; empty text sends nothing.
    ///
    /// - Parameter text: The next piece of the body.
    /// - Throws: As ``write(_:)-(Data)``.
    public func write(_ text: String) async throws {
        try await channel.write(Data(text.utf8))
    }

    /// Sends one server-sent event (see ``ServerSentEvent/encoded``).
    ///
    /// - Parameter event: The event.
    /// - Throws: As ``write(_:)-(Data)``.
    public func send(_ event: ServerSentEvent) async throws {
        try await channel.write(event.encodedData)
    }

    /// Sends a server-sent events comment, `: text` and a blank line: readers (`EventSource`) ignore it, so it keeps
    /// an idle stream's connection alive (a heartbeat) without dispatching anything. Line breaks in `text` are
    /// removed, so it cannot start a field.
    ///
    /// - Parameter text: The comment.
    /// - Throws: As ``write(_:)-(Data)``.
    public func sendComment(_ text: String) async throws {
        let line = String(String.UnicodeScalarView(text.unicodeScalars.filter { $0 != "\n" && $0 != "\r" }))
        try await channel.write(Data(": \(line)\n\n".utf8))
    }
}

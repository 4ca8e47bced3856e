import Foundation

/// A response body that is produced while it is sent: the producer writes pieces to a ``ResponseBodyWriter``.
///
/// Usually made by ``HTTPServerResponse/stream(status:headers:contentType:_:)``,
/// ``HTTPServerResponse/stream(_:status:headers:contentType:)`` or the event-stream factories.
public struct ResponseBodyStream: Sendable {
    /// Writes the body; the server runs it once, on the connection's task, and cancels it when the client goes
    /// away.
    let produce: @Sendable (ResponseBodyWriter) async throws -> Void

    /// A body that `produce` writes.
    ///
    /// - Parameter produce: Writes the body; it receives the writer.
    public init(_ produce: @escaping @Sendable (ResponseBodyWriter) async throws -> Void) {
        self.produce = produce
    }

    /// A body made of the chunks of an asynchronous sequence, sent as they arrive.
    ///
    /// - Parameter chunks: The pieces of the body; empty ones are skipped.
    public init<Chunks: AsyncSequence & Sendable>(_ chunks: Chunks) where Chunks.Element == Data {
        produce = { writer in
            for try await chunk in chunks {
                try await writer.write(chunk)
            }
        }
    }
}

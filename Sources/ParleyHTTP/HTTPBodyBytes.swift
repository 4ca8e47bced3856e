import Foundation

/// The body of a streamed response as chunks of bytes, in the order they arrived.
///
/// Chunk sizes follow the network and mean nothing. A body can be iterated once: a second iterator (from this
/// value, a copy of it, or ``HTTPStreamingResponse/lines``) throws ``HTTPClientError/bodyAlreadyConsumed``.
///
/// The iteration ends normally only after the complete body; a connection lost or a timeout mid-body throws
/// the ``HTTPClientError`` after the chunks that did arrive. Cancelling the iterating task, or abandoning the
/// iteration, aborts the transfer.
public struct HTTPBodyBytes: AsyncSequence, Sendable {
    /// A chunk of the body.
    public typealias Element = Data

    let source: HTTPBodySource

    /// Starts reading the body.
    ///
    /// - Returns: The only iterator that reads this body.
    public func makeAsyncIterator() -> Iterator {
        Iterator(source: source, isSecondReader: !source.claim())
    }

    /// Reads the body's chunks.
    public struct Iterator: AsyncIteratorProtocol {
        /// Keeps the transfer alive while iterating; when the iterator goes, the transfer may be cancelled.
        private let source: HTTPBodySource
        private var isSecondReader: Bool

        init(source: HTTPBodySource, isSecondReader: Bool) {
            self.source = source
            self.isSecondReader = isSecondReader
        }

        /// The next chunk, waiting for it to arrive.
        ///
        /// - Returns: The chunk, or `nil` after the complete body.
        /// - Throws: ``HTTPClientError`` when the transfer failed, timed out or was cancelled.
        public mutating func next() async throws -> Data? {
            if isSecondReader {
                isSecondReader = false
                throw HTTPClientError.bodyAlreadyConsumed.with(url: source.channel.url)
            }
            return try await source.channel.nextChunk()
        }
    }

    /// Reads the whole body.
    ///
    /// - Parameter maximumBodySize: The largest body accepted, in bytes.
    /// - Returns: The body.
    /// - Throws: ``HTTPClientError/responseTooLarge`` past the limit (the transfer is aborted), or the
    ///   transfer's error.
    public func collect(maximumBodySize: Int) async throws -> Data {
        var body = Data()
        for try await chunk in self {
            guard body.count + chunk.count <= maximumBodySize else {
                source.channel.cancel()
                throw HTTPClientError.responseTooLarge.with(
                    url: source.channel.url, detail: "more than \(maximumBodySize) bytes")
            }
            body.append(chunk)
        }
        return body
    }
}

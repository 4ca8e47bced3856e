import Foundation
import ParleyBasics

/// The body of a streamed response as chunks of bytes, in the order they arrived.
///
/// Chunk sizes follow the network and mean nothing. A body can be iterated once: a second iterator (from this
/// value, a copy of it, or ``HTTPStreamingResponse/lines``) throws ``HTTPClientError/bodyAlreadyConsumed``.
///
/// The iteration ends normally only after the complete body; a connection lost or a timeout mid-body throws
/// the ``HTTPClientError`` after the chunks that did arrive. Cancelling the iterating task, or abandoning the
/// iteration, aborts the transfer.
///
/// A body read through ``HTTPStreamingResponse/limitingBody(to:)`` has a size limit: the chunk that would pass
/// it is not delivered, the transfer is aborted, and the iteration throws ``HTTPClientError/responseTooLarge``.
public struct HTTPBodyBytes: AsyncSequence, Sendable {
    /// A chunk of the body.
    public typealias Element = Data

    let source: HTTPBodySource
    /// The most bytes the body may have, or `nil` for no limit.
    let maximumSize: Int?

    init(source: HTTPBodySource, maximumSize: Int? = nil) {
        self.source = source
        self.maximumSize = maximumSize
    }

    /// Starts reading the body.
    ///
    /// - Returns: The only iterator that reads this body.
    public func makeAsyncIterator() -> Iterator {
        Iterator(source: source, isSecondReader: !source.claim(), maximumSize: maximumSize)
    }

    /// Reads the body's chunks.
    public struct Iterator: AsyncIteratorProtocol {
        /// Keeps the transfer alive while iterating; when the iterator goes, the transfer may be cancelled.
        private let source: HTTPBodySource
        private var isSecondReader: Bool
        private let maximumSize: Int?
        private var received = 0

        init(source: HTTPBodySource, isSecondReader: Bool, maximumSize: Int?) {
            self.source = source
            self.isSecondReader = isSecondReader
            self.maximumSize = maximumSize
        }

        /// The next chunk, waiting for it to arrive.
        ///
        /// - Returns: The chunk, or `nil` after the complete body.
        /// - Throws: ``HTTPClientError`` when the transfer failed, timed out or was cancelled, and
        ///   ``HTTPClientError/responseTooLarge`` when the body passes its limit.
        public mutating func next() async throws -> Data? {
            if isSecondReader {
                isSecondReader = false
                throw HTTPClientError.bodyAlreadyConsumed.with(url: source.channel.url)
            }
            guard let chunk = try await source.channel.nextChunk() else { return nil }
            if let maximumSize {
                received = received.saturatingAdding(chunk.count)
                guard received <= maximumSize else {
                    source.channel.cancel()
                    throw HTTPClientError.responseTooLarge.with(
                        url: source.channel.url, detail: "more than \(maximumSize) bytes")
                }
            }
            return chunk
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

    /// Reads the body up to a number of bytes and abandons the rest, for bodies that are only quoted (an error
    /// page, a server's explanation): whatever the server sends, no more than `maximumBytes` are kept.
    ///
    /// - Parameter maximumBytes: The most bytes to keep.
    /// - Returns: The first bytes of the body, and whether the body was longer (then the transfer is aborted).
    /// - Throws: The transfer's error, when it fails before `maximumBytes` arrived.
    public func collectPrefix(maximumBytes: Int) async throws -> (prefix: Data, truncated: Bool) {
        var body = Data()
        for try await chunk in self {
            let room = Swift.max(0, maximumBytes - body.count)
            body.append(chunk.prefix(room))
            if chunk.count > room {
                source.channel.cancel()
                return (body, true)
            }
        }
        return (body, false)
    }
}

import Foundation

/// The body of a streamed response as UTF-8 lines, for line-based formats such as NDJSON and server-sent
/// events.
///
/// Lines end at `\n` or `\r\n`; the terminator is not part of the line. Chunk boundaries may fall anywhere,
/// inside a multi-byte character or between `\r` and `\n`: a line is decoded only once it is complete. Invalid
/// UTF-8 becomes U+FFFD. A last line without a terminator is returned when the body ends normally; when the
/// transfer fails, the lines completed before the failure come first and the incomplete one is dropped.
///
/// Like ``HTTPBodyBytes``, this reads the body once.
public struct HTTPBodyLines: AsyncSequence, Sendable {
    /// A line without its terminator.
    public typealias Element = String

    let bytes: HTTPBodyBytes

    /// Starts reading the body.
    ///
    /// - Returns: The only iterator that reads this body.
    public func makeAsyncIterator() -> Iterator {
        Iterator(base: bytes.makeAsyncIterator())
    }

    /// Reads the body's lines.
    public struct Iterator: AsyncIteratorProtocol {
        private var base: HTTPBodyBytes.Iterator
        private var splitter = LineSplitter()
        private var ready: [String] = []
        private var readyIndex = 0
        private var bodyEnded = false

        init(base: HTTPBodyBytes.Iterator) {
            self.base = base
        }

        /// The next line, waiting for it to complete.
        ///
        /// - Returns: The line, or `nil` after the complete body.
        /// - Throws: ``HTTPClientError`` when the transfer failed, timed out or was cancelled.
        public mutating func next() async throws -> String? {
            while readyIndex == ready.count {
                if bodyEnded { return nil }
                ready = []
                readyIndex = 0
                let chunk: Data?
                do {
                    chunk = try await base.next()
                } catch {
                    // The incomplete last line is not a line: drop it, and end after this error.
                    bodyEnded = true
                    splitter = LineSplitter()
                    throw error
                }
                if let chunk {
                    ready = splitter.append(chunk)
                } else {
                    bodyEnded = true
                    ready = splitter.finish().map { [$0] } ?? []
                }
            }
            defer { readyIndex += 1 }
            return ready[readyIndex]
        }
    }
}

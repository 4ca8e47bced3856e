/// Server-sent events parsed from an asynchronous sequence of lines.
///
/// Usually obtained as ``HTTPStreamingResponse/serverSentEvents``, but any sequence of lines works. Errors of
/// the lines sequence pass through; when it ends, a last event without its closing blank line is delivered.
///
/// ```swift
/// for try await event in response.serverSentEvents {
///     if event.data == "[DONE]" { break }
///     let chunk = try JSONDecoder().decode(Chunk.self, from: Data(event.data.utf8))
/// }
/// ```
public struct ServerSentEventStream<Lines: AsyncSequence>: AsyncSequence where Lines.Element == String {
    /// A parsed event.
    public typealias Element = ServerSentEvent

    private let lines: Lines

    /// Parses events from lines.
    ///
    /// - Parameter lines: The lines of an event stream, without terminators.
    public init(_ lines: Lines) {
        self.lines = lines
    }

    /// Starts parsing.
    ///
    /// - Returns: An iterator over the events.
    public func makeAsyncIterator() -> Iterator {
        Iterator(lines: lines.makeAsyncIterator())
    }

    /// Parses events as lines arrive.
    public struct Iterator: AsyncIteratorProtocol {
        private var lines: Lines.AsyncIterator
        private var parser = SSEParser()
        private var ended = false

        init(lines: Lines.AsyncIterator) {
            self.lines = lines
        }

        /// The next event, waiting for its lines.
        ///
        /// - Returns: The event, or `nil` at the end of the stream.
        /// - Throws: The error of the lines sequence.
        public mutating func next() async throws -> ServerSentEvent? {
            while !ended {
                guard let line = try await lines.next() else {
                    ended = true
                    return parser.finish()
                }
                if let event = parser.feed(line: line) {
                    return event
                }
            }
            return nil
        }
    }
}

extension ServerSentEventStream: Sendable where Lines: Sendable {}

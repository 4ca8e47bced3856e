extension HTTPServer {
    /// How long the server waits for a client, and for itself when stopping.
    ///
    /// Each timeout is a deadline for a whole step, not a pause between bytes: a client that sends one byte per
    /// second (slowloris) is cut when its step's deadline passes, however steadily it trickles.
    public struct Timeouts: Sendable, Equatable {
        /// From the first byte of a request until its head (request line and header fields) is complete. Past
        /// it the server answers 408 Request Timeout and closes the connection. Default 10 seconds.
        public var header: Duration
        /// From the end of the head until the body is complete. Past it: 408, and the connection is closed.
        /// Default 30 seconds.
        public var body: Duration
        /// How long a connection may wait for the first byte of a request: a new connection, or a kept-alive one
        /// between requests. Past it the server closes the connection without a response. Default 10 seconds: an
        /// idle socket costs a slot of ``Limits/maximumConnections`` (and, at that limit, the one idle longest is
        /// closed to admit a new connection anyway), and a client that keeps connections alive opens a new one.
        public var idle: Duration
        /// How long one write may wait for the client to read (its receive window full). Past it the connection
        /// is cut; a streamed body's producer gets ``HTTPServerError/writeTimedOut``. Default 30 seconds.
        public var write: Duration
        /// After the response that closes a connection, how long the server keeps reading and discarding what
        /// the client still sends, so that the client reads the response before the connection goes. Default
        /// 2 seconds.
        public var linger: Duration
        /// When stopping, how long requests in progress may take to finish before their connections are cut
        /// (their tasks cancelled). Default 5 seconds.
        public var shutdownGrace: Duration

        /// Creates timeouts; every value must be positive.
        ///
        /// - Parameters:
        ///   - header: The time to send a request's head.
        ///   - body: The time to send a request's body.
        ///   - idle: The time a connection may wait for a request.
        ///   - write: The time one write may wait for the client.
        ///   - linger: The time to drain a client before closing.
        ///   - shutdownGrace: The time requests in progress get when the server stops.
        public init(
            header: Duration = .seconds(10),
            body: Duration = .seconds(30),
            idle: Duration = .seconds(10),
            write: Duration = .seconds(30),
            linger: Duration = .seconds(2),
            shutdownGrace: Duration = .seconds(5)
        ) {
            self.header = header
            self.body = body
            self.idle = idle
            self.write = write
            self.linger = linger
            self.shutdownGrace = shutdownGrace
        }

        /// Every timeout set to the same duration: short ones for tests.
        ///
        /// - Parameter duration: The duration of each timeout.
        /// - Returns: The timeouts.
        public static func all(_ duration: Duration) -> Timeouts {
            Timeouts(
                header: duration, body: duration, idle: duration, write: duration, linger: duration,
                shutdownGrace: duration)
        }

        /// The name of the first timeout that is not positive, or `nil`.
        var invalidSetting: String? {
            let settings = [
                ("header", header), ("body", body), ("idle", idle), ("write", write), ("linger", linger),
                ("shutdownGrace", shutdownGrace),
            ]
            return settings.first { $0.1 <= .zero }.map { "timeouts.\($0.0) is \($0.1); it must be positive" }
        }
    }
}

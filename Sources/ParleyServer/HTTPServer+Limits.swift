extension HTTPServer {
    /// The most a client may send or hold, each with the status the server answers beyond it.
    ///
    /// The defaults suit a local game API: JSON bodies of a few kilobytes, one client per game, a few hundred
    /// connections at most.
    public struct Limits: Sendable, Equatable {
        /// The most bytes of a request's head: the request line and the header fields with their line ends
        /// (trailer fields of a chunked body count too). Beyond it: 431 Request Header Fields Too Large. Default
        /// 16 KiB.
        public var maximumHeaderSize: Int
        /// The most header fields in a request (and trailer fields after a chunked body). Beyond it: 431.
        /// Default 100.
        public var maximumHeaderCount: Int
        /// The most bytes of a request target (path and query). Beyond it: 414 URI Too Long. Default 8 KiB.
        public var maximumTargetLength: Int
        /// The most bytes of a request body, after chunked decoding. Beyond it: 413 Content Too Large, sent as
        /// soon as the server knows (from `Content-Length` before reading the body, or from the chunk that passes
        /// the limit), and the connection is closed. Default 1 MiB.
        public var maximumBodySize: Int
        /// The most connections open at once. At the limit, a new connection takes the slot of the connection that
        /// has waited longest for a request (a kept-alive one between requests, or one that has not sent a whole
        /// request head yet), which is closed; only when every connection is answering a request does a new one get
        /// 503 Service Unavailable with `Retry-After: 1`, and is closed. Default 256.
        public var maximumConnections: Int

        /// Creates limits; every value must be at least 1.
        ///
        /// - Parameters:
        ///   - maximumHeaderSize: The most bytes of a request head.
        ///   - maximumHeaderCount: The most header fields.
        ///   - maximumTargetLength: The most bytes of a request target.
        ///   - maximumBodySize: The most bytes of a request body.
        ///   - maximumConnections: The most connections open at once.
        public init(
            maximumHeaderSize: Int = 16 * 1024,
            maximumHeaderCount: Int = 100,
            maximumTargetLength: Int = 8 * 1024,
            maximumBodySize: Int = 1024 * 1024,
            maximumConnections: Int = 256
        ) {
            self.maximumHeaderSize = maximumHeaderSize
            self.maximumHeaderCount = maximumHeaderCount
            self.maximumTargetLength = maximumTargetLength
            self.maximumBodySize = maximumBodySize
            self.maximumConnections = maximumConnections
        }

        /// The name of the first setting that is not positive, or `nil`.
        var invalidSetting: String? {
            let settings = [
                ("maximumHeaderSize", maximumHeaderSize), ("maximumHeaderCount", maximumHeaderCount),
                ("maximumTargetLength", maximumTargetLength), ("maximumBodySize", maximumBodySize),
                ("maximumConnections", maximumConnections),
            ]
            return settings.first { $0.1 < 1 }.map { "limits.\($0.0) is \($0.1); it must be at least 1" }
        }
    }
}

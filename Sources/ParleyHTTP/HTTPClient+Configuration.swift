extension HTTPClient {
    /// Settings shared by every request of a client.
    public struct Configuration: Sendable {
        /// How many bytes of a streamed body may wait for the reader before the transfer is paused.
        ///
        /// When the reader catches up (half the buffer drained), the transfer resumes. This bounds memory per
        /// stream whatever the speed of the server. The default is 1 MiB.
        public var streamBufferLimit: Int
        /// The `User-Agent` sent when a request does not set one.
        public var userAgent: String

        /// Creates a configuration.
        ///
        /// - Parameters:
        ///   - streamBufferLimit: The bytes buffered per stream before the transfer pauses; at least 1.
        ///   - userAgent: The default `User-Agent`.
        public init(streamBufferLimit: Int = 1 << 20, userAgent: String = "Parley") {
            self.streamBufferLimit = streamBufferLimit
            self.userAgent = userAgent
        }
    }
}

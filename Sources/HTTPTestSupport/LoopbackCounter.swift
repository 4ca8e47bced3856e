import Synchronization

/// A counter a test shares with a loopback server's handler, which runs on the server's threads: for a server that
/// answers the first request one way and the next ones another.
///
/// ```swift
/// let count = LoopbackCounter()
/// let server = try LoopbackHTTPServer { request in
///     count.next() == 1 ? .json(#"{"error":{"message":"loading model"}}"#, status: 503) : .text("ok")
/// }
/// ```
public final class LoopbackCounter: Sendable {
    private let value = Mutex(0)

    /// Creates a counter at zero.
    public init() {}

    /// Adds one and returns the new count: 1 on the first call.
    public func next() -> Int {
        value.withLock {
            $0 += 1
            return $0
        }
    }

    /// The count so far.
    public var count: Int { value.withLock { $0 } }
}

/// Why a socket read or write of a connection did not complete.
enum IOFailure: Error, Equatable {
    /// The peer closed its side (a read got end of stream) or reset the connection.
    case closedByPeer
    /// The deadline passed, or a write stalled for longer than the write timeout.
    case timedOut
    /// The connection's task was cancelled, or the reactor shut down: the server is cutting connections.
    case cancelled
    /// The server began to stop while the connection was between requests.
    case draining
    /// A system call failed with this `errno`.
    case failed(Int32)
}

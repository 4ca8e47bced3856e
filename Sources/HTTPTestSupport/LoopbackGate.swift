import Glibc
import Synchronization

/// A gate that holds responses of a ``LoopbackHTTPServer`` until the test opens it.
///
/// Use with ``LoopbackResponse/gated(_:timeout:then:)`` to keep many requests in flight at once, and
/// ``waitingCount`` to see how many are held.
public final class LoopbackGate: Sendable {
    let event: PipeEvent
    private let waiting = Mutex(0)

    /// Creates a closed gate.
    ///
    /// - Throws: ``SocketError`` when no pipe can be created.
    public init() throws {
        event = try PipeEvent()
    }

    deinit {
        event.close()
    }

    /// Opens the gate for every held and future response.
    public func open() {
        event.set()
    }

    /// Whether the gate is open.
    public var isOpen: Bool { event.isSet }

    /// The number of responses waiting at the gate now.
    public var waitingCount: Int { waiting.withLock { $0 } }

    /// Holds the calling server thread until the gate opens, `timeout` passes or the server stops.
    func pass(timeout: Duration, stop: PipeEvent) {
        waiting.withLock { $0 += 1 }
        defer { waiting.withLock { $0 -= 1 } }
        _ = SocketIO.wait(event.readDescriptor, for: Int32(POLLIN), stops: [stop], timeout: timeout)
    }
}

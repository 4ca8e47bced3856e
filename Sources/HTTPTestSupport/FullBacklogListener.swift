import Foundation
import Glibc

/// A port on 127.0.0.1 that is listening but never completes a connection: connecting to it times out.
///
/// It listens with the smallest backlog, never accepts, and fills its queue with its own connections. Linux
/// then drops further connection attempts (SYNs) instead of refusing them, so a client waits until its connect
/// timeout: a reliable way to test connect timeouts without sending packets off this machine.
public final class FullBacklogListener: Sendable {
    /// The port to connect to, on 127.0.0.1.
    public let port: Int
    private let descriptors: [Int32]

    /// Creates the listener and fills its queue.
    ///
    /// - Throws: ``SocketError`` when the sockets cannot be set up or the queue does not fill up.
    public init() throws {
        let listener = try SocketIO.listenOnLoopback(backlog: 0)
        var descriptors = [listener.descriptor]
        // Connect until an attempt does not complete at once: the queue is then full.
        for _ in 0..<64 {
            let client = socket(
                AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            guard client >= 0 else { break }
            descriptors.append(client)
            var address = SocketIO.loopbackAddress(port: UInt16(listener.port))
            _ = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(client, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            var probe = pollfd(fd: client, events: Int16(POLLOUT), revents: 0)
            if poll(&probe, 1, 200) == 0 {
                port = listener.port
                self.descriptors = descriptors
                return
            }
        }
        descriptors.forEach { closeDescriptor($0) }
        errno = EAGAIN
        throw SocketError("listen (the backlog never filled up)")
    }

    deinit {
        descriptors.forEach { closeDescriptor($0) }
    }

    /// `http://127.0.0.1:<port>`.
    public var baseURL: String { "http://127.0.0.1:\(port)" }
}

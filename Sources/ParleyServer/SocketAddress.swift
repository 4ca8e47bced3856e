/// An IP address and port: where the server listens, and the peer of a connection.
///
/// ```swift
/// request.peer.description   // "127.0.0.1:53122", or "[::1]:53122" for IPv6
/// ```
public struct SocketAddress: Sendable, Hashable, CustomStringConvertible {
    /// The numeric address, for example `127.0.0.1` or `::1`.
    public var host: String
    /// The port.
    public var port: Int

    /// Creates an address.
    ///
    /// - Parameters:
    ///   - host: The numeric address.
    ///   - port: The port.
    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// Whether the host is an IPv6 address.
    public var isIPv6: Bool { host.contains(":") }

    /// The address with its port: `127.0.0.1:8080`, `[::1]:8080`.
    public var description: String { isIPv6 ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

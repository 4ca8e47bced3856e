import Glibc

/// Resolving the configured host, binding and listening: the listening socket of a server.
struct ListeningSocket {
    /// A resolved address, ready for `bind`.
    struct Resolved {
        var storage: sockaddr_storage
        var length: socklen_t

        var family: Int32 { Int32(storage.ss_family) }

        /// Whether only this machine can reach the address: 127.0.0.0/8, `::1`, or `::ffff:127.x.y.z`.
        var isLoopback: Bool {
            var copy = storage
            return withUnsafeBytes(of: &copy) { raw -> Bool in
                switch family {
                case AF_INET:
                    let address = raw.load(as: sockaddr_in.self)
                    return UInt32(bigEndian: address.sin_addr.s_addr) >> 24 == 127
                case AF_INET6:
                    let address = raw.load(as: sockaddr_in6.self)
                    let bytes = withUnsafeBytes(of: address.sin6_addr) { Array($0) }
                    let isIPv6Loopback = bytes[0..<15].allSatisfy { $0 == 0 } && bytes[15] == 1
                    let isMappedIPv4Loopback =
                        bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF
                        && bytes[12] == 127
                    return isIPv6Loopback || isMappedIPv4Loopback
                default:
                    return false
                }
            }
        }

        /// The numeric address and port.
        var socketAddress: SocketAddress {
            SocketAddress(storage: storage)
        }
    }

    let descriptor: Int32
    let address: SocketAddress

    /// Resolves a host (an IP address or a name) and port to the first address `getaddrinfo` gives.
    static func resolve(host: String, port: Int) throws(HTTPServerError) -> Resolved {
        let location = "\(host):\(port)"
        guard !host.isEmpty else {
            throw HTTPServerError.cannotResolveHost.with(address: "\"\"", detail: "the host is empty")
        }
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw HTTPServerError.cannotResolveHost.with(
                address: location, detail: String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(list) }
        var storage = sockaddr_storage()
        let length = min(Int(first.pointee.ai_addrlen), MemoryLayout<sockaddr_storage>.size)
        withUnsafeMutableBytes(of: &storage) { target in
            target.copyMemory(from: UnsafeRawBufferPointer(start: first.pointee.ai_addr, count: length))
        }
        return Resolved(storage: storage, length: socklen_t(length))
    }

    /// Binds a non-blocking listening socket to an address.
    init(binding resolved: Resolved, host: String, port: Int) throws(HTTPServerError) {
        let location = resolved.socketAddress.description
        let descriptor = socket(
            resolved.family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue),
            0)
        guard descriptor >= 0 else { throw .systemCall("socket", errno: errno, address: location) }
        var on: Int32 = 1
        // A restarted server may bind again while connections of the last one are in TIME_WAIT.
        _ = setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        var storage = resolved.storage
        let bound = withUnsafePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(descriptor, $0, resolved.length) }
        }
        guard bound == 0 else {
            let error = HTTPServerError.systemCall("bind", errno: errno, address: location)
            close(descriptor)
            throw error
        }
        guard listen(descriptor, SOMAXCONN) == 0 else {
            let error = HTTPServerError.systemCall("listen", errno: errno, address: location)
            close(descriptor)
            throw error
        }
        var named = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let gotName = withUnsafeMutablePointer(to: &named) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard gotName == 0 else {
            let error = HTTPServerError.systemCall("getsockname", errno: errno, address: location)
            close(descriptor)
            throw error
        }
        self.descriptor = descriptor
        address = SocketAddress(storage: named)
    }
}

import Glibc

extension SocketAddress {
    /// The numeric address and port of a socket address; `?` for a family other than IPv4 and IPv6.
    init(storage: sockaddr_storage) {
        var copy = storage
        let (host, port): (String, Int) = withUnsafeBytes(of: &copy) { raw in
            var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
            switch Int32(storage.ss_family) {
            case AF_INET:
                var address = raw.load(as: sockaddr_in.self)
                inet_ntop(AF_INET, &address.sin_addr, &text, socklen_t(text.count))
                return (Self.string(text), Int(UInt16(bigEndian: address.sin_port)))
            case AF_INET6:
                var address = raw.load(as: sockaddr_in6.self)
                inet_ntop(AF_INET6, &address.sin6_addr, &text, socklen_t(text.count))
                return (Self.string(text), Int(UInt16(bigEndian: address.sin6_port)))
            default:
                return ("?", 0)
            }
        }
        self.init(host: host, port: port)
    }

    /// The text of a NUL-terminated buffer.
    private static func string(_ characters: [CChar]) -> String {
        String(decoding: characters.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

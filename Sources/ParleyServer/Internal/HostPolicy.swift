import Glibc

/// The names a server answers to, against DNS rebinding.
///
/// A page of another site can make its own name resolve to 127.0.0.1 once the browser has loaded it: from then on the
/// browser sends the page's requests to the server on the player's machine, with the page's name in `Host` and, being
/// "the same origin", reads the answers. A server listening on a loopback address is only ever reached under a
/// loopback name, so it serves only requests whose `Host` names one: `localhost`, `127.x.y.z`, `[::1]` (with any port,
/// so that a tunnel or proxy on this machine still works), or the host the server was configured with. A server
/// listening beyond loopback needs a bearer token, which a page of another site does not have; it serves any `Host`.
struct HostPolicy: Sendable {
    /// The host names served, lower case, IPv6 addresses in brackets; `nil` when any is (not on loopback).
    let names: Set<String>?
    /// The port the server listens on, for the authorities of its own pages.
    let port: Int?
    /// What the server listens on, for the problem's detail: `127.0.0.1:8080`.
    let address: String

    /// The policy of a server.
    ///
    /// - Parameters:
    ///   - configuredHost: The host the server was configured with (`--host`), served too.
    ///   - isLoopback: Whether the server listens on a loopback address; if not, any `Host` is served.
    ///   - port: The port the server listens on, `nil` when unknown.
    ///   - address: The address it listens on, for messages.
    init(configuredHost: String, isLoopback: Bool, port: Int?, address: String) {
        self.port = port
        self.address = address
        guard isLoopback else {
            names = nil
            return
        }
        var names: Set<String> = ["localhost", "[::1]"]
        let configured = configuredHost.lowercased()
        names.insert(configured.contains(":") && !configured.hasPrefix("[") ? "[\(configured)]" : configured)
        self.names = names
    }

    /// The host and port of an authority (`Host`, or an origin after its scheme): `nil` for one that is malformed.
    static func split(_ authority: some StringProtocol) -> (name: String, port: Int?)? {
        var text = authority.lowercased()[...]
        var port: Int?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            let rest = text[text.index(after: close)...]
            text = text[...close]
            if !rest.isEmpty {
                guard rest.hasPrefix(":"), let value = Self.port(rest.dropFirst()) else { return nil }
                port = value
            }
        } else if let colon = text.lastIndex(of: ":") {
            guard let value = Self.port(text[text.index(after: colon)...]) else { return nil }
            port = value
            text = text[..<colon]
        }
        // One trailing dot names the same host (`localhost.`).
        if text.hasSuffix("."), !text.hasPrefix("[") { text = text.dropLast() }
        guard !text.isEmpty, !text.contains(":") || text.hasPrefix("[") else { return nil }
        return (String(text), port)
    }

    private static func port(_ digits: some StringProtocol) -> Int? {
        guard (1...5).contains(digits.utf8.count), digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
            return nil
        }
        return Int(digits)
    }

    /// Whether a host name (as ``split(_:)`` gives it) names this machine's loopback: `localhost`, an IPv4 address in
    /// 127.0.0.0/8, `[::1]`, or `[::ffff:127.x.y.z]`.
    static func isLoopbackName(_ name: String) -> Bool {
        if name == "localhost" { return true }
        if name.hasPrefix("["), name.hasSuffix("]") {
            var address = in6_addr()
            guard inet_pton(AF_INET6, String(name.dropFirst().dropLast()), &address) == 1 else { return false }
            let bytes = withUnsafeBytes(of: address) { Array($0) }
            let isLoopback = bytes[0..<15].allSatisfy { $0 == 0 } && bytes[15] == 1
            let isMapped = bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF
            return isLoopback || (isMapped && bytes[12] == 127)
        }
        var address = in_addr()
        guard inet_pton(AF_INET, name, &address) == 1 else { return false }
        return UInt32(bigEndian: address.s_addr) >> 24 == 127
    }

    /// Whether a request addressed to this `Host` is served.
    ///
    /// - Parameter host: The request's `Host` field value.
    /// - Returns: `true` when the server is not on loopback, or the value names a loopback address or the configured
    ///   host, with or without a port.
    func serves(_ host: String) -> Bool {
        guard let names else { return true }
        guard let name = Self.split(host)?.name else { return false }
        return names.contains(name) || Self.isLoopbackName(name)
    }

    /// Whether an `Origin` is one of this server's own pages: `http://` and an authority the server answers to, with
    /// its port; or exactly the `Host` the request was sent to, when that is served (a tunnel or proxy on this
    /// machine may forward another port). A server not on loopback has only the second.
    ///
    /// - Parameters:
    ///   - origin: The request's `Origin`.
    ///   - host: The request's `Host`, if it has one.
    func isOwnOrigin(_ origin: String, host: String?) -> Bool {
        guard let normalized = CORSPolicy.normalized(origin), normalized.hasPrefix("http://") else { return false }
        let authority = normalized.dropFirst("http://".count)
        if let host, !host.isEmpty, serves(host), ASCII.equalsIgnoringCase(String(authority), host) { return true }
        guard let names, let port, let parts = Self.split(authority) else { return false }
        return (parts.port ?? 80) == port && (names.contains(parts.name) || Self.isLoopbackName(parts.name))
    }

    /// Whether a request came from one of this server's own pages, as far as a browser says: it does not say
    /// `Sec-Fetch-Site: cross-site`, and its `Origin`, when it has one, is the server's own (``isOwnOrigin(_:host:)``).
    /// A request with neither field (not from a browser) is.
    func isSameOrigin(_ headers: HTTPFields) -> Bool {
        if let site = headers["Sec-Fetch-Site"], ASCII.equalsIgnoringCase(site, "cross-site") { return false }
        guard let origin = headers["Origin"] else { return true }
        return isOwnOrigin(origin, host: headers["Host"])
    }

    /// The problem a request addressed to another name gets: `421`, `urn:parley:problem:misdirected-request`.
    func misdirected(_ host: String) -> ProblemDetails {
        ProblemDetails(
            .misdirectedRequest,
            detail: "This server listens on \(address), on this machine only, and answers requests addressed to it as "
                + "localhost, 127.0.0.1 or [::1] (with any port), not to \(String(host.prefix(256)).debugDescription). "
                + "Open it as http://\(address)/. (A page under another name that reaches this server is how DNS "
                + "rebinding attacks work.) To serve other names, listen on another address with a token "
                + "(parley serve --host ADDRESS --token TOKEN).",
            title: "Misdirected request", type: "urn:parley:problem:misdirected-request")
    }
}

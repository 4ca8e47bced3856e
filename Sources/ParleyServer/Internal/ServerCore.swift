import Glibc
import Synchronization

/// What a running server shares with its tasks: the configuration, the router, the reactor, the listening
/// socket, and the counts of connections. The accept loop (``run()``) and each connection's task hold it, not
/// the public ``HTTPServer``, so the server's `deinit` can stop them.
final class ServerCore: Sendable {
    private struct State {
        var openConnections = 0
        var acceptedConnections = 0
        var refusingConnections = 0
        var nextRequestNumber: UInt64 = 1
        var nextConnection = 0
        /// The connections between requests (waiting for a request, or for the rest of its head), by number: when
        /// they began to wait, and their descriptor. The oldest is closed to admit a new connection at the limit.
        var idle: [Int: (since: ContinuousClock.Instant, descriptor: Int32)] = [:]
        /// Connections closed to admit another, whose slot that other took: their end does not free one.
        var evicted: Set<Int> = []
    }

    /// The most connections refused at once with a polite 503; beyond it a connection is just closed.
    static let maximumRefusing = 16

    let configuration: HTTPServer.Configuration
    let router: HTTPRouter
    let reactor: Reactor
    let listener: Int32
    let address: SocketAddress
    let token: BearerToken?
    /// The origins whose pages may call the server, and the header fields they get.
    let cors: CORSPolicy
    /// The names requests may be addressed to (`Host`), against DNS rebinding.
    let hosts: HostPolicy
    /// Set once the listening socket is closed: the port is free.
    let listenerClosed = OneShotEvent()
    /// Set once every connection's task has ended and the reactor was told to shut down.
    let finished = OneShotEvent()
    private let state = Mutex(State())

    init(
        configuration: HTTPServer.Configuration, router: HTTPRouter, reactor: Reactor, listener: ListeningSocket,
        token: BearerToken?, cors: CORSPolicy, isLoopback: Bool
    ) {
        self.configuration = configuration
        self.router = router
        self.reactor = reactor
        self.listener = listener.descriptor
        self.address = listener.address
        self.token = token
        self.cors = cors
        self.hosts = HostPolicy(
            configuredHost: configuration.host, isLoopback: isLoopback, port: listener.address.port,
            address: listener.address.description)
    }

    var limits: HTTPServer.Limits { configuration.limits }
    var timeouts: HTTPServer.Timeouts { configuration.timeouts }

    var openConnections: Int { state.withLock { $0.openConnections } }
    var acceptedConnections: Int { state.withLock { $0.acceptedConnections } }

    /// Sends an entry to the log sink, if there is one.
    func log(_ entry: @autoclosure () -> HTTPServerLogEntry) {
        guard let sink = configuration.log else { return }
        sink(entry())
    }

    /// The id of a request: the client's `X-Request-Id` when it is short and plain, otherwise the next number.
    func requestID(offered: String?) -> String {
        if let offered, (1...128).contains(offered.utf8.count),
            offered.utf8.allSatisfy({ byte in
                switch byte {
                case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."),
                    UInt8(ascii: ":"):
                    true
                default: false
                }
            })
        {
            return offered
        }
        let number = state.withLock { state in
            defer { state.nextRequestNumber += 1 }
            return state.nextRequestNumber
        }
        let hex = String(number, radix: 16)
        return String(repeating: "0", count: max(0, 8 - hex.count)) + hex
    }

    // MARK: - Accepting

    /// Accepts connections until the server begins to stop, serves each on a child task, and returns when the
    /// last one ended; then shuts the reactor down.
    func run() async {
        await withDiscardingTaskGroup { group in
            accepting: while true {
                let outcome = await reactor.wait(
                    for: listener, events: Int16(POLLIN), until: nil, wakesOnDrain: true)
                guard case .ready = outcome else { break }
                while let accepted = acceptOne() {
                    let (descriptor, peer) = accepted
                    if descriptor < 0 {
                        // Out of descriptors or memory: back off instead of spinning, keep serving once it passes.
                        guard await reactor.sleep(until: .now + .milliseconds(10), wakesOnDrain: true) else {
                            break accepting
                        }
                        break
                    }
                    admit(descriptor, peer: peer, into: &group)
                }
            }
            reactor.close(listener) { [listenerClosed] in listenerClosed.set() }
        }
        reactor.shutDown()
        log(HTTPServerLogEntry(level: .info, event: .stopped, message: "Stopped listening on \(address)."))
        finished.set()
    }

    /// Accepts one pending connection: `nil` when none is pending, a descriptor of -1 when accepting failed for
    /// lack of resources.
    private func acceptOne() -> (Int32, SocketAddress)? {
        while true {
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let descriptor = withUnsafeMutablePointer(to: &storage) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    accept(listener, $0, &length)
                }
            }
            if descriptor >= 0 {
                // Glibc's module has no accept4: set the flags right after. Child processes a handler may start
                // must not inherit the connection, and every connection's I/O goes through the reactor.
                _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
                _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
                return (descriptor, SocketAddress(storage: storage))
            }
            switch errno {
            case EINTR, ECONNABORTED, EPROTO: continue
            case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                log(
                    HTTPServerLogEntry(
                        level: .warning, event: .connectionRefused,
                        message: "Could not accept a connection: \(String(cString: strerror(errno))). "
                            + "Raise the limit of open files (ulimit -n) or lower limits.maximumConnections."))
                return (-1, SocketAddress(host: "?", port: 0))
            default:
                return nil
            }
        }
    }

    private func admit(_ descriptor: Int32, peer: SocketAddress, into group: inout DiscardingTaskGroup) {
        var on: Int32 = 1
        // Small pieces (server-sent events) go out at once instead of waiting for more to fill a segment.
        _ = setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        let socket = ConnectionSocket(descriptor: descriptor, reactor: reactor)
        enum Decision { case serve(Int), evict(Int), refuse, drop }
        let decision: Decision = state.withLock { state in
            defer { state.nextConnection += 1 }
            let number = state.nextConnection
            if state.openConnections < configuration.limits.maximumConnections {
                state.openConnections += 1
                state.acceptedConnections += 1
                return .serve(number)
            }
            // At the limit, the connection that has waited longest for a request makes room: idle sockets never
            // lock out a client with something to ask. It is shut down here, under the lock, so its task (which
            // leaves `idle` under the lock before it closes the descriptor) cannot have closed it yet.
            if let oldest = state.idle.min(by: { $0.value.since < $1.value.since }) {
                state.idle[oldest.key] = nil
                state.evicted.insert(oldest.key)
                _ = shutdown(oldest.value.descriptor, Int32(SHUT_RDWR))
                state.acceptedConnections += 1
                return .evict(number)
            }
            guard state.refusingConnections < Self.maximumRefusing else { return .drop }
            state.refusingConnections += 1
            return .refuse
        }
        switch decision {
        case .serve(let number), .evict(let number):
            if case .evict = decision {
                log(
                    HTTPServerLogEntry(
                        level: .info, event: .connectionCut,
                        message: "Closed the connection idle longest to admit a new one: \(limits.maximumConnections) "
                            + "connections are open, the limit (limits.maximumConnections).", peer: peer))
            }
            group.addTask { [self] in
                var connection = Connection(core: self, socket: socket, peer: peer, number: number)
                await connection.serve()
                state.withLock { state in
                    state.idle[number] = nil
                    // An evicted connection's slot went to the connection that evicted it.
                    if state.evicted.remove(number) == nil { state.openConnections -= 1 }
                }
                socket.close()
            }
        case .refuse:
            log(
                HTTPServerLogEntry(
                    level: .warning, event: .connectionRefused,
                    message: "Refused a connection with 503: \(limits.maximumConnections) connections are open, "
                        + "the limit (limits.maximumConnections).", peer: peer, status: .serviceUnavailable))
            group.addTask { [self] in
                await refuse(socket)
                socket.close()
                state.withLock { $0.refusingConnections -= 1 }
            }
        case .drop:
            socket.close()
        }
    }

    // MARK: - Idle connections

    /// Notes that a connection waits for a request (from now, unless it waited already): at the connection limit,
    /// the one that has waited longest is closed to admit a new one.
    func connectionWaits(_ number: Int, descriptor: Int32) {
        state.withLock { state in
            guard !state.evicted.contains(number), state.idle[number] == nil else { return }
            state.idle[number] = (.now, descriptor)
        }
    }

    /// Notes that a connection has a request to answer: it is no longer idle, and no new connection closes it.
    ///
    /// - Returns: `false` when it was closed to admit another meanwhile.
    @discardableResult
    func connectionWorks(_ number: Int) -> Bool {
        state.withLock { state in
            state.idle[number] = nil
            return !state.evicted.contains(number)
        }
    }

    /// Answers a connection beyond the limit with 503 and closes it.
    private func refuse(_ socket: ConnectionSocket) async {
        let problem = ProblemDetails(
            .serviceUnavailable,
            detail: "The server has \(limits.maximumConnections) connections open, its limit. Retry in a moment, "
                + "or close idle connections.")
        let head = ResponseHead(
            status: problem.status, headers: ["Content-Type": ProblemDetails.mediaType, "Retry-After": "1"],
            framing: .length(problem.jsonData.count), closesConnection: true, announcesKeepAlive: false,
            requestID: nil)
        do {
            try await socket.write(head.serialized() + problem.jsonData, stallTimeout: min(timeouts.write, .seconds(1)))
        } catch {
            return
        }
        await Connection.linger(socket, for: min(timeouts.linger, .seconds(1)))
    }
}

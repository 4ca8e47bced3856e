import Foundation

/// An HTTP/1.1 server over POSIX sockets: keep-alive, chunked bodies both ways, server-sent events, limits and
/// timeouts against slow or hostile clients, RFC 9457 problems, and an optional bearer token.
///
/// Creating a server binds its address and starts serving at once; ``stop()`` ends it:
///
/// ```swift
/// var router = HTTPRouter()
/// router.get("/v1/health") { _ in .json(#"{"status":"ok"}"#) }
/// router.get("/v1/events") { _ in
///     .eventStream { writer in
///         try await writer.send(ServerSentEvent(event: "hello", data: "{}"))
///     }
/// }
/// let server = try HTTPServer(configuration: .init(port: 8080), router: router)
/// print("Listening on \(server.baseURL)")
/// …
/// await server.stop()
/// ```
///
/// One thread waits for every socket (with `poll`); each connection is a task that parses its requests and
/// runs the handlers, so handlers are plain `async` functions and one slow client never holds up another. What
/// the server refuses, and with which status, is in ``Limits`` and ``Timeouts``; the module's guide
/// (docs/http-server.md) has the whole list. Linux only.
public final class HTTPServer: Sendable {
    /// The settings the server was started with.
    public let configuration: Configuration
    /// The address the server listens on, with the actual port when ``Configuration/port`` was 0.
    public let address: SocketAddress
    private let core: ServerCore
    private let task: Task<Void, Never>

    /// Binds the configured address and starts serving.
    ///
    /// - Parameters:
    ///   - configuration: Where to listen, the token, the limits and timeouts, the log sink.
    ///   - router: The routes.
    /// A server on a loopback address serves only requests addressed (`Host`) to a loopback name (`localhost`,
    /// `127.0.0.1`, `[::1]`, with any port) or to ``Configuration/host``; others get `421 Misdirected Request`
    /// (`urn:parley:problem:misdirected-request`), which keeps pages of other sites out by DNS rebinding.
    ///
    /// - Throws: ``HTTPServerError``: ``HTTPServerError/tokenRequired`` when the host is not a loopback address
    ///   and there is no token (checked before anything is bound), ``HTTPServerError/invalidToken``,
    ///   ``HTTPServerError/invalidConfiguration`` (a limit, a timeout, the port, an allowed origin),
    ///   ``HTTPServerError/cannotResolveHost``,
    ///   ``HTTPServerError/addressInUse``, ``HTTPServerError/addressNotAvailable``,
    ///   ``HTTPServerError/permissionDenied`` or ``HTTPServerError/systemCall``.
    public init(configuration: Configuration = Configuration(), router: HTTPRouter) throws(HTTPServerError) {
        if let invalid = configuration.limits.invalidSetting ?? configuration.timeouts.invalidSetting {
            throw HTTPServerError.invalidConfiguration.with(detail: invalid)
        }
        guard (0...65_535).contains(configuration.port) else {
            throw HTTPServerError.invalidConfiguration.with(
                detail: "the port is \(configuration.port); it must be 0 (any free port) to 65535")
        }
        let token = try configuration.bearerToken.map { token throws(HTTPServerError) in try BearerToken(token) }
        let cors = try CORSPolicy(origins: configuration.allowedOrigins)
        let resolved = try ListeningSocket.resolve(host: configuration.host, port: configuration.port)
        guard resolved.isLoopback || token != nil else {
            throw HTTPServerError.tokenRequired.with(address: resolved.socketAddress.description)
        }
        let reactor = try Reactor()
        let listener = try ListeningSocket(binding: resolved, host: configuration.host, port: configuration.port)
        let core = ServerCore(
            configuration: configuration, router: router, reactor: reactor, listener: listener, token: token,
            cors: cors, isLoopback: resolved.isLoopback)
        self.configuration = configuration
        self.address = listener.address
        self.core = core
        reactor.start()
        task = Task { await core.run() }
        core.log(
            HTTPServerLogEntry(
                level: .info, event: .started,
                message: "Listening on \(baseURL)\(token == nil ? "" : " (bearer token required)")."))
    }

    deinit {
        // Without `stop()`, connections are cut at once; the tasks and the thread end on their own.
        core.reactor.drain()
        task.cancel()
    }

    /// The port the server listens on.
    public var port: Int { address.port }

    /// `http://<address>:<port>`, for example `http://127.0.0.1:8080` or `http://[::1]:8080`.
    public var baseURL: String { "http://\(address)" }

    /// The absolute URL of a path on this server.
    ///
    /// - Parameter path: A path starting with `/`, with an optional query.
    /// - Returns: The URL.
    public func url(_ path: String) -> String { baseURL + path }

    /// The number of connections open now (not counting those being refused beyond the limit).
    public var openConnections: Int { core.openConnections }

    /// The number of connections accepted and served since the server started.
    public var acceptedConnections: Int { core.acceptedConnections }

    /// Whether ``stop()`` has begun (for the package's tests; a host knows when it called `stop()`).
    package var isStopping: Bool { core.reactor.isDraining }

    /// Stops the server and returns once it stopped.
    ///
    /// At once: the listening socket closes (the port is free when this returns), connections waiting between
    /// requests close, and requests in progress get `Connection: close` on their response. Requests still in
    /// progress after ``Timeouts/shutdownGrace`` are cut: their handlers' and streams' tasks are cancelled and their
    /// connections closed. Then the server's thread ends. Calling it again, or from several tasks, waits for the
    /// same stop.
    ///
    /// A handler that ignores cancellation can keep its task alive: after the grace period and one more, this
    /// returns anyway (the port is free, the connection is closed on the handler's return) and logs an error.
    public func stop() async {
        core.reactor.drain()
        await core.listenerClosed.wait()
        if await !core.finished.wait(timeout: configuration.timeouts.shutdownGrace) {
            task.cancel()
            guard await core.finished.wait(timeout: configuration.timeouts.shutdownGrace) else {
                core.log(
                    HTTPServerLogEntry(
                        level: .error, event: .stopped,
                        message: "A handler or stream ignored cancellation and still runs; stopped without it."))
                return
            }
        }
        await core.reactor.waitUntilExited()
    }

    /// Waits until the server has stopped (after ``stop()``, called from elsewhere: a signal handler, say).
    public func waitUntilStopped() async {
        await core.finished.wait()
        await core.reactor.waitUntilExited()
    }
}

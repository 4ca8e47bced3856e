import Foundation

/// A tiny HTTP/1.1 server on 127.0.0.1, for tests that need a real server with scripted behaviour and faults.
///
/// Binds a free port (``port``), accepts on its own thread and serves each connection on another, with
/// keep-alive. For every request it records the request (``requests``) and asks the handler what to do: answer,
/// stream chunks with pauses, hang, reset, cut the body, send garbage (see ``LoopbackResponse``). ``stop()``
/// (also run by `deinit`) closes everything and waits for the threads.
///
/// ```swift
/// let server = try LoopbackHTTPServer { request in
///     request.path == "/v1/models" ? .json(#"{"data":[]}"#) : .text("not found", status: 404)
/// }
/// defer { server.stop() }
/// let response = try await client.execute(.get(server.url("/v1/models")))
/// ```
///
/// Request bodies may be sent with `Content-Length` or chunked; `Expect: 100-continue` is honoured. Linux only.
public final class LoopbackHTTPServer: Sendable {
    /// Decides what to do with a request; called on a connection thread, possibly concurrently.
    public typealias Handler = @Sendable (LoopbackRequest) -> LoopbackResponse

    /// The port the server listens on, on 127.0.0.1.
    public let port: Int
    private let core: LoopbackServerCore

    /// Starts a server whose behaviour per request comes from `handler`.
    ///
    /// - Parameter handler: Decides the response to each request.
    /// - Throws: ``SocketError`` when the socket cannot be set up.
    public init(handler: @escaping Handler) throws {
        let stop = try PipeEvent()
        let listener: (descriptor: Int32, port: Int)
        do {
            listener = try SocketIO.listenOnLoopback(backlog: 128)
        } catch {
            stop.close()
            throw error
        }
        port = listener.port
        core = LoopbackServerCore(listener: listener.descriptor, stop: stop, handler: handler)
        core.spawn("LoopbackHTTPServer.accept") { [core] in core.acceptLoop() }
    }

    /// Starts a server that gives every request the same response.
    ///
    /// - Parameter response: The response to every request.
    /// - Throws: ``SocketError`` when the socket cannot be set up.
    public convenience init(_ response: LoopbackResponse) throws {
        try self.init { _ in response }
    }

    deinit {
        stop()
    }

    /// `http://127.0.0.1:<port>`.
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// The absolute URL of a path on this server.
    ///
    /// - Parameter path: A path starting with `/`, with an optional query.
    /// - Returns: The URL.
    public func url(_ path: String) -> String { baseURL + path }

    /// The requests received so far, in order of arrival.
    public var requests: [LoopbackRequest] { core.state.withLock { $0.requests } }

    /// How many connections were accepted so far.
    public var connectionsAccepted: Int { core.state.withLock { $0.connectionsAccepted } }

    /// How many connections are open now; drops when a client closes its connection.
    public var connectionsOpen: Int { core.state.withLock { $0.connectionsOpen } }

    /// Waits until `condition` holds, checking every few milliseconds. The default limit is generous: only a test that
    /// fails waits that long, and a loaded machine can delay what a quiet one does at once by tens of seconds.
    ///
    /// - Parameters:
    ///   - timeout: How long to wait at most.
    ///   - condition: The condition, given this server.
    /// - Returns: `true` when the condition held in time.
    public func wait(
        timeout: Duration = .seconds(120), until condition: @Sendable (LoopbackHTTPServer) -> Bool
    ) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !condition(self) {
            guard ContinuousClock.now < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(2))
        }
        return true
    }

    /// Stops the server: closes the listening socket and every connection, and waits up to 5 seconds for the
    /// threads to end. Safe to call more than once.
    public func stop() {
        _ = core.stopAndWait(timeout: .seconds(5))
    }
}
